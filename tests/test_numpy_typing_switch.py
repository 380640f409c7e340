"""NumPy's typing tests with ``import cunumpy as np``: what the switch changes, bounded.

``tests/numpy_typing_switch.py`` type-checks each of NumPy's ``pass``, ``reveal`` and
``fail`` directories as it is and switched, in one run per directory and tool, and counts
the lines flagged in the switched copy only (issue 49's counting). The bounds are the
issue's; every file whose reveal lines still differ under mypy is listed, with the reason,
in docs/migrating.md ("What a type checker sees").
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import numpy
import pytest

from tests import numpy_typing_switch as switch

ROOT = Path(__file__).resolve().parent.parent

BOUNDS = {
    ("mypy", "pass"): 5,
    ("mypy", "reveal"): 100,
    ("mypy", "fail"): 5,
    ("pyright", "pass"): 10,
    ("pyright", "reveal"): 100,
}

_SAME, _REASON = switch.same_numpy()
pytestmark = [pytest.mark.slow, pytest.mark.skipif(not _SAME, reason=_REASON)]


@pytest.fixture(scope="session")
def differences(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], object]:
    """Each (tool, directory) run once per session, on demand."""
    return {}


def _difference(
    differences: dict[tuple[str, str], object],
    tmp_path_factory: pytest.TempPathFactory,
    tool: str,
    directory: str,
) -> switch.Difference:
    if tool == "mypy":
        pytest.importorskip("mypy", reason="mypy is not installed (the test extra has it)")
    elif shutil.which("pyright") is None:
        pytest.skip("pyright is not installed (the test extra has it)")
    elif subprocess.run(["pyright", "--version"], capture_output=True, check=False).returncode:
        pytest.skip("pyright is installed but does not run (no Node.js)")
    if not switch.DATA.exists():
        pytest.skip(f"NumPy {numpy.__version__} ships no typing tests")
    key = (tool, directory)
    if key not in differences:
        differences[key] = switch.difference(tool, directory, tmp_path_factory.mktemp(tool))
    found = differences[key]
    assert isinstance(found, switch.Difference)
    return found


@pytest.mark.parametrize(("tool", "directory"), sorted(BOUNDS))
def test_the_switch_changes_few_lines(
    differences: dict[tuple[str, str], object],
    tmp_path_factory: pytest.TempPathFactory,
    tool: str,
    directory: str,
) -> None:
    found = _difference(differences, tmp_path_factory, tool, directory)
    assert found.count <= BOUNDS[tool, directory], found.report()


def test_every_reveal_difference_is_documented(
    differences: dict[tuple[str, str], object], tmp_path_factory: pytest.TempPathFactory
) -> None:
    found = _difference(differences, tmp_path_factory, "mypy", "reveal")
    table = (ROOT / "docs" / "migrating.md").read_text()
    section = table.split("## What a type checker sees", 1)[1].split("\n## ", 1)[0]
    documented = set(re.findall(r"`reveal/(\w+\.pyi)`", section))
    assert set(found.lines) - documented == set(), found.report()
