"""The kernels example and benchmark run: examples/black_scholes.py, benchmarks/bench_kernels.py.

The example's prices are checked against the closed form computed here with ``math.erf``
(and put-call parity); its output has one line per backend.
"""

from __future__ import annotations

import io
import math
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from cunumpy import kernels

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "black_scholes.py"
BENCHMARK = ROOT / "benchmarks" / "bench_kernels.py"

pytest.importorskip(
    "numba",
    reason="portable kernels need Numba (pip install numba; from a source checkout: pip install '.[kernels]')",
)


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, cwd=ROOT, timeout=300, check=False
    )


def _closed_form(s: float, k: float, t: float, r: float, sigma: float) -> tuple[float, float]:
    d1 = (math.log(s / k) + (r + sigma * sigma / 2) * t) / (sigma * math.sqrt(t))
    d2 = d1 - sigma * math.sqrt(t)
    cdf = lambda v: 0.5 * math.erfc(-v / math.sqrt(2))  # noqa: E731
    call = s * cdf(d1) - k * math.exp(-r * t) * cdf(d2)
    return call, call - s + k * math.exp(-r * t)  # put by put-call parity


def test_black_scholes_prices_match_the_closed_form() -> None:
    sys.path.insert(0, str(EXAMPLE.parent))
    try:
        import black_scholes as example
    finally:
        sys.path.pop(0)
    s, k, t = example.market(50, seed=3)
    call, put = example.black_scholes(s, k, t, 0.02, 0.3)
    expected = np.array([_closed_form(*row, 0.02, 0.3) for row in zip(s, k, t)])
    np.testing.assert_allclose(call, expected[:, 0], rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(put, expected[:, 1], rtol=1e-10, atol=1e-9)
    arrays_call, arrays_put = example.black_scholes_arrays(s, k, t, 0.02, 0.3)
    np.testing.assert_allclose(arrays_call, expected[:, 0], atol=1e-4)  # a 7.5e-8 approximation
    np.testing.assert_allclose(arrays_put, expected[:, 1], atol=1e-4)
    call32, _ = example.black_scholes(*(a.astype(np.float32) for a in (s, k, t)), 0.02, 0.3)
    assert call32.dtype == np.float32


def test_black_scholes_example_prints_a_line_per_backend() -> None:
    done = _run(str(EXAMPLE), "--options", "2000")
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "Black-Scholes, 2000 options (call and put), one fused kernel"
    numpy_line = next(line for line in lines if line.strip().startswith("numpy"))
    assert re.search(r"first call +[\d.]+ ms \(compiles\) +kernel +[\d.]+ ms", numpy_line)
    difference = float(numpy_line.rsplit("max |difference| ", 1)[1])
    assert difference < 1e-4
    # The comparison is a speedup or a slowdown, never "0.59x faster".
    factor = re.search(r"kernel +(\d+\.\d+)x (faster|slower)", numpy_line)
    assert factor is not None and float(factor.group(1)) >= 1.0, numpy_line
    cupy_line = next(line for line in lines if line.strip().startswith("cupy"))
    if not kernels.gpu_available():
        assert f"not run: {kernels.gpu_unavailable_reason()}" in cupy_line
    assert lines[-1] == "OK"


def test_black_scholes_says_faster_or_slower_with_a_factor_of_at_least_one() -> None:
    sys.path.insert(0, str(EXAMPLE.parent))
    try:
        import black_scholes as example
    finally:
        sys.path.pop(0)
    assert example.compared(0.2, 0.5) == "kernel 2.50x faster"
    assert example.compared(0.5, 0.295) == "kernel 1.69x slower"  # once "0.59x faster"
    assert example.compared(1.0, 1.0) == "kernel 1.00x faster"


@pytest.mark.gpu
def test_black_scholes_example_on_the_gpu() -> None:
    if not kernels.gpu_available():
        pytest.skip(str(kernels.gpu_unavailable_reason()))
    done = _run(str(EXAMPLE), "--options", "100000", "--backend", "cupy")
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r"^\s+cupy\s+first call", done.stdout, re.MULTILINE), done.stdout


def test_kernel_benchmark_measures_every_figure() -> None:
    from benchmarks._harness import Check, Progress, Skipped
    from benchmarks.bench_kernels import measure

    shown = io.StringIO()
    results = measure(20_000, 2, Progress(shown))
    checks = {r.name: r for r in results if isinstance(r, Check)}
    parallel = checks["NumPy / parallel kernel time, 2e+04 float64"]
    assert parallel.bound == 2.0 and parallel.higher_is_better and len(parallel.samples) == 2
    assert all(s > 0 for c in checks.values() for s in c.samples)
    assert "copy bandwidth" in shown.getvalue()
    if kernels.gpu_available():
        assert "ElementwiseKernel / portable kernel time, pipelined" in checks
    else:
        (skipped,) = [r for r in results if isinstance(r, Skipped)]
        assert skipped.reason == kernels.gpu_unavailable_reason()


def test_kernel_benchmark_is_found_by_the_runner() -> None:
    from benchmarks.__main__ import discover

    (bench,) = [b for b in discover() if b.name == "kernels"]
    assert bench.needs == ("numba",)  # skipped, with the reason, where Numba is missing
    assert "sys.exit(main(run, TITLE, NEEDS))" in BENCHMARK.read_text()
