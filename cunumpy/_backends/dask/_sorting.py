"""Sorting, searching and statistics of the Dask namespace, in the standard's signatures.

Sorting runs cunumpy's chunk namespace on one chunk along the sorted axis (Dask has no
sort). The statistics map the standard's keywords onto Dask's reductions
(``correction=`` is ``ddof=``, ``keepdims=`` where Dask lacks it).
"""

from __future__ import annotations

from typing import Any

import dask.array as da
import numpy as np

from ._chunks import _map_blocks, chunk_namespace

__all__ = [
    "argmax", "argmin", "argsort", "count_nonzero", "cumulative_prod", "cumulative_sum",
    "searchsorted", "sort", "std", "var",
]  # fmt: skip


def _one_chunk_along(x: da.Array, axis: int) -> da.Array:
    if x.numblocks[axis] < 2:
        return x
    return x.rechunk({i: -1 if i == axis % x.ndim else "auto" for i in range(x.ndim)})


def sort(
    x: da.Array, /, *, axis: int = -1, descending: bool = False, stable: bool = True
) -> da.Array:
    """``x`` sorted along ``axis`` (the axis is gathered into one chunk per block)."""
    namespace = chunk_namespace(x)
    x = _one_chunk_along(x, axis)
    return _map_blocks(
        namespace.sort, x, axis=axis, descending=descending, stable=stable, dtype=x.dtype
    )


def argsort(
    x: da.Array, /, *, axis: int = -1, descending: bool = False, stable: bool = True
) -> da.Array:
    """The indices that sort ``x`` along ``axis``."""
    namespace = chunk_namespace(x)
    x = _one_chunk_along(x, axis)
    dtype = namespace.argsort(x._meta).dtype
    return _map_blocks(
        namespace.argsort, x, axis=axis, descending=descending, stable=stable, dtype=dtype
    )


def argmax(x: da.Array, /, *, axis: int | None = None, keepdims: bool = False) -> da.Array:
    """The index of the first maximum along ``axis`` (of the flattened ``x`` for None)."""
    return _arg_reduction(da.argmax, x, axis, keepdims)


def argmin(x: da.Array, /, *, axis: int | None = None, keepdims: bool = False) -> da.Array:
    """The index of the first minimum along ``axis`` (of the flattened ``x`` for None)."""
    return _arg_reduction(da.argmin, x, axis, keepdims)


def _arg_reduction(reduction: Any, x: da.Array, axis: int | None, keepdims: bool) -> da.Array:
    result = reduction(x, axis=axis)
    if not keepdims:
        return result
    return result.reshape((1,) * x.ndim) if axis is None else da.expand_dims(result, axis)


def count_nonzero(
    x: da.Array, /, *, axis: int | tuple[int, ...] | None = None, keepdims: bool = False
) -> da.Array:
    """The number of nonzero elements along ``axis``."""
    return da.sum(x != 0, axis=axis, keepdims=keepdims, dtype=np.intp)


def std(
    x: da.Array, /, *, axis: Any = None, correction: float = 0.0, keepdims: bool = False
) -> da.Array:
    """Standard deviation along ``axis``, with ``correction`` degrees of freedom removed."""
    return da.std(x, axis=axis, ddof=correction, keepdims=keepdims)


def var(
    x: da.Array, /, *, axis: Any = None, correction: float = 0.0, keepdims: bool = False
) -> da.Array:
    """Variance along ``axis``, with ``correction`` degrees of freedom removed."""
    return da.var(x, axis=axis, ddof=correction, keepdims=keepdims)


def cumulative_sum(
    x: da.Array, /, *, axis: int | None = None, dtype: Any = None, include_initial: bool = False
) -> da.Array:
    """Cumulative sum along ``axis`` (optional for 1-D ``x``), optionally starting at 0."""
    return _cumulative(da.cumsum, 0, "cumulative_sum", x, axis, dtype, include_initial)


def cumulative_prod(
    x: da.Array, /, *, axis: int | None = None, dtype: Any = None, include_initial: bool = False
) -> da.Array:
    """Cumulative product along ``axis`` (optional for 1-D ``x``), optionally starting at 1."""
    return _cumulative(da.cumprod, 1, "cumulative_prod", x, axis, dtype, include_initial)


def _cumulative(
    scan: Any, initial: int, func: str, x: da.Array, axis: int | None, dtype: Any,
    include_initial: bool,
) -> da.Array:  # fmt: skip
    if axis is None:
        if x.ndim > 1:
            msg = f"{func}: `axis` is required for arrays of more than one dimension (got shape {x.shape})."
            raise ValueError(msg)
        axis = 0
    result = scan(x, axis=axis, dtype=dtype)
    if not include_initial:
        return result
    shape = list(result.shape)
    shape[axis] = 1
    start = da.full(shape, initial, dtype=result.dtype)
    return da.concatenate([start, result], axis=axis)


def searchsorted(
    x1: da.Array, x2: Any, /, *, side: str = "left", sorter: da.Array | None = None
) -> da.Array:
    """Indices where ``x2``'s elements would be inserted into the sorted 1-D ``x1``."""
    if sorter is not None:
        x1 = da.take(x1, sorter)
    if not isinstance(x2, da.Array):
        x2 = da.asarray(x2, dtype=x1.dtype)
    return da.searchsorted(x1, x2, side=side)
