"""``cunumpy._host``: CuNumpy 0.7.1's path of ``host_call``, ``evaluate_on_host`` and ``setup_on_host``.

A re-export module kept at an old path: the module is ``cunumpy._on_host._host_call``, and every name is
looked up there.
"""

from __future__ import annotations

from typing import Any

from ._on_host import _host_call as _moved


def __getattr__(name: str) -> Any:
    """``cunumpy._host.<name>`` is ``cunumpy._on_host._host_call.<name>``."""
    return getattr(_moved, name)
