"""Programs written against CuNumpy 0.7.1's documented `mpi` and `memory` API.

Each follows 0.7.1's README, its guide for coding assistants or its docstring examples,
written with ``import cunumpy as xp``, and asserts what 0.7.1 documents. They run on the
NumPy backend without an MPI launcher (the serial stand-in). The same programs printed
identical results under cunumpy and under CuNumpy 0.7.1 (with maybempi 0.1.2) in two
virtual environments.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np
import pytest

import cunumpy as xp


@pytest.fixture(autouse=True)
def _numpy_backend_and_no_recorded_answer() -> Iterator[None]:
    xp.set_backend("numpy")
    xp.mpi.set_mpi_cuda_aware(None)
    yield
    xp.mpi.set_mpi_cuda_aware(None)


def test_guide_get_mpi_without_a_launcher(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(xp.mpi.OVERRIDE_VARIABLE, "0")
    assert xp.mpi.launched_under_mpi() is False
    MPI = xp.mpi.get_mpi(False)  # what get_mpi() returns without a launcher
    comm = MPI.COMM_WORLD
    assert xp.mpi.is_serial(MPI) and xp.mpi.is_serial(comm)
    assert (comm.Get_size(), comm.Get_rank(), comm.size, comm.rank) == (1, 0, 1, 0)
    assert (comm.allreduce(3, op=MPI.SUM), comm.allgather(2)) == (3, [2])
    out = np.zeros(3)
    comm.Sendrecv(np.arange(3.0), 0, recvbuf=out, source=0)
    assert out.tolist() == [0.0, 1.0, 2.0]


def test_docstrings_mpi_buffer_staging_and_exchange() -> None:
    MPI = xp.mpi.get_mpi(False)
    comm = MPI.COMM_WORLD
    rho = np.ones(3)
    with xp.mpi.mpi_buffer(rho, recv=True) as buf:
        comm.Allreduce(MPI.IN_PLACE, buf, op=MPI.SUM)
    assert rho.tolist() == [1.0, 1.0, 1.0]
    staging = xp.mpi.MPIStaging((3,), np.float64)
    with staging.buffer(rho, recv=True) as buf:
        assert buf is rho  # host arrays are not staged
    assert (staging.shape, staging.dtype) == ((3,), np.float64)
    send, recv = np.arange(3.0), np.empty(3)
    xp.mpi.exchange(
        comm,
        sends=[(send, (comm.rank + 1) % comm.size, 0)],
        receives=[(recv, (comm.rank - 1) % comm.size, 0)],
    )
    assert recv.tolist() == [0.0, 1.0, 2.0]
    kept = np.full(2, 5.0)
    xp.mpi.exchange(
        comm, sends=[(np.ones(2), MPI.PROC_NULL, 1)], receives=[(kept, MPI.PROC_NULL, 1)]
    )
    assert kept.tolist() == [5.0, 5.0]


def test_readme_startup_sequence_on_numpy() -> None:
    assert xp.cuda.bind_local_device() is None
    assert xp.mpi.require_cuda_aware_mpi() is None
    assert xp.mpi.mpi_is_cuda_aware() is False
    assert xp.mpi.get_mpi_cuda_aware() is None  # nothing recorded on NumPy
    send, recv = np.ones(4), np.empty(4)
    assert xp.mpi.synchronize_for_mpi(send, recv) is None
    xp.mpi.set_mpi_cuda_aware(False)
    assert xp.mpi.get_mpi_cuda_aware() is False
    assert xp.mpi.local_rank() >= 0


def test_readme_device_mirror_of_a_host_buffer() -> None:
    data = np.ones((4, 3))  # owned by another library
    mirror = xp.memory.DeviceMirror(data)
    mirror.zero()
    mirror.device[1, :] += 2.0  # the accumulation kernel
    assert mirror.to_host().host is data
    assert (float(data.sum()), mirror.shape, mirror.dtype) == (6.0, (4, 3), np.float64)
    new = np.full((2, 2), 7.0)
    assert mirror.rebind(new).host is new
    assert mirror.to_device().device is new and mirror.shape == (2, 2)


def test_docstrings_host_staging_and_to_host_async() -> None:
    staging = xp.memory.HostStaging((2, 3), np.float64)
    first = staging.copy(np.ones((2, 3)))
    assert first.ready() and float(first.result().sum()) == 6.0
    assert (staging.shape, staging.dtype, staging.buffers) == ((2, 3), np.float64, 2)
    second = staging.copy(np.zeros((2, 3)))
    third = staging.copy(np.full((2, 3), 2.0))
    with pytest.raises(RuntimeError):
        first.result()  # its buffer was reused by the third copy
    assert (float(second.result().sum()), float(third.result().sum())) == (0.0, 12.0)
    pending = xp.to_host_async(np.float64(3.5))
    assert pending.ready() and repr(pending.result()) == "np.float64(3.5)"
    assert type(pending).__name__ == "HostCopy"
    assert xp.to_host_async(np.arange(3)).result().tolist() == [0, 1, 2]


@pytest.mark.parametrize(
    ("call", "error"),
    [
        (lambda: xp.memory.DeviceMirror([1.0]), TypeError),
        (lambda: xp.memory.HostStaging(2, float, buffers=0), ValueError),
        (lambda: xp.memory.HostStaging(2, float).copy(np.ones(4)), ValueError),
        (lambda: xp.mpi.MPIStaging(-1, float), ValueError),
        (lambda: xp.mpi.MPIStaging(2, object), TypeError),
        (lambda: xp.mpi.mpi_is_cuda_aware(method="x"), ValueError),
    ],
)
def test_documented_errors_have_0_7_1s_types(
    call: Callable[[], object], error: type[Exception]
) -> None:
    with pytest.raises(error):
        call()
