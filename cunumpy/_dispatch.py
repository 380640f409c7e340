"""``cunumpy._dispatch``: CuNumpy 0.7.x's path, where clients import ``Kernel`` (Struphy).

A re-export module kept at an old path: the module is ``cunumpy._calls._dispatch``, and every name is
looked up there.
"""

from __future__ import annotations

from typing import Any

from ._calls import _dispatch as _moved


def __getattr__(name: str) -> Any:
    """``cunumpy._dispatch.<name>`` is ``cunumpy._calls._dispatch.<name>``."""
    return getattr(_moved, name)
