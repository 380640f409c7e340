"""Products and norms of the Dask namespace, in the standard's signatures and dtypes."""

from __future__ import annotations

from typing import Any

import dask.array as da
import numpy as np

from ._elementwise import result_type

__all__ = ["matmul", "tensordot", "vecdot", "vector_norm"]


def _common(x1: da.Array, x2: da.Array) -> tuple[da.Array, da.Array]:
    """``x1`` and ``x2`` in their promoted dtype (Dask's products may pick another)."""
    dtype = result_type(x1, x2)
    return (x1 if x1.dtype == dtype else x1.astype(dtype)), (
        x2 if x2.dtype == dtype else x2.astype(dtype)
    )


def matmul(x1: da.Array, x2: da.Array, /) -> da.Array:
    """The matrix product of ``x1`` and ``x2`` (stacks broadcast)."""
    return da.matmul(*_common(x1, x2))


def tensordot(x1: da.Array, x2: da.Array, /, *, axes: Any = 2) -> da.Array:
    """The tensor contraction of ``x1`` and ``x2`` over ``axes``."""
    x1, x2 = _common(x1, x2)
    result = da.tensordot(x1, x2, axes=axes)
    return result if result.dtype == x1.dtype else result.astype(x1.dtype)  # Dask's sum promotes


def vecdot(x1: da.Array, x2: da.Array, /, *, axis: int = -1) -> da.Array:
    """The dot product of the vectors along ``axis`` (``x1`` conjugated)."""
    x1, x2 = _common(x1, x2)
    if x1.shape[axis] != x2.shape[axis]:
        msg = f"vecdot: `x1` and `x2` differ along `axis` {axis}: shapes {x1.shape} and {x2.shape}."
        raise ValueError(msg)
    x1, x2 = da.broadcast_arrays(x1, x2)
    if x1.dtype.kind == "c":
        x1 = da.conj(x1)
    return da.sum(x1 * x2, axis=axis, dtype=x1.dtype)  # sum alone promotes small integers


def vector_norm(
    x: da.Array, /, *, axis: Any = None, keepdims: bool = False, ord: float = 2
) -> da.Array:
    """The ``ord``-norm of the vectors along ``axis`` (all elements for None)."""
    a = da.abs(x)
    if a.dtype.kind not in "fc":
        a = a.astype(np.float64)
    if ord == 2:
        return da.sqrt(da.sum(a * a, axis=axis, keepdims=keepdims))
    if ord == np.inf:
        return da.max(a, axis=axis, keepdims=keepdims)
    if ord == -np.inf:
        return da.min(a, axis=axis, keepdims=keepdims)
    if ord == 0:
        return da.sum(a != 0, axis=axis, keepdims=keepdims).astype(a.dtype)
    if ord == 1:
        return da.sum(a, axis=axis, keepdims=keepdims)
    return da.sum(a**ord, axis=axis, keepdims=keepdims) ** (1.0 / ord)
