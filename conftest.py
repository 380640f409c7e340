"""Doctest collection for the package: examples that need MPI skip, saying why, without it.

cunumpy's own tests have their fixtures in ``tests/conftest.py``; this file only sees the
docstring examples of ``cunumpy/`` (run by ``--doctest-modules``).
"""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip the examples of ``cunumpy.mpi`` when mpi4py cannot be used here."""
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
