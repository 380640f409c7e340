"""Doctest collection for the package: examples that need MPI skip, saying why, without it.

The summary groups skipped tests by reason: on a machine without a GPU, more than a
hundred tests skip for the same reason, and pytest's ``-rs`` prints one line per test
location. ``pyproject.toml`` asks for ``-rfExX`` (failures, errors and xfails in full) and
the hook below adds one line per reason; ``-rs`` or ``-ra`` on the command line lists
every skipped test as usual.

It also enables cunumpy's own pytest plugin (the ``xp`` and ``device`` fixtures, ``--xp``,
the ``xp`` markers) for the whole suite, the way its users enable it. cunumpy's own tests
have their other fixtures in ``tests/conftest.py``.
"""

from __future__ import annotations

import importlib.util
from collections import defaultdict
from pathlib import Path

import pytest

pytest_plugins = ["cunumpy.testing.plugin"]


def _sphinx_usable() -> bool:
    """Whether ``sphinx.application`` can be found: on the GPU machine ``import sphinx``
    works but ``sphinx.application`` is missing, so asking for ``sphinx`` is not enough."""
    try:
        return importlib.util.find_spec("sphinx.application") is not None
    except ImportError:  # a `sphinx` that is not a package
        return False


# The Sphinx configuration and extension are imported for their doctests only where Sphinx
# is (the docs extra): the suite collects without it, as on the GPU machine.
collect_ignore = [] if _sphinx_usable() else ["docs/_ext", "docs/conf.py"]
# cunumpy/dask.py puts cunumpy._backends.dask in its place when imported, so it cannot be
# collected as a file (the namespace's own modules are). Without Dask (the dask extra), the
# examples that need it are not collected either.
collect_ignore.append("cunumpy/dask.py")
if importlib.util.find_spec("dask") is None:
    collect_ignore += [
        "cunumpy/_backends/dask",
        "cunumpy/testing/_dask_computes.py",
        "docs/dask.md",
        "docs/testing.md",  # its devices example uses a Dask array
    ]

# The examples that call SciPy (``cunumpy.integrate`` and the host solvers of ``optimize``).
SCIPY_EXAMPLES = ("cunumpy.integrate.", "cunumpy.optimize._scipy_solvers.")

# The examples that run CUDA C on the CPU emulator of ``cunumpy.kernel_testing`` (a C++
# compiler): marked ``emulated`` like the tests that do, so that ``-m "not emulated"`` (as in
# gpu_check.sh) leaves them out too, and skipped, saying why, without a compiler.
EMULATED_EXAMPLES = (
    "cunumpy/kernel_testing/_emulate.py",
    "cunumpy/kernel_testing/_device_function.py",
    "docs/kernel_testing.md",
)
ROOT = Path(__file__).resolve().parent


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the emulated examples; skip those of ``cunumpy.mpi`` without mpi4py, of the host
    solvers without SciPy, and the emulated ones without a C++ compiler."""
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
                item.add_marker(pytest.mark.skip(reason="the emulation needs a C++ compiler"))
    if importlib.util.find_spec("scipy") is None:
        for item in items:
            if isinstance(item, pytest.DoctestItem) and item.name.startswith(SCIPY_EXAMPLES):
                item.add_marker(
                    pytest.mark.skip(reason="SciPy is not installed (the host solvers)")
                )
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
            item.add_marker(pytest.mark.skip(reason=str(exc)))


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
    """One line per skip reason: how many tests, the reason, and where."""
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
