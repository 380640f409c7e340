"""Host kernels on NumPy data: a ``PyccelKernel`` and a ``Kernel`` pair against the bare call.

A host kernel on NumPy data must be a direct call: the wrapper only looks for CuPy arrays
among the arguments. Measured on ``out[:] = a * x``: the time per call of the wrapped
kernel against the function called directly, once per repeat, the runs interleaved. Bounds
on a kernel of 10^5 ``float64`` (tens of microseconds, a small real kernel): a
``PyccelKernel`` call at most 1.15x the bare call, a ``Kernel`` pair (which also decides
between host and CUDA kernel) at most 1.25x. For information the same on 1000 ``float64``
(about a microsecond, where the fixed overhead of a few microseconds dominates); the detail
gives the absolute overhead.

Run: ``python benchmarks/bench_host_kernels.py [--quick | --full]`` (or ``python -m benchmarks``).
"""

from __future__ import annotations

import os
import statistics
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
from benchmarks._harness import Check, Mode, Progress, Result, interleaved_times, main
from cunumpy import kernels

TITLE = "Host kernels on NumPy data: PyccelKernel and Kernel calls against the bare function"
NEEDS: tuple[str, ...] = ()

PYCCEL_BOUND = 1.15
PAIR_BOUND = 1.25


def scale(a, x, out):  # type: ignore[no-untyped-def]
    out[:] = a * x


def _ratios(
    size: int, number: int, repeat: int, progress: Progress
) -> dict[str, tuple[float, ...]]:
    x, out = np.arange(float(size)), np.empty(size)
    wrapped = kernels.PyccelKernel(scale, outputs=(2,))
    pair = kernels.Kernel(scale, lambda *args, **launch: None, host_options={"outputs": (2,)})
    progress.step(f"{size} float64, {number} calls x {repeat} repeats: bare, PyccelKernel, Kernel")
    times = interleaved_times(
        {
            "bare": lambda: scale(2.0, x, out),
            "PyccelKernel": lambda: wrapped(2.0, x, out),
            "Kernel": lambda: pair(2.0, x, out),
        },
        number=number,
        repeat=repeat,
    )
    base = times["bare"]
    lines = [f"median per call ({size} float64)"]
    for label, seconds in times.items():
        extra = statistics.median(seconds) - statistics.median(base)
        lines.append(
            f"  {label:<14s} {statistics.median(seconds) * 1e6:9.3f} us   (+{extra * 1e6:.3f} us)"
        )
    progress.detail("\n".join(lines))
    return {
        label: tuple(t / b for t, b in zip(times[label], base))
        for label in ("PyccelKernel", "Kernel")
    }


def run(mode: Mode, progress: Progress) -> list[Result]:
    """Time the three calls, interleaved, at two sizes; one ratio per repeat."""
    quick = mode == "quick"
    repeat = 7 if quick else 15
    large = _ratios(100_000, 200 if quick else 2_000, repeat, progress)
    small = _ratios(1_000, 2_000 if quick else 20_000, repeat, progress)
    return [
        Check("PyccelKernel call / bare call, 10^5 float64", large["PyccelKernel"], PYCCEL_BOUND),
        Check("Kernel pair call / bare call, 10^5 float64", large["Kernel"], PAIR_BOUND),
        Check("PyccelKernel call / bare call, 1000 float64", small["PyccelKernel"]),
        Check("Kernel pair call / bare call, 1000 float64", small["Kernel"]),
    ]


if __name__ == "__main__":
    sys.exit(main(run, TITLE, NEEDS))
