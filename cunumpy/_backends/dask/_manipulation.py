"""Manipulation and indexing functions of the Dask namespace: the standard's signatures.

Dask has most of them under NumPy's names and arguments; these wrappers give the
standard's (``axis=None`` for ``concat``, tuples of axes for ``expand_dims``, stacks of
matrices, ...). None of them computes: every shape they need is the input's known shape.
"""

from __future__ import annotations

from typing import Any

import dask.array as da

from ._chunks import chunk_namespace

__all__ = [
    "concat", "expand_dims", "matrix_transpose", "permute_dims", "repeat", "reshape", "take_along_axis",
    "unstack",
]  # fmt: skip


def concat(arrays: Any, /, *, axis: int | None = 0) -> da.Array:
    """Join ``arrays`` along ``axis`` (``None``: flattened first)."""
    if axis is None:
        return da.concatenate([da.ravel(x) for x in arrays])
    return da.concatenate(list(arrays), axis=axis)


def expand_dims(x: da.Array, /, axis: int | tuple[int, ...] = 0) -> da.Array:
    """Insert axes of length one at ``axis`` (positions in the result)."""
    axes = axis if isinstance(axis, tuple) else (axis,)
    ndim = x.ndim + len(axes)
    positions = set()
    for one in axes:
        if not -ndim <= one < ndim:
            msg = (
                f"expand_dims: `axis` {axis!r} is out of bounds for a result of {ndim} dimensions."
            )
            raise IndexError(msg)
        positions.add(one % ndim)
    if len(positions) != len(axes):
        msg = f"expand_dims: `axis` {axis!r} repeats an axis."
        raise ValueError(msg)
    index = tuple(None if i in positions else slice(None) for i in range(ndim))
    return x[index]


def matrix_transpose(x: da.Array, /) -> da.Array:
    """Transpose each matrix in the stack ``x``."""
    if x.ndim < 2:
        msg = f"matrix_transpose: `x` must have at least 2 dimensions, not shape {x.shape}."
        raise ValueError(msg)
    return da.swapaxes(x, -1, -2)


def permute_dims(x: da.Array, /, axes: tuple[int, ...]) -> da.Array:
    """Permute the axes of ``x``."""
    return da.transpose(x, axes)


def reshape(x: da.Array, /, shape: tuple[int, ...], *, copy: bool | None = None) -> da.Array:
    """``x`` with ``shape`` (Dask arrays are immutable: ``copy`` changes nothing)."""
    return da.reshape(x, shape)


def unstack(x: da.Array, /, *, axis: int = 0) -> tuple[da.Array, ...]:
    """Split ``x`` along ``axis`` into a tuple of arrays."""
    moved = da.moveaxis(x, axis, 0)
    return tuple(moved[i] for i in range(moved.shape[0]))


# Standard: indices broadcast with x except along axis; Dask has no take_along_axis.
def take_along_axis(x: da.Array, indices: da.Array, /, *, axis: int = -1) -> da.Array:
    """Pick values of ``x`` at ``indices`` along ``axis`` (one chunk along it per block)."""
    if not -x.ndim <= axis < x.ndim:
        msg = f"take_along_axis: `axis` {axis!r} is out of bounds for {x.ndim} dimensions."
        raise IndexError(msg)
    axis %= x.ndim
    indices = da.asarray(indices)
    outer = da.core.broadcast_shapes(
        (*x.shape[:axis], 1, *x.shape[axis + 1 :]),
        (*indices.shape[:axis], 1, *indices.shape[axis + 1 :]),
    )
    x = da.broadcast_to(x, (*outer[:axis], x.shape[axis], *outer[axis + 1 :]))
    indices = da.broadcast_to(indices, (*outer[:axis], indices.shape[axis], *outer[axis + 1 :]))
    chunks = {axis: -1}
    indices = indices.rechunk(chunks)
    x = x.rechunk({**dict(enumerate(indices.chunks)), axis: -1})
    namespace = chunk_namespace(x)
    return da.map_blocks(
        namespace.take_along_axis, x, indices, axis=axis, dtype=x.dtype, chunks=indices.chunks
    )


# Standard: repeats may be an array (Dask takes an int only). The result's length is the
# sum of the repeats, so an array of repeats is computed: one of the listed computes.
def repeat(x: da.Array, repeats: Any, /, *, axis: int | None = None) -> da.Array:
    """Repeat each element of ``x`` (along ``axis``; of the flattened ``x`` for None)."""
    if axis is None:
        x, axis = da.ravel(x), 0
    if isinstance(repeats, da.Array):
        repeats = repeats.compute()  # the output shape needs the values (docs/dask.md)
    if (isinstance(repeats, int) or getattr(repeats, "ndim", 1) == 0) and x.size:
        return da.repeat(x, int(repeats), axis=axis)  # Dask's (it refuses empty arrays)
    namespace = chunk_namespace(x)
    positions = namespace.repeat(namespace.arange(x.shape[axis]), repeats)
    return da.take(x, da.from_array(positions), axis=axis)
