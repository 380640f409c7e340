"""MPI worker for tests/test_mpi_buffers.py: get_mpi, mpi_buffer, exchange, CUDA-awareness.

Run as ``mpiexec -n N python tests/mpi_workers/buffers.py``; arrays are NumPy's, or
CuPy's with ``CUNUMPY_BACKEND=cupy`` (then the argument ``--staged`` forces staging
through host memory). Each rank prints ``RESULT <rank> <check> PASS`` or
``RESULT <rank> <check> FAIL <why>`` per check, like tests/mpi_workers/collectives.py.
"""

from __future__ import annotations

import os
import sys
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


def host(x: Any) -> np.ndarray:
    return cunumpy.to_numpy(x)


def caught(call: Callable[[], object]) -> Exception | None:
    try:
        call()
    except Exception as exc:
        return exc
    return None


@check
def launcher_detected(comm: Any, xp: Any) -> None:
    import mpi4py.MPI

    assert mpi.launched_under_mpi()
    assert mpi.get_mpi() is mpi4py.MPI
    assert not mpi.is_serial(mpi.get_mpi())
    assert not mpi.is_serial(comm)
    assert mpi.local_rank() == int(os.environ["OMPI_COMM_WORLD_LOCAL_RANK"])


@check
def mpi_buffer_allreduce(comm: Any, xp: Any) -> None:
    MPI = mpi.get_mpi()
    rho = xp.full(5, float(comm.Get_rank() + 1))
    with mpi.mpi_buffer(rho, recv=True) as buf:
        comm.Allreduce(MPI.IN_PLACE, buf, op=MPI.SUM)
    n = comm.Get_size()
    assert type(rho) is type(xp.ones(1))
    np.testing.assert_array_equal(host(rho), np.full(5, n * (n + 1) / 2))
    staging = mpi.MPIStaging(5, np.float64)
    for round_ in range(3):  # reused host memory
        x = xp.full(5, float(round_))
        with staging.buffer(x, recv=True) as buf:
            comm.Allreduce(MPI.IN_PLACE, buf, op=MPI.MAX)
        np.testing.assert_array_equal(host(x), np.full(5, float(round_)))
    column = xp.zeros((4, 3))
    column[:, 1] = comm.Get_rank() + 1.0
    view = column[:, 1]  # not contiguous: packed and unpacked
    if cunumpy.is_cupy_array(view) or view.flags.c_contiguous:
        with mpi.mpi_buffer(view, recv=True) as buf:
            comm.Allreduce(MPI.IN_PLACE, buf, op=MPI.SUM)
        np.testing.assert_array_equal(host(column)[:, 1], np.full(4, n * (n + 1) / 2))


@check
def exchange_ring(comm: Any, xp: Any) -> None:
    rank, size = comm.Get_rank(), comm.Get_size()
    right, left = (rank + 1) % size, (rank - 1) % size
    send = xp.arange(4, dtype=xp.int64) + 10 * rank
    recv = xp.zeros(4, dtype=xp.int64)
    also = xp.full((2, 2), -1.0)
    mpi.exchange(
        comm,
        sends=[(send, right, 3), (xp.full((2, 2), float(rank)), left, 4)],
        receives=[(recv, left, 3), (also, right, 4)],
    )
    np.testing.assert_array_equal(host(recv), np.arange(4) + 10 * left)
    np.testing.assert_array_equal(host(also), np.full((2, 2), float(right)))
    untouched = xp.full(3, 7.0)
    null = mpi.get_mpi().PROC_NULL
    mpi.exchange(comm, sends=[(xp.ones(3), null, 0)], receives=[(untouched, null, 0)])
    np.testing.assert_array_equal(host(untouched), np.full(3, 7.0))


@check
def exchange_errors_agree(comm: Any, xp: Any) -> None:
    """A bad array on rank 0 raises on rank 0 and on its receiver, and nothing hangs."""
    rank, size = comm.Get_rank(), comm.Get_size()
    right, left = (rank + 1) % size, (rank - 1) % size
    bad_shape = xp.zeros(5) if rank == 1 else xp.zeros(4)  # rank 1 expects 5 values
    raised = caught(
        lambda: mpi.exchange(comm, sends=[(xp.ones(4), right, 7)], receives=[(bad_shape, left, 7)])
    )
    if rank == 1:
        assert isinstance(raised, ValueError), raised
        assert "exchange: on rank 1, `receives[0]` has shape (5,)" in str(raised), raised
    else:
        assert raised is None, raised  # the sender did its part
    bad_dtype = np.asarray(["text"] * 4) if rank == 0 else xp.ones(4)
    raised = caught(
        lambda: mpi.exchange(comm, sends=[(bad_dtype, right, 8)], receives=[(xp.zeros(4), left, 8)])
    )
    if rank in (0, 1 % size):  # the sender and its receiver
        assert isinstance(raised, TypeError), raised
        assert "sends[0]` has dtype '<U4'" in str(raised), raised
    else:
        assert raised is None, raised
    comm.Barrier()  # everyone got here: nothing was left waiting


@check
def cuda_awareness_agrees(comm: Any, xp: Any) -> None:
    answer = mpi.mpi_is_cuda_aware(comm)
    answers = comm.allgather(answer)
    assert len(set(answers)) == 1, answers
    if cunumpy.get_backend() == "numpy":
        assert answer is False
        assert mpi.require_cuda_aware_mpi(comm) is None
    else:
        assert mpi.get_mpi_cuda_aware() is answer
    mpi.synchronize_for_mpi(xp.ones(2), None, [xp.ones(2), mpi.get_mpi().DOUBLE])


def main() -> None:
    if cunumpy.get_backend() == "cupy":
        cunumpy.cuda.bind_local_device()
    comm = mpi.get_mpi().COMM_WORLD
    xp = np
    if cunumpy.get_backend() == "cupy":
        import cupy as xp

        if "--staged" in sys.argv:
            mpi.set_mpi_cuda_aware(False)
    for name, func in CHECKS.items():
        try:
            func(comm, xp)
        except Exception as exc:
            report(comm.Get_rank(), name, exc)
        else:
            report(comm.Get_rank(), name)
        if name == "cuda_awareness_agrees" and "--staged" in sys.argv:
            mpi.set_mpi_cuda_aware(False)  # the probe recorded its own answer


if __name__ == "__main__":
    main()
