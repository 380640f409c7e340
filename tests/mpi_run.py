"""Running scripts under ``mpiexec`` for the tests, with a timeout so that no test hangs.

Used by ``tests/test_mpi.py`` and ``tests/test_faults.py``. Each worker script prints
``RESULT <rank> <check> PASS`` or ``RESULT <rank> <check> FAIL <why>`` per check; a run
that does not finish within ``TIMEOUT_S`` fails the test with the output so far. Without
a usable mpi4py or an ``mpiexec`` the tests skip, saying why.
"""

from __future__ import annotations

import functools
import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cunumpy._settings._distributions import install_hint

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT_S = 120

__all__ = [
    "ROOT",
    "TIMEOUT_S",
    "assert_check",
    "environment",
    "mpi_or_skip",
    "mpi_unusable",
    "run_mpi",
    "worker_results",
]


def mpiexec_path() -> str | None:
    search = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    return shutil.which("mpiexec", path=search)


@functools.cache
def mpi_unusable() -> str | None:
    """Why mpi4py cannot be used here (asked in a subprocess, so that this one stays free
    of MPI until a test needs it), or None."""
    if importlib.util.find_spec("mpi4py") is None:
        return f"mpi4py is not installed ({install_hint('mpi')})"
    code = (
        "from cunumpy._mpi_job._import import require_mpi\n"
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


def mpi_or_skip() -> None:
    """Skip the calling test, with mpi4py's reason, where MPI cannot be used."""
    reason = mpi_unusable()
    if reason is not None:
        pytest.skip(reason)


def skip_reason() -> str | None:
    reason = mpi_unusable()
    if reason is not None:
        return reason
    if mpiexec_path() is None:
        return "no mpiexec on PATH or next to the Python executable"
    return None


@functools.cache
def _is_open_mpi(mpiexec: str) -> bool:
    version = subprocess.run(
        [mpiexec, "--version"], capture_output=True, text=True, timeout=30, check=False
    )
    text = version.stdout + version.stderr
    return "Open MPI" in text or "OpenRTE" in text or "prterun" in text.lower()


def environment(backend: str) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    env["CUNUMPY_BACKEND"] = backend
    # Open MPI: allow root (containers, CI) and use shared memory only, no network probing.
    env.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
    env.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
    env.setdefault("OMPI_MCA_pml", "ob1")
    env.setdefault("OMPI_MCA_btl", "self,vader")
    return env


def _command(n: int, script: Path, args: tuple[str, ...]) -> list[str]:
    reason = skip_reason()
    if reason is not None:
        pytest.skip(reason)
    mpiexec = mpiexec_path()
    assert mpiexec is not None
    command = [mpiexec, "-n", str(n)]
    if _is_open_mpi(mpiexec):
        command.append("--oversubscribe")
    return [*command, sys.executable, str(script), *args]


def _text(output: str | bytes | None) -> str:
    return output.decode(errors="replace") if isinstance(output, bytes) else (output or "")


def run_mpi(
    n: int,
    script: Path,
    *args: str,
    backend: str = "numpy",
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """Run ``script`` on ``n`` ranks; fail (not hang) after ``TIMEOUT_S`` seconds.

    ``env`` adds variables to the ranks' environment (``environment(backend)``).
    """
    command = _command(n, script, args)
    try:
        return subprocess.run(
            command,
            capture_output=True,
            text=True,
            timeout=TIMEOUT_S,
            env={**environment(backend), **(env or {})},
            cwd=ROOT,
            check=False,
        )
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"{' '.join(command)} hung for {TIMEOUT_S} s; output:\n{_text(exc.stdout)}")


@functools.cache
def worker_results(worker: Path, n: int, backend: str) -> tuple[dict[tuple[int, str], str], str]:
    """Run ``worker`` once per (ranks, backend); map (rank, check) to PASS or the failure.

    A run that hangs is stopped after ``TIMEOUT_S`` seconds and counts once: the checks
    reported before it stay, the others are missing (and their tests fail saying so).
    """
    command = _command(n, worker, ())
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, timeout=TIMEOUT_S,
            env=environment(backend), cwd=ROOT, check=False,
        )  # fmt: skip
        stdout, stderr, status = done.stdout, done.stderr, f"exit status {done.returncode}"
    except subprocess.TimeoutExpired as exc:
        stdout, stderr = _text(exc.stdout), _text(exc.stderr)
        status = f"HUNG: stopped after {TIMEOUT_S} s"
    results: dict[tuple[int, str], str] = {}
    for line in stdout.splitlines():
        if line.startswith("RESULT "):
            _, rank, name, verdict = line.split(" ", 3)
            results[int(rank), name] = verdict
    log = f"{status}\nstdout:\n{stdout}\nstderr:\n{stderr}"
    return results, log


def assert_check(worker: Path, n: int, backend: str, name: str, ranks: int | None = None) -> None:
    """Assert that check ``name`` passed on every rank (of the first ``ranks`` ranks)."""
    results, log = worker_results(worker, n, backend)
    for rank in range(n if ranks is None else ranks):
        verdict = results.get((rank, name))
        assert verdict is not None, f"rank {rank} did not report {name!r}:\n{log}"
        assert verdict == "PASS", f"rank {rank} failed {name!r}: {verdict}"
