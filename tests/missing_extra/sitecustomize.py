"""Make optional libraries unimportable, as on a machine where their extra is not installed.

``tests/test_missing_extras.py`` puts this folder first on ``PYTHONPATH`` and names the
libraries in ``CUNUMPY_TEST_MISSING`` (comma-separated top-level names); Python imports
``sitecustomize`` at start-up, in pytest's process and in every Python process its tests
start, so each of them sees the libraries as missing, as where they are not installed:
``import numba`` raises ``ModuleNotFoundError`` (a finder first on ``sys.meta_path``), and
``importlib.util.find_spec("numba")`` is ``None`` (for a submodule it raises
``ModuleNotFoundError``, as Python does when the parent is missing). Nothing is put in
``sys.modules``, so ``"numba" in sys.modules`` stays false. Without the variable this
module does nothing.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from types import ModuleType
from typing import Any

MISSING = frozenset(filter(None, os.environ.get("CUNUMPY_TEST_MISSING", "").split(",")))


class MissingExtra:
    """A meta path finder that refuses the libraries of ``MISSING`` and their submodules."""

    def find_spec(
        self, name: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        top = name.partition(".")[0]
        if top in MISSING:
            raise ModuleNotFoundError(f"No module named {top!r}", name=top)
        return None


_find_spec = importlib.util.find_spec


def find_spec(name: str, package: str | None = None) -> ModuleSpec | None:
    """``importlib.util.find_spec``, which finds none of ``MISSING``."""
    if name in MISSING:
        return None
    return _find_spec(name, package)


def _patch(module: Any) -> None:
    module.find_spec = find_spec


if MISSING:
    sys.meta_path.insert(0, MissingExtra())
    _patch(importlib.util)
