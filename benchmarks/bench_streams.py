"""What the stream pool of ``cuda.stream()`` saves, on a GPU: time per block and held memory.

Each ``with cuda.stream():`` block takes a stream from a per-thread pool (and is ordered
with the outer stream at both ends, on the GPU). The alternative, a new CUDA stream per
block, is what ``cuda.stream()`` did before the pool. CuPy caches device memory per
stream, so with new streams each block's allocations land in a new cache. Measures, with
both contenders timed once per repeat (interleaved):

- the time of 50 blocks that each allocate 4 MiB and run two kernels: pooled over a new
  ``cupy.cuda.Stream`` per block (with the same entry and exit ordering); bound 1.0, the
  pool must not cost time;
- the bytes CuPy's pool holds after those blocks, new-stream over pooled (information).

Run on a machine with a usable GPU: ``python benchmarks/bench_streams.py [--quick |
--full]`` (or ``python -m benchmarks``). Without one it prints the reason and exits with
status 2.
"""

from __future__ import annotations

import os
import sys
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
import cunumpy
from benchmarks._harness import Check, Mode, Progress, Result, interleaved_times, main
from cunumpy import cuda

TITLE = "cuda.stream() blocks from the stream pool against a new stream per block"
NEEDS: tuple[str, ...] = ("gpu",)

BLOCKS = 50
NBYTES = 4 * 2**20
BOUND = 1.0


def _new_stream_blocks(cp: Any) -> None:
    """Blocks as cuda.stream() ran them before the pool: a new stream each, ordered the same."""
    for _ in range(BLOCKS):
        outer = cp.cuda.get_current_stream()
        new = cp.cuda.Stream(non_blocking=True)
        new.wait_event(outer.record())
        with new:
            (cp.ones(NBYTES, dtype=cp.uint8) + 1).sum()
        outer.wait_event(new.record())


def _pooled_blocks(cp: Any) -> None:
    for _ in range(BLOCKS):
        with cuda.stream():
            (cp.ones(NBYTES, dtype=cp.uint8) + 1).sum()


def _held_after(cp: Any, blocks: Any) -> int:
    """Bytes CuPy's device pool holds after ``blocks`` ran once on an emptied pool."""
    cuda.synchronize()
    cuda.free_memory()
    blocks(cp)
    cuda.synchronize()
    stats = cuda.memory_stats()
    return 0 if stats is None else stats.held_bytes


def run(mode: Mode, progress: Progress) -> list[Result]:
    import cupy as cp

    cunumpy.set_backend("cupy")
    repeat = 9 if mode == "quick" else 25
    runs = {"pooled": lambda: _pooled_blocks(cp), "new stream": lambda: _new_stream_blocks(cp)}
    progress.step(
        f"{BLOCKS} stream() blocks of a 4 MiB allocation and two kernels, {repeat} repeats"
    )
    times = interleaved_times(runs, number=1, repeat=repeat, sync=cuda.synchronize)
    ratios = [p / n for p, n in zip(times["pooled"], times["new stream"])]
    held = {name: _held_after(cp, blocks) for name, blocks in
            (("pooled", _pooled_blocks), ("new stream", _new_stream_blocks))}  # fmt: skip
    progress.detail(
        f"\n{BLOCKS} blocks, median of {repeat}\n"
        + "\n".join(
            f"  {name:<12}{sorted(ts)[len(ts) // 2] / BLOCKS * 1e6:9.1f} us per block   "
            f"pool holds {held[name] / 2**20:8.1f} MiB afterwards"
            for name, ts in times.items()
        )
    )
    return [
        Check("pooled / new stream per block, time", tuple(ratios), BOUND),
        Check(
            "new stream / pooled, device memory held afterwards",
            (held["new stream"] / max(held["pooled"], 1),),
        ),
    ]


if __name__ == "__main__":
    sys.exit(main(run, TITLE, NEEDS))
