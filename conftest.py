"""Doctest collection for the package: examples and tests that need an optional library
skip, naming it and its extra, where it is not installed (``pip install ".[testing]"``
alone runs the suite: CuPy, Numba, SciPy, Dask, mpi4py and Sphinx may all be missing).

A file that imports such a library at module level (or whose package does), or that
``NEEDS`` names, is not imported: collecting it skips with the reason (``missing_extra``).
Single examples that need SciPy, MPI or a C++ compiler are marked one by one, and the
examples of a guide page's section that needs one (``SECTIONS_NEED``: Numba and SciPy in
``docs/migrating.md``) are left out of the page's doctest, the rest of it still running.

The summary groups skipped tests by reason: on a machine without a GPU, more than a
hundred tests skip for the same reason, and pytest's ``-rs`` prints one line per test
location. ``pyproject.toml`` asks for ``-rfExX`` (failures, errors and xfails in full) and
the hook below adds one line per reason; ``-rs`` or ``-ra`` on the command line lists
every skipped test as usual.

It also enables cunumpy's own pytest plugin (the ``xp`` and ``device`` fixtures, ``--cunumpy-xp``,
the ``xp`` markers) for the whole suite, the way its users enable it. cunumpy's own tests
have their other fixtures in ``tests/conftest.py``.
"""

from __future__ import annotations

import ast
import functools
import importlib.util
import re
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

pytest_plugins = ["cunumpy.testing.plugin"]
ROOT = Path(__file__).resolve().parent


# cunumpy/dask.py puts cunumpy._backends.dask in its place when imported, so it cannot be
# collected as a file (the namespace's own modules are). tests/missing_extra/ holds a
# `sitecustomize` that only tests/test_missing_extras.py puts on the path: imported by name
# during collection, it would meet the interpreter's own sitecustomize where one exists.
collect_ignore = ["cunumpy/dask.py", "tests/missing_extra"]

# What a user installs for each optional library that an example or a test module imports.
EXTRAS = {
    "cupy": "CuPy (the cuda12 or cuda13 extra)",
    "cupyx": "CuPy (the cuda12 or cuda13 extra)",
    "numba": "Numba (the kernels extra)",
    "scipy": "SciPy (the test extra)",
    "dask": "Dask (the dask extra)",
    "distributed": "Dask's distributed (the dask extra)",
    "mpi4py": "mpi4py (the mpi extra)",
    "sphinx": "Sphinx (the docs extra)",
    "docutils": "Sphinx (the docs extra)",
    "myst_parser": "Sphinx (the docs extra)",
}
# The files whose examples need a library that no import line of theirs names (folders end
# with "/"): ``sphinx.application``, since the GPU machine has a ``sphinx`` without it.
NEEDS = {
    "docs/_ext/api_pages.py": "sphinx.application",
    "docs/conf.py": "sphinx.application",
    "docs/dask.md": "dask",
    "docs/kernels.md": "numba",  # its portable kernels are compiled by Numba
    "docs/testing.md": "dask",  # its devices example uses a Dask array
    "cunumpy/testing/_dask_computes.py": "dask",
}


@functools.cache
def _installed(module: str) -> bool:
    """Whether ``module`` can be imported (the fake CuPy, in ``sys.modules``, counts; a
    ``None`` there blocks the import)."""
    if module in sys.modules:
        return sys.modules[module] is not None
    try:
        return importlib.util.find_spec(module) is not None
    except ImportError:  # a parent package is missing, or is not a package
        return False
    except ValueError:  # in sys.modules without a spec: it is there
        return True


def _module_level_imports(path: Path) -> list[str]:
    """The modules that ``path`` imports when it is imported (its top-level statements:
    imports, and ``pytest.importorskip("name", ...)`` calls)."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, UnicodeDecodeError):
        return []
    found = []
    for node in tree.body:
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append(node.module)
        elif isinstance(node, (ast.Expr, ast.Assign)) and _importorskip(node.value):
            found.append(node.value.args[0].value)  # type: ignore[attr-defined]
    return found


def _importorskip(call: ast.expr) -> bool:
    """Whether ``call`` is ``pytest.importorskip("name", ...)``."""
    return (
        isinstance(call, ast.Call)
        and isinstance(call.func, ast.Attribute)
        and call.func.attr == "importorskip"
        and bool(call.args)
        and isinstance(call.args[0], ast.Constant)
        and isinstance(call.args[0].value, str)
    )


def missing_extra(path: Path) -> str | None:
    """Why the examples or tests of ``path`` cannot run here: the optional library it (or
    its package's ``__init__.py``) imports at module level, or that ``NEEDS`` names, and
    that is not installed; ``None`` when nothing is missing."""
    relative = _relative(path, ROOT)
    wanted = [
        module
        for place, module in NEEDS.items()
        if relative == place or (place.endswith("/") and relative.startswith(place))
    ]
    if path.suffix == ".py":
        files = [path]
        folder = path.parent
        while folder != ROOT and (folder / "__init__.py").is_file() and ROOT in folder.parents:
            files.append(folder / "__init__.py")
            folder = folder.parent
        wanted += [
            module
            for file in files
            for module in _module_level_imports(file)
            if module.partition(".")[0] in EXTRAS
        ]
    for module in wanted:
        if not _installed(module):
            return _not_installed(module)
    return None


def _not_installed(module: str) -> str:
    """The skip reason: the missing library, and what to install."""
    top = module.partition(".")[0]
    missing = f"{module} cannot be imported" if _installed(top) else f"{top} is not installed"
    return f"{missing}: needs {EXTRAS[top]}"


class MissingExtra(pytest.File):
    """A file whose examples or tests need an optional library that is not installed: it
    is not imported; its one item skips, naming the library and its extra."""

    reason = ""

    def collect(self) -> list[pytest.Item]:
        item = NotImported.from_parent(self, name=self.path.name)
        item.add_marker(pytest.mark.skip(reason=self.reason))  # reported at this file
        return [item]


class NotImported(pytest.Item):
    """The stand-in for the tests of a file that needs a missing extra (always skipped)."""

    def runtest(self) -> None:
        raise RuntimeError(f"{self.path} needs a library that is not installed")

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, self.name


@pytest.hookimpl(wrapper=True)
def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> Any:
    """A test module or a file of examples that needs a missing extra skips, saying which."""
    collectors = yield
    if not collectors:
        return collectors
    reason = missing_extra(file_path)
    if reason is None:
        return collectors
    skipped = MissingExtra.from_parent(parent, path=file_path)
    skipped.reason = reason
    return [skipped]


_COULD_NOT_IMPORT = re.compile(r"could not import '([\w.]+)'")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """A test that skips through ``pytest.importorskip("numba")`` inside its body (pytest's
    reason: "could not import 'numba': ...") names the extra too, as a file skipped at
    collection does."""
    report = yield
    longrepr = report.longrepr
    if report.skipped and isinstance(longrepr, tuple) and len(longrepr) == 3:
        found = _COULD_NOT_IMPORT.search(str(longrepr[2]))
        if found and found.group(1).partition(".")[0] in EXTRAS and not _installed(found.group(1)):
            report.longrepr = (
                longrepr[0],
                longrepr[1],
                f"Skipped: {_not_installed(found.group(1))}",
            )
    return report


# The examples, by name, that call an optional library their module does not import: SciPy
# (``cunumpy.integrate`` and the host solvers of ``optimize``), Numba (the kernels compiled
# by ``elementwise`` and ``generalized``).
EXAMPLES_NEED = {
    "cunumpy.integrate.": "scipy",
    "cunumpy.optimize._scipy_solvers.": "scipy",
    "cunumpy.kernels._portable._elementwise.": "numba",
    "cunumpy.kernels._portable._generalized.": "numba",
}

# The sections of a guide page whose examples call an optional library that the rest of
# the page does not need: without it, those examples are left out of the page's one doctest
# item (the rest still runs) and the summary says so.
SECTIONS_NEED = {
    # Numba compiles the example's np.linalg.norm with SciPy's BLAS, as it does NumPy's
    ("docs/migrating.md", "## Numba"): ("numba", "scipy"),
}
_left_out: list[str] = []


def _leave_out_section(item: pytest.DoctestItem, heading: str, reason: str) -> None:
    """Drop the examples of the section under ``heading`` (to the next heading of its
    level or above) from ``item``, noting why for the summary."""
    if item.dtest is None:
        return
    lines = Path(str(item.path)).read_text(encoding="utf-8").splitlines()
    level = len(heading) - len(heading.lstrip("#"))
    start = lines.index(heading)
    end = next(
        (
            n
            for n in range(start + 1, len(lines))
            if lines[n].startswith("#") and 0 < len(lines[n]) - len(lines[n].lstrip("#")) <= level
        ),
        len(lines),
    )
    kept = [example for example in item.dtest.examples if not start <= example.lineno < end]
    if len(kept) < len(item.dtest.examples):
        item.dtest.examples[:] = kept
        _left_out.append(
            f"{_relative(item.path, ROOT)}, section '{heading.lstrip('# ')}': {reason}"
        )


# The examples that run CUDA C on the CPU emulator of ``cunumpy.kernel_testing`` (a C++
# compiler): marked ``emulated`` like the tests that do, so that ``-m "not emulated"`` (as in
# gpu_check.sh) leaves them out too, and skipped, saying why, without a compiler.
EMULATED_EXAMPLES = (
    "cunumpy/kernel_testing/_emulate.py",
    "cunumpy/kernel_testing/_device_function.py",
    "docs/kernel_testing.md",
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the emulated examples; skip those of ``cunumpy.mpi`` without mpi4py, those of
    ``EXAMPLES_NEED`` without their library, and the emulated ones without a C++ compiler."""
    emulated = [
        item
        for item in items
        if isinstance(item, pytest.DoctestItem) and _relative(item.path, ROOT) in EMULATED_EXAMPLES
    ]
    if emulated:
        from cunumpy.kernel_testing import emulation_compiler

        compiler = emulation_compiler()
        for item in emulated:
            item.add_marker(pytest.mark.emulated)
            if compiler is None:
                _skip(item, "the emulation needs a C++ compiler")
    for item in items:
        if not isinstance(item, pytest.DoctestItem):
            continue
        for (page, heading), modules in SECTIONS_NEED.items():
            missing = [module for module in modules if not _installed(module)]
            if _relative(item.path, ROOT) == page and missing:
                _leave_out_section(item, heading, _not_installed(missing[0]))
        for prefix, module in EXAMPLES_NEED.items():
            if item.name.startswith(prefix) and not _installed(module):
                _skip(item, _not_installed(module))
    mpi_examples = [
        item
        for item in items
        if isinstance(item, pytest.DoctestItem)
        and item.name.startswith(("cunumpy.mpi.", "cunumpy._mpi_job."))
    ]
    if not mpi_examples:
        return
    from cunumpy._mpi_job._import import require_mpi

    try:
        require_mpi("the cunumpy.mpi examples")
    except RuntimeError as exc:
        for item in mpi_examples:
            _skip(item, str(exc))


def _skip(item: pytest.DoctestItem, reason: str) -> None:
    """Skip an example, reported at its line: a module's own docstring has no line number
    in ``doctest`` (``None``), which pytest cannot report a skip marker at; it is line 1."""
    if item.dtest is not None and item.dtest.lineno is None:
        item.dtest.lineno = 0
    item.add_marker(pytest.mark.skip(reason=reason))


def _skip_chars(config: pytest.Config) -> bool:
    """Whether the ``-r`` characters in effect list skipped tests one by one."""
    chars = str(config.option.reportchars)
    return "s" in chars or "S" in chars or "a" in chars or "A" in chars


def _relative(path: object, root: Path) -> str:
    where = Path(str(path))
    try:
        return str(where.relative_to(root)) if where.is_absolute() else str(where)
    except ValueError:
        return str(where)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """One line per skip reason: how many tests, the reason, and where; and the sections
    of guide pages whose examples were left out."""
    for section in _left_out:
        terminalreporter.write_line(f"LEFT OUT the examples of {section}")
    if _skip_chars(terminalreporter.config):
        return  # pytest lists each skipped test itself
    root = terminalreporter.config.rootpath
    by_reason: dict[str, list[str]] = defaultdict(list)
    for report in terminalreporter.stats.get("skipped", []):
        longrepr = getattr(report, "longrepr", None)
        if not isinstance(longrepr, tuple) or len(longrepr) != 3:
            continue
        path, _, message = longrepr
        by_reason[str(message).removeprefix("Skipped: ")].append(_relative(path, root))
    if not by_reason:
        return
    terminalreporter.write_sep("=", "skipped, by reason (-rs lists each test)")
    for reason, files in sorted(by_reason.items(), key=lambda item: -len(item[1])):
        names = sorted(set(files))
        where = ", ".join(names[:3]) + (f" and {len(names) - 3} more files" if names[3:] else "")
        terminalreporter.write_line(f"SKIPPED {len(files)}: {reason} [{where}]")
