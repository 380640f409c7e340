"""Each extra missing on its own: the tests that need it skip, naming it, and none fails.

``pip install ".[testing]"`` alone (the user leg of ``.ci/run``) has every optional library
missing at once, so a test that checks for one of them skips there before it could find a
second one missing: the Black-Scholes cluster test skipped for Dask there, and failed with
Numba's ``ImportError`` on ``pip install ".[test]"``, which has Dask and not Numba. Installing
each extra in a venv of its own would catch that at the cost of an install per extra; the
check here costs no install (a run of the files below per extra): it runs pytest with one
extra's libraries unimportable (``tests/missing_extra/sitecustomize.py``, in pytest's
process and in every Python process its tests start) and everything else installed, on the
test files that can meet that case (those that name another optional library: every other
file runs in the user leg without any) and the documentation's examples.
"""

from __future__ import annotations

import ast
import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BLOCKER = ROOT / "tests" / "missing_extra"

#: Each extra, by the libraries that are missing without it (top-level import names), and
#: the words every skip for it says (``EXTRAS`` of the top-level ``conftest.py``).
GROUPS = {
    "cuda12": (("cupy", "cupyx"), "CuPy (the cuda12 or cuda13 extra)"),
    "kernels": (("numba",), "Numba (the kernels extra)"),
    "test": (("scipy",), "SciPy (the test extra)"),
    "dask": (("dask", "distributed"), "the dask extra"),
    "mpi": (("mpi4py",), "mpi4py (the mpi extra)"),
    "docs": (("sphinx", "docutils", "myst_parser"), "Sphinx (the docs extra)"),
}
OPTIONAL = {name for names, _ in GROUPS.values() for name in names}
#: A line of ``-rs``: ``SKIPPED [3] tests/test_x.py:12: the reason`` (a file skipped whole,
#: at collection: ``SKIPPED [1] docs/conf.py: the reason``).
SKIP_LINE = re.compile(r"^SKIPPED \[\d+\] (\S+?)(?::\d+)?: (.*)$", re.MULTILINE)


def _installed(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def _named_libraries(path: Path) -> set[str]:
    """The optional libraries that ``path`` imports or ``importorskip``s, anywhere in it."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name.partition(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.partition(".")[0])
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "importorskip"
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            found.add(str(node.args[0].value).partition(".")[0])
    return found & OPTIONAL


def _selection(missing: tuple[str, ...]) -> list[str]:
    """The test files that name an optional library other than the missing ones, and docs/."""
    # tests/fake_cupy/ and the like run in processes of their own, started by these files
    files = sorted(ROOT.glob("tests/test_*.py"))
    chosen = [
        str(path.relative_to(ROOT))
        for path in files
        if path.name != Path(__file__).name and _named_libraries(path) - set(missing)
    ]
    return [*chosen, "docs"]


def test_the_selection_holds_the_files_that_check_one_extra_and_use_another() -> None:
    numba_missing = _selection(("numba",))
    assert "tests/test_dask_distributed.py" in numba_missing  # Dask, then the example's Numba
    assert "tests/test_kernels.py" not in numba_missing  # names Numba alone: the user leg's
    assert "docs" in numba_missing
    assert _named_libraries(Path(__file__)) == set()  # this file does not select itself
    lines = "SKIPPED [3] tests/test_x.py:12: why\nSKIPPED [1] docs/conf.py: needs Sphinx\n"
    assert SKIP_LINE.findall(lines) == [
        ("tests/test_x.py", "why"),
        ("docs/conf.py", "needs Sphinx"),
    ]


#: Each extra costs a run of the selected files (2 to 4 minutes of CPU; their ``slow`` tests,
#: the typing checks and the sweeps that take minutes, are left out), so only CI runs
#: these, split between its two lanes: ``CUNUMPY_MISSING_EXTRAS_CHECK`` is ``1`` (every
#: extra) or the extras to check, comma-separated (``.ci/run``: the main leg the extras the
#: newest leg lacks or that cost most, the newest leg the others).
CHECK = "CUNUMPY_MISSING_EXTRAS_CHECK"


def _checked(extra: str) -> bool:
    value = os.environ.get(CHECK, "")
    return value == "1" or extra in value.split(",")


@pytest.mark.slow
@pytest.mark.parametrize("extra", list(GROUPS))
def test_without_one_extra_its_tests_skip_naming_it_and_none_fails(extra: str) -> None:
    if not _checked(extra):
        pytest.skip(f"{extra} missing on its own: run by CI ({CHECK}=1 or ={extra})")
    missing, words = GROUPS[extra]
    if not all(_installed(name) for name in missing):
        pytest.skip(f"{', '.join(missing)} already missing here: the user leg's case")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(BLOCKER), str(ROOT), env.get("PYTHONPATH", "")])
    env["CUNUMPY_TEST_MISSING"] = ",".join(missing)
    env.pop("CUNUMPY_CUDA_COMPILE_REQUIRED", None)  # those tests need CuPy's NVRTC or nvcc
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider",
         "-m", "not slow", *_selection(missing)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=1800, check=False,
    )  # fmt: skip
    failed = [line for line in run.stdout.splitlines() if line.startswith(("FAILED", "ERROR"))]
    tail = "\n".join(failed[:40]) + "\n...\n" + run.stdout[-3000:] + run.stderr[-2000:]
    assert run.returncode == 0, tail
    assert not re.search(r"\d+ (failed|errors?)\b", run.stdout), tail
    # Every skip that names a missing library says what to install: its extra (conftest's
    # words, or a hint of the form `pip install '.[kernels]'`), or, in the xp fixture's
    # reasons that users' projects see, the library's own `pip install` line. And some skip
    # named the extra: the library was missing.
    skips = SKIP_LINE.findall(run.stdout)
    names = re.compile(r"\b(" + "|".join(missing) + r")\b", re.IGNORECASE)
    extra_named = re.compile(re.escape(words) + "|" + re.escape(f".[{extra}]"))
    unnamed = sorted(
        {
            f"{where}: {why}"
            for where, why in skips
            if names.search(why) and not extra_named.search(why) and "pip install " not in why
        }
    )
    assert unnamed == [], "\n".join(unnamed)
    assert any(extra_named.search(why) for _, why in skips), tail
