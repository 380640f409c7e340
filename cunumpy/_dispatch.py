"""``cunumpy._dispatch``: CuNumpy 0.7.x's path, where clients import ``Kernel`` (feectools' tests).

A re-export module kept at an old path: ``Kernel`` is ``cunumpy.kernels.Kernel`` (0.7.x's
``_dispatch`` defined it), and every other name is looked up in
``cunumpy._calls._where_to_run``, the helpers that find where a top-level call runs.
"""

from __future__ import annotations

from typing import Any

from ._calls import _where_to_run as _moved


def __getattr__(name: str) -> Any:
    """``cunumpy._dispatch.Kernel`` is ``cunumpy.kernels.Kernel``; any other
    ``cunumpy._dispatch.<name>`` is ``cunumpy._calls._where_to_run.<name>``."""
    if name == "Kernel":
        from .kernels import Kernel

        return Kernel
    try:
        return getattr(_moved, name)
    except AttributeError:
        msg = f"module 'cunumpy._dispatch' has no attribute {name!r}"
        raise AttributeError(msg) from None
