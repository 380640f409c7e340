"""Overhead of ``cunumpy.mpi.allreduce`` and ``mpi_buffer`` over mpi4py's raw ``comm.Allreduce``.

All variants reduce the same 10**6 float64 values, in the same run: raw
``comm.Allreduce`` into a preallocated output, ``cunumpy.mpi.allreduce(x, out=...)`` on
the same buffers (the figure bounded at 1.2: it adds the collective input check), and
``comm.Allreduce`` on the buffers that ``mpi_buffer`` hands out (CuNumpy 0.7.1's one MPI
call site for both backends; bounded at 1.2), interleaved call by call; the same
``mpi_buffer`` figure for 100 values shows its fixed cost (informational); and then ``cunumpy.mpi.allreduce(x)``, which allocates a new
result each call (for large arrays mostly the cost of first touching fresh memory). The
calls are split into rounds; each round gives one ratio of medians (the slowest rank's,
as the slowest rank decides how long a collective takes), and rank 0 reports the median
and spread over the rounds.

Run under MPI, for example (as root add --allow-run-as-root)::

    mpiexec -n 2 python benchmarks/bench_mpi.py [--quick | --full]

``python -m benchmarks`` starts it that way itself.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import Callable

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
from benchmarks._harness import Check, Mode, Progress, Result, main

TITLE = "Overhead of cunumpy.mpi.allreduce and mpi_buffer over mpi4py's comm.Allreduce"
NEEDS: tuple[str, ...] = ("mpi",)

SIZE = 10**6
SMALL = 100
BOUND = 1.2
WARMUP = 20


def run(mode: Mode, progress: Progress) -> list[Result] | None:
    from mpi4py import MPI

    from cunumpy import mpi

    comm = MPI.COMM_WORLD
    rounds, per_round = (5, 40) if mode == "quick" else (15, 100)
    root = comm.rank == 0
    x = np.random.default_rng(comm.rank).random(SIZE)
    out = np.empty_like(x)
    small, small_out = x[:SMALL].copy(), np.empty(SMALL)

    def buffered(send: np.ndarray, recv: np.ndarray) -> None:
        with mpi.mpi_buffer(send) as s, mpi.mpi_buffer(recv, send=False, recv=True) as r:
            comm.Allreduce(s, r, MPI.SUM)

    calls: dict[str, Callable[[], object]] = {
        "raw": lambda: comm.Allreduce(x, out, MPI.SUM),
        "out": lambda: mpi.allreduce(x, "sum", comm=comm, out=out),
        "buffer": lambda: buffered(x, out),
        "raw_small": lambda: comm.Allreduce(small, small_out, MPI.SUM),
        "buffer_small": lambda: buffered(small, small_out),
        "new": lambda: mpi.allreduce(x, "sum", comm=comm),
    }
    times: dict[str, list[float]] = {name: [] for name in calls}
    # Phase 1 interleaves the two calls on preallocated buffers; phase 2 times the
    # allocating call alone, so its freed arrays do not disturb the other two.
    for phase in (("raw", "out", "buffer"), ("raw_small", "buffer_small"), ("new",)):
        if root:
            progress.step(f"{' and '.join(phase)}: {rounds * per_round} calls on {comm.size} ranks")
        for i in range(WARMUP + rounds * per_round):
            for name in phase:
                comm.Barrier()
                start = time.perf_counter()
                calls[name]()
                elapsed = time.perf_counter() - start
                if i >= WARMUP:
                    times[name].append(elapsed)
    expected = np.empty_like(x)
    comm.Allreduce(x, expected, MPI.SUM)
    buffered(x, out)
    if not np.array_equal(out, expected):
        msg = "bench_mpi: comm.Allreduce through mpi_buffer differs from comm.Allreduce"
        raise RuntimeError(msg)
    if not (
        np.array_equal(mpi.allreduce(x, comm=comm, out=out), expected)
        and np.array_equal(mpi.allreduce(x, comm=comm), expected)
    ):
        msg = "bench_mpi: cunumpy.mpi.allreduce differs from comm.Allreduce"
        raise RuntimeError(msg)
    # Per round, the median of each variant on the slowest rank.
    medians = {
        name: [
            comm.allreduce(statistics.median(t[r * per_round : (r + 1) * per_round]), MPI.MAX)
            for r in range(rounds)
        ]
        for name, t in times.items()
    }
    if not root:
        return None
    raw = medians["raw"]
    progress.detail(
        f"ranks={comm.size} size={SIZE} float64, {rounds} rounds of {per_round} calls\n"
        f"raw comm.Allreduce(x, out)           median {statistics.median(raw) * 1e6:10.1f} us\n"
        f"cunumpy.mpi.allreduce(x, out=out)    median {statistics.median(medians['out']) * 1e6:10.1f} us\n"
        f"mpi_buffer + comm.Allreduce          median {statistics.median(medians['buffer']) * 1e6:10.1f} us\n"
        f"raw comm.Allreduce, {SMALL} values      median {statistics.median(medians['raw_small']) * 1e6:10.1f} us\n"
        f"mpi_buffer + Allreduce, {SMALL} values  median {statistics.median(medians['buffer_small']) * 1e6:10.1f} us\n"
        f"cunumpy.mpi.allreduce(x) (new array) median {statistics.median(medians['new']) * 1e6:10.1f} us"
    )
    return [
        Check(
            f"allreduce(x, out=) / comm.Allreduce, {comm.size} ranks",
            tuple(o / r for o, r in zip(medians["out"], raw)),
            BOUND,
        ),
        Check(
            f"mpi_buffer + Allreduce / comm.Allreduce, {comm.size} ranks",
            tuple(b / r for b, r in zip(medians["buffer"], raw)),
            BOUND,
        ),
        Check(
            f"mpi_buffer + Allreduce / comm.Allreduce, {SMALL} values, {comm.size} ranks",
            tuple(b / r for b, r in zip(medians["buffer_small"], medians["raw_small"])),
        ),
        Check(
            f"allreduce(x) new array / comm.Allreduce, {comm.size} ranks",
            tuple(n / r for n, r in zip(medians["new"], raw)),
        ),
    ]


if __name__ == "__main__":
    sys.exit(main(run, TITLE, NEEDS))
