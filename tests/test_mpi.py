"""Tests of cunumpy.mpi: real mpiexec runs of worker scripts, plus single-process checks.

The collectives run under ``mpiexec -n 2`` and ``-n 4`` (oversubscribed where there are
fewer cores); each rank reports every check, and each test asserts one check passed on
every rank. ``examples/heat2d.py`` runs with 1, 2 and 4 ranks and must match a
single-process NumPy reference. Without mpi4py or mpiexec these tests skip, saying why.
"""

from __future__ import annotations

import functools
import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import cunumpy
from cunumpy import mpi

ROOT = Path(__file__).resolve().parent.parent
WORKER = ROOT / "tests" / "mpi_workers" / "collectives.py"
EXAMPLE = ROOT / "examples" / "heat2d.py"
TIMEOUT_S = 120

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


def _mpiexec() -> str | None:
    search = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    return shutil.which("mpiexec", path=search)


@functools.cache
def _mpi_unusable() -> str | None:
    """Why mpi4py cannot be used here (asked in a subprocess, so that this one stays free
    of MPI until a test needs it), or None."""
    if importlib.util.find_spec("mpi4py") is None:
        return "mpi4py is not installed (pip install cunumpy[mpi])"
    code = (
        "from cunumpy.mpi._env import require_mpi\n"
        "try:\n"
        "    require_mpi('the MPI tests')\n"
        "except RuntimeError as exc:\n"
        "    print(exc)\n"
    )
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    }
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env
    )
    reason = (done.stdout.strip() or done.stderr.strip()) if done.returncode == 0 else done.stderr
    return reason or None


def _mpi_or_skip() -> None:
    """Skip the calling test, with mpi4py's reason, where MPI cannot be used."""
    reason = _mpi_unusable()
    if reason is not None:
        pytest.skip(reason)


def _skip_reason() -> str | None:
    reason = _mpi_unusable()
    if reason is not None:
        return reason
    if _mpiexec() is None:
        return "no mpiexec on PATH or next to the Python executable"
    return None


@functools.cache
def _is_open_mpi(mpiexec: str) -> bool:
    version = subprocess.run(
        [mpiexec, "--version"], capture_output=True, text=True, timeout=30, check=False
    )
    text = version.stdout + version.stderr
    return "Open MPI" in text or "OpenRTE" in text or "prterun" in text.lower()


def _environment(backend: str) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    env["CUNUMPY_BACKEND"] = backend
    # Open MPI: allow root (containers, CI) and use shared memory only, no network probing.
    env.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
    env.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
    env.setdefault("OMPI_MCA_pml", "ob1")
    env.setdefault("OMPI_MCA_btl", "self,vader")
    return env


def run_mpi(
    n: int, script: Path, *args: str, backend: str = "numpy"
) -> subprocess.CompletedProcess[str]:
    """Run ``script`` on ``n`` ranks; fail (not hang) after ``TIMEOUT_S`` seconds."""
    reason = _skip_reason()
    if reason is not None:
        pytest.skip(reason)
    mpiexec = _mpiexec()
    assert mpiexec is not None
    command = [mpiexec, "-n", str(n)]
    if _is_open_mpi(mpiexec):
        command.append("--oversubscribe")
    command += [sys.executable, str(script), *args]
    try:
        return subprocess.run(
            command,
            capture_output=True,
            text=True,
            timeout=TIMEOUT_S,
            env=_environment(backend),
            cwd=ROOT,
            check=False,
        )
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"{' '.join(command)} hung for {TIMEOUT_S} s; output:\n{exc.stdout}")


@functools.cache
def _worker_results(n: int, backend: str) -> tuple[dict[tuple[int, str], str], str]:
    """Run the worker once per (ranks, backend); map (rank, check) to PASS or the failure."""
    done = run_mpi(n, WORKER, backend=backend)
    results: dict[tuple[int, str], str] = {}
    for line in done.stdout.splitlines():
        if line.startswith("RESULT "):
            _, rank, name, verdict = line.split(" ", 3)
            results[int(rank), name] = verdict
    log = f"exit status {done.returncode}\nstdout:\n{done.stdout}\nstderr:\n{done.stderr}"
    return results, log


def _assert_check(n: int, backend: str, name: str) -> None:
    results, log = _worker_results(n, backend)
    for rank in range(n):
        verdict = results.get((rank, name))
        assert verdict is not None, f"rank {rank} did not report {name!r}:\n{log}"
        assert verdict == "PASS", f"rank {rank} failed {name!r}: {verdict}"


@pytest.mark.mpi
@pytest.mark.parametrize("n", [2, 4])
@pytest.mark.parametrize("name", CHECK_NAMES)
def test_collectives_numpy(n: int, name: str) -> None:
    _assert_check(n, "numpy", name)


@pytest.mark.mpi
@pytest.mark.parametrize("n", [2, 4])
def test_worker_reports_every_check(n: int) -> None:
    results, log = _worker_results(n, "numpy")
    assert {name for _, name in results} == set(CHECK_NAMES), log


@pytest.mark.mpi
@pytest.mark.gpu
@pytest.mark.parametrize("name", CHECK_NAMES)
def test_collectives_cupy_two_ranks_one_gpu(name: str) -> None:
    _assert_check(2, "cupy", name)


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
    env = _environment("numpy")
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
    _mpi_or_skip()
    monkeypatch.delenv(mpi.CUDA_AWARE_ENV_VAR, raising=False)
    aware, reason = mpi.is_cuda_aware()
    assert isinstance(aware, bool)
    assert "MPI" in reason or "mpi" in reason


@pytest.mark.mpi
def test_single_process_errors() -> None:
    _mpi_or_skip()
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
