"""Overhead of ``cunumpy.mpi.allreduce`` over mpi4py's raw ``comm.Allreduce``.

Run under MPI, for example (as root add --allow-run-as-root)::

    mpiexec -n 2 python benchmarks/bench_mpi.py
    mpiexec -n 2 python benchmarks/bench_mpi.py --size 1000 --repeat 2000

All variants reduce the same input, interleaved in the same run: raw ``comm.Allreduce``
into a preallocated output, ``cunumpy.mpi.allreduce(x, out=...)`` on the same
buffers (the figure we bound at 1.2x: it adds the collective input check), and
``cunumpy.mpi.allreduce(x)`` that allocates a new result each call (for large arrays
mostly the cost of first touching fresh memory). Rank 0 prints medians and ratios.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))

from mpi4py import MPI

from cunumpy import mpi


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=10**6, help="float64 elements")
    parser.add_argument("--repeat", type=int, default=200, help="timed calls per variant")
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--limit", type=float, default=None, help="exit 1 if ratio > LIMIT")
    args = parser.parse_args()

    comm = MPI.COMM_WORLD
    x = np.random.default_rng(comm.rank).random(args.size)
    out = np.empty_like(x)
    times: dict[str, list[float]] = {"raw": [], "out": [], "new": []}
    calls = {
        "raw": lambda: comm.Allreduce(x, out, MPI.SUM),
        "out": lambda: mpi.allreduce(x, "sum", comm=comm, out=out),
        "new": lambda: mpi.allreduce(x, "sum", comm=comm),
    }
    # Phase 1 interleaves the two calls on preallocated buffers; phase 2 times the
    # allocating call alone, so its freed arrays do not disturb the other two.
    for phase in (("raw", "out"), ("new",)):
        for i in range(args.warmup + args.repeat):
            for name in phase:
                comm.Barrier()
                start = time.perf_counter()
                calls[name]()
                elapsed = time.perf_counter() - start
                if i >= args.warmup:
                    times[name].append(elapsed)
    expected = np.empty_like(x)
    comm.Allreduce(x, expected, MPI.SUM)
    assert np.array_equal(mpi.allreduce(x, comm=comm, out=out), expected)
    assert np.array_equal(mpi.allreduce(x, comm=comm), expected)
    # The slowest rank decides how long a collective takes.
    medians = {name: comm.allreduce(statistics.median(t), MPI.MAX) for name, t in times.items()}
    ratio = medians["out"] / medians["raw"]
    if comm.rank == 0:
        print(f"ranks={comm.size} size={args.size} float64 repeat={args.repeat}")
        print(f"raw comm.Allreduce(x, out)           median {medians['raw'] * 1e6:10.1f} us")
        print(f"cunumpy.mpi.allreduce(x, out=out)    median {medians['out'] * 1e6:10.1f} us")
        print(f"cunumpy.mpi.allreduce(x) (new array) median {medians['new'] * 1e6:10.1f} us")
        print(f"ratio (same buffers) {ratio:.3f}")
        print(f"ratio (new array)    {medians['new'] / medians['raw']:.3f}")
    if args.limit is not None and ratio > args.limit:
        sys.exit(1)


if __name__ == "__main__":
    main()
