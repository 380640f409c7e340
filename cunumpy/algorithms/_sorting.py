"""A stable sort of several arrays by one key, and the compaction of live rows."""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from .._namespaces._data_library import library_of, note_sync

__all__ = ["RADIX_MIN_SIZE", "compact_by_mask", "sort_by_key", "stable_order"]

#: Integer keys longer than this are sorted digit by digit on NumPy (see ``stable_order``).
RADIX_MIN_SIZE = 4096


def _radix_order(keys: np.ndarray) -> np.ndarray:
    """Stable argsort of NumPy integer keys: one stable sort per 16-bit digit, lowest first.

    NumPy's stable argsort of 16-bit integers is a counting sort, linear in the size, so
    keys that span fewer than ``2**16`` values sort in one linear pass.
    """
    low = int(keys.min())
    span = int(keys.max()) - low
    if span < 2**16:  # one digit: keys - low, exact in 64 bits
        wide = keys.astype(np.uint64 if keys.dtype.kind == "u" else np.int64, copy=False)
        digits = (wide - wide.dtype.type(low)).astype(np.uint16)
        return np.argsort(digits, kind="stable").astype(np.int64, copy=False)
    # shifted to start at 0: the span of any integer keys fits 64 unsigned bits
    shifted = keys.astype(np.uint64) - np.asarray(low % 2**64, dtype=np.uint64)
    order: np.ndarray | None = None
    shift = 0
    while True:
        current = shifted if order is None else shifted[order]
        digits = (current >> np.uint64(shift)).astype(np.uint16)
        step = np.argsort(digits, kind="stable")
        order = step if order is None else order[step]
        shift += 16
        if shift >= 64 or span >> shift == 0:
            return order.astype(np.int64, copy=False)


def stable_order(lib: Any, keys: Any) -> Any:
    """The int64 permutation that sorts 1-D `keys` stably (equal keys keep their order).

    Signed zeros are one key and NaNs sort last, in their original order, on both
    backends. CuPy's sort is a stable radix sort; on NumPy, integer keys go through
    :func:`_radix_order`.
    """
    if keys.dtype.kind == "f" or keys.dtype.kind == "c":
        # -0.0 + 0.0 is +0.0: a radix sort of the bits would put -0.0 first
        keys = keys + 0.0
    if lib is np and keys.dtype.kind in "iu" and keys.size > RADIX_MIN_SIZE:
        return _radix_order(keys)
    if lib is np:
        return np.argsort(keys, kind="stable").astype(np.int64, copy=False)
    # CuPy's argsort is always stable and accepts no `kind` but None
    return lib.argsort(keys).astype(lib.int64, copy=False)


def _axes(arrays: tuple[Any, ...], n: int, axis: int, func: str) -> list[int]:
    """The axis of each array that has the `n` entries, or raise naming the array."""
    axis = operator.index(axis)
    found = []
    for i, array in enumerate(arrays):
        if not -array.ndim <= axis < array.ndim:
            msg = f"{func}: array {i} has {array.ndim} axes, so it has no axis {axis}."
            raise ValueError(msg)
        if array.shape[axis] != n:
            msg = (
                f"{func}: array {i} has shape {tuple(array.shape)!r}; it needs {n} entries "
                f"along axis {axis}."
            )
            raise ValueError(msg)
        found.append(axis % array.ndim)
    return found


def sort_by_key(keys: Any, *arrays: Any, axis: int = 0) -> tuple[Any, ...]:
    """Sort `keys` stably and reorder every array the same way.

    The first step of a particle code: sort the particles by cell index or Morton key
    (:func:`morton_keys`), then work on contiguous ranges. Equal keys keep their order,
    so the permutation is unique: NumPy and CuPy return the same one. On CuPy the sort
    is CuPy's stable radix sort. On NumPy, integer keys of more than 4096 entries are
    sorted one 16-bit digit at a time (a linear counting sort per digit the key range
    needs), which is much faster than a comparison sort of 64-bit keys.

    Parameters
    ----------
    keys : array, shape (n,)
        The sort keys (integers or floats; ``-0.0`` and ``0.0`` are equal, NaNs last).
    *arrays : array
        Arrays with `n` entries along `axis`, on the backend of `keys`.
    axis : int, optional
        The axis of every array that `keys` indexes, 0 by default; ``-1`` is the last
        axis of each, for component-major ``(ncomp, n)`` arrays next to ``(n,)`` ones.

    Returns
    -------
    tuple of arrays
        ``(keys[order], order, *sorted_arrays)``: the int64 permutation ``order`` and
        every array taken along `axis` (new arrays).

    Raises
    ------
    ValueError
        If `keys` is not 1-D or an array lacks `n` entries along `axis`.
    TypeError
        If the arguments mix NumPy and CuPy arrays.

    Examples
    --------
    >>> import cunumpy as xp
    >>> keys = xp.asarray([2, 0, 1, 0])
    >>> xp.algorithms.sort_by_key(keys, xp.asarray([10.0, 11.0, 12.0, 13.0]))
    (array([0, 0, 1, 2]), array([1, 3, 2, 0]), array([11., 13., 12., 10.]))
    """
    func = "sort_by_key"
    lib, on_gpu = library_of(keys, *arrays, func=func)
    with on_gpu:
        keys = lib.asarray(keys)
        if keys.ndim != 1:
            msg = f"{func}: `keys` must be 1-D, not of shape {tuple(keys.shape)!r}."
            raise ValueError(msg)
        data = tuple(lib.asarray(array) for array in arrays)
        axes = _axes(data, keys.shape[0], axis, func)
        order = stable_order(lib, keys)
        taken = (lib.take(array, order, axis=ax) for array, ax in zip(data, axes))
        return (keys[order], order, *taken)


def compact_by_mask(mask: Any, *arrays: Any, axis: int = 0) -> int:
    """Move the entries where `mask` is true to the front of every array, in place.

    After particles leave the domain: the live ones go to the front, in their original
    order, and the program continues with ``array[:n]``. The entries after the first
    ``n`` are left unspecified. The count is needed on the host, so on CuPy each call
    synchronizes once.

    Parameters
    ----------
    mask : array of bool, shape (n,)
        True for the entries to keep.
    *arrays : array
        Writable arrays with `n` entries along `axis`, on the backend of `mask`;
        changed in place.
    axis : int, optional
        The axis of every array that `mask` indexes, 0 by default; ``-1`` is the last
        axis of each.

    Returns
    -------
    int
        The number of entries kept.

    Raises
    ------
    TypeError
        If `mask` is not a 1-D boolean array, or the backends are mixed.
    ValueError
        If an array lacks `n` entries along `axis`.

    Examples
    --------
    >>> import cunumpy as xp
    >>> x = xp.asarray([1.0, 2.0, 3.0, 4.0])
    >>> n = xp.algorithms.compact_by_mask(xp.asarray([True, False, True, False]), x)
    >>> x[:n]
    array([1., 3.])
    """
    func = "compact_by_mask"
    lib, on_gpu = library_of(mask, *arrays, func=func)
    with on_gpu:
        flags = lib.asarray(mask)
        if flags.ndim != 1 or flags.dtype != np.bool_:
            msg = (
                f"{func}: `mask` must be a 1-D boolean array, not a {flags.ndim}-D array "
                f"of {flags.dtype}."
            )
            raise TypeError(msg)
        axes = _axes(arrays, flags.shape[0], axis, func)
        kept = lib.nonzero(flags)[0]
        note_sync(lib, func, "the number of kept entries", 8)
        count = int(kept.shape[0])
        for array, ax in zip(arrays, axes):
            front = (slice(None),) * ax + (slice(0, count),)
            # ``take`` makes a copy first, so the overlapping move is safe
            array[front] = lib.take(array, kept, axis=ax)
        return count
