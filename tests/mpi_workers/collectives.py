"""MPI worker for tests/test_mpi.py: runs every check on every rank and reports.

Run as ``mpiexec -n N python tests/mpi_workers/collectives.py``. Arrays come from
NumPy, or from CuPy when ``CUNUMPY_BACKEND=cupy``. Each rank prints one line per check::

    RESULT <rank> <check> PASS
    RESULT <rank> <check> FAIL <repr of the error>

A failing check does not stop the others; the test asserts every rank passed every
check. Error checks assert that bad input on *some* ranks raises on *every* rank.
"""

from __future__ import annotations

import os
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


def lib_of_backend() -> Any:
    if cunumpy.get_backend() == "cupy":
        import cupy

        return cupy
    return np


def same_kind(result: Any, like: Any) -> None:
    assert type(result) is type(like), (type(result), type(like))
    if cunumpy.is_cupy_array(like):
        assert result.device.id == like.device.id, (result.device, like.device)


def equal(result: Any, expected: Any) -> None:
    np.testing.assert_array_equal(cunumpy.to_numpy(result), np.asarray(expected))


def raises_everywhere(
    kind: type[Exception], fragments: tuple[str, ...], call: Callable[[], object]
) -> None:
    try:
        call()
    except kind as exc:
        text = str(exc)
        for fragment in fragments:
            assert fragment in text, f"{fragment!r} not in {text!r}"
        return
    raise AssertionError(f"no {kind.__name__} raised")


@check
def allreduce_ops(comm: Any, xp: Any) -> None:
    rank, size = comm.Get_rank(), comm.Get_size()
    ranks = np.arange(size)
    for dtype in ("float64", "float32", "int32", "int64", "uint8"):
        x = xp.asarray([rank + 1, 2 * rank + 1, 3], dtype=dtype)
        for op, expected in (
            ("sum", [(ranks + 1).sum(), (2 * ranks + 1).sum(), 3 * size]),
            ("prod", [(ranks + 1).prod(), (2 * ranks + 1).prod(), 3**size]),
            ("min", [1, 1, 3]),
            ("max", [size, 2 * size - 1, 3]),
        ):
            result = mpi.allreduce(x, op)
            same_kind(result, x)
            assert result.dtype == x.dtype, (result.dtype, x.dtype)
            equal(result, np.asarray(expected, dtype=dtype))
    flags = xp.asarray([True, rank == 0, False])
    equal(mpi.allreduce(flags, "max"), [True, True, False])
    equal(mpi.allreduce(flags, "min"), [True, size == 1, False])
    z = xp.asarray([1 + 1j * rank], dtype="complex128")
    equal(mpi.allreduce(z), [size + 1j * ranks.sum()])
    scalar = xp.asarray(float(rank))
    equal(mpi.allreduce(scalar), ranks.sum())
    out = xp.empty((2, 2))
    x = xp.full((2, 2), float(rank))
    assert mpi.allreduce(x, "sum", out=out) is out
    equal(out, np.full((2, 2), ranks.sum()))
    assert mpi.allreduce(x, "max", out=x) is x
    equal(x, np.full((2, 2), size - 1))
    equal(mpi.allreduce(xp.empty((0, 3))), np.empty((0, 3)))


@check
def allreduce_errors(comm: Any, xp: Any) -> None:
    rank = comm.Get_rank()
    last = comm.Get_size() - 1
    if last > 0:
        shape = (3,) if rank == 0 else (4,)
        raises_everywhere(
            ValueError, ("allreduce", "same shape", "(3,)", "(4,)"),
            lambda: mpi.allreduce(xp.ones(shape)),
        )  # fmt: skip
        dtype = "float32" if rank == last else "float64"
        raises_everywhere(
            TypeError, ("allreduce", "dtype", "float32", "float64"),
            lambda: mpi.allreduce(xp.ones(3, dtype=dtype)),
        )  # fmt: skip
        op2 = "max" if rank == last else "sum"
        raises_everywhere(
            ValueError, ("allreduce", "differ", "'max'"), lambda: mpi.allreduce(xp.ones(2), op2)
        )
    x = xp.ones((4, 4))[:, ::2] if rank == last else xp.ones((4, 2))
    where = f"rank {last}" if last > 0 else "`x`"
    raises_everywhere(ValueError, ("allreduce", "C-contiguous", where), lambda: mpi.allreduce(x))
    bad: Any = [1.0, 2.0] if rank == last else xp.ones(2)
    raises_everywhere(TypeError, ("allreduce", "`x`", "[1.0, 2.0]"), lambda: mpi.allreduce(bad))
    op = "mean" if rank == last else "sum"
    raises_everywhere(
        ValueError, ("allreduce", "'mean'", "'sum'"), lambda: mpi.allreduce(xp.ones(2), op)
    )
    raises_everywhere(
        TypeError, ("allreduce", "bool"), lambda: mpi.allreduce(xp.ones(2, dtype=bool))
    )
    raises_everywhere(
        TypeError, ("allreduce", "`out`", "float32"),
        lambda: mpi.allreduce(xp.ones(2), out=xp.ones(2, dtype="float32")),
    )  # fmt: skip
    equal(mpi.allreduce(xp.ones(2)), [comm.Get_size()] * 2)  # still in step


@check
def bcast_values(comm: Any, xp: Any) -> None:
    rank, size = comm.Get_rank(), comm.Get_size()
    for root in sorted({0, size - 1}):
        data = xp.arange(6, dtype="int16").reshape(2, 3) + root
        result = mpi.bcast(data if rank == root else None, root=root)
        equal(result, np.arange(6, dtype="int16").reshape(2, 3) + root)
        assert result.dtype == data.dtype
        if rank == root:
            assert result is data
        template = xp.zeros((2, 3), dtype="int16")
        result = mpi.bcast(data if rank == root else template, root=root)
        same_kind(result, template)
        equal(template, np.zeros((2, 3)))  # the template is not modified
        equal(result, np.arange(6).reshape(2, 3) + root)


@check
def bcast_errors(comm: Any, xp: Any) -> None:
    rank, size = comm.Get_rank(), comm.Get_size()
    raises_everywhere(TypeError, ("bcast", "`x`", "None"), lambda: mpi.bcast(None, root=0))
    if size > 1:
        root: Any = 1 if rank == size - 1 else 0
        raises_everywhere(ValueError, ("bcast", "differ"), lambda: mpi.bcast(xp.ones(2), root=root))
    raises_everywhere(ValueError, ("bcast", "range"), lambda: mpi.bcast(xp.ones(2), root=size))
    raises_everywhere(
        TypeError, ("bcast", "`root`", "'0'"), lambda: mpi.bcast(xp.ones(2), root="0")
    )
    shape = (2,) if rank == 0 else (3,)
    if size > 1:
        raises_everywhere(ValueError, ("bcast", "same shape"), lambda: mpi.bcast(xp.ones(shape)))


@check
def allgather_values(comm: Any, xp: Any) -> None:
    rank, size = comm.Get_rank(), comm.Get_size()
    x = xp.asarray([[rank, 10 * rank]], dtype="float32")
    result = mpi.allgather(x)
    same_kind(result, x)
    assert result.shape == (size, 1, 2)
    equal(result, np.asarray([[[r, 10 * r]] for r in range(size)], dtype="float32"))
    shape = (2,) if rank == 0 else (3,)
    if size > 1:
        raises_everywhere(
            ValueError, ("allgather", "same shape"), lambda: mpi.allgather(xp.ones(shape))
        )


@check
def gather_values(comm: Any, xp: Any) -> None:
    rank, size = comm.Get_rank(), comm.Get_size()
    root = size - 1
    x = xp.full(3, rank, dtype="int64")
    result = mpi.gather(x, root=root)
    if rank == root:
        same_kind(result, x)
        equal(result, np.repeat(np.arange(size), 3).reshape(size, 3))
    else:
        assert result is None
    dtype = "int32" if rank == 0 else "int64"
    if size > 1:
        raises_everywhere(
            TypeError, ("gather", "same dtype"), lambda: mpi.gather(xp.ones(2, dtype=dtype))
        )


@check
def scatter_values(comm: Any, xp: Any) -> None:
    rank, size = comm.Get_rank(), comm.Get_size()
    rows = xp.arange(size * 2, dtype="float64").reshape(size, 2)
    result = mpi.scatter(rows if rank == 0 else None, root=0)
    equal(result, [2 * rank, 2 * rank + 1])
    assert result.shape == (2,)
    bad = xp.ones((size + 1, 2))
    raises_everywhere(
        ValueError, ("scatter", f"({size}, ...)"), lambda: mpi.scatter(bad if rank == 0 else None)
    )
    if size > 1:
        raises_everywhere(TypeError, ("scatter", "None"), lambda: mpi.scatter(rows))


@check
def send_recv(comm: Any, xp: Any) -> None:
    rank, size = comm.Get_rank(), comm.Get_size()
    if size == 1:
        return
    if rank == 0:
        mpi.send(xp.arange(5, dtype="int32"), dest=1, tag=7)
        mpi.send(xp.arange(3.0), dest=1, tag=8)
        mpi.send(xp.ones(3), dest=1, tag=9)
        raises_everywhere(
            ValueError, ("send", "C-contiguous"), lambda: mpi.send(xp.ones((4, 4))[::2], dest=1)
        )
    elif rank == 1:
        result = mpi.recv(0, tag=7)
        equal(result, np.arange(5, dtype="int32"))
        assert result.dtype == np.int32
        out = xp.zeros(3)
        assert mpi.recv(0, tag=8, out=out) is out
        equal(out, [0.0, 1.0, 2.0])
        raises_everywhere(
            ValueError,
            ("recv", "`out`", "(2,)", "(3,)"),
            lambda: mpi.recv(0, tag=9, out=xp.zeros(2)),
        )
        raises_everywhere(ValueError, ("recv", "rank 0", "C-contiguous"), lambda: mpi.recv(0))
    equal(mpi.allreduce(xp.ones(1)), [size])  # nobody is stuck


@check
def sendrecv_halo(comm: Any, xp: Any) -> None:
    from mpi4py import MPI

    rank, size = comm.Get_rank(), comm.Get_size()
    up = rank - 1 if rank > 0 else MPI.PROC_NULL
    down = rank + 1 if rank < size - 1 else MPI.PROC_NULL
    mine = xp.full(4, float(rank))
    from_up = mpi.sendrecv(mine, dest=down, source=up)
    if rank == 0:
        assert from_up is None
    else:
        same_kind(from_up, mine)
        equal(from_up, np.full(4, rank - 1.0))
    ghost = xp.full(4, -1.0)
    assert mpi.sendrecv(mine, dest=up, source=down, out=ghost) is ghost
    equal(ghost, np.full(4, -1.0 if rank == size - 1 else rank + 1.0))
    ring_next, ring_prev = (rank + 1) % size, (rank - 1) % size
    equal(mpi.sendrecv(mine, dest=ring_next, source=ring_prev), np.full(4, float(ring_prev)))
    # A bad array on one rank: it and the rank receiving from it raise; nobody hangs.
    bad = xp.ones((4, 4))[:, ::2] if rank == 0 else xp.ones(4)
    if rank == 0:
        raises_everywhere(
            ValueError,
            ("sendrecv", "C-contiguous"),
            lambda: mpi.sendrecv(bad, ring_next, ring_prev),
        )
    elif rank == 1 % size:
        raises_everywhere(
            ValueError, ("sendrecv", "rank 0"), lambda: mpi.sendrecv(bad, ring_next, ring_prev)
        )
    else:
        equal(mpi.sendrecv(bad, ring_next, ring_prev), np.ones(4))
    equal(mpi.allreduce(xp.ones(1)), [size])  # nobody is stuck


@check
def binding(comm: Any, xp: Any) -> None:
    from mpi4py import MPI

    expected = int(os.environ["OMPI_COMM_WORLD_LOCAL_RANK"])
    assert mpi.local_rank() == expected
    saved = {name: os.environ.pop(name) for name in mpi.LOCAL_RANK_ENV_VARS if name in os.environ}
    try:
        node = comm.Split_type(MPI.COMM_TYPE_SHARED)
        assert mpi.local_rank(comm) == node.Get_rank() == comm.Get_rank()  # one node
        node.Free()
    finally:
        os.environ.update(saved)
    device = mpi.bind_local_device()
    if cunumpy.get_backend() == "numpy":
        assert device is None
    else:
        import cupy

        assert device == expected % cupy.cuda.runtime.getDeviceCount()
        assert cupy.cuda.runtime.getDevice() == device
    mpi.synchronize_for_mpi()
    aware, reason = mpi.is_cuda_aware()
    assert isinstance(aware, bool)
    assert reason


@check
def backend_mix(comm: Any, xp: Any) -> None:
    if cunumpy.get_backend() != "cupy" or comm.Get_size() == 1:
        return
    x = xp.ones(3) if comm.Get_rank() == 0 else np.ones(3)
    raises_everywhere(
        TypeError, ("allreduce", "backends", "numpy", "cupy"), lambda: mpi.allreduce(x)
    )


def main() -> None:
    from mpi4py import MPI

    comm = MPI.COMM_WORLD
    xp = lib_of_backend()
    if cunumpy.get_backend() == "cupy":
        mpi.bind_local_device()
    for name, func in CHECKS.items():
        try:
            func(comm, xp)
        except Exception as exc:
            report(comm.Get_rank(), name, exc)
        else:
            report(comm.Get_rank(), name)


if __name__ == "__main__":
    main()
