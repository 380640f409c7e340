"""A small backend-agnostic library function: the softmax, for any Array API namespace."""

from __future__ import annotations

from typing import Any

import cunumpy


def softmax(x: Any, /, *, axis: int = -1) -> Any:
    """``exp(x) / sum(exp(x))`` along ``axis``, without overflow for large inputs."""
    xp = cunumpy.array_namespace(x)
    shifted = x - xp.max(x, axis=axis, keepdims=True)
    e = xp.exp(shifted)
    return e / xp.sum(e, axis=axis, keepdims=True)
