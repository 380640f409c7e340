"""Manipulation, statistical and data-type functions whose CuPy signatures differ from the standard."""

from __future__ import annotations

from typing import Any

import cupy

from .._unique_results import UniqueAllResult, UniqueCountsResult, UniqueInverseResult
from ._device_copies import gpu, move

__all__ = [
    "astype",
    "count_nonzero",
    "cumulative_prod",
    "cumulative_sum",
    "expand_dims",
    "repeat",
    "reshape",
    "std",
    "take_along_axis",
    "unique_all",
    "unique_counts",
    "unique_inverse",
    "unique_values",
    "unstack",
    "var",
    "vecdot",
]


# Standard: astype takes `device=` (CuPy's does not), and runs on the GPU that holds `x`.
def astype(
    x: cupy.ndarray, dtype: Any, /, *, copy: bool = True, device: Any = None
) -> cupy.ndarray:
    """``x`` as ``dtype``, on ``device`` when given (default: where ``x`` is)."""
    if device is None:
        return x.astype(dtype, copy=copy)
    target = gpu(device, "astype")
    moved = move(x, target, None, "astype")
    with target:
        return moved.astype(dtype, copy=copy and moved is x)


# Standard: count_nonzero takes `keepdims=`.
def count_nonzero(
    x: cupy.ndarray, /, *, axis: int | tuple[int, ...] | None = None, keepdims: bool = False
) -> cupy.ndarray:
    """The number of non-zero elements of ``x`` along ``axis``."""
    return cupy.sum(x != 0, axis=axis, keepdims=keepdims, dtype=cupy.int64)


def _cumulative(
    func: Any, identity: int, x: cupy.ndarray, axis: int | None, dtype: Any, include_initial: bool
) -> cupy.ndarray:
    if axis is None:
        if x.ndim > 1:
            msg = "cumulative_sum/cumulative_prod: `axis` is required for arrays with more than one dimension."
            raise ValueError(msg)
        axis = 0
    result = func(x, axis=axis, dtype=dtype)
    if not include_initial:
        return result
    shape = list(result.shape)
    shape[axis] = 1
    initial = cupy.full(tuple(shape), identity, dtype=result.dtype)
    return cupy.concatenate((initial, result), axis=axis)


# Standard: cumulative_sum (CuPy 13 has only cumsum, without `include_initial=`).
def cumulative_sum(
    x: cupy.ndarray, /, *, axis: int | None = None, dtype: Any = None, include_initial: bool = False
) -> cupy.ndarray:
    """Cumulative sum of ``x`` along ``axis``."""
    return _cumulative(cupy.cumsum, 0, x, axis, dtype, include_initial)


# Standard: cumulative_prod (CuPy 13 has only cumprod, without `include_initial=`).
def cumulative_prod(
    x: cupy.ndarray, /, *, axis: int | None = None, dtype: Any = None, include_initial: bool = False
) -> cupy.ndarray:
    """Cumulative product of ``x`` along ``axis``."""
    return _cumulative(cupy.cumprod, 1, x, axis, dtype, include_initial)


# Standard: expand_dims has the default axis=0.
def expand_dims(x: cupy.ndarray, /, axis: int | tuple[int, ...] = 0) -> cupy.ndarray:
    """Insert axes of size one at ``axis`` (an int or, since 2025.12, a tuple)."""
    return cupy.expand_dims(x, axis)


# Standard: repeat accepts an array of repeats (CuPy takes only an int, list or tuple).
def repeat(
    x: cupy.ndarray, repeats: int | cupy.ndarray, /, *, axis: int | None = None
) -> cupy.ndarray:
    """Repeat each element of ``x`` ``repeats`` times along ``axis``."""
    if isinstance(repeats, cupy.ndarray):
        repeats = repeats.tolist()  # the output shape depends on the data: read it back
    return cupy.repeat(x, repeats, axis=axis)


# Standard: reshape's parameter is `shape=` (CuPy: `newshape`) and it takes `copy=`.
def reshape(
    x: cupy.ndarray, /, shape: tuple[int, ...], *, copy: bool | None = None
) -> cupy.ndarray:
    """``x`` with a new ``shape`` (a view when possible, unless ``copy``)."""
    if copy is None:
        return cupy.reshape(x, shape)
    if copy:
        return cupy.reshape(x.copy(), shape)
    result = cupy.reshape(x, shape)
    if result.data.ptr != x.data.ptr and x.size:  # a view starts where x starts
        msg = "reshape: copy=False cannot be honoured: the new shape needs a copy of `x`."
        raise ValueError(msg)
    return result


# Standard: std takes `correction=` (CuPy: `ddof`).
def std(
    x: cupy.ndarray,
    /,
    *,
    axis: int | tuple[int, ...] | None = None,
    correction: int | float = 0.0,
    keepdims: bool = False,
) -> cupy.ndarray:
    """Standard deviation of ``x`` along ``axis``, with ``correction`` degrees of freedom removed."""
    return cupy.std(x, axis=axis, ddof=correction, keepdims=keepdims)


# Standard: var takes `correction=` (CuPy: `ddof`).
def var(
    x: cupy.ndarray,
    /,
    *,
    axis: int | tuple[int, ...] | None = None,
    correction: int | float = 0.0,
    keepdims: bool = False,
) -> cupy.ndarray:
    """Variance of ``x`` along ``axis``, with ``correction`` degrees of freedom removed."""
    return cupy.var(x, axis=axis, ddof=correction, keepdims=keepdims)


# Standard: take_along_axis has the default axis=-1 (CuPy requires it).
def take_along_axis(x: cupy.ndarray, indices: cupy.ndarray, /, *, axis: int = -1) -> cupy.ndarray:
    """Values of ``x`` at ``indices`` along ``axis``."""
    return cupy.take_along_axis(x, indices, axis)


# Standard: unstack (CuPy 14 lacks it).
def unstack(x: cupy.ndarray, /, *, axis: int = 0) -> tuple[cupy.ndarray, ...]:
    """Split ``x`` into a tuple of views along ``axis``."""
    return tuple(cupy.moveaxis(x, axis, 0))


# Standard: vecdot (CuPy 14 lacks it): the conjugate of x1 times x2, summed over `axis`.
def vecdot(x1: cupy.ndarray, x2: cupy.ndarray, /, *, axis: int = -1) -> cupy.ndarray:
    """Vector dot product of ``x1`` and ``x2`` along ``axis``, conjugating ``x1``."""
    ndim = max(x1.ndim, x2.ndim)  # the standard: equal lengths along `axis`, not broadcast
    n1 = ((1,) * (ndim - x1.ndim) + x1.shape)[axis]
    n2 = ((1,) * (ndim - x2.ndim) + x2.shape)[axis]
    if n1 != n2:
        msg = f"x1 and x2 must have the same length along `axis` {axis}, not {n1} and {n2}"
        raise ValueError(msg)
    # CuPy's sum widens integers to 64 bits; the standard keeps the promoted type.
    return cupy.sum(cupy.conj(x1) * x2, axis=axis, dtype=cupy.result_type(x1, x2))


# Standard: unique_all (CuPy 13 lacks it); inverse_indices has the shape of x.
def unique_all(x: cupy.ndarray, /) -> UniqueAllResult:
    """Unique values of ``x`` with first indices, inverse indices and counts."""
    values, indices, inverse, counts = cupy.unique(
        x, return_index=True, return_inverse=True, return_counts=True
    )
    return UniqueAllResult(values, indices, inverse.reshape(x.shape), counts)


# Standard: unique_counts (CuPy 13 lacks it).
def unique_counts(x: cupy.ndarray, /) -> UniqueCountsResult:
    """Unique values of ``x`` and how often each occurs."""
    values, counts = cupy.unique(x, return_counts=True)
    return UniqueCountsResult(values, counts)


# Standard: unique_inverse (CuPy 13 lacks it); inverse_indices has the shape of x.
def unique_inverse(x: cupy.ndarray, /) -> UniqueInverseResult:
    """Unique values of ``x`` and the indices that rebuild ``x`` from them."""
    values, inverse = cupy.unique(x, return_inverse=True)
    return UniqueInverseResult(values, inverse.reshape(x.shape))


# Standard: unique_values (CuPy 13 lacks it).
def unique_values(x: cupy.ndarray, /) -> cupy.ndarray:
    """Unique values of ``x``, sorted."""
    return cupy.unique(x)
