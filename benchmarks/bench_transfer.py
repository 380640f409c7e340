"""Host-to-GPU bandwidth through cunumpy, and copy/compute overlap on two streams, on a GPU.

Prints, as medians of several runs in one process:

- the bandwidth of a host-to-device copy of a 256 MiB float32 array from ordinary
  (pageable) memory and from ``cuda.pin_memory`` memory, through ``to_device`` and
  ``to_cupy``, against CuPy's raw pinned copy (``MemoryPointer.copy_from_host_async`` into
  an existing array), with the pinned/pageable ratio and the bound cunumpy promises
  (pinned copies through cunumpy reach at least 90% of the raw pinned bandwidth);
- the time of a pinned copy and an independent kernel queued one after the other on one
  stream (serialized) and each on its own branch of ``cuda.streams(2)`` (overlapped).

Run on a machine with a usable GPU: ``python benchmarks/bench_transfer.py``. Without one it
prints the reason and exits with status 2.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
import cunumpy
from cunumpy import cuda

NBYTES = 256 * 2**20
REPEAT = 9
BOUND = 0.90


def _median_seconds(run: Callable[[], Any], repeat: int = REPEAT) -> float:
    run()  # warm up: memory pools, kernel compilation
    cuda.synchronize()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        cuda.synchronize()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _bandwidth(cp: Any) -> None:
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
    }
    gbps = {name: NBYTES / _median_seconds(run) / 1e9 for name, run in runs.items()}
    print(f"\nhost-to-device copy of {NBYTES // 2**20} MiB (median of {REPEAT})")
    raw_gbps = gbps["CuPy raw pinned copy"]
    for name, value in gbps.items():
        print(f"  {name:<26}{value:8.1f} GB/s   {value / raw_gbps:6.3f} of raw pinned")
    for name in ("to_device(pinned, 0)", "to_cupy(pinned)"):
        ratio = gbps[name] / raw_gbps
        verdict = "within" if ratio >= BOUND else "BELOW"
        print(f"  {name}: {ratio:.3f} of raw ({verdict} the {BOUND} bound)")
    print(
        f"  pinned/pageable (to_device): {gbps['to_device(pinned, 0)'] / gbps['to_device(pageable, 0)']:.2f}"
    )
    if np.array_equal(cunumpy.to_numpy(cunumpy.to_device(pinned, 0)), pageable):
        print("  the copies hold the host data")
    else:
        print("  WRONG: the copied array differs from the host data")


def _overlap(cp: Any) -> None:
    pinned = cuda.pin_memory(np.ones(NBYTES // 4, dtype=np.float32))
    work = cp.ones((4096, 4096), dtype=cp.float32)

    def kernel_once() -> None:
        cp.matmul(work, work)

    copy_time = _median_seconds(lambda: cunumpy.to_device(pinned, 0))
    kernel_time = _median_seconds(kernel_once)
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

    one, two = _median_seconds(serialized), _median_seconds(overlapped)
    print(f"\ncopy ({copy_time * 1e3:.2f} ms) and {reps} independent matmul(s) "
          f"({kernel_time * reps * 1e3:.2f} ms), median of {REPEAT}")  # fmt: skip
    print(f"  one stream (serialized):  {one * 1e3:8.2f} ms")
    print(f"  two streams (overlapped): {two * 1e3:8.2f} ms   {two / one:.3f} of serialized")
    ideal = max(copy_time, kernel_time * reps) / one
    print(f"  perfect overlap would be {ideal:.3f} of serialized")


def main() -> int:
    if not cunumpy.cupy_available():
        print(f"bench_transfer: no usable GPU: {cunumpy.cupy_unavailable_reason()}")
        return 2
    import cupy as cp

    cunumpy.set_backend("cupy")
    name = cp.cuda.runtime.getDeviceProperties(cp.cuda.runtime.getDevice())["name"]
    print(f"GPU: {name!r}, CuPy {cp.__version__}")
    _bandwidth(cp)
    _overlap(cp)
    return 0


if __name__ == "__main__":
    sys.exit(main())
