"""Portable kernels against array expressions: ``exp(-a*x) * sin(b*x) + c*y`` fused in one kernel.

CPU, over 10^7 ``float64``: the portable kernel on Numba's ``parallel`` target against the
same NumPy expression (bound: at least 2x faster), and, for information, the ``cpu``
target. The detail gives the kernel's memory traffic (two arrays read, one written)
against the copy bandwidth measured here (``numpy.copyto``), the threads and the load of
the machine: the figure needs idle cores, and a busy shared machine shows it in the spread.

GPU, when CuPy is usable, same size: the portable kernel on CuPy arrays against a CuPy
``ElementwiseKernel`` with the same body in CUDA C (bound: at least 0.9x its speed) and
against the CuPy expression (bound: at least 1.5x faster). The bounds apply to
*pipelined* times (20 calls back to back between two synchronizations: the steady state
of a program that queues work ahead of the GPU); the *per-call* ratio (each call
synchronized alone, so host launch costs count) is given for information, and so is the
host's time to queue a portable kernel against its pipelined time (near 1: the launch
path, not the GPU, sets the pace; the first GPU run, an H200, measured the portable
kernel at 0.228 of the ElementwiseKernel's speed, pipelined). Without a GPU
the GPU figures are skipped with CuPy's reason.

Run: ``python benchmarks/bench_kernels.py [--quick | --full]`` (or ``python -m benchmarks``).
"""

from __future__ import annotations

import functools
import math
import os
import statistics
import sys
import time
from typing import Any

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
import cunumpy
from benchmarks._harness import (
    Check,
    Mode,
    Progress,
    Result,
    Skipped,
    interleaved_times,
    main,
)
from cunumpy import kernels, profiling

TITLE = "Fused portable kernel against NumPy, CuPy ElementwiseKernel and CuPy expressions"
NEEDS: tuple[str, ...] = ("numba",)

A, B, C = 0.5, 3.0, 0.25
SIZE = 10**7
CPU_BOUND = 2.0
GPU_BOUND_VS_ELEMENTWISE = 0.9
GPU_BOUND_VS_EXPRESSION = 1.5
SIGNATURE = "float64(float64, float64, float64, float64, float64)"
WAVE_CUDA_C = "z = exp(-a * x) * sin(b * x) + c * y"


def _wave(x, y, a, b, c):  # type: ignore[no-untyped-def]
    return math.exp(-a * x) * math.sin(b * x) + c * y


@functools.cache
def wave_kernels() -> tuple[Any, Any]:
    """The fused kernel on the ``parallel`` and ``cpu`` targets, made on first use, so
    that importing this module (to read ``TITLE``) needs no Numba."""
    return (
        kernels.elementwise([SIGNATURE], cpu_target="parallel")(_wave),
        kernels.elementwise([SIGNATURE], cpu_target="cpu")(_wave),
    )


def expression(x: Any, y: Any, a: float, b: float, c: float) -> Any:
    """The same computation as array expressions, in the namespace of the arrays."""
    xp = cunumpy.array_namespace(x, y)
    return xp.exp(-a * x) * xp.sin(b * x) + c * y


def _ratios(times: dict[str, list[float]], numerator: str, denominator: str) -> tuple[float, ...]:
    return tuple(n / d for n, d in zip(times[numerator], times[denominator]))


def measure_cpu(size: int, repeat: int, progress: Progress) -> list[Result]:
    import numba

    progress.step(f"CPU: compiling the kernels, then {repeat} interleaved rounds over {size}")
    wave_parallel, wave_serial = wave_kernels()
    rng = np.random.default_rng(0)
    x, y = rng.random(size), rng.random(size)
    start = time.perf_counter()
    result = wave_parallel(x, y, A, B, C)
    compile_s = time.perf_counter() - start
    np.testing.assert_allclose(result, expression(x, y, A, B, C), rtol=1e-12)
    copy_out = np.empty_like(x)
    times = interleaved_times(
        {
            "numpy": lambda: expression(x, y, A, B, C),
            "parallel": lambda: wave_parallel(x, y, A, B, C),
            "cpu": lambda: wave_serial(x, y, A, B, C),
            "copy": lambda: np.copyto(copy_out, x),
        },
        number=1,
        repeat=repeat,
    )
    med = {label: statistics.median(t) for label, t in times.items()}
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    copy_bw = 2 * 8 * size / med["copy"]
    kernel_bw = 3 * 8 * size / med["parallel"]
    progress.detail(
        f"CPU: {size} float64; Numba {numba.__version__}, {numba.get_num_threads()} threads "
        f"({numba.threading_layer()}), {os.cpu_count()} CPUs, load average {load:.2f}\n"
        f"  first call of the parallel kernel (compiles): {compile_s * 1e3:.0f} ms\n"
        f"  median: NumPy expression {med['numpy'] * 1e3:.1f} ms, parallel kernel "
        f"{med['parallel'] * 1e3:.1f} ms, cpu kernel {med['cpu'] * 1e3:.1f} ms\n"
        f"  memory traffic: kernel {3 * 8 * size / 1e9:.2f} GB at {kernel_bw / 1e9:.1f} GB/s = "
        f"{100 * kernel_bw / copy_bw:.0f}% of the copy bandwidth ({copy_bw / 1e9:.1f} GB/s); "
        f"the NumPy expression moves {16 * 8 * size / 1e9:.2f} GB (7 passes)"
    )
    return [
        Check(
            f"NumPy / parallel kernel time, {size:.0e} float64",
            _ratios(times, "numpy", "parallel"),
            bound=CPU_BOUND,
            higher_is_better=True,
        ),
        Check(f"NumPy / cpu-target kernel time, {size:.0e}", _ratios(times, "numpy", "cpu")),
        Check(
            "parallel kernel bandwidth / copy bandwidth",
            tuple((3 * c) / (2 * p) for c, p in zip(times["copy"], times["parallel"])),
        ),
    ]


def measure_gpu(size: int, repeat: int, progress: Progress) -> list[Result]:
    reason = kernels.gpu_unavailable_reason()
    if reason is not None:
        return [Skipped("GPU figures", reason)]
    import cupy

    progress.step(f"GPU: compiling, then {repeat} rounds, per call and pipelined, over {size}")
    wave_parallel, _ = wave_kernels()
    with cunumpy.use_backend("cupy"):
        x = cupy.random.default_rng(0).random(size)
        y = cupy.random.default_rng(1).random(size)
        elementwise = cupy.ElementwiseKernel(
            "float64 x, float64 y, float64 a, float64 b, float64 c", "float64 z", WAVE_CUDA_C,
            "cunumpy_bench_wave",
        )  # fmt: skip
        stream = cupy.cuda.get_current_stream()
        start = time.perf_counter()
        result = wave_parallel(x, y, A, B, C)
        stream.synchronize()
        compile_s = time.perf_counter() - start
        assert float(cupy.abs(result - elementwise(x, y, A, B, C)).max()) < 1e-12
        runs = {
            "expression": lambda: expression(x, y, A, B, C),
            "elementwise": lambda: elementwise(x, y, A, B, C),
            "portable": lambda: wave_parallel(x, y, A, B, C),
        }
        piped = interleaved_times(runs, number=20, repeat=repeat, sync=stream.synchronize)
        single = interleaved_times(runs, number=1, repeat=repeat * 5, sync=stream.synchronize)
        # The host's time to queue a call (no synchronization): near the pipelined time, the
        # launch path bounds the kernel, not the GPU (the first GPU run's open question).
        queued = interleaved_times(
            {key: runs[key] for key in ("elementwise", "portable")}, number=20, repeat=repeat
        )
        stream.synchronize()
    name = cupy.cuda.runtime.getDeviceProperties(cupy.cuda.Device().id)["name"].decode()
    med = {label: statistics.median(t) for label, t in piped.items()}
    progress.detail(
        f"GPU: {size} float64 on {name}, CuPy {cupy.__version__}\n"
        f"  first call of the portable kernel (compiles): {compile_s * 1e3:.0f} ms\n"
        f"  pipelined, per call: CuPy expression {med['expression'] * 1e6:.1f} us, "
        f"ElementwiseKernel {med['elementwise'] * 1e6:.1f} us, portable kernel "
        f"{med['portable'] * 1e6:.1f} us ({3 * 8 * size / med['portable'] / 1e9:.0f} GB/s)\n"
        f"  host time to queue a call: ElementwiseKernel "
        f"{statistics.median(queued['elementwise']) * 1e6:.1f} us, portable kernel "
        f"{statistics.median(queued['portable']) * 1e6:.1f} us"
    )
    return [
        Check(
            "ElementwiseKernel / portable kernel time, pipelined",
            _ratios(piped, "elementwise", "portable"),
            bound=GPU_BOUND_VS_ELEMENTWISE,
            higher_is_better=True,
        ),
        Check(
            "CuPy expression / portable kernel time, pipelined",
            _ratios(piped, "expression", "portable"),
            bound=GPU_BOUND_VS_EXPRESSION,
            higher_is_better=True,
        ),
        Check(
            "ElementwiseKernel / portable kernel time, per call",
            _ratios(single, "elementwise", "portable"),
        ),
        Check(
            "portable kernel: host time to queue / pipelined time",
            tuple(q / p for q, p in zip(queued["portable"], piped["portable"])),
        ),
    ]


def measure(size: int, repeat: int, progress: Progress) -> list[Result]:
    """Every figure, for arrays of ``size`` elements and ``repeat`` rounds."""
    results = measure_cpu(size, repeat, progress) + measure_gpu(size, repeat, progress)
    profiling.reset()  # the kernels' compile times
    return results


def run(mode: Mode, progress: Progress) -> list[Result]:
    return measure(SIZE, 5 if mode == "quick" else 15, progress)


if __name__ == "__main__":
    sys.exit(main(run, TITLE, NEEDS))
