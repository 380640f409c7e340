"""Distributed 2-D heat equation with halo exchange, written once for CPUs and GPUs.

The square plate starts cold with a hot square in the middle; its edges are held at 0.
Each explicit time step replaces every interior value by itself plus ``alpha`` times the
discrete Laplacian. The grid's rows are split into equal blocks, one per MPI rank; each
rank keeps one ghost row above and below its block and refreshes them from its
neighbours before every step (the halo exchange).

Run it as one process (no MPI needed: ``get_mpi`` gives the serial stand-in), or on
CPU ranks, or with one GPU per rank; the code is the same::

    python examples/heat2d.py
    CUNUMPY_BACKEND=cupy mpiexec -n 4 python examples/heat2d.py --output field.npy  # 4 GPUs

Open MPI refuses more ranks than cores without ``--oversubscribe`` and refuses to run as
root (containers, CI) without ``--allow-run-as-root`` (docs/mpi.md, "Launching"); on one
machine with Open MPI this works whatever the cores and the user::

    mpiexec -n 4 --oversubscribe --allow-run-as-root python examples/heat2d.py

With any number of ranks that divides ``--ny``, the result equals the single-process
result. The halo exchange and the step are timed regions: ``CUNUMPY_TRACE=heat.json``
records a timeline of them, of the MPI calls and of the copies (docs/tracing.md).
"""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np

import cunumpy
from cunumpy import mpi, profiling


def initial_block(ny: int, nx: int, first_row: int, rows: int) -> Any:
    """Return this rank's block with a ghost row above and below and a ghost column each side.

    Ghost cells start at 0; those at the plate's edges stay 0 (the boundary condition).
    """
    xp = cunumpy  # creates on the current backend (NumPy, or CuPy on this rank's GPU)
    u = xp.zeros((rows + 2, nx + 2), dtype=xp.float64)
    i = xp.reshape(xp.arange(first_row, first_row + rows), (rows, 1))
    j = xp.reshape(xp.arange(nx), (1, nx))
    hot = (i >= ny // 4) & (i < 3 * ny // 4) & (j >= nx // 4) & (j < 3 * nx // 4)
    u[1:-1, 1:-1] = xp.astype(hot, xp.float64)
    return u


def exchange_halos(u: Any, comm: Any) -> None:
    """Fill the ghost rows of ``u`` with the neighbours' edge rows (in place)."""
    rank, size = comm.Get_rank(), comm.Get_size()
    none = mpi.get_mpi().PROC_NULL  # no neighbour: at the plate's top or bottom edge
    above = rank - 1 if rank > 0 else none
    below = rank + 1 if rank < size - 1 else none
    # Rows of a C-contiguous 2-D array are contiguous, so they go to MPI without copies.
    mpi.sendrecv(u[1], dest=above, source=below, out=u[-1], comm=comm)
    mpi.sendrecv(u[-2], dest=below, source=above, out=u[0], comm=comm)


def step(u: Any, alpha: float) -> None:
    """Advance the interior of ``u`` by one explicit time step (in place)."""
    laplacian = u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:] - 4.0 * u[1:-1, 1:-1]
    u[1:-1, 1:-1] += alpha * laplacian


def solve(ny: int, nx: int, steps: int, alpha: float, comm: Any) -> tuple[Any, float]:
    """Run the simulation; return the full field (on rank 0, else None) and the total heat."""
    size, rank = comm.Get_size(), comm.Get_rank()
    if ny % size != 0:
        msg = f"heat2d: `ny`={ny!r} must be divisible by the number of ranks ({size})."
        raise ValueError(msg)
    rows = ny // size
    u = initial_block(ny, nx, rank * rows, rows)
    for _ in range(steps):
        with profiling.timed_region("halo exchange", sync=False):
            exchange_halos(u, comm)
        with profiling.timed_region("step", sync=False):
            step(u, alpha)
    xp = cunumpy.array_namespace(u)
    interior = xp.asarray(u[1:-1, 1:-1], copy=True)  # a contiguous copy for MPI
    total = float(mpi.allreduce(xp.sum(interior), "sum", comm=comm))
    blocks = mpi.gather(interior, root=0, comm=comm)
    field = None if blocks is None else xp.reshape(blocks, (ny, nx))
    return field, total


def main() -> None:
    parser = argparse.ArgumentParser(description="Distributed 2-D heat equation.")
    parser.add_argument("--ny", type=int, default=64, help="grid rows (divisible by ranks)")
    parser.add_argument("--nx", type=int, default=48, help="grid columns")
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--alpha", type=float, default=0.2, help="diffusion number, <= 0.25")
    parser.add_argument("--output", default=None, help="save the final field (.npy) here")
    args = parser.parse_args()

    device = cunumpy.cuda.bind_local_device()  # one GPU per rank on CuPy; None on NumPy
    # Then MPI: mpi4py's under a launcher; without one, a stand-in of one rank (no MPI).
    comm = mpi.get_mpi().COMM_WORLD
    field, total = solve(args.ny, args.nx, args.steps, args.alpha, comm)
    if comm.Get_rank() == 0:
        where = "CPU" if device is None else f"GPU {device} on rank 0"
        print(
            f"{comm.Get_size()} rank(s), {cunumpy.get_backend()} ({where}): total heat {total:.6f}"
        )
        if args.output is not None:
            np.save(args.output, cunumpy.to_numpy(field))


if __name__ == "__main__":
    main()
