"""The fake-CuPy tests are collected only in a process started with CUNUMPY_FAKE_CUPY=1.

``tests/test_fake_cupy.py`` starts that process; the main run passes over this folder.
Everything here runs on the fake CuPy of ``cunumpy.kernel_testing`` (host memory, CUDA C
emulated on the CPU): it catches host/device mix-ups, and is never a GPU check.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest


def pytest_ignore_collect(collection_path: Path) -> bool | None:
    """Ignore this folder's modules unless the fake CuPy is on."""
    if os.environ.get("CUNUMPY_FAKE_CUPY") != "1" and collection_path.name != "conftest.py":
        return True
    return None


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test here is a fake-CuPy test (the hook sees the whole session's tests)."""
    folder = Path(__file__).resolve().parent
    for item in items:
        if folder in item.path.resolve().parents:
            item.add_marker(pytest.mark.fake_cupy)
