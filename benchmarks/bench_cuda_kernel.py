"""CudaKernel's Python overhead: the argument checks on the CPU, and a launch against cupy.RawKernel.

CPU: ``CudaKernel.prepare_args`` (flattening, the count, each array's type, dtype and
layout, each scalar's cast and range) for 0.7.1's README ``axpy`` (a double, two
``double*``, an int), against building the same launch tuple by hand
(``(np.float64(a), x, y, np.int32(n))``, what a bare ``cupy.RawKernel`` call needs); and the
packing of an ``Array2D<double>`` view against the same baseline. Without a usable GPU the
arrays are a minimal stand-in for CuPy arrays (fake CuPy: the checks read only their
attributes), so the figure is the checks' own cost either way. Bound: 8x the hand-built
tuple (about 5x measured on a busy 2-core machine: a few microseconds per call).

GPU (skipped without one): a whole ``CudaKernel`` launch (checks, placement, stream,
launch) against a bare ``cupy.RawKernel`` launch of the same compiled function, 1000
launches each, timed without synchronizing per launch (Python overhead), then one
synchronization. Bound: at most 1.1x the bare launch.

Run: ``python benchmarks/bench_cuda_kernel.py [--quick | --full]`` (or ``python -m benchmarks``).
"""

from __future__ import annotations

import os
import statistics
import sys
import types
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
import numpy as np

import cunumpy
from benchmarks._harness import Check, Mode, Progress, Result, Skipped, main, paired_ratios
from cunumpy import kernels

TITLE = "CudaKernel: argument checks vs a hand-built launch tuple; a launch vs cupy.RawKernel"
NEEDS: tuple[str, ...] = ()

AXPY = r"""
extern "C" __global__
void axpy(double a, const double* x, double* y, int n) {
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i < n) y[i] += a * x[i];
}
"""
VIEW = 'extern "C" __global__ void rows(Array2D<double> a, double s) {}'
CHECK_BOUND = 8.0
LAUNCH_BOUND = 1.1


class _StandInArray:
    """What the checks read of a CuPy array (fake CuPy), over a NumPy array."""

    def __init__(self, host: np.ndarray) -> None:
        self.dtype, self.shape, self.ndim = host.dtype, host.shape, host.ndim
        self.strides, self.flags = host.strides, host.flags
        self.data = types.SimpleNamespace(ptr=host.ctypes.data)
        self.device = types.SimpleNamespace(id=0)


def _arrays(n: int) -> tuple[Any, Any, Any, str]:
    if cunumpy.cupy_available():
        import cupy

        return cupy.zeros(n), cupy.zeros(n), cupy.zeros((64, 64))[:, ::2], "CuPy arrays"
    fake = types.ModuleType("cupy")
    fake.ndarray = _StandInArray  # type: ignore[attr-defined]
    sys.modules["cupy"] = fake  # this process only: the benchmark runs on its own
    host = np.zeros((64, 64))
    return (_StandInArray(np.zeros(n)), _StandInArray(np.zeros(n)),
            _StandInArray(host[:, ::2]), "fake CuPy arrays")  # fmt: skip


def bench_checks(mode: Mode, progress: Progress) -> list[Result]:
    progress.step("CPU: CudaKernel.prepare_args against a hand-built launch tuple")
    axpy = kernels.CudaKernel(AXPY, "axpy")
    rows = kernels.CudaKernel(VIEW, "rows")
    x, y, view, kind = _arrays(1000)
    runs = {
        "by hand": lambda: (np.float64(2.0), x, y, np.int32(1000)),
        "axpy": lambda: axpy.prepare_args(2.0, x, y, 1000),
        "view": lambda: rows.prepare_args(view, 0.5),
    }
    quick = mode == "quick"
    ratios = paired_ratios(
        runs, "by hand", number=2000 if quick else 20000, repeat=5 if quick else 15
    )
    progress.detail(
        f"prepare_args / hand-built tuple ({kind}): axpy {statistics.median(ratios['axpy']):.2f}x, "
        f"Array2D view {statistics.median(ratios['view']):.2f}x"
    )
    return [
        Check(
            f"CudaKernel checks / hand-built tuple, axpy ({kind})",
            tuple(ratios["axpy"]),
            CHECK_BOUND,
        ),
        Check(f"CudaKernel view packing / hand-built tuple ({kind})", tuple(ratios["view"])),
    ]


def bench_launch(mode: Mode, progress: Progress) -> list[Result]:
    if not cunumpy.cupy_available():
        return [
            Skipped("CudaKernel launch / cupy.RawKernel launch", cunumpy.cupy_unavailable_reason())
        ]
    import cupy

    progress.step("GPU: CudaKernel launch against a bare cupy.RawKernel launch")
    axpy = kernels.CudaKernel(AXPY, "axpy")
    raw = axpy.compile()
    n = 1024
    x, y = cupy.zeros(n), cupy.zeros(n)
    grid, block = axpy.launch_shape(n)
    args = (np.float64(1.0), x, y, np.int32(n))
    runs = {
        "RawKernel": lambda: raw(grid, block, args),
        "CudaKernel": lambda: axpy(1.0, x, y, n),
    }
    sync = cupy.cuda.get_current_stream().synchronize
    quick = mode == "quick"
    ratios = paired_ratios(runs, "RawKernel", number=1000, repeat=5 if quick else 15, sync=sync)
    progress.detail(
        f"CudaKernel / RawKernel launch: {statistics.median(ratios['CudaKernel']):.2f}x"
    )
    return [
        Check(
            "CudaKernel launch / cupy.RawKernel launch, axpy",
            tuple(ratios["CudaKernel"]),
            LAUNCH_BOUND,
        )
    ]


def run(mode: Mode, progress: Progress) -> list[Result]:
    """The CPU figures, then the GPU figure (skipped without a GPU)."""
    return [*bench_launch(mode, progress), *bench_checks(mode, progress)]


if __name__ == "__main__":
    sys.exit(main(run, TITLE, NEEDS))
