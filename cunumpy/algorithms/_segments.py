"""Runs of sorted keys and dense cell offsets (and the key checks the sums share)."""

from __future__ import annotations

import operator
from typing import Any

from .._namespaces._data_library import library_of, read_back

__all__ = ["cell_offsets", "check_count", "integer_keys", "run_starts", "segment_boundaries"]


def integer_keys(lib: Any, keys: Any, name: str, func: str) -> Any:
    keys = lib.asarray(keys)
    if keys.ndim != 1:
        msg = f"{func}: `{name}` must be 1-D, not of shape {tuple(keys.shape)!r}."
        raise ValueError(msg)
    if keys.dtype.kind not in "iu":
        msg = f"{func}: `{name}` must have an integer dtype, not {keys.dtype}."
        raise TypeError(msg)
    return keys


def check_count(n: Any, name: str, func: str) -> int:
    try:
        value = operator.index(n)
    except TypeError:
        msg = f"{func}: `{name}` must be an int, not {n!r}."
        raise TypeError(msg) from None
    if value < 0:
        msg = f"{func}: `{name}` must be non-negative, not {n!r}."
        raise ValueError(msg)
    return value


def _check_sorted(lib: Any, keys: Any, name: str, func: str) -> None:
    if keys.shape[0] > 1 and read_back(lib, lib.any(keys[1:] < keys[:-1]), func, "order check"):
        msg = f"{func}: `{name}` must be sorted in nondecreasing order."
        raise ValueError(msg)


def run_starts(lib: Any, keys: Any) -> Any:
    """The int64 index of the first entry of every run of equal sorted keys."""
    changes = lib.nonzero(keys[1:] != keys[:-1])[0] + 1
    return lib.concatenate((lib.zeros(1, dtype=lib.int64), changes.astype(lib.int64)))


def segment_boundaries(sorted_keys: Any) -> tuple[Any, Any, Any]:
    """Return the runs of equal keys in sorted integer keys.

    Any integer keys work: sparse, negative or uint64 Morton keys. The results stay on
    the backend of `sorted_keys`; on CuPy the check and the variable-length result
    synchronize once, so compute the boundaries once and reuse them.

    Parameters
    ----------
    sorted_keys : array of int, shape (n,)
        Keys sorted in nondecreasing order.

    Returns
    -------
    unique_keys : array
        The distinct keys, of the dtype of `sorted_keys`.
    starts, stops : array of int64
        Run ``i`` is the half-open slice ``[starts[i], stops[i])`` of the input.

    Raises
    ------
    ValueError
        If `sorted_keys` is not 1-D or not sorted.
    TypeError
        If `sorted_keys` is not an integer array.

    See Also
    --------
    cell_offsets : Offsets of every cell, the empty ones too.

    Examples
    --------
    >>> import cunumpy as xp
    >>> xp.algorithms.segment_boundaries(xp.asarray([3, 3, 5, 9, 9, 9]))
    (array([3, 5, 9]), array([0, 2, 3]), array([2, 3, 6]))
    """
    func = "segment_boundaries"
    lib, on_gpu = library_of(sorted_keys, func=func)
    with on_gpu:
        keys = integer_keys(lib, sorted_keys, "sorted_keys", func)
        _check_sorted(lib, keys, "sorted_keys", func)
        if keys.shape[0] == 0:
            empty = lib.zeros(0, dtype=lib.int64)
            return keys.copy(), empty, empty.copy()
        starts = run_starts(lib, keys)
        stops = lib.concatenate((starts[1:], lib.full(1, keys.shape[0], dtype=lib.int64)))
        return keys[starts], starts, stops


def cell_offsets(sorted_cells: Any, n_cells: int) -> Any:
    """Return where each cell starts in sorted cell ids: cell ``k`` is ``[offsets[k], offsets[k + 1])``.

    Empty cells have equal consecutive offsets. Drop negative (invalid) cell ids first.
    The result stays on the backend of `sorted_cells`; on CuPy the checks synchronize.

    Parameters
    ----------
    sorted_cells : array of int, shape (n,)
        Cell ids in ``[0, n_cells)``, sorted in nondecreasing order.
    n_cells : int
        The number of cells.

    Returns
    -------
    array of int64, shape (n_cells + 1,)
        The offsets; the last one is ``n``.

    Raises
    ------
    ValueError
        If `sorted_cells` is not 1-D, not sorted, or has an id outside
        ``[0, n_cells)``, or `n_cells` is negative.
    TypeError
        If `sorted_cells` is not an integer array.

    See Also
    --------
    segment_boundaries : The runs of the keys present.

    Examples
    --------
    >>> import cunumpy as xp
    >>> xp.algorithms.cell_offsets(xp.asarray([0, 0, 2]), 3)
    array([0, 2, 2, 3])
    """
    func = "cell_offsets"
    n = check_count(n_cells, "n_cells", func)
    lib, on_gpu = library_of(sorted_cells, func=func)
    with on_gpu:
        cells = integer_keys(lib, sorted_cells, "sorted_cells", func)
        _check_sorted(lib, cells, "sorted_cells", func)
        ends = lib.stack((cells[0], cells[-1])) if cells.shape[0] else None
        first, last = read_back(lib, ends, func, "range check") if ends is not None else (0, 0)
        if cells.shape[0] and (first < 0 or last >= n):
            msg = f"{func}: the cell ids must be in [0, {n}), not from {first} to {last}."
            raise ValueError(msg)
        bounds = lib.arange(n + 1, dtype=lib.int64)
        return lib.searchsorted(cells, bounds, side="left").astype(lib.int64)
