"""Every install hint we print or document names this project's distribution.

The registry's ``cunumpy`` is CuNumpy 0.7.1, a different project with the same import
name, so a hint such as ``pip install 'cunumpy[cuda12]'`` would install that one (and,
with ``-U``, replace ours). This test extracts every hint from the source, docs, tools,
benchmarks and tests, and checks that each names the distribution of ``pyproject.toml``
and one of its extras.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    tomllib = pytest.importorskip("tomli", reason="Python 3.10 reads TOML with tomli")

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
DISTRIBUTION = PYPROJECT["project"]["name"]
EXTRAS = set(PYPROJECT["project"]["optional-dependencies"])

# A requirement with extras whose name starts like ours: cunumpy[mpi], cunumpy-xp[cuda12].
WITH_EXTRAS = re.compile(r"(?<![\w./-])(cunumpy[\w.-]*)\[([\w,-]+)\]")
# What follows `pip install`: the first requirement, quoted or not.
PIP_INSTALL = re.compile(r"pip install (?:-[-\w]+ )*['\"]?([\w.-]+)")

PLACES = ["cunumpy", "docs", "tools", "benchmarks", "examples", "tests", "array_api_tests"]
SUFFIXES = {".py", ".md", ".sh", ".txt", ".toml", ".rst"}


def _files() -> list[Path]:
    found = [ROOT / "README.md", ROOT / "CHANGELOG.md", ROOT / "gpu_check.sh"]
    for place in PLACES:
        found += [
            p
            for p in sorted((ROOT / place).rglob("*"))
            if p.suffix in SUFFIXES and "_build" not in p.parts and p.is_file()
        ]
    return [p for p in found if p.exists() and p != Path(__file__).resolve()]


def _hints() -> list[tuple[str, str, str]]:
    """``(where, distribution, extras)`` of every hint; extras is '' for a bare name."""
    hints = []
    for path in _files():
        for number, line in enumerate(path.read_text().splitlines(), 1):
            where = f"{path.relative_to(ROOT)}:{number}"
            for match in WITH_EXTRAS.finditer(line):
                hints.append((where, match.group(1), match.group(2)))
            for match in PIP_INSTALL.finditer(line):
                name = match.group(1).rstrip(".")  # a sentence's full stop is not the name's
                if name.startswith("cunumpy") and "==0.7" not in line[match.end() :]:
                    hints.append((where, name, ""))
    return hints


def test_the_distribution_is_not_the_registrys_cunumpy() -> None:
    assert DISTRIBUTION != "cunumpy"  # CuNumpy 0.7.1's name on PyPI
    assert "cunumpy" in PYPROJECT["tool"]["hatch"]["build"]["targets"]["wheel"]["packages"]


def test_every_install_hint_names_this_distribution_and_one_of_its_extras() -> None:
    hints = _hints()
    assert len(hints) >= 20  # the errors of _cupy, kernels, mpi, the docs and the tests
    wrong = [h for h in hints if h[1] != DISTRIBUTION]
    assert wrong == []
    unknown = [h for h in hints if h[2] and not set(h[2].split(",")) <= EXTRAS]
    assert unknown == []


def test_the_readme_says_how_this_project_relates_to_cunumpy_0_7_1() -> None:
    readme = (ROOT / "README.md").read_text()
    setup = readme.split("## Set up", 1)[1].split("\n## ", 1)[0]
    assert f"`{DISTRIBUTION}`" in setup
    assert "CuNumpy 0.7.1" in setup


def test_the_extraction_finds_the_old_names() -> None:
    """The patterns see a hint for the other project, quoted or not, with or without extras."""
    lines = [
        "install cunumpy[cuda12] or 'cunumpy[mpi]'",
        'pip install "cunumpy"',
        "pip install -U cunumpy",
        "upgrade it with pip install --upgrade cunumpy.",
    ]
    found = [m.group(1) for line in lines for m in WITH_EXTRAS.finditer(line)]
    found += [m.group(1) for line in lines for m in PIP_INSTALL.finditer(line)]
    names = [name.rstrip(".") for name in found]
    assert names == ["cunumpy", "cunumpy", "cunumpy", "cunumpy", "cunumpy"]
