"""The commands the examples' docstrings give work as written (here: with Open MPI)."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from mpi_run import ROOT, mpi_unusable, mpiexec_path

EXAMPLES = ROOT / "examples"


def _docstring_commands(path: Path) -> list[str]:
    text = path.read_text().split('"""', 2)[1]
    return [line.strip() for line in text.splitlines() if line.strip().startswith("mpiexec ")]


@pytest.mark.mpi
def test_the_heat2d_command_that_works_anywhere_runs() -> None:
    reason = mpi_unusable()
    if reason is not None:
        pytest.skip(reason)
    mpiexec = mpiexec_path()
    if mpiexec is None:
        pytest.skip("no mpiexec on PATH or next to the Python executable")
    version = subprocess.run([mpiexec, "--version"], capture_output=True, text=True, timeout=60)
    if "Open MPI" not in version.stdout + version.stderr:
        pytest.skip("the command uses Open MPI's options")
    commands = [c for c in _docstring_commands(EXAMPLES / "heat2d.py") if "--oversubscribe" in c]
    assert len(commands) == 1, commands
    argv = shlex.split(commands[0])
    assert argv[:2] == ["mpiexec", "-n"] and argv[-2:] == ["python", "examples/heat2d.py"]
    argv = [mpiexec, *argv[1:-2], sys.executable, "examples/heat2d.py", "--steps", "5"]
    env = {k: v for k, v in os.environ.items() if not k.startswith("OMPI_ALLOW_RUN_AS_ROOT")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    env["CUNUMPY_BACKEND"] = "numpy"
    done = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r"^4 rank\(s\), numpy \(CPU\): total heat", done.stdout, re.MULTILINE)
