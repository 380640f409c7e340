"""Tests of cunumpy.mpi: real mpiexec runs of worker scripts, plus single-process checks.

The collectives run under ``mpiexec -n 2`` and ``-n 4`` (oversubscribed where there are
fewer cores); each rank reports every check, and each test asserts one check passed on
every rank. ``examples/heat2d.py`` runs with 1, 2 and 4 ranks and must match a
single-process NumPy reference. Without mpi4py or mpiexec these tests skip, saying why.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from mpi_run import (
    ROOT,
    assert_check,
    environment,
    mpi_or_skip,
    run_mpi,
    worker_results,
)

import cunumpy
from cunumpy import mpi

WORKER = ROOT / "tests" / "mpi_workers" / "collectives.py"
EXAMPLE = ROOT / "examples" / "heat2d.py"

CHECK_NAMES = (
    "allreduce_ops",
    "allreduce_errors",
    "bcast_values",
    "bcast_errors",
    "allgather_values",
    "gather_values",
    "scatter_values",
    "send_recv",
    "sendrecv_halo",
    "binding",
    "backend_mix",
)


@pytest.mark.mpi
@pytest.mark.parametrize("n", [2, 4])
@pytest.mark.parametrize("name", CHECK_NAMES)
def test_collectives_numpy(n: int, name: str) -> None:
    assert_check(WORKER, n, "numpy", name)


@pytest.mark.mpi
@pytest.mark.parametrize("n", [2, 4])
def test_worker_reports_every_check(n: int) -> None:
    results, log = worker_results(WORKER, n, "numpy")
    assert {name for _, name in results} == set(CHECK_NAMES), log


@pytest.mark.mpi
@pytest.mark.gpu
@pytest.mark.parametrize("name", CHECK_NAMES)
def test_collectives_cupy_two_ranks_one_gpu(name: str) -> None:
    assert_check(WORKER, 2, "cupy", name)


def _heat_reference(ny: int, nx: int, steps: int, alpha: float) -> np.ndarray:
    """The same problem in plain NumPy in one process, written independently."""
    u = np.zeros((ny + 2, nx + 2))
    u[1 + ny // 4 : 1 + 3 * ny // 4, 1 + nx // 4 : 1 + 3 * nx // 4] = 1.0
    for _ in range(steps):
        c = u[1:-1, 1:-1]
        lap = u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:] - 4.0 * c
        u[1:-1, 1:-1] = c + alpha * lap
    return u[1:-1, 1:-1]


HEAT_ARGS = ("--ny", "32", "--nx", "20", "--steps", "60", "--alpha", "0.2")


def _run_example(n: int, tmp_path: Path, backend: str) -> np.ndarray:
    output = tmp_path / f"field_{backend}_{n}.npy"
    done = run_mpi(n, EXAMPLE, *HEAT_ARGS, "--output", str(output), backend=backend)
    assert done.returncode == 0, f"stdout:\n{done.stdout}\nstderr:\n{done.stderr}"
    assert f"{n} rank(s), {backend}" in done.stdout
    return np.load(output)


@pytest.mark.mpi
@pytest.mark.parametrize("n", [1, 2, 4])
def test_heat2d_matches_single_process(n: int, tmp_path: Path) -> None:
    expected = _heat_reference(32, 20, 60, 0.2)
    field = _run_example(n, tmp_path, "numpy")
    assert field.shape == (32, 20)
    assert field.sum() > 1.0  # heat is still there, and it has spread
    assert np.count_nonzero(field) > (32 // 2) * (20 // 2)  # beyond the initial hot square
    np.testing.assert_allclose(field, expected, rtol=1e-12, atol=1e-14)


@pytest.mark.mpi
@pytest.mark.gpu
def test_heat2d_cupy_two_ranks_one_gpu(tmp_path: Path) -> None:
    expected = _heat_reference(32, 20, 60, 0.2)
    np.testing.assert_allclose(_run_example(2, tmp_path, "cupy"), expected, rtol=1e-12)


def test_import_does_not_import_mpi4py_or_cupy() -> None:
    code = (
        "import sys, cunumpy, cunumpy.mpi\n"
        "bad = [m for m in ('mpi4py', 'mpi4py.MPI', 'cupy') if m in sys.modules]\n"
        "assert not bad, bad\n"
        "assert cunumpy.mpi.bind_local_device() is None\n"
        "cunumpy.mpi.synchronize_for_mpi()\n"
        "assert 'mpi4py' not in sys.modules\n"
        "print('clean')\n"
    )
    env = environment("numpy")
    env.pop("CUNUMPY_BACKEND")
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "clean"


def test_public_names() -> None:
    assert sorted(mpi.__all__) == sorted(set(mpi.__all__))
    for name in mpi.__all__:
        assert getattr(mpi, name).__doc__, name
    assert "allreduce" in mpi.__all__
    assert mpi.REDUCTION_OPS == ("sum", "prod", "min", "max")


def test_local_rank_from_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in mpi.LOCAL_RANK_ENV_VARS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("SLURM_LOCALID", "3")
    assert mpi.local_rank() == 3
    monkeypatch.setenv("MPI_LOCALRANKID", "5")  # checked before Slurm's variable
    assert mpi.local_rank() == 5
    monkeypatch.setenv("MPI_LOCALRANKID", "five")
    with pytest.raises(ValueError, match=r"local_rank: .*MPI_LOCALRANKID='five'"):
        mpi.local_rank()


def test_bind_local_device_on_numpy_does_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OMPI_COMM_WORLD_LOCAL_RANK", "1")
    assert cunumpy.get_backend() == "numpy"
    assert mpi.bind_local_device() is None


def test_is_cuda_aware_override(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(mpi.CUDA_AWARE_ENV_VAR, "1")
    result = mpi.is_cuda_aware()
    assert result.aware is True
    assert bool(result)
    assert mpi.CUDA_AWARE_ENV_VAR in result.reason
    monkeypatch.setenv(mpi.CUDA_AWARE_ENV_VAR, "0")
    assert not mpi.is_cuda_aware()
    monkeypatch.setenv(mpi.CUDA_AWARE_ENV_VAR, "maybe")
    with pytest.raises(ValueError, match=r"is_cuda_aware: .*'maybe'"):
        mpi.is_cuda_aware()


@pytest.mark.mpi
def test_is_cuda_aware_asks_the_library(monkeypatch: pytest.MonkeyPatch) -> None:
    mpi_or_skip()
    monkeypatch.delenv(mpi.CUDA_AWARE_ENV_VAR, raising=False)
    aware, reason = mpi.is_cuda_aware()
    assert isinstance(aware, bool)
    assert "MPI" in reason or "mpi" in reason


@pytest.mark.mpi
def test_single_process_errors() -> None:
    mpi_or_skip()
    with pytest.raises(TypeError, match=r"allreduce: `op` must be one of .*, not 3"):
        mpi.allreduce(np.ones(2), 3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"allreduce: `comm` must be an mpi4py"):
        mpi.allreduce(np.ones(2), comm="world")
    with pytest.raises(TypeError, match=r"allreduce: op 'max' is not defined for complex"):
        mpi.allreduce(np.ones(2, dtype=complex), "max")
    with pytest.raises(TypeError, match=r"bcast: `x` has dtype '<U1'"):
        mpi.bcast(np.asarray(["a"]))
    with pytest.raises(TypeError, match=r"sendrecv: `dest` must be an int rank"):
        mpi.sendrecv(np.ones(2), dest=None)  # type: ignore[arg-type]
    assert mpi.allreduce(np.float64(2.5)).shape == ()  # NumPy scalars count as 0-D


# --- Issue 12, finding 5: staging to the host waits for the work that produces the data ---

_SLOW_FILL = r"""
extern "C" __global__ void slow_fill(double* out, long long n, long long cycles, double value) {
    long long start = clock64();
    while (clock64() - start < cycles) {
    }
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = value;
    }
}
"""


def _filled_late(value: float, n: int = 4096) -> object:
    """A CuPy array that a long kernel (about 0.25 s) on a non-blocking stream sets to
    ``value``; the call returns at once, while the kernel still runs."""
    import cupy

    x = cupy.zeros(n, dtype=cupy.float64)
    cupy.cuda.Device().synchronize()
    kernel = cupy.RawKernel(_SLOW_FILL, "slow_fill")
    stream = cupy.cuda.Stream(non_blocking=True)
    with stream:
        kernel(
            ((n + 255) // 256,), (256,), (x, np.int64(n), np.int64(5 * 10**8), np.float64(value))
        )
    return x


@pytest.mark.gpu
def test_staged_send_buffer_waits_for_work_on_other_streams(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from cunumpy.mpi._buffers import Staging

    monkeypatch.setenv(mpi.CUDA_AWARE_ENV_VAR, "0")  # stage through pinned host memory
    x = _filled_late(7.0)
    staging = Staging.for_array(x, "allreduce")
    assert not staging.direct
    host = staging.send_buffer(x)
    assert type(host) is np.ndarray
    np.testing.assert_array_equal(host, np.full(4096, 7.0))


@pytest.mark.gpu
@pytest.mark.mpi
def test_in_place_allreduce_with_staging_reduces_the_finished_values(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    mpi_or_skip()
    monkeypatch.setenv(mpi.CUDA_AWARE_ENV_VAR, "0")
    x = _filled_late(3.0)
    assert mpi.allreduce(x, out=x) is x  # one rank: the sum is x itself
    np.testing.assert_array_equal(cunumpy.to_numpy(x), np.full(4096, 3.0))


def test_a_worker_writes_each_result_line_in_one_write(monkeypatch: pytest.MonkeyPatch) -> None:
    # The ranks share mpiexec's output: with PYTHONUNBUFFERED=1 (gpu_check.sh), print()
    # wrote a line's text and its newline apart, and the first GPU run read
    # "RESULT 0 binding PASSRESULT 1 sendrecv_halo PASS". One write per line cannot split.
    sys.path.insert(0, str(WORKER.parent))
    try:
        from _report import report
    finally:
        sys.path.pop(0)
    writes: list[str] = []

    class Output:
        def write(self, text: str) -> int:
            writes.append(text)
            return len(text)

        def flush(self) -> None:
            pass

    monkeypatch.setattr(sys, "stdout", Output())
    report(1, "send_recv")
    report(0, "tags", ValueError("two\nlines"))
    assert writes[0] == "RESULT 1 send_recv PASS\n"
    assert writes[1:] == ["RESULT 0 tags FAIL ValueError: two | lines | \n"]  # still one line
