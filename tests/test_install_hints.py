"""Every install hint we print or document can be followed.

The registry's ``cunumpy`` is CuNumpy 0.7.1, a different project with the same import
name, so a hint such as ``pip install 'cunumpy[cuda12]'`` would install that one (and,
with ``-U``, replace ours). These tests extract every hint from the source, docs, tools,
benchmarks and tests, and check that each names the distribution of ``pyproject.toml``
and one of its extras. ``cunumpy-xp`` is not on the registry yet, so the hints that the
code prints name the dependency itself and the extra of a source checkout
(``cunumpy._settings._distributions``): these are resolved against the fixed table ``EXTRAS``, against
``pyproject.toml``, and by ``pip install --dry-run`` where the registry is reachable.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
import tomllib

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
    assert len(hints) >= 10  # the README's and docs' install lines (messages use the table)
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


# What a printed hint may name besides EXTRAS' requirements: optional tools with one
# obvious registry package each (checked by the dry run too).
OTHER_PACKAGES = {"pyccel", "scipy", "torch", "jax", "array-api-strict"}
# A `pip install` command in code: the requirements up to the end of the command.
PRINTED = re.compile(r"pip install ((?:[-'\w.\[\]{}]+ ?)+)")
PRINTING_PLACES = ["cunumpy", "benchmarks", "tools", "tests"]


def _printed_commands() -> list[tuple[str, str]]:
    """``(where, requirements)`` of every literal ``pip install`` in the Python sources."""
    found = []
    for place in PRINTING_PLACES:
        for path in sorted((ROOT / place).rglob("*.py")):
            if path == Path(__file__).resolve():
                continue
            for number, line in enumerate(path.read_text().splitlines(), 1):
                for match in PRINTED.finditer(line):
                    found.append((f"{path.relative_to(ROOT)}:{number}", match.group(1).strip()))
    return found


def _hint_calls() -> list[tuple[str, tuple[str, ...]]]:
    """``(where, keys)`` of every ``install_hint(...)`` call in the sources."""
    import ast

    calls = []
    for place in PRINTING_PLACES:
        for path in sorted((ROOT / place).rglob("*.py")):
            tree = ast.parse(path.read_text())
            for node in ast.walk(tree):
                if (
                    isinstance(node, ast.Call)
                    and getattr(node.func, "id", None) == "install_hint"
                    and path != Path(__file__).resolve()
                    and all(isinstance(arg, ast.Constant) for arg in node.args)
                ):
                    keys = tuple(ast.literal_eval(arg) for arg in node.args)
                    calls.append((f"{path.relative_to(ROOT)}:{node.lineno}", keys))
    return calls


def _base(requirement: str) -> str:
    return re.split(r"[\[<>=!~ ]", requirement.strip("'\""), maxsplit=1)[0].lower()


def test_the_table_of_hints_agrees_with_pyprojects_extras() -> None:
    from cunumpy._settings._distributions import _EXTRA_OF, EXTRAS

    for key, requirements in EXTRAS.items():
        extra = _EXTRA_OF.get(key, key)
        assert extra in PYPROJECT["project"]["optional-dependencies"], key
        declared = {
            _base(r)
            for name, reqs in PYPROJECT["project"]["optional-dependencies"].items()
            if name.startswith(extra)  # cuda12's packages, with the -ctk variant's extras
            for r in reqs
        }
        assert {_base(r) for r in requirements} <= declared, (key, requirements, declared)
    for extra in ("cuda12", "cuda13", "cuda12-ctk", "cuda13-ctk", "mpi", "kernels"):
        assert extra in EXTRAS  # every extra a user needs has its registry command


def test_every_hint_the_code_prints_can_be_followed_from_the_registry() -> None:
    from cunumpy._settings._distributions import EXTRAS, install_hint

    calls = _hint_calls()
    assert len(calls) >= 12  # CuPy, NVRTC, Numba, numba-cuda, MPI: errors, reasons, skips
    commands = _printed_commands()
    for where, keys in calls:
        assert set(keys) <= set(EXTRAS), where
        commands += [(where, m.group(1).strip()) for m in PRINTED.finditer(install_hint(*keys))]
    allowed = {r for reqs in EXTRAS.values() for r in reqs} | OTHER_PACKAGES
    extras = set(PYPROJECT["project"]["optional-dependencies"])
    wrong = []
    for where, command in commands:
        for word in command.replace(" or ", " ").split():
            word = word.strip("'\"")
            if word.startswith("-"):  # -U, --upgrade, -e
                continue
            if word == ".":  # a source checkout itself
                continue
            source_extra = re.fullmatch(r"\.\[([\w-]+)\]", word)
            if source_extra is not None and source_extra.group(1) in extras:
                continue
            if word in allowed or word.startswith(("nvidia-", "{")):
                continue
            wrong.append((where, word))
    assert wrong == []
    assert not [w for w, c in commands if "cunumpy" in c], commands  # not on the registry yet


def test_install_hint_names_the_package_and_the_source_checkouts_extra() -> None:
    from cunumpy._settings._distributions import install_hint

    assert install_hint("cuda12") == (
        "pip install cupy-cuda12x (from a source checkout of cunumpy: pip install '.[cuda12]')"
    )
    assert install_hint("cuda12-ctk").startswith("pip install 'cupy-cuda12x[ctk]' (")
    with pytest.raises(ValueError, match=r"install_hint: name one or more of .* not \['cuda11'\]"):
        install_hint("cuda11")


@pytest.mark.slow
def test_every_requirement_of_the_table_resolves_with_pip_dry_run(tmp_path: Path) -> None:
    """``pip install --dry-run`` finds each requirement a hint names (network permitting)."""
    import json
    import subprocess

    from cunumpy._settings._distributions import EXTRAS

    requirements = sorted({r for reqs in EXTRAS.values() for r in reqs} | OTHER_PACKAGES - {"jax"})
    report = tmp_path / "report.json"
    done = subprocess.run(
        [
            sys.executable, "-m", "pip", "install", "--dry-run", "--no-deps", "--ignore-installed",
            "--quiet", "--report", str(report), *requirements,
        ],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )  # fmt: skip
    output = done.stdout + done.stderr
    if done.returncode != 0 and any(
        word in output
        for word in ("NewConnectionError", "Network is unreachable", "Temporary failure")
    ):
        pytest.skip(f"the registry is not reachable here: {output.strip().splitlines()[-1]}")
    assert done.returncode == 0, output
    found = {
        item["metadata"]["name"].lower().replace("_", "-")
        for item in json.loads(report.read_text())["install"]
    }
    assert {_base(r) for r in requirements} <= found, (requirements, found)


def _third_party_imports(folder: Path) -> set[str]:
    """The top-level modules that the sources under ``folder`` import, less the standard
    library, cunumpy and its own dependencies."""
    import ast

    base = {_base(r).replace("-", "_") for r in PYPROJECT["project"]["dependencies"]}
    found = set()
    for path in folder.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                found |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found.add(node.module.split(".")[0])
    return found - set(sys.stdlib_module_names) - base - {"cunumpy"}


def test_the_testing_extra_is_what_cunumpy_testing_needs() -> None:
    extras = PYPROJECT["project"]["optional-dependencies"]
    testing = {_base(r) for r in extras["testing"]}
    # pytest and Hypothesis are imported; array-api-strict is a namespace of the xp fixture
    imported = {
        name.replace("_", "-") for name in _third_party_imports(ROOT / "cunumpy" / "testing")
    }
    assert imported == {"pytest", "hypothesis", "dask"}  # dask: only for the dask namespace
    assert testing == {"pytest", "hypothesis", "array-api-strict"}
    assert f"{DISTRIBUTION}[testing]" in extras["test"]  # the contributors' set includes it
    assert not {"scipy", "mypy", "ruff", "distributed"} & testing
    first_block = (ROOT / "docs" / "testing.md").read_text().split("```bash\n", 1)[1]
    assert first_block.startswith(f'pip install "{DISTRIBUTION}[testing]"')
