"""What the suite prints: skipped tests grouped by reason (the root ``conftest.py``).

Without a GPU, over a hundred tests skip for the same reason; pytest's ``-rs`` prints one
line per test location. The suite asks for ``-rfExX`` and the root conftest adds one line
per reason. These tests run the hook in a nested session on small files.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parent.parent

SKIPS = """
import pytest

REASON = "no usable GPU: " + "x" * 200

@pytest.mark.skip(reason=REASON)
def test_a(): pass

@pytest.mark.skip(reason=REASON)
def test_b(): pass

@pytest.mark.parametrize("n", range(5))
def test_c(n):
    pytest.skip(REASON)

def test_other():
    pytest.skip("another reason")

def test_passes():
    assert True
"""


@pytest.fixture
def project(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makeconftest((ROOT / "conftest.py").read_text())
    pytester.makepyfile(test_skips=SKIPS)
    return pytester


def test_skips_are_grouped_by_reason_with_the_suites_options(project: pytest.Pytester) -> None:
    result = project.runpytest("-p", "no:cacheprovider", "-rfExX")
    result.assert_outcomes(passed=1, skipped=8)
    lines = result.stdout.lines
    assert not [line for line in lines if line.startswith("SKIPPED [")]
    grouped = [line for line in lines if line.startswith("SKIPPED ")]
    assert grouped == [
        f"SKIPPED 7: no usable GPU: {'x' * 200} [test_skips.py]",
        "SKIPPED 1: another reason [test_skips.py]",
    ]
    result.stdout.fnmatch_lines(["*skipped, by reason (-rs lists each test)*"])


@pytest.mark.parametrize("option", ["-rs", "-ra"])
def test_asking_for_each_skip_lists_each_as_pytest_does(
    project: pytest.Pytester, option: str
) -> None:
    result = project.runpytest("-p", "no:cacheprovider", option)
    assert "skipped, by reason" not in result.stdout.str()
    assert sum(line.startswith("SKIPPED [") for line in result.stdout.lines) == 4


def test_the_suites_options_are_the_ones_grouping_relies_on() -> None:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        tomllib = pytest.importorskip("tomli")
    options = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]
    addopts = options["ini_options"]["addopts"]
    report = [o for o in addopts if o.startswith("-r")]
    assert report == ["-rfExX"]  # no "s" and no "a": the conftest groups the skips
