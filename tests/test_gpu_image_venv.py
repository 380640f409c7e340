"""``tools/make_gpu_image_venv.sh``: a venv like the GPU machine's image, for the dry run.

The GPU machine's image has Python 3.12 with NumPy 2.5, ``cupy-cuda13x`` 14.2, Numba,
numba-cuda, mpi4py, SciPy, pytest-xdist and Hypothesis, and no docs extra (issue 44). The
script pins those; its pins must satisfy what ``pyproject.toml`` asks of them, and
``docs/testing.md`` must give the commands that use it.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import tomllib
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "tools" / "make_gpu_image_venv.sh"
# What the GPU machine's image has (issue 44), and the extras it runs cunumpy with.
IMAGE = {"numpy", "cupy-cuda13x", "numba", "numba-cuda", "mpi4py", "scipy", "pytest-xdist",
         "hypothesis"}  # fmt: skip
IMAGE_EXTRAS = ("cuda13", "kernels", "mpi", "testing", "test")


def _pins() -> dict[str, Version]:
    """The script's ``PACKAGES``: name -> pinned version."""
    text = SCRIPT.read_text()
    block = re.search(r"^PACKAGES=\((.*?)\)", text, re.DOTALL | re.MULTILINE)
    assert block is not None, "no PACKAGES=(...) in the script"
    pins = {}
    for word in block.group(1).split():
        name, _, version = word.partition("==")
        assert version, f"{word}: not pinned with =="
        pins[canonicalize_name(name)] = Version(version)
    return pins


def _requirements() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]
    found = [Requirement(r) for r in project["dependencies"]]
    for extra in IMAGE_EXTRAS:
        found += [Requirement(r) for r in extras[extra]]
    return [r for r in found if not r.name.startswith("cunumpy")]


def test_the_pins_are_the_images_packages_at_versions_cunumpy_accepts() -> None:
    pins = _pins()
    assert set(IMAGE) <= set(pins), sorted(set(IMAGE) - set(pins))
    assert pins["numpy"].release[:2] == (2, 5)  # the image's NumPy
    assert pins["cupy-cuda13x"].release[:2] == (14, 2)  # the image's CuPy
    refused = [
        f"{req.name}=={pins[canonicalize_name(req.name)]} (pyproject asks {req})"
        for req in _requirements()
        if canonicalize_name(req.name) in pins
        and not req.specifier.contains(pins[canonicalize_name(req.name)], prereleases=True)
    ]
    assert refused == []
    docs = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    docs_names = {
        canonicalize_name(Requirement(r).name) for r in docs["optional-dependencies"]["docs"]
    }
    assert docs_names & set(pins) == set()  # the image has no docs extra


def test_the_script_refuses_a_python_other_than_3_12(tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    done = subprocess.run(
        ["bash", str(SCRIPT), str(venv)],
        env={"PATH": "/usr/bin:/bin", "PYTHON312": "false"},
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert "false is not Python 3.12" in done.stderr
    assert not venv.exists()
    usage = subprocess.run(
        ["bash", str(SCRIPT)], capture_output=True, text=True, timeout=60, check=False
    )
    assert usage.returncode == 2
    assert "tools/make_gpu_image_venv.sh VENV" in usage.stdout


def test_the_docs_give_the_dry_runs_commands_with_that_venv() -> None:
    text = (ROOT / "docs" / "testing.md").read_text()
    section = text.split("## cunumpy's own GPU check", 1)[1].split("\n## ", 1)[0]
    made = re.search(r"^PYTHON312=\S+ tools/make_gpu_image_venv\.sh (\S+)$", section, re.MULTILINE)
    assert made is not None
    used = re.findall(r"PYTHON=(\S+)/bin/python ", section)
    assert used, "no command runs the venv's Python"
    assert set(used) == {made.group(1)}
    assert "tools/prepare_gpu_check.sh" in section
    assert "GPU_CHECK_DRY_RUN=1 ./gpu_check.sh" in section
    for path in re.findall(r"(?<![\w/.])((?:tools/)?[\w.]+\.sh)\b", section):
        assert (ROOT / path).is_file(), path
