"""Fixtures of the conformance harness: the namespace under test and its expected failures."""

from __future__ import annotations

import importlib
import os
import warnings
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
from hypothesis import settings

from array_api_tests import module_name, xfail_name

settings.register_profile(
    "array_api_tests",
    max_examples=int(os.environ.get("CUNUMPY_CONFORMANCE_MAX_EXAMPLES", "40")),
    deadline=None,
    database=None,
)

XFAIL_DIR = Path(__file__).parent / "xfails"


def load_namespace() -> ModuleType:
    return importlib.import_module(module_name())


def read_xfails(path: Path) -> list[tuple[str, str]]:
    """``(test id or prefix, reason)`` pairs; a line without ``  # reason`` is an error."""
    entries: list[tuple[str, str]] = []
    if not path.exists():
        return entries
    for number, raw in enumerate(path.read_text().splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        test_id, sep, reason = line.partition("  # ")
        if not sep or not reason.strip() or not test_id.strip():
            raise pytest.UsageError(f"{path}:{number}: expected-failure entry without a reason")
        entries.append((test_id.strip(), reason.strip()))
    return entries


def _short_id(nodeid: str) -> str:
    return nodeid.split("array_api_tests/", 1)[-1]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    entries = read_xfails(XFAIL_DIR / f"{xfail_name()}.txt")
    if not entries:
        return
    for item in items:
        if "array_api_tests/" not in item.nodeid and not item.nodeid.startswith("test_"):
            continue
        short = _short_id(item.nodeid)
        for test_id, reason in entries:
            if short == test_id or short.startswith(test_id):
                item.add_marker(pytest.mark.xfail(strict=True, reason=reason))
                break


@pytest.fixture(scope="session")
def xp() -> ModuleType:
    """The Array API namespace under test."""
    return load_namespace()


@pytest.fixture
def quiet_fp() -> Iterator[None]:
    """Floating-point special values legitimately raise NumPy RuntimeWarnings."""
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        yield
