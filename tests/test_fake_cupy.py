"""Runs ``tests/fake_cupy/`` in a new process with ``CUNUMPY_FAKE_CUPY=1`` (fake CuPy).

The fake CuPy must be installed before cunumpy looks for CuPy, so its tests need their own
process. They catch host/device mix-ups of the CuPy code paths on the CPU; CUDA C runs
there on the CPU emulator. None of it is GPU verification (that is ``gpu_check.sh``).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cunumpy.kernel_testing import emulation_compiler, run_in_fake_cupy_subprocess

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "tests" / "fake_cupy"


def _pythonpath() -> str:
    return os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)


@pytest.mark.fake_cupy
@pytest.mark.emulated
@pytest.mark.skipif(emulation_compiler() is None, reason="the emulation needs a C++ compiler")
def test_cupy_paths_on_the_fake_cupy_emulated() -> None:
    expected = sum(
        len(re.findall(r"^def test_", path.read_text(), re.MULTILINE))
        for path in FOLDER.glob("test_*.py")
    )
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            str(FOLDER),
            "-q",
            "-p",
            "no:cacheprovider",
            "-m",
            "fake_cupy",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "CUNUMPY_FAKE_CUPY": "1", "PYTHONPATH": _pythonpath()},
        timeout=600,
        check=False,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    passed = int(re.search(r"(\d+) passed", output).group(1))  # type: ignore[union-attr]
    # strict xfails wait for another issue's change (their reason says which)
    waiting = re.search(r"(\d+) xfailed", output)
    done_count = passed + (int(waiting.group(1)) if waiting else 0)
    assert done_count >= expected, output  # parametrized tests count once each in `expected`
    # nothing skips but for an extra that is not installed (a user's install: .[testing])
    skips = [line for line in output.splitlines() if line.startswith("SKIPPED")]
    assert all(re.search(r"\(the \w+ extra\)", line) for line in skips), output
    assert ("skipped" in output) == bool(skips), output


@pytest.mark.fake_cupy
def test_the_fake_cupy_is_installed_by_the_environment_variable() -> None:
    done = run_in_fake_cupy_subprocess(
        "import sys, cunumpy, cupy; assert cupy.__cunumpy_fake__; print(cunumpy.cupy_available())",
        env={"PYTHONPATH": _pythonpath()},
        timeout=120,
    )
    assert done.stdout.strip() == "True"


@pytest.mark.fake_cupy
def test_the_fake_cupy_cannot_come_after_cunumpy_probed() -> None:
    code = (
        "import cunumpy\ncunumpy.cupy_available()\nimport sys\n"
        "for m in [m for m in sys.modules if m.split('.')[0] in ('cupy', 'cupyx')]:\n    del sys.modules[m]\n"
        "from cunumpy.kernel_testing import install_fake_cupy\n"
        "try:\n    install_fake_cupy()\nexcept RuntimeError as e:\n    print(e)\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "CUNUMPY_FAKE_CUPY"}
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**env, "PYTHONPATH": _pythonpath()},
        timeout=120,
        check=False,
    )
    assert "has already probed CuPy" in done.stdout, done.stdout + done.stderr


@pytest.mark.fake_cupy
@pytest.mark.emulated
@pytest.mark.skipif(emulation_compiler() is None, reason="the emulation needs a C++ compiler")
def test_the_porting_example_passes_its_parity_tests_on_the_fake_cupy_emulated() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "examples/porting", "-q", "-p", "no:cacheprovider"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "CUNUMPY_FAKE_CUPY": "1", "PYTHONPATH": _pythonpath()},
        timeout=600,
        check=False,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert "2 passed" in output and "skipped" not in output, output


@pytest.mark.fake_cupy
def test_only_the_fake_cupy_folder_is_marked_fake_cupy() -> None:
    """``-m "not fake_cupy"`` (the GPU check's selection) keeps the GPU tests."""
    done = subprocess.run(
        [
            *(sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--collect-only"),
            *("-m", "not fake_cupy", str(FOLDER), "tests/test_kernel_pairs.py"),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "CUNUMPY_FAKE_CUPY": "1", "PYTHONPATH": _pythonpath()},
        timeout=120,
        check=False,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    ids = output.splitlines()
    assert (
        "tests/test_kernel_pairs.py::test_the_porting_example_passes_its_parity_tests_on_the_gpu"
        in ids
    ), output
    assert not [line for line in ids if line.startswith("tests/fake_cupy/")], output
