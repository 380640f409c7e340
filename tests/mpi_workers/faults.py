"""MPI worker for tests/test_faults.py: bad input on some ranks, an error on every rank.

Run as ``mpiexec -n N python tests/mpi_workers/faults.py`` (N >= 2). Each check passes
bad input on one rank (or an out-of-range rank, root or tag) and asserts that every rank
taking part raises the documented exception, whose message names the function, the
rank that was wrong and the bad value; then one ``allreduce`` proves that no rank is
stuck. Arrays come from NumPy, or CuPy with ``CUNUMPY_BACKEND=cupy`` (read-only and
masked arrays exist only in NumPy, and are NumPy arrays on both backends). Each rank
prints ``RESULT <rank> <check> PASS`` or ``... FAIL <why>``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from _report import report  # tests/mpi_workers/_report.py, next to this script

import cunumpy
from cunumpy import mpi

CHECKS: dict[str, Callable[[Any, Any], None]] = {}


def check(func: Callable[[Any, Any], None]) -> Callable[[Any, Any], None]:
    CHECKS[func.__name__] = func
    return func


def raises(kind: type[Exception], fragments: tuple[str, ...], call: Callable[[], object]) -> None:
    try:
        call()
    except kind as exc:
        text = str(exc)
        for fragment in fragments:
            assert fragment in text, f"{fragment!r} not in {text!r}"
        return
    except Exception as exc:
        raise AssertionError(f"{type(exc).__name__} instead of {kind.__name__}: {exc}") from exc
    raise AssertionError(f"no {kind.__name__} raised")


def in_step(comm: Any, xp: Any) -> None:
    """Every rank reaches this collective: nobody is stuck in an earlier one."""
    total = mpi.allreduce(xp.ones(1), comm=comm)
    assert float(cunumpy.to_numpy(total)[0]) == comm.Get_size()


@check
def read_only_out(comm: Any, xp: Any) -> None:
    x = np.ones(3)
    x.flags.writeable = comm.Get_rank() != 0
    raises(
        ValueError, ("allreduce", "on rank 0", "`out`", "read-only"),
        lambda: mpi.allreduce(x, out=x, comm=comm),
    )  # fmt: skip
    assert np.array_equal(x, np.ones(3))  # nothing was written on any rank
    in_step(comm, xp)


@check
def unpicklable_op(comm: Any, xp: Any) -> None:
    op: Any = (lambda a, b: a) if comm.Get_rank() == 0 else "sum"
    raises(
        TypeError, ("allreduce", "on rank 0", "`op`", "lambda"),
        lambda: mpi.allreduce(xp.ones(2), op=op, comm=comm),
    )  # fmt: skip
    in_step(comm, xp)


@check
def unpicklable_root(comm: Any, xp: Any) -> None:
    root: Any = (lambda: 0) if comm.Get_rank() == 0 else 0
    raises(
        TypeError, ("bcast", "on rank 0", "`root`", "lambda"),
        lambda: mpi.bcast(xp.ones(2), root=root, comm=comm),
    )  # fmt: skip
    in_step(comm, xp)


@check
def roots_in_range(comm: Any, xp: Any) -> None:
    size = comm.Get_size()
    raises(
        ValueError, ("gather", "`root`", f"range({size})", str(size)),
        lambda: mpi.gather(xp.ones(2), root=size, comm=comm),
    )  # fmt: skip
    rows = xp.ones((size, 2)) if comm.Get_rank() == 0 else None
    raises(ValueError, ("scatter", "`root`", "-1"), lambda: mpi.scatter(rows, root=-1, comm=comm))
    raises(
        TypeError, ("bcast", "`root`", "1.5"), lambda: mpi.bcast(xp.ones(2), root=1.5, comm=comm)
    )
    in_step(comm, xp)


@check
def ranks_in_range(comm: Any, xp: Any) -> None:
    rank, size = comm.Get_rank(), comm.Get_size()
    if rank == 0:
        raises(
            ValueError, ("send", "`dest`", str(size + 3), "PROC_NULL"),
            lambda: mpi.send(xp.ones(2), dest=size + 3, comm=comm),
        )  # fmt: skip
    if rank == 1:
        raises(
            ValueError, ("recv", "`source`", str(size + 5)),
            lambda: mpi.recv(size + 5, comm=comm),
        )  # fmt: skip
    raises(
        ValueError, ("sendrecv", "`dest`", "-7"),
        lambda: mpi.sendrecv(xp.ones(2), dest=-7, comm=comm),
    )  # fmt: skip
    in_step(comm, xp)


@check
def tags(comm: Any, xp: Any) -> None:
    rank = comm.Get_rank()
    if rank == 0:
        raises(
            ValueError, ("send", "`tag`", "-3"),
            lambda: mpi.send(xp.ones(2), dest=1, tag=-3, comm=comm),
        )  # fmt: skip
        raises(
            TypeError, ("send", "`tag`", "'a'"),
            lambda: mpi.send(xp.ones(2), dest=1, tag="a", comm=comm),
        )  # fmt: skip
    if rank == 1:
        raises(TypeError, ("recv", "`tag`", "'a'"), lambda: mpi.recv(0, tag="a", comm=comm))
    in_step(comm, xp)


@check
def byte_order(comm: Any, xp: Any) -> None:
    last = comm.Get_size() - 1
    x = np.ones(2, dtype=">f8" if comm.Get_rank() == last else "<f8")
    raises(
        TypeError, ("allreduce", f"on rank {last}", ">f8", "byte order"),
        lambda: mpi.allreduce(x, comm=comm),
    )  # fmt: skip
    # Moving bytes is fine in any byte order: the receivers get the root's dtype.
    data = np.arange(3, dtype=">i4") if comm.Get_rank() == 0 else None
    got = mpi.bcast(data, root=0, comm=comm) if cunumpy.get_backend() == "numpy" else None
    if got is not None:
        assert got.dtype == np.dtype(">i4") and got.tolist() == [0, 1, 2], got
    in_step(comm, xp)


@check
def masked(comm: Any, xp: Any) -> None:
    x = np.ma.masked_array([1.0, 100.0], mask=[False, comm.Get_rank() == 0])
    raises(
        TypeError, ("allreduce", "on rank 0", "masked", "filled"),
        lambda: mpi.allreduce(x, comm=comm),
    )  # fmt: skip
    in_step(comm, xp)


@check
def recv_into_read_only(comm: Any, xp: Any) -> None:
    rank = comm.Get_rank()
    if rank == 0:
        mpi.send(np.arange(2.0), dest=1, tag=4, comm=comm)  # the receiver drains it
    elif rank == 1:
        out = np.zeros(2)
        out.flags.writeable = False
        raises(
            ValueError, ("recv", "`out`", "read-only"),
            lambda: mpi.recv(0, tag=4, out=out, comm=comm),
        )  # fmt: skip
        assert out.tolist() == [0.0, 0.0]
    in_step(comm, xp)


@check
def sendrecv_into_read_only(comm: Any, xp: Any) -> None:
    rank, size = comm.Get_rank(), comm.Get_size()
    ring_next, ring_prev = (rank + 1) % size, (rank - 1) % size
    out = np.zeros(2)
    out.flags.writeable = rank != 0
    mine = np.full(2, float(rank))
    if rank == 0:
        raises(
            ValueError, ("sendrecv", "`out`", "read-only"),
            lambda: mpi.sendrecv(mine, ring_next, ring_prev, out=out, comm=comm),
        )  # fmt: skip
    else:
        assert mpi.sendrecv(mine, ring_next, ring_prev, out=out, comm=comm) is out
        assert out.tolist() == [float(ring_prev)] * 2
    in_step(comm, xp)


@check
def bad_array_on_one_rank(comm: Any, xp: Any) -> None:
    last = comm.Get_size() - 1
    x: Any = np.asarray([object()]) if comm.Get_rank() == last else xp.ones(1)
    raises(
        TypeError, ("allgather", f"on rank {last}", "object"),
        lambda: mpi.allgather(x, comm=comm),
    )  # fmt: skip
    y: Any = [1.0] if comm.Get_rank() == last else xp.ones(1)
    raises(TypeError, ("allreduce", f"on rank {last}", "list"), lambda: mpi.allreduce(y, comm=comm))
    in_step(comm, xp)


@check
def mismatched_collectives(comm: Any, xp: Any) -> None:
    """Rank 0 gathers while the others broadcast (same root, same array): once this
    hung on every rank; now each raises, naming both functions."""
    rank = comm.Get_rank()
    x = xp.ones(2)
    call = (lambda: mpi.gather(x, root=0, comm=comm)) if rank == 0 else None
    call = call or (lambda: mpi.bcast(x, root=0, comm=comm))
    mine = "gather" if rank == 0 else "bcast"
    raises(
        ValueError, (f"{mine}:", "different collectives", "rank 0 called gather",
                     "rank 1 called bcast"),
        call,
    )  # fmt: skip
    # Two collectives whose arguments would all agree: allreduce against allgather.
    other = (lambda: mpi.allgather(x, comm=comm)) if rank == comm.Get_size() - 1 else None
    other = other or (lambda: mpi.allreduce(x, comm=comm))
    raises(ValueError, ("allgather", "allreduce", "different collectives"), other)
    in_step(comm, xp)


def main() -> None:
    from mpi4py import MPI

    comm = MPI.COMM_WORLD
    if cunumpy.get_backend() == "cupy":
        import cupy as xp

        mpi.bind_local_device()
    else:
        xp = np
    for name, func in CHECKS.items():
        try:
            func(comm, xp)
        except Exception as exc:
            report(comm.Get_rank(), name, exc)
        else:
            report(comm.Get_rank(), name)


if __name__ == "__main__":
    main()
