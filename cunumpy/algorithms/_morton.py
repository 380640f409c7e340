"""Morton (Z-order) keys: the bits of the integer cell coordinates, interleaved.

Sorting points by their Morton keys orders them along a Z-shaped curve: points close in
space end up close in memory, and the points of every node of the quadtree (2D) or octree
(3D) over the box are one contiguous range of the sorted keys. With ``levels`` bits per
axis a key has ``ndim * levels`` bits; bit ``b`` of axis ``a`` is bit ``ndim * b + a`` of
the key, so the node of a point at depth ``d`` is ``key >> (ndim * (levels - d))``.
All operations are exact integer operations, identical on NumPy and CuPy.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

from .._namespaces._data_library import library_of

__all__ = ["MAX_MORTON_LEVELS", "morton_decode", "morton_encode", "morton_keys", "morton_scales"]

MAX_MORTON_LEVELS = {2: 32, 3: 21}
"""The most bits per axis that a uint64 key holds, by number of dimensions."""

# Spreading the low bits of a word so that ndim - 1 zero bits follow each one: at each
# step, copy the word shifted left by ``shift`` and keep the bits of ``mask``.
_SPREAD_STEPS = {
    2: (
        (16, 0x0000FFFF0000FFFF),
        (8, 0x00FF00FF00FF00FF),
        (4, 0x0F0F0F0F0F0F0F0F),
        (2, 0x3333333333333333),
        (1, 0x5555555555555555),
    ),
    3: (
        (32, 0x001F00000000FFFF),
        (16, 0x001F0000FF0000FF),
        (8, 0x100F00F00F00F00F),
        (4, 0x10C30C30C30C30C3),
        (2, 0x1249249249249249),
    ),
}


def _check_ndim(ndim: int, func: str) -> None:
    if ndim not in MAX_MORTON_LEVELS:
        msg = f"{func}: Morton keys have 2 or 3 dimensions, not {ndim!r}."
        raise ValueError(msg)


def _check_levels(ndim: int, levels: int, func: str) -> int:
    _check_ndim(ndim, func)
    levels = operator.index(levels)
    if not 1 <= levels <= MAX_MORTON_LEVELS[ndim]:
        msg = (
            f"{func}: `levels` must be from 1 to {MAX_MORTON_LEVELS[ndim]} in {ndim}D, "
            f"not {levels!r}."
        )
        raise ValueError(msg)
    return levels


def _spread(lib: Any, word: Any, ndim: int) -> Any:
    word = word & lib.uint64((1 << MAX_MORTON_LEVELS[ndim]) - 1)
    for shift, mask in _SPREAD_STEPS[ndim]:
        word = (word | (word << lib.uint64(shift))) & lib.uint64(mask)
    return word


def _gather(lib: Any, word: Any, ndim: int) -> Any:
    """The inverse of :func:`_spread`: the steps backwards, shifting right."""
    steps = _SPREAD_STEPS[ndim]
    word = word & lib.uint64(steps[-1][1])
    # undoing step i leaves the bits of step i - 1's mask (the input bits before step 0)
    previous = [mask for _, mask in steps[:-1]]
    previous.insert(0, (1 << MAX_MORTON_LEVELS[ndim]) - 1)
    for i in range(len(steps) - 1, -1, -1):
        shift = steps[i][0]
        word = (word | (word >> lib.uint64(shift))) & lib.uint64(previous[i])
    return word


def morton_encode(*cells: Any) -> Any:
    """Interleave the integer cell coordinates of points into uint64 Morton keys.

    Parameters
    ----------
    *cells : array of int
        One array per axis (2 or 3 of them), broadcast against each other: non-negative
        and below ``2**32`` (2D) or ``2**21`` (3D); higher bits are ignored.

    Returns
    -------
    array of uint64
        The keys (bit ``ndim * b + a`` is bit ``b`` of axis ``a``), on the backend of
        `cells`.

    Raises
    ------
    ValueError
        If there are not 2 or 3 arrays.
    TypeError
        If the cells are not integers, or mix NumPy and CuPy arrays.

    See Also
    --------
    morton_decode : The inverse.

    Examples
    --------
    >>> import cunumpy as xp
    >>> xp.algorithms.morton_encode(xp.asarray([1, 0, 3]), xp.asarray([0, 1, 3]))
    array([ 1,  2, 15], dtype=uint64)
    """
    func = "morton_encode"
    ndim = len(cells)
    _check_ndim(ndim, func)
    lib, on_gpu = library_of(*cells, func=func)
    with on_gpu:
        words = [lib.asarray(cell) for cell in cells]
        for word in words:
            if word.dtype.kind not in "iu":
                msg = f"{func}: the cells must be integers, not {word.dtype}."
                raise TypeError(msg)
        words = lib.broadcast_arrays(*(word.astype(lib.uint64) for word in words))
        key = _spread(lib, words[0], ndim)
        for axis in range(1, ndim):
            key = key | (_spread(lib, words[axis], ndim) << lib.uint64(axis))
        return key


def morton_decode(keys: Any, ndim: int) -> tuple[Any, ...]:
    """Return the integer cell coordinates of Morton keys, the inverse of :func:`morton_encode`.

    Parameters
    ----------
    keys : array of int
        The Morton keys (read as uint64).
    ndim : int
        The number of axes, 2 or 3.

    Returns
    -------
    tuple of arrays of uint64
        One array per axis, shaped like `keys`, on its backend.

    Raises
    ------
    ValueError
        If `ndim` is not 2 or 3.
    TypeError
        If `keys` are not integers.

    Examples
    --------
    >>> import cunumpy as xp
    >>> xp.algorithms.morton_decode(xp.asarray([1, 2, 15], dtype=xp.uint64), 2)
    (array([1, 0, 3], dtype=uint64), array([0, 1, 3], dtype=uint64))
    """
    func = "morton_decode"
    _check_ndim(ndim, func)
    lib, on_gpu = library_of(keys, func=func)
    with on_gpu:
        words = lib.asarray(keys)
        if words.dtype.kind not in "iu":
            msg = f"{func}: `keys` must be integers, not {words.dtype}."
            raise TypeError(msg)
        words = words.astype(lib.uint64)
        return tuple(_gather(lib, words >> lib.uint64(axis), ndim) for axis in range(ndim))


def morton_scales(lower: Sequence[float], upper: Sequence[float], levels: int) -> Any:
    """Return the cells per unit length along every axis, ``2**levels / (upper - lower)``.

    A CUDA kernel that computes Morton keys with these scales gets those of
    :func:`morton_keys`.

    Parameters
    ----------
    lower, upper : sequence of float
        The corners of the box, one value per axis (2 or 3).
    levels : int
        Bits per axis: 1 to 32 in 2D, 1 to 21 in 3D.

    Returns
    -------
    numpy.ndarray of float64
        One scale per axis, on the host.

    Raises
    ------
    ValueError
        If the corners differ in length or are not 2 or 3 values, are equal on an axis,
        or `levels` is out of range.

    Examples
    --------
    >>> import cunumpy as xp
    >>> xp.algorithms.morton_scales([0.0, 0.0], [1.0, 2.0], 4)
    array([16.,  8.])
    """
    func = "morton_scales"
    low = np.asarray(lower, dtype=np.float64)
    high = np.asarray(upper, dtype=np.float64)
    if low.ndim != 1 or low.shape != high.shape:
        msg = (
            f"{func}: `lower` and `upper` must be sequences of the same length, not of "
            f"shapes {low.shape} and {high.shape}."
        )
        raise ValueError(msg)
    levels = _check_levels(low.shape[0], levels, func)
    if bool(np.any(high == low)):
        msg = f"{func}: `lower` {list(lower)!r} and `upper` {list(upper)!r} must differ on every axis."
        raise ValueError(msg)
    scales: Any = float(2**levels) / (high - low)
    return scales


def morton_keys(positions: Any, lower: Sequence[float], upper: Sequence[float], levels: int) -> Any:
    """Return the Morton keys of points in the box from `lower` to `upper`.

    Along each axis the cell of a point is ``floor((x - lower) * scale)`` with the
    :func:`morton_scales`, clipped to ``[0, 2**levels - 1]``: points on or outside the
    box go to the cell at the nearest face, and a point on a cell boundary belongs to the
    upper cell. ``lower > upper`` on an axis reverses that axis.

    Parameters
    ----------
    positions : array of float, shape (n, ndim)
        The points, ``ndim`` 2 or 3; they must be finite (NaN has no cell).
    lower, upper : sequence of float
        The corners of the box, one value per axis.
    levels : int
        Bits per axis: 1 to 32 in 2D, 1 to 21 in 3D.

    Returns
    -------
    array of uint64, shape (n,)
        The keys, on the backend of `positions`.

    Raises
    ------
    ValueError
        If the shapes do not match or `levels` is out of range.

    See Also
    --------
    sort_by_key : Sort the points by their keys.

    Examples
    --------
    >>> import cunumpy as xp
    >>> positions = xp.asarray([[0.1, 0.1], [0.9, 0.1], [0.9, 0.9]])
    >>> xp.algorithms.morton_keys(positions, [0.0, 0.0], [1.0, 1.0], levels=2)
    array([ 0,  5, 15], dtype=uint64)
    """
    func = "morton_keys"
    lib, on_gpu = library_of(positions, func=func)
    with on_gpu:
        points = lib.asarray(positions)
        if points.ndim != 2:
            msg = f"{func}: `positions` must have shape (n, ndim), not {tuple(points.shape)!r}."
            raise ValueError(msg)
        scales = morton_scales(lower, upper, levels)
        if scales.shape[0] != points.shape[1]:
            msg = (
                f"{func}: the box has {scales.shape[0]} axes but the points have {points.shape[1]}."
            )
            raise ValueError(msg)
        top = float(2 ** operator.index(levels) - 1)
        cells = [
            lib.clip(
                lib.floor((points[:, axis] - float(lower[axis])) * float(scales[axis])), 0.0, top
            ).astype(lib.uint64)
            for axis in range(points.shape[1])
        ]
        return morton_encode(*cells)
