"""``cunumpy/LLM_GUIDE.md``: the guide for coding assistants that 0.7.1's README names.

Its examples are ``pycon`` blocks, which the suite runs as doctests (``--doctest-glob``
over ``cunumpy/``); this file checks that the guide is where 0.7.1 users look for it,
ships in the wheel, covers what it must, and has no block that does not run.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import tomllib

import cunumpy

ROOT = Path(__file__).resolve().parent.parent
GUIDE = Path(cunumpy.__file__).parent / "LLM_GUIDE.md"


def test_the_guide_is_where_cunumpy_071_users_look_for_it_and_ships_in_the_wheel() -> None:
    assert GUIDE.is_file()
    wheel = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["hatch"]["build"]
    assert wheel["targets"]["wheel"]["packages"] == ["cunumpy"]  # every file under cunumpy/
    assert "exclude" not in wheel["targets"]["wheel"]


def test_every_code_block_of_the_guide_is_an_example_that_runs() -> None:
    text = GUIDE.read_text()
    languages = re.findall(r"^```(\w*)$", text, re.MULTILINE)[::2]  # opening fences
    assert len(languages) >= 6
    assert set(languages) == {"pycon"}, languages  # doctests: the suite runs each
    blocks = re.findall(r"^```pycon\n(.*?)^```$", text, re.MULTILINE | re.DOTALL)
    assert all(block.startswith(">>> ") for block in blocks)


def test_the_guide_covers_the_apis_the_backend_rules_the_kernels_and_the_pitfalls() -> None:
    text = GUIDE.read_text()
    for heading in ("## Backend rules", "## The kernel workflow", "## Pitfalls"):
        assert heading in text
    for name in (
        "array_namespace", "use_backend", "set_backend", "to_numpy", "to_cupy", "CudaKernel",
        "KernelCatalog", "assert_kernels_agree", "CUNUMPY_FAKE_CUPY", "CUNUMPY_REQUIRE_CUDA",
        "count_transfers", "assert_no_transfers", "timed_region", "get_mpi",
    ):  # fmt: skip
        assert f"{name}" in text, name


def test_python_m_cunumpy_names_the_guide_and_the_file_is_there() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "cunumpy", "--json", "--no-check"],
        capture_output=True, text=True, timeout=300, cwd=ROOT, check=False,
    )  # fmt: skip
    path = Path(json.loads(done.stdout)["llm_guide"])
    assert path.is_file(), path
    assert path.read_text() == GUIDE.read_text()
