"""The simulator tests are collected only in a process started with NUMBA_ENABLE_CUDASIM=1.

``tests/test_kernels_simulator.py`` starts that process; the main test run passes over
this folder (its modules would otherwise be imported for doctests without the simulator).
"""

from __future__ import annotations

import os
from pathlib import Path


def pytest_ignore_collect(collection_path: Path) -> bool | None:
    """Ignore this folder's modules unless Numba's CUDA simulator is on."""
    if os.environ.get("NUMBA_ENABLE_CUDASIM") != "1" and collection_path.name != "conftest.py":
        return True
    return None
