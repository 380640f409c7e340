"""Doctest collection for the package: examples that need MPI skip, saying why, without it.

It also enables cunumpy's own pytest plugin (the ``xp`` and ``device`` fixtures, ``--xp``,
the ``xp`` markers) for the whole suite, the way its users enable it. cunumpy's own tests
have their other fixtures in ``tests/conftest.py``.
"""

from __future__ import annotations

import importlib.util

import pytest

pytest_plugins = ["cunumpy.testing.plugin"]

# The Sphinx configuration and extension are imported for their doctests only where Sphinx
# is (the docs extra): the suite collects without it, as on the GPU machine.
collect_ignore = [] if importlib.util.find_spec("sphinx") else ["docs/_ext", "docs/conf.py"]

# The examples that call SciPy (``cunumpy.integrate`` and the host solvers of ``optimize``).
SCIPY_EXAMPLES = ("cunumpy.integrate.", "cunumpy.optimize._scipy.")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip the examples of ``cunumpy.mpi`` without mpi4py, and of the host solvers without SciPy."""
    if importlib.util.find_spec("scipy") is None:
        for item in items:
            if isinstance(item, pytest.DoctestItem) and item.name.startswith(SCIPY_EXAMPLES):
                item.add_marker(
                    pytest.mark.skip(reason="SciPy is not installed (the host solvers)")
                )
    mpi_examples = [
        item
        for item in items
        if isinstance(item, pytest.DoctestItem) and item.name.startswith(("cunumpy.mpi.",))
    ]
    if not mpi_examples:
        return
    from cunumpy.mpi._env import require_mpi

    try:
        require_mpi("the cunumpy.mpi examples")
    except RuntimeError as exc:
        for item in mpi_examples:
            item.add_marker(pytest.mark.skip(reason=str(exc)))
