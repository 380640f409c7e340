"""Shared by the tests of the compiled fast path (``cunumpy/_calls/_fastcall.c``)."""

from __future__ import annotations

import os

import pytest

from cunumpy._calls import _fast_path


def require_fast_path() -> None:
    """Skip the calling test module, with the reason, where the C fast path is not in use;
    fail it instead where ``CUNUMPY_FASTCALL_REQUIRED=1`` (CI, wherever it has a compiler)."""
    installed, why = _fast_path.compiled()
    if installed:
        return
    if os.environ.get("CUNUMPY_FASTCALL_REQUIRED") == "1":
        raise AssertionError(f"CUNUMPY_FASTCALL_REQUIRED=1 but the C fast path is off: {why}")
    pytest.skip(f"the C fast path is not in use here: {why}", allow_module_level=True)
