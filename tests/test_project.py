"""Project invariants: generated files are current, README and CI run the same tests."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_generated_api_is_up_to_date(tmp_path: Path) -> None:
    pytest.importorskip("ruff", reason="the generated files are compared after ruff formats them")
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import generate_api
    finally:
        sys.path.pop(0)
    # The generated code follows the signatures of the NumPy it was generated with (NumPy
    # 2.5's sort and argsort gained `descending`): regenerating with another NumPy would
    # differ for that reason alone, so the comparison runs on that NumPy only.
    recorded = {
        generate_api.generated_for_numpy((ROOT / "cunumpy" / p).read_text())
        for p in generate_api.OUTPUTS.values()
    }
    assert len(recorded) == 1 and None not in recorded, recorded
    (made_with,) = recorded
    if made_with != generate_api.NUMPY_VERSION:
        pytest.skip(
            f"the generated files follow NumPy {made_with}'s signatures; this is NumPy "
            f"{generate_api.NUMPY_VERSION} (regenerate with NumPy {made_with} to compare)"
        )
    stale = []
    for path, text in generate_api.generate().items():
        scratch = tmp_path / path.name
        scratch.write_text(text)
        subprocess.run(
            [
                sys.executable,
                "-m",
                "ruff",
                "check",
                "--fix",
                "--quiet",
                "--config",
                str(ROOT / "pyproject.toml"),
                str(scratch),
            ],
            check=False,
        )
        subprocess.run(
            [
                sys.executable,
                "-m",
                "ruff",
                "format",
                "--quiet",
                "--config",
                str(ROOT / "pyproject.toml"),
                str(scratch),
            ],
            check=True,
        )
        if scratch.read_text() != path.read_text():
            stale.append(str(path.relative_to(ROOT)))
    assert stale == [], "run `python tools/generate_api.py`"


def test_the_generator_refuses_extension_functions_that_are_not_the_standards_names(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``cunumpy.linalg``'s ``__all__`` is written out, and must be ``_standard_names.LINALG``."""
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import generate_api
    finally:
        sys.path.pop(0)
    from cunumpy._backends import _standard_names

    names = list(_standard_names.LINALG)
    assert "__all__ = [" in generate_api._all_line("linalg", names)
    monkeypatch.setattr(_standard_names, "LINALG", tuple(names[1:]))
    with pytest.raises(SystemExit, match=f"generate_api: the linalg functions .*{names[0]!r}"):
        generate_api._all_line("linalg", names)


def test_readme_starts_with_the_two_setup_commands_and_ci_runs_the_test_one() -> None:
    readme = (ROOT / "README.md").read_text()
    setup = readme.split("## Set up", 1)[1].split("\n## ", 1)[0]
    commands = re.findall(r"```bash\n(.+?)\n```", setup)
    assert len(commands) == 2
    assert commands[0].endswith("python -m cunumpy")
    install, test_command = commands[1].rsplit(" && ", 1)
    ci = (ROOT / ".ci" / "run").read_text()
    assert test_command == "python -m pytest"
    assert re.search(r"^\s*python -m pytest( |$)", ci, re.MULTILINE)
    extras = re.search(r'pip install -e "(\.\[[^\]]+\])"', install)
    assert extras is not None and f'-e "{extras.group(1)}"' in ci


def _floors() -> dict[str, tuple[int, ...]]:
    """pyproject.toml's floors: distribution -> the version after ``>=``, from the
    dependencies and every extra (the lowest where two extras differ: the ``-ctk`` ones
    ask for a newer CuPy than ``cuda12``)."""
    tomllib = pytest.importorskip(
        "tomllib", reason="reads pyproject.toml with Python 3.11's tomllib"
    )
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    requirements = list(project["dependencies"])
    for extra in project["optional-dependencies"].values():
        requirements += extra
    floors: dict[str, tuple[int, ...]] = {}
    for requirement in requirements:
        match = re.fullmatch(r"([A-Za-z0-9_.-]+)(?:\[[^\]]*\])?>=([\d.]+)(?:,.*)?", requirement)
        if match:
            version = tuple(int(part) for part in match[2].split("."))
            name = match[1].lower()
            floors[name] = min(floors.get(name, version), version)
    return floors


def test_the_oldest_legs_constraints_are_pyprojects_floors() -> None:
    """.ci/run's oldest leg pins each floor's minor version: a floor raised in pyproject.toml
    without its constraint (or the reverse) fails here. Not pinned: the contributors' tools
    (ruff, which that leg does not run; mypy and pyright are pinned exactly), the conformance extra's, and CUDA 13's CuPy
    (that leg installs the cuda12 extra)."""
    floors = _floors()
    text = (ROOT / ".ci" / "oldest-constraints.txt").read_text()
    pins = {
        name.lower(): tuple(int(part) for part in version.split("."))
        for name, version in re.findall(r"^([A-Za-z0-9_.-]+)==([\d.]+?)(?:\.\*)?$", text, re.M)
    }
    unpinned = set(floors) - set(pins)
    # (mypy and pyright are pinned exactly in the test extra, so they have no floor here)
    assert unpinned == {"ruff", "pytest-json-report", "ndindex", "cupy-cuda13x"}
    assert set(pins) <= set(floors)

    def padded(version: tuple[int, ...], size: int) -> tuple[int, ...]:
        return (version + (0,) * size)[:size]

    wrong = {
        name: (floors[name], pin)
        for name, pin in pins.items()
        if padded(floors[name], len(pin)) != pin
    }
    assert wrong == {}
    assert pins["numpy"] == (2, 3) and pins["cupy-cuda12x"] == (13, 5)
