"""Tests of CuNumpy 0.7.1's additions to cunumpy.mpi: MPI without MPI, mpi_buffer,
MPIStaging, exchange, CUDA-awareness, synchronize_for_mpi(*arrays), bind_local_device.

Serial tests run in this process or in a subprocess with mpi4py blocked (no launcher:
the serial stand-in); ``mpi``-marked tests run ``tests/mpi_workers/buffers.py`` and
``examples/heat2d.py`` under ``mpiexec``; ``gpu``-marked tests need a real GPU.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from mpi_run import ROOT, assert_check, environment, run_mpi, worker_results

import cunumpy
from cunumpy import mpi
from cunumpy._placement._transfer_log import listening
from cunumpy.mpi import _aware

WORKER = ROOT / "tests" / "mpi_workers" / "buffers.py"
EXAMPLE = ROOT / "examples" / "heat2d.py"
CHECKS = (
    "launcher_detected",
    "mpi_buffer_allreduce",
    "exchange_ring",
    "exchange_errors_agree",
    "cuda_awareness_agrees",
)
LAUNCHER_VARIABLES = ("OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "MV2_COMM_WORLD_RANK")


@pytest.fixture(autouse=True)
def _forget_cuda_awareness() -> Iterator[None]:
    _aware.set_mpi_cuda_aware(None)
    yield
    _aware.set_mpi_cuda_aware(None)


def _serial_python(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    """Run ``code`` without a launcher, with mpi4py made unimportable."""
    env = environment("numpy")
    for name in (*LAUNCHER_VARIABLES, "MAYBEMPI", "MPI_LOCALRANKID", "PALS_RANKID"):
        env.pop(name, None)
    blocked = "import sys; sys.modules['mpi4py'] = None; sys.modules['mpi4py.MPI'] = None\n"
    return subprocess.run(
        [sys.executable, "-c", blocked + code, *args],
        capture_output=True, text=True, env=env, cwd=ROOT, timeout=120, check=False,
    )  # fmt: skip


# --- MPI without MPI ---


def test_get_mpi_without_mpi4py_is_the_serial_stand_in() -> None:
    code = (
        "import numpy as np\n"
        "from cunumpy import mpi\n"
        "MPI = mpi.get_mpi()\n"
        "assert isinstance(MPI, mpi.SerialMPI) and mpi.is_serial(MPI), MPI\n"
        "comm = MPI.COMM_WORLD\n"
        "assert isinstance(comm, mpi.SerialComm) and comm.Get_size() == 1\n"
        "assert not mpi.launched_under_mpi() and mpi.local_rank() == 0\n"
        "print(mpi.allreduce(np.arange(3.0)).tolist(), mpi.gather(np.ones(2)).shape)\n"
        "x = np.full(2, 4.0)\n"
        "with mpi.mpi_buffer(x, recv=True) as buf:\n"
        "    comm.Allreduce(MPI.IN_PLACE, buf, op=MPI.SUM)\n"
        "print(x.tolist(), mpi.mpi_is_cuda_aware(), mpi.bind_local_device())\n"
        "a = np.arange(4)\n"
        "print(mpi.bcast(a).tolist(), mpi.allgather(a).shape, mpi.scatter(a[None]).tolist())\n"
        "mpi.send(a, 0, tag=5)\n"
        "print(mpi.recv(0, tag=5).tolist(), mpi.sendrecv(a + 1, dest=0).tolist())\n"
        "import sys\n"
        "print(sorted(m for m in ('mpi4py.MPI', 'cupy') if sys.modules.get(m) is not None))\n"
    )
    done = _serial_python(code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "[0.0, 1.0, 2.0] (1, 2)",
        "[4.0, 4.0] False None",
        "[0, 1, 2, 3] (1, 4) [0, 1, 2, 3]",
        "[0, 1, 2, 3] [1, 2, 3, 4]",
        "[]",
    ]


def test_launched_under_mpi_reads_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in LAUNCHER_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv(mpi.OVERRIDE_VARIABLE, "0")
    assert mpi.launched_under_mpi() is False
    monkeypatch.delenv(mpi.OVERRIDE_VARIABLE)
    monkeypatch.setenv("PMI_RANK", "3")
    assert mpi.launched_under_mpi() is True
    monkeypatch.setenv(mpi.OVERRIDE_VARIABLE, "no")
    assert mpi.launched_under_mpi() is False
    assert mpi.OVERRIDE_VARIABLE == "MAYBEMPI"


def test_is_serial_tells_the_stand_in_from_others() -> None:
    serial = mpi.SerialMPI()
    assert mpi.is_serial(serial) and mpi.is_serial(serial.COMM_WORLD)
    assert not mpi.is_serial(np) and not mpi.is_serial(None)


def test_collectives_accept_the_serial_communicator() -> None:
    comm = mpi.SerialMPI().COMM_WORLD
    np.testing.assert_array_equal(mpi.bcast(np.arange(3), comm=comm), [0, 1, 2])
    np.testing.assert_array_equal(mpi.scatter(np.asarray([[5, 6]]), comm=comm), [5, 6])
    out = np.zeros(2)
    assert mpi.sendrecv(np.asarray([1.5, 2.5]), dest=0, out=out, comm=comm) is out
    np.testing.assert_array_equal(out, [1.5, 2.5])
    with pytest.raises(TypeError, match=r"allreduce: `comm` must be an mpi4py.MPI.Comm, the seri"):
        mpi.allreduce(np.ones(2), comm=object())
    with pytest.raises(ValueError, match=r"allreduce: .*`op` must be one of"):
        mpi.allreduce(np.ones(2), "mean", comm=comm)


def test_serial_copies_of_device_like_buffers_go_to_the_transfer_log() -> None:
    class DeviceLike:  # an object with .get(), as the stand-in treats CuPy arrays
        def __init__(self, values: np.ndarray) -> None:
            self.values = values

        def get(self) -> np.ndarray:
            return self.values

    seen: list[tuple[str, int | None]] = []
    MPI = mpi.SerialMPI()
    target = np.zeros(3)
    with listening(lambda kind, what, nbytes, *_: seen.append((kind, nbytes))):
        MPI.COMM_WORLD.Allreduce(DeviceLike(np.arange(3.0)), target, op=MPI.SUM)
    np.testing.assert_array_equal(target, [0.0, 1.0, 2.0])
    assert seen == [("to_host", 24)]


# --- heat2d: one program, with and without MPI ---

HEAT_ARGS = ("--ny", "32", "--nx", "20", "--steps", "60", "--alpha", "0.2")


def _heat_serial(tmp_path: Path) -> np.ndarray:
    output = tmp_path / "serial.npy"
    code = "import runpy; sys.argv.pop(0); runpy.run_path(sys.argv[0], run_name='__main__')\n"
    done = _serial_python(code, str(EXAMPLE), *HEAT_ARGS, "--output", str(output))
    assert done.returncode == 0, done.stderr
    assert "1 rank(s), numpy (CPU): total heat" in done.stdout
    return np.load(output)


def test_heat2d_runs_without_mpiexec_and_without_mpi4py(tmp_path: Path) -> None:
    field = _heat_serial(tmp_path)
    u = np.zeros((34, 22))  # the same problem, written independently
    u[9:25, 6:16] = 1.0
    for _ in range(60):
        c = u[1:-1, 1:-1]
        u[1:-1, 1:-1] = c + 0.2 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:] - 4 * c)
    np.testing.assert_allclose(field, u[1:-1, 1:-1], rtol=1e-12, atol=1e-14)


@pytest.mark.mpi
@pytest.mark.parametrize("n", [2, 4])
def test_heat2d_under_mpiexec_equals_the_serial_run(n: int, tmp_path: Path) -> None:
    output = tmp_path / f"ranks{n}.npy"
    done = run_mpi(n, EXAMPLE, *HEAT_ARGS, "--output", str(output))
    assert done.returncode == 0, done.stderr
    assert f"{n} rank(s), numpy" in done.stdout
    np.testing.assert_array_equal(np.load(output), _heat_serial(tmp_path))


def test_heat2d_runs_without_mpi4py() -> None:
    # get_mpi() gives the serial stand-in; the docstring's command that works as root and
    # on few cores is run by tests/test_example_commands.py.
    assert "from mpi4py" not in EXAMPLE.read_text()


# --- under mpiexec ---


@pytest.mark.mpi
@pytest.mark.parametrize("n", [2, 4])
@pytest.mark.parametrize("name", CHECKS)
def test_buffers(n: int, name: str) -> None:
    assert_check(WORKER, n, "numpy", name)


@pytest.mark.mpi
@pytest.mark.parametrize("n", [2, 4])
def test_buffers_worker_reports_every_check(n: int) -> None:
    results, log = worker_results(WORKER, n, "numpy")
    assert {name for _, name in results} == set(CHECKS), log


@pytest.mark.mpi
@pytest.mark.gpu
@pytest.mark.parametrize("name", CHECKS)
def test_buffers_two_ranks_cupy(name: str) -> None:
    assert_check(WORKER, 2, "cupy", name)


# --- mpi_buffer, MPIStaging, exchange in one process ---


def test_mpi_buffer_passes_host_arrays_and_checks_its_arguments() -> None:
    x = np.ones(3)
    with mpi.mpi_buffer(x, send=True, recv=True) as buf:
        assert buf is x
    with (
        pytest.raises(TypeError, match=r"mpi_buffer: `recv` must be True or False, not 'yes'"),
        mpi.mpi_buffer(x, recv="yes"),  # type: ignore[arg-type]
    ):
        pass
    with (
        pytest.raises(TypeError, match=r"mpi_buffer: `cuda_aware` must be True, False or None"),
        mpi.mpi_buffer(x, cuda_aware=1),  # type: ignore[arg-type]
    ):
        pass
    with (
        pytest.raises(ValueError, match=r"mpi_buffer: pass at most one of `stream` and `event`"),
        mpi.mpi_buffer(x, stream=object(), event=object()),
    ):
        pass
    with (
        pytest.raises(ValueError, match=r"staging is for shape \(4,\) .* shape \(3,\)"),
        mpi.MPIStaging(4, np.float64).buffer(x),
    ):
        pass


def test_mpi_staging_checks_shape_and_dtype() -> None:
    staging = mpi.MPIStaging((2, 3), "float32")
    assert staging.shape == (2, 3) and staging.dtype == np.float32
    assert mpi.MPIStaging(np.int64(5), np.int8).shape == (5,)
    with pytest.raises(ValueError, match=r"MPIStaging: `shape` must not be negative, got \(-1,\)"):
        mpi.MPIStaging(-1, float)
    with pytest.raises(TypeError, match=r"MPIStaging: `shape` must be an int or a tuple of ints"):
        mpi.MPIStaging(2.5, float)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"MPIStaging: `dtype` must not be object"):
        mpi.MPIStaging(2, object)


def test_exchange_in_one_process() -> None:
    comm = mpi.get_mpi(False).COMM_WORLD
    a, b = np.zeros(3), np.zeros((2, 2), dtype=np.int32)
    mpi.exchange(
        comm,
        sends=[(np.arange(3.0), 0, 1), (np.full((2, 2), 9, dtype=np.int32), 0, 2)],
        receives=[(a, 0, 1), (b, 0, 2)],
    )
    np.testing.assert_array_equal(a, [0.0, 1.0, 2.0])
    np.testing.assert_array_equal(b, np.full((2, 2), 9))
    kept = np.full(2, 5.0)
    mpi.exchange(
        comm, sends=[(np.ones(2), -2, 0)], receives=[(kept, mpi.get_mpi(False).PROC_NULL, 0)]
    )
    mpi.exchange(comm)  # nothing to do
    np.testing.assert_array_equal(kept, [5.0, 5.0])


def test_exchange_errors_name_the_entry() -> None:
    comm = mpi.get_mpi(False).COMM_WORLD
    with pytest.raises(TypeError, match=r"exchange: `receives\[0\]` has dtype 'float64' but"):
        mpi.exchange(comm, sends=[(np.ones(2, np.float32), 0, 0)], receives=[(np.ones(2), 0, 0)])
    column = np.ones((4, 4))[:, 1]
    with pytest.raises(ValueError, match=r"exchange: rank 0 sent an invalid array: `sends\[0\]`"):
        mpi.exchange(comm, sends=[(column, 0, 0)], receives=[(np.ones(4), 0, 0)])
    with pytest.raises(TypeError, match=r"exchange: `sends\[0\]` must be a tuple \(array, rank"):
        mpi.exchange(comm, sends=[np.ones(2)])  # type: ignore[list-item]
    with pytest.raises(ValueError, match=r"exchange: `dest` must be an int rank in range\(1\)"):
        mpi.exchange(comm, sends=[(np.ones(2), 3, 0)])
    with pytest.raises(TypeError, match=r"exchange: `comm` must be an mpi4py.MPI.Comm"):
        mpi.exchange("world", sends=[])


# --- CUDA-awareness and synchronization ---


def test_recorded_cuda_awareness() -> None:
    assert mpi.get_mpi_cuda_aware() is None
    mpi.set_mpi_cuda_aware(np.bool_(True))
    assert mpi.get_mpi_cuda_aware() is True
    assert _aware.device_buffers_direct("test") is True
    mpi.set_mpi_cuda_aware(False)
    assert _aware.device_buffers_direct("test") is False
    with pytest.raises(TypeError, match=r"set_mpi_cuda_aware: `value` must be True, False or"):
        mpi.set_mpi_cuda_aware("yes")  # type: ignore[arg-type]


def test_cuda_awareness_on_numpy_touches_no_mpi() -> None:
    code = (
        "from cunumpy import mpi\n"
        "assert mpi.mpi_is_cuda_aware() is False and mpi.get_mpi_cuda_aware() is None\n"
        "assert mpi.mpi_is_cuda_aware(method='query') is False\n"
        "assert mpi.require_cuda_aware_mpi() is None\n"
        "try:\n"
        "    mpi.mpi_is_cuda_aware(method='ask')\n"
        "except ValueError as exc:\n"
        "    print(exc)\n"
    )
    done = _serial_python(code)
    assert done.returncode == 0, done.stderr
    assert "mpi_is_cuda_aware: `method` must be one of ('probe', 'query'), not 'ask'" in done.stdout


def test_synchronize_for_mpi_takes_the_buffers() -> None:
    send, recv = np.ones(4), np.empty(4)
    assert mpi.synchronize_for_mpi(send, recv, None, [send, "DOUBLE"], bytearray(2)) is None
    mpi.synchronize_for_mpi()  # the current GPU; nothing on NumPy
    with pytest.raises(ValueError, match=r"synchronize_for_mpi: pass at most one of `stream`"):
        mpi.synchronize_for_mpi(send, stream=object(), event=object())
    with pytest.raises(TypeError, match=r"synchronize_for_mpi: `arrays\[1\]` must be a NumPy"):
        mpi.synchronize_for_mpi(send, 3.5)


def test_bind_local_device_is_one_function_at_two_paths() -> None:
    assert cunumpy.cuda.bind_local_device is mpi.bind_local_device
    assert mpi.bind_local_device() is None  # NumPy backend


# --- on a GPU: staging through the host, with the serial communicator ---


@pytest.mark.gpu
def test_mpi_buffer_stages_cupy_arrays_and_logs_the_copies() -> None:
    import cupy

    MPI = mpi.get_mpi(False)
    x = cupy.arange(6.0).reshape(2, 3)
    seen: list[str] = []
    with (
        listening(lambda kind, *_: seen.append(kind)),
        mpi.mpi_buffer(x, recv=True, cuda_aware=False) as buf,
    ):
        assert type(buf) is np.ndarray
        np.testing.assert_array_equal(buf, np.arange(6.0).reshape(2, 3))
        buf += 1.0  # what MPI would write
    assert seen == ["sync", "to_host", "to_device"]
    np.testing.assert_array_equal(x.get(), np.arange(1.0, 7.0).reshape(2, 3))
    column = cupy.zeros((3, 2))
    with mpi.mpi_buffer(column[:, 1], send=False, recv=True, cuda_aware=False) as buf:
        MPI.COMM_WORLD.Allreduce(np.full(3, 2.0), buf, op=MPI.SUM)
    np.testing.assert_array_equal(column.get(), [[0, 2], [0, 2], [0, 2]])
    with mpi.mpi_buffer(x, cuda_aware=True) as buf:
        assert buf is x


@pytest.mark.gpu
def test_exchange_staged_and_direct_cupy() -> None:
    import cupy

    comm = mpi.get_mpi(False).COMM_WORLD
    for aware in (False, True):
        out = cupy.zeros(4, dtype=cupy.int32)
        mpi.exchange(
            comm,
            sends=[(cupy.arange(4, dtype=cupy.int32), 0, 0)],
            receives=[(out, 0, 0)],
            cuda_aware=aware,
        )
        np.testing.assert_array_equal(out.get(), [0, 1, 2, 3])
    mpi.set_mpi_cuda_aware(False)
    total = mpi.allreduce(cupy.ones(3))  # the collectives follow the recorded answer
    assert type(total) is cupy.ndarray


@pytest.mark.gpu
def test_mpi_is_cuda_aware_probe_on_the_serial_communicator() -> None:
    cunumpy.set_backend("cupy")
    assert mpi.mpi_is_cuda_aware(mpi.get_mpi(False).COMM_WORLD) is True  # copies itself
    assert mpi.get_mpi_cuda_aware() is True
    stream = __import__("cupy").cuda.Stream()
    mpi.synchronize_for_mpi(__import__("cupy").ones(2), stream=stream)


@pytest.mark.mpi
@pytest.mark.gpu
def test_buffers_two_ranks_cupy_staged_through_the_host() -> None:
    done = run_mpi(2, WORKER, "--staged", backend="cupy")
    lines = sorted(line for line in done.stdout.splitlines() if line.startswith("RESULT "))
    expected = sorted(f"RESULT {rank} {name} PASS" for rank in (0, 1) for name in CHECKS)
    assert lines == expected, done.stdout + done.stderr
