"""Host-to-GPU bandwidth through cunumpy, and copy/compute overlap on two streams, on a GPU.

Measures, in one process, with every contender timed once per repeat (interleaved):

- the bandwidth of a host-to-device copy of a 256 MiB float32 array from ordinary
  (pageable) memory and from ``cuda.pin_memory`` memory, through ``to_device`` and
  ``to_cupy``, against CuPy's raw pinned copy (``MemoryPointer.copy_from_host_async`` into
  an existing array), with the bound cunumpy promises: pinned copies through cunumpy reach
  at least 90% of the raw pinned bandwidth; and the pinned/pageable ratio;
- the same bytes from ordinary memory through ``to_device`` against a raw
  ``cupy.asarray``, and back to the host through ``to_numpy`` against a raw ``.get()``
  (bound: at least 90% of the raw copy's bandwidth each way);
- the time of a pinned copy and an independent kernel queued one after the other on one
  stream (serialized) and each on its own branch of ``cuda.streams(2)`` (overlapped).

Run on a machine with a usable GPU: ``python benchmarks/bench_transfer.py [--quick |
--full]`` (or ``python -m benchmarks``). Without one it prints the reason and exits with
status 2.
"""

from __future__ import annotations

import os
import statistics
import sys
from typing import Any

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
import cunumpy
from benchmarks._harness import Check, Mode, Progress, Result, interleaved_times, main
from cunumpy import cuda

TITLE = "Host-to-GPU copies from pinned memory, and copy/compute overlap on two streams"
NEEDS: tuple[str, ...] = ("gpu",)

NBYTES = 256 * 2**20
BOUND = 0.90


def _bandwidth(cp: Any, repeat: int, progress: Progress) -> list[Result]:
    pageable = np.random.default_rng(0).random(NBYTES // 4, dtype=np.float32)
    pinned = cuda.pin_memory(pageable)
    target = cp.empty_like(pinned)

    def raw() -> None:
        target.data.copy_from_host_async(pinned.ctypes.data, NBYTES)

    runs = {
        "CuPy raw pinned copy": raw,
        "to_device(pinned, 0)": lambda: cunumpy.to_device(pinned, 0),
        "to_cupy(pinned)": lambda: cunumpy.to_cupy(pinned),
        "to_device(pageable, 0)": lambda: cunumpy.to_device(pageable, 0),
        "cupy.asarray(pageable)": lambda: cp.asarray(pageable),
        "to_numpy(device)": lambda: cunumpy.to_numpy(target),
        "device.get()": lambda: target.get(),
    }
    progress.step(f"host-to-device copies of {NBYTES // 2**20} MiB, {repeat} repeats")
    times = interleaved_times(runs, number=1, repeat=repeat, sync=cuda.synchronize)
    raw_times = times["CuPy raw pinned copy"]
    # Bandwidth ratio to the raw copy, per repeat: the raw copy's time over this one's.
    of_raw = {name: [r / t for r, t in zip(raw_times, ts)] for name, ts in times.items()}
    lines = [f"\nhost-to-device copy of {NBYTES // 2**20} MiB, median [min-max] of {repeat}"]
    for name, ts in times.items():
        gbps = NBYTES / statistics.median(ts) / 1e9
        ratios = of_raw[name]
        lines.append(
            f"  {name:<26}{gbps:8.1f} GB/s   {statistics.median(ratios):6.3f} "
            f"[{min(ratios):.2f}-{max(ratios):.2f}] of raw pinned"
        )
    if not np.array_equal(cunumpy.to_numpy(cunumpy.to_device(pinned, 0)), pageable):
        msg = "bench_transfer: the array copied to the GPU differs from the host data"
        raise RuntimeError(msg)
    lines.append("  the copies hold the host data")
    progress.detail("\n".join(lines))
    pinned_over_pageable = [
        p / q for p, q in zip(times["to_device(pageable, 0)"], times["to_device(pinned, 0)"])
    ]
    return [
        Check(
            "to_device(pinned) / raw pinned copy, bandwidth",
            tuple(of_raw["to_device(pinned, 0)"]),
            BOUND,
            higher_is_better=True,
        ),
        Check(
            "to_cupy(pinned) / raw pinned copy, bandwidth",
            tuple(of_raw["to_cupy(pinned)"]),
            BOUND,
            higher_is_better=True,
        ),
        Check("to_device(pinned) / to_device(pageable), bandwidth", tuple(pinned_over_pageable)),
        Check(
            "to_device(pageable) / cupy.asarray(pageable), bandwidth",
            _over(times, "cupy.asarray(pageable)", "to_device(pageable, 0)"),
            BOUND,
            higher_is_better=True,
        ),
        Check(
            "to_numpy(device) / device.get(), bandwidth",
            _over(times, "device.get()", "to_numpy(device)"),
            BOUND,
            higher_is_better=True,
        ),
    ]


def _over(times: dict[str, list[float]], raw: str, ours: str) -> tuple[float, ...]:
    """Our bandwidth over the raw copy's, per repeat: the raw time over ours."""
    return tuple(r / t for r, t in zip(times[raw], times[ours]))


def _overlap(cp: Any, repeat: int, progress: Progress) -> list[Result]:
    pinned = cuda.pin_memory(np.ones(NBYTES // 4, dtype=np.float32))
    work = cp.ones((4096, 4096), dtype=cp.float32)

    def kernel_once() -> None:
        cp.matmul(work, work)

    progress.step("copy and matmul on one stream, then on two")
    alone = interleaved_times(
        {"copy": lambda: cunumpy.to_device(pinned, 0), "kernel": kernel_once},
        number=1, repeat=repeat, sync=cuda.synchronize,
    )  # fmt: skip
    copy_time = statistics.median(alone["copy"])
    kernel_time = statistics.median(alone["kernel"])
    reps = max(1, round(copy_time / kernel_time))

    def kernels() -> None:
        for _ in range(reps):
            kernel_once()

    def serialized() -> None:
        cunumpy.to_device(pinned, 0)
        kernels()

    def overlapped() -> None:
        # Two branches of the current stream. The kernels are queued first: a copy from
        # pinned memory returns when the buffer may be refilled, that is once it is done.
        with cuda.streams(2) as (compute, copy):
            with cuda.stream(compute):
                kernels()
            with cuda.stream(copy):
                cunumpy.to_device(pinned, 0)

    both = interleaved_times(
        {"one": serialized, "two": overlapped}, number=1, repeat=repeat, sync=cuda.synchronize
    )
    ratios = [two / one for one, two in zip(both["one"], both["two"])]
    one, two = statistics.median(both["one"]), statistics.median(both["two"])
    ideal = max(copy_time, kernel_time * reps) / one
    progress.detail(
        f"\ncopy ({copy_time * 1e3:.2f} ms) and {reps} independent matmul(s) "
        f"({kernel_time * reps * 1e3:.2f} ms), median of {repeat}\n"
        f"  one stream (serialized):  {one * 1e3:8.2f} ms\n"
        f"  two streams (overlapped): {two * 1e3:8.2f} ms   {two / one:.3f} of serialized\n"
        f"  perfect overlap would be {ideal:.3f} of serialized"
    )
    return [Check(f"two streams / one stream (perfect: {ideal:.2f})", tuple(ratios))]


def run(mode: Mode, progress: Progress) -> list[Result]:
    import cupy as cp

    cunumpy.set_backend("cupy")
    name = cp.cuda.runtime.getDeviceProperties(cp.cuda.runtime.getDevice())["name"]
    progress.detail(f"GPU: {name!r}, CuPy {cp.__version__}")
    repeat = 9 if mode == "quick" else 25
    return _bandwidth(cp, repeat, progress) + _overlap(cp, repeat, progress)


if __name__ == "__main__":
    sys.exit(main(run, TITLE, NEEDS))
