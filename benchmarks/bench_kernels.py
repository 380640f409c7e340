"""Portable kernels against array expressions, measured in one run: ``exp(-a*x)*sin(b*x)+c*y``.

Run as ``python benchmarks/bench_kernels.py`` (``--size``, ``--repeat``; ``--quick`` for a
short check). It prints medians over interleaved repeats, their ratios and the spread of
the per-round ratios:

- CPU, ``float64`` arrays of ``--size`` elements (10^7 by default): the portable kernel on
  Numba's ``parallel`` target (and, for reference, the ``cpu`` target) against the same
  NumPy expression. Target: the parallel kernel at least 2x faster. It also prints the
  kernel's memory traffic (two arrays read, one written) against the copy bandwidth
  measured here (``numpy.copyto``), and the threads and load of the machine.
- GPU, when CuPy is usable: the same portable kernel on CuPy arrays against a CuPy
  ``ElementwiseKernel`` with the same body in CUDA C (target: at least 0.9x its speed)
  and against the CuPy expression (target: at least 1.5x faster). Times are CUDA event
  times: *per call* (each call timed alone, so host launch costs count when the GPU
  waits for them) and *pipelined* (20 calls back to back, the steady state of a program
  that queues work ahead of the GPU). The targets are judged on the pipelined times.

Without a usable GPU, the GPU part prints the reason and is skipped (exit status 0).
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import cunumpy
from cunumpy import kernels, profiling

A, B, C = 0.5, 3.0, 0.25
CPU_TARGET = 2.0
GPU_TARGET_VS_ELEMENTWISE = 0.9
GPU_TARGET_VS_EXPRESSION = 1.5
SIGNATURE = "float64(float64, float64, float64, float64, float64)"


def _wave(x, y, a, b, c):  # type: ignore[no-untyped-def]
    return math.exp(-a * x) * math.sin(b * x) + c * y


wave_parallel = kernels.elementwise([SIGNATURE], cpu_target="parallel")(_wave)
wave_serial = kernels.elementwise([SIGNATURE], cpu_target="cpu")(_wave)

WAVE_CUDA_C = "z = exp(-a * x) * sin(b * x) + c * y"


def expression(x: Any, y: Any, a: float, b: float, c: float) -> Any:
    xp = cunumpy.array_namespace(x, y)
    return xp.exp(-a * x) * xp.sin(b * x) + c * y


def interleaved(fns: dict[str, Callable[[], object]], repeat: int) -> dict[str, list[float]]:
    """Host seconds of each function in ``repeat`` rounds, the functions taking turns."""
    times: dict[str, list[float]] = {name: [] for name in fns}
    for _ in range(repeat):
        for name, fn in fns.items():
            t0 = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - t0)
    return times


def spread(numerator: list[float], denominator: list[float]) -> str:
    ratios = [n / d for n, d in zip(numerator, denominator)]
    return f"per-round ratio {min(ratios):.2f} to {max(ratios):.2f}"


def verdict(ratio: float, target: float) -> str:
    return f"target >= {target:g}x: {'met' if ratio >= target else 'MISSED'}"


def bench_cpu(n: int, repeat: int) -> None:
    import numba

    rng = np.random.default_rng(0)
    x, y = rng.random(n), rng.random(n)
    start = time.perf_counter()
    reference = wave_parallel(x, y, A, B, C)  # compiles
    compile_s = time.perf_counter() - start
    np.testing.assert_allclose(reference, expression(x, y, A, B, C), rtol=1e-12)
    wave_serial(x[:10], y[:10], A, B, C)
    copy_out = np.empty_like(x)
    times = interleaved(
        {
            "numpy expression": lambda: expression(x, y, A, B, C),
            "kernel, parallel target": lambda: wave_parallel(x, y, A, B, C),
            "kernel, cpu target": lambda: wave_serial(x, y, A, B, C),
            "copy (numpy.copyto)": lambda: np.copyto(copy_out, x),
        },
        repeat,
    )
    med = {name: statistics.median(t) for name, t in times.items()}
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"CPU: {n} float64, median of {repeat} interleaved rounds; Numba {numba.__version__}, "
        f"{numba.get_num_threads()} threads ({numba.threading_layer()}), "
        f"{os.cpu_count()} CPUs, load average {load:.2f}"
    )
    print(f"  first call of the parallel kernel (compiles): {compile_s * 1e3:.0f} ms")
    numpy_s = med["numpy expression"]
    for name in ("numpy expression", "kernel, parallel target", "kernel, cpu target"):
        ratio = numpy_s / med[name]
        print(f"  {name:<26s} {med[name] * 1e3:9.2f} ms   {ratio:5.2f}x numpy   "
              f"{spread(times['numpy expression'], times[name])}")  # fmt: skip
    ratio = numpy_s / med["kernel, parallel target"]
    print(f"  parallel kernel vs numpy: {ratio:.2f}x, {verdict(ratio, CPU_TARGET)}")
    copy_bw = 2 * 8 * n / med["copy (numpy.copyto)"]
    kernel_bw = 3 * 8 * n / med["kernel, parallel target"]
    numpy_bw = 16 * 8 * n / numpy_s  # seven passes: nine arrays read, seven written
    print(
        f"  memory traffic: kernel {3 * 8 * n / 1e9:.2f} GB ({kernel_bw / 1e9:.1f} GB/s, "
        f"{100 * kernel_bw / copy_bw:.0f}% of copy bandwidth {copy_bw / 1e9:.1f} GB/s); "
        f"numpy expression {16 * 8 * n / 1e9:.2f} GB ({numpy_bw / 1e9:.1f} GB/s)"
    )


def _pipelined(cupy: Any, fn: Callable[[], object], calls: int, repeat: int) -> float:
    """Median GPU seconds per call over ``repeat`` batches of ``calls`` back-to-back calls."""
    stream = cupy.cuda.get_current_stream()
    start, end = cupy.cuda.Event(), cupy.cuda.Event()
    per_call = []
    for _ in range(repeat):
        stream.synchronize()
        start.record(stream)
        for _ in range(calls):
            fn()
        end.record(stream)
        end.synchronize()
        per_call.append(cupy.cuda.get_elapsed_time(start, end) * 1e-3 / calls)
    return statistics.median(per_call)


def bench_gpu(n: int, repeat: int) -> None:
    if not cunumpy.cupy_available():
        print(f"GPU: skipped, no usable GPU: {cunumpy.cupy_unavailable_reason()}")
        return
    import cupy

    with cunumpy.use_backend("cupy"):
        x = cupy.random.default_rng(0).random(n)
        y = cupy.random.default_rng(1).random(n)
        elementwise = cupy.ElementwiseKernel(
            "float64 x, float64 y, float64 a, float64 b, float64 c", "float64 z", WAVE_CUDA_C,
            "cunumpy_bench_wave",
        )  # fmt: skip
        start = time.perf_counter()
        result = wave_parallel(x, y, A, B, C)  # compiles for this GPU
        cupy.cuda.get_current_stream().synchronize()
        compile_s = time.perf_counter() - start
        expected = elementwise(x, y, A, B, C)
        assert float(cupy.abs(result - expected).max()) < 1e-12
        fns = {
            "cupy expression": lambda: expression(x, y, A, B, C),
            "cupy ElementwiseKernel": lambda: elementwise(x, y, A, B, C),
            "portable kernel": lambda: wave_parallel(x, y, A, B, C),
        }
        per_call = {
            name: profiling.benchmark(fn, n_repeat=repeat * 5, n_warmup=3).median
            for name, fn in fns.items()
        }
        piped = {name: _pipelined(cupy, fn, 20, repeat) for name, fn in fns.items()}
    name = cupy.cuda.runtime.getDeviceProperties(cupy.cuda.Device().id)["name"].decode()
    print(f"GPU: {n} float64 on {name}, CuPy {cupy.__version__}; CUDA event times")
    print(f"  first call of the portable kernel (compiles): {compile_s * 1e3:.0f} ms")
    for label in fns:
        print(f"  {label:<24s} per call {per_call[label] * 1e6:9.1f} us   "
              f"pipelined {piped[label] * 1e6:9.1f} us/call")  # fmt: skip
    vs_ek = piped["cupy ElementwiseKernel"] / piped["portable kernel"]
    vs_expr = piped["cupy expression"] / piped["portable kernel"]
    latency = per_call["cupy ElementwiseKernel"] / per_call["portable kernel"]
    print(f"  portable kernel vs ElementwiseKernel: {vs_ek:.2f}x pipelined "
          f"({latency:.2f}x per call), {verdict(vs_ek, GPU_TARGET_VS_ELEMENTWISE)}")  # fmt: skip
    print(f"  portable kernel vs CuPy expression: {vs_expr:.2f}x pipelined, "
          f"{verdict(vs_expr, GPU_TARGET_VS_EXPRESSION)}")  # fmt: skip
    bandwidth = 3 * 8 * n / piped["portable kernel"]
    print(f"  portable kernel memory traffic: {bandwidth / 1e9:.0f} GB/s")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=10**7, help="elements (default 10^7)")
    parser.add_argument("--repeat", type=int, default=11, help="rounds (default 11)")
    parser.add_argument("--quick", action="store_true", help="10^6 elements, 3 rounds")
    args = parser.parse_args(argv)
    size, repeat = (10**6, 3) if args.quick else (args.size, args.repeat)
    bench_cpu(size, repeat)
    bench_gpu(size, repeat)
    profiling.reset()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
