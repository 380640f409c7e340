"""``gpu_check.sh`` runs the two-GPU tests wherever the lent machine has two GPUs (issue 50).

Every test that skips with fewer than two GPUs is named in the script's ``TWO_GPU_SERIAL``
or ``TWO_GPU_SUITE``, in the step that runs its file, so that a run on two GPUs must see
them pass; the names are real node ids. Nothing here needs a GPU.
"""

from __future__ import annotations

import ast
import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = (ROOT / "gpu_check.sh").read_text()


def _array(name: str) -> list[str]:
    """The words of the bash array ``name=( ... )`` in gpu_check.sh, quotes removed."""
    match = re.search(rf"^{name}=\((.*?)\)$", SCRIPT, re.MULTILINE | re.DOTALL)
    assert match is not None, f"gpu_check.sh has no array {name}"
    return [word.strip('"') for word in match.group(1).split()]


def _tests_that_need_two_gpus() -> set[str]:
    """``file::test`` of every test whose body skips below two GPUs, read from the source."""
    found = set()
    for path in sorted((ROOT / "tests").glob("test_*.py")):
        source = path.read_text()
        for node in ast.parse(source).body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                body = ast.get_source_segment(source, node) or ""
                if re.search(r"skip\([^)]*two(?: |-)GPU", body) or "_on_two_gpus()" in body:
                    found.add(f"tests/{path.name}::{node.name}")
    return found


def test_every_two_gpu_test_is_named_in_the_step_that_runs_its_file() -> None:
    serial, suite = _array("TWO_GPU_SERIAL"), _array("TWO_GPU_SUITE")
    named = {node.split("[")[0] for node in serial + suite}
    assert named == _tests_that_need_two_gpus()
    serial_files = set(_array("SERIAL_TESTS"))
    assert all(node.split("::")[0] in serial_files for node in serial), serial
    assert not any(node.split("::")[0] in serial_files for node in suite), suite


def test_the_named_two_gpu_tests_are_collected_with_the_gpu_checks_selection() -> None:
    # their files skip at collection without CuPy (a user's install, the user leg of .ci/run)
    if importlib.util.find_spec("cupy") is None:
        pytest.skip("cupy is not installed: needs CuPy (the cuda12 or cuda13 extra)")
    if importlib.util.find_spec("numba") is None:
        pytest.skip("numba is not installed: needs Numba (the kernels extra)")
    nodes = _array("TWO_GPU_SERIAL") + _array("TWO_GPU_SUITE")
    files = sorted({node.split("::")[0] for node in nodes})
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--collect-only",
         "-m", "not fake_cupy and not emulated and not simulator", *files],
        capture_output=True, text=True, cwd=ROOT, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    collected = set(done.stdout.splitlines())
    assert [node for node in nodes if node not in collected] == []


def test_on_fewer_than_two_gpus_the_summary_says_they_did_not_run() -> None:
    assert 'ran /tmp/cunumpy-gpu-serial.xml passed "${TWO_GPU_SERIAL[@]}"' in SCRIPT
    assert 'ran /tmp/cunumpy-gpu-suite.xml passed "${TWO_GPU_SUITE[@]}"' in SCRIPT
    assert "--junitxml=/tmp/cunumpy-gpu-serial.xml" in SCRIPT
    assert re.search(r"not run: %s GPU\(s\) visible; they need two", SCRIPT)
