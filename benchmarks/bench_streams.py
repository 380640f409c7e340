"""What the stream pool of ``cuda.stream()`` saves, on a GPU: time per block and held memory.

Each ``with cuda.stream():`` block takes a stream from a per-thread pool (and is ordered
with the outer stream at both ends, on the GPU). The alternative, a new CUDA stream per
block, is what ``cuda.stream()`` did before the pool. CuPy caches device memory per
stream, so with new streams each block's allocations land in a new cache. Prints, in one
process, the medians of several rounds:

- the time of one block that allocates 4 MiB and runs one kernel: pooled against a new
  ``cupy.cuda.Stream`` per block (with the same entry and exit ordering), as a ratio,
  with the spread (min-max of the rounds) and the bound cunumpy promises (pooled at most
  1.0 times the new-stream time);
- the bytes CuPy's pool holds after 50 such blocks, for each.

Run on a machine with a usable GPU: ``python benchmarks/bench_streams.py``. Without one
it prints the reason and exits with status 2.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
import cunumpy
from cunumpy import cuda

BLOCKS = 50
ROUNDS = 9
NBYTES = 4 * 2**20
BOUND = 1.0


def _new_stream_block(cp: Any) -> None:
    """One block as cuda.stream() ran it before the pool: a new stream, ordered the same way."""
    outer = cp.cuda.get_current_stream()
    new = cp.cuda.Stream(non_blocking=True)
    new.wait_event(outer.record())
    with new:
        (cp.ones(NBYTES, dtype=cp.uint8) + 1).sum()
    outer.wait_event(new.record())


def _pooled_block(cp: Any) -> None:
    with cuda.stream():
        (cp.ones(NBYTES, dtype=cp.uint8) + 1).sum()


def _rounds(cp: Any, block: Callable[[Any], None]) -> tuple[list[float], int]:
    """Seconds per block in each round, and the pool's held bytes after the first round."""
    cuda.free_memory()
    held = 0
    times = []
    for index in range(ROUNDS):
        cuda.synchronize()
        start = time.perf_counter()
        for _ in range(BLOCKS):
            block(cp)
        cuda.synchronize()
        times.append((time.perf_counter() - start) / BLOCKS)
        if index == 0:
            stats = cuda.memory_stats()
            held = 0 if stats is None else stats.held_bytes
    return times, held


def main() -> int:
    if not cunumpy.cupy_available():
        print(f"bench_streams: no usable GPU: {cunumpy.cupy_unavailable_reason()}")
        return 2
    import cupy as cp

    cunumpy.set_backend("cupy")
    _pooled_block(cp)  # compile the kernels once
    pooled, pooled_held = _rounds(cp, _pooled_block)
    new, new_held = _rounds(cp, _new_stream_block)
    ratio = statistics.median(pooled) / statistics.median(new)
    print(f"stream() blocks that allocate {NBYTES // 2**20} MiB and run a kernel "
          f"(median of {ROUNDS} rounds of {BLOCKS})")  # fmt: skip
    for name, times, held in (("pooled", pooled, pooled_held), ("new stream", new, new_held)):
        print(f"  {name:<12}{statistics.median(times) * 1e6:9.1f} us per block "
              f"(spread {min(times) * 1e6:.1f}-{max(times) * 1e6:.1f})   "
              f"pool holds {held / 2**20:8.1f} MiB after {BLOCKS} blocks")  # fmt: skip
    verdict = "within" if ratio <= BOUND else "ABOVE"
    print(f"  pooled/new-stream time: {ratio:.3f} ({verdict} the bound {BOUND})")
    print(f"  held memory, new-stream/pooled: {new_held / max(pooled_held, 1):.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
