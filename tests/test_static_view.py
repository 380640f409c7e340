"""The static view (``cunumpy/*.pyi``, docs/typing.md) against the runtime.

- The stubs are what ``tools/generate_stubs.py`` writes now (not stale).
- Every public runtime name of each stubbed module (its ``dir()``, its lazy names and the
  backend library's names it resolves) is in the stub, and every name of the stub exists
  at run time.
- mypy's ``stubtest`` finds nothing outside ``tests/stubtest_allowlist.txt``, whose
  entries each carry a reason.
- A typed program sees NumPy's types, a misspelt name is an error, and ``cupy.ndarray``
  arguments type-check (the CuPy decision of docs/typing.md).
"""

from __future__ import annotations

import ast
import importlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import generate_stubs  # noqa: E402

from tests import numpy_typing_switch  # noqa: E402

ALLOWLIST = ROOT / "tests" / "stubtest_allowlist.txt"


_SAME, _REASON = numpy_typing_switch.same_numpy()
SAME_NUMPY = pytest.mark.skipif(not _SAME, reason=_REASON)


def _tool(name: str) -> None:
    if name == "mypy":
        pytest.importorskip("mypy", reason="mypy is not installed (the test extra has it)")
    elif shutil.which(name) is None:
        pytest.skip(f"{name} is not installed (the test extra has it)")


def _stub_names(module: str) -> set[str]:
    """The names a stub binds at its top level (its exports and its helper imports)."""
    path = ROOT / "cunumpy" / generate_stubs.MODULES[module][0]
    names = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.ImportFrom):
            names.update(a.asname for a in node.names if a.asname == a.name)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


@SAME_NUMPY
def test_stubs_are_generated() -> None:
    stale = generate_stubs.write(check=True)
    assert not stale, f"stale stubs, run python tools/generate_stubs.py: {stale}"


@SAME_NUMPY
@pytest.mark.parametrize("module", sorted(generate_stubs.MODULES))
def test_every_runtime_name_is_in_the_static_view(module: str) -> None:
    runtime = importlib.import_module(module)
    stub = _stub_names(module)
    expected = set(dir(runtime)) | set(getattr(runtime, "_LAZY_SUBMODULES", ()))
    library = importlib.import_module(generate_stubs.MODULES[module][1])
    expected |= {name for name in getattr(library, "__all__", ()) if not name.startswith("_")}
    expected = {name for name in expected if not name.startswith("_") or name in runtime.__all__}
    assert expected - stub == set()
    assert {"sqtr", "__getattr__"} & stub == set()


@SAME_NUMPY
@pytest.mark.parametrize("module", sorted(generate_stubs.MODULES))
def test_every_static_name_exists_at_run_time(module: str) -> None:
    runtime = importlib.import_module(module)
    missing = sorted(name for name in _stub_names(module) if not generate_stubs.has(runtime, name))
    assert missing == []


def test_every_allowlist_entry_has_a_reason() -> None:
    lines = ALLOWLIST.read_text().splitlines()
    reason = False
    for line in lines:
        if line.startswith("#"):
            reason = True
        elif line.strip():
            assert reason, f"{line!r} in {ALLOWLIST.name} has no reason comment above it"
        else:
            reason = False


def _mypy(tmp_path: Path, source: str, *options: str) -> str:
    (tmp_path / "program.py").write_text(source)
    environment = {**os.environ, "MYPYPATH": str(ROOT)}
    completed = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / ".cache"), *options,
         "--no-error-summary", "--hide-error-context", "program.py"],
        capture_output=True, text=True, cwd=tmp_path, env=environment, check=False,
    )  # fmt: skip
    return completed.stdout


PROGRAM = """\
import cunumpy as np

x = np.zeros(3)
reveal_type(x)
reveal_type(np.sum(x))
reveal_type(np.add.reduce(np.arange(4)))
reveal_type(np.arange("2016-07", "2016-08", dtype="datetime64[D]"))
reveal_type(np.linalg.norm(x))
reveal_type(np.sort(x, descending=True))
reveal_type(np.zeros(2, device="cpu"))
reveal_type(np.finfo(np.float32))
reveal_type(np.to_numpy(x))
reveal_type(np.random.default_rng())
np.testing.assert_allclose(x, x)
np.sqtr(x)
"""


@SAME_NUMPY
def test_a_typed_program_sees_numpy_types(tmp_path: Path) -> None:
    _tool("mypy")
    lines = _mypy(tmp_path, PROGRAM).splitlines()
    revealed = [line.split("Revealed type is ", 1)[1] for line in lines if "Revealed" in line]
    assert revealed == [
        '"numpy.ndarray[tuple[int], numpy.dtype[numpy.float64]]"',
        '"numpy.float64"',
        '"Any"',  # what NumPy's own stub says of np.add.reduce
        '"numpy.ndarray[tuple[int], numpy.dtype[numpy.datetime64[Any]]]"',
        '"numpy.floating[Any]"',
        '"numpy.ndarray[tuple[Any, ...], numpy.dtype[numpy.float64]]"',
        '"numpy.ndarray[tuple[int], numpy.dtype[numpy.float64]]"',
        '"cunumpy._backends.numpy._dtypes.finfo_object"',  # the standard's, deliberately
        '"numpy.ndarray[tuple[Any, ...], numpy.dtype[Any]]"',
        '"numpy.random._generator.Generator"',
    ]
    errors = [line for line in lines if ": error:" in line]
    assert len(errors) == 1
    assert 'Module has no attribute "sqtr"' in errors[0]


CUPY_PROGRAM = """\
import cupy
import cunumpy as np


def step(x: cupy.ndarray, y: cupy.ndarray) -> None:
    np.add(x, y)
    np.add.reduce(x)
    np.sum(x, axis=0)
    np.sort(x, descending=True)
    np.linalg.norm(x)
    np.fft.fft(x)
    np.linalg.eigvals(x)
    np.asarray(x, device=x.device)
    np.zeros(3, device=x.device)
    np.to_numpy(x)
    np.where(x > 0, x, y)
    np.concat([x, y])
"""


@SAME_NUMPY
def test_cupy_arrays_type_check_where_the_runtime_takes_them(tmp_path: Path) -> None:
    """CuPy ships no types: to mypy (ignore_missing_imports, as this project's own
    configuration and most users' have it) a ``cupy.ndarray`` is ``Any``, which every
    parameter takes. docs/typing.md, "The CuPy backend"."""
    _tool("mypy")
    output = _mypy(tmp_path, CUPY_PROGRAM, "--strict", "--ignore-missing-imports")
    assert [line for line in output.splitlines() if ": error:" in line] == []


@pytest.mark.slow
@SAME_NUMPY
def test_stubtest_is_clean_apart_from_its_allowlist(tmp_path: Path) -> None:
    _tool("mypy")
    completed = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "cunumpy", "--concise",
         "--mypy-config-file", str(ROOT / "pyproject.toml"), "--allowlist", str(ALLOWLIST)],
        capture_output=True, text=True, cwd=tmp_path,
        env={**os.environ, "MYPYPATH": str(ROOT), "PYTHONPATH": str(ROOT)}, check=False,
    )  # fmt: skip
    assert completed.returncode == 0, completed.stdout + completed.stderr


LAZY_PROGRAM = """\
import cunumpy.cuda
import cunumpy.dask
import cunumpy.kernel_testing
import cunumpy.xp
from cunumpy.testing import strategies

reveal_type(cunumpy.xp.xp.zeros(3))
reveal_type(cunumpy.xp.numpy_backend)
reveal_type(cunumpy.xp.cupy_backend)
reveal_type(cunumpy.cuda.device_count())
reveal_type(cunumpy.kernel_testing.requires_cupy)
reveal_type(cunumpy.kernel_testing.backend)
reveal_type(cunumpy.dask.floor_divide)
reveal_type(strategies.shapes)
cunumpy.xp.sqtr
cunumpy.cuda.sqtr
cunumpy.kernel_testing.sqtr
cunumpy.dask.sqtr
strategies.sqtr
"""


@SAME_NUMPY
def test_modules_with_names_made_at_run_time_are_typed(tmp_path: Path) -> None:
    """cunumpy.xp, cuda, kernel_testing, dask and testing.strategies answer some names
    through a module ``__getattr__`` (or replace themselves at import); type checkers see
    declarations of what those give instead, so a misspelt name is an error there too."""
    _tool("mypy")
    pytest.importorskip("dask", reason="cunumpy.dask needs Dask (the dask extra)")
    pytest.importorskip("hypothesis", reason="cunumpy.testing.strategies needs Hypothesis")
    lines = _mypy(tmp_path, LAZY_PROGRAM).splitlines()
    revealed = [line.split("Revealed type is ", 1)[1] for line in lines if "Revealed" in line]
    assert revealed[:4] == [
        '"numpy.ndarray[tuple[int], numpy.dtype[numpy.float64]]"',  # the top level's types
        '"bool"',
        '"bool"',
        '"int"',
    ]
    assert revealed[4] == '"_pytest.mark.structures.MarkDecorator"'
    assert revealed[5] == '"_pytest.fixtures.FixtureFunctionDefinition"'
    assert revealed[6] == '"def (Any, Any) -> dask.array.core.Array"'
    assert "SearchStrategy[tuple[int, ...]]" in revealed[7]
    errors = [line for line in lines if ": error:" in line]
    assert len(errors) == 5, errors
    assert all('Module has no attribute "sqtr"' in error for error in errors)
