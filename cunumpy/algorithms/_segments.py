"""Runs of sorted keys, dense cell offsets, and deterministic sums per key.

The sums add the rows of each segment in a fixed pairwise tree, in the rows' original
order: row ``r`` of a segment takes in row ``r + s`` at the pass of width ``s`` (1, 2,
4, ...) when ``r`` is a multiple of ``2 s``. NumPy and CuPy perform the same IEEE
additions in the same order, so the sums are bit-identical on both, run after run (no
atomics). They can differ in the last bits from a sequential sum such as
``numpy.add.at``, and are usually closer to the exact sum.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from .._data_library import library_of, read_back
from ._sorting import stable_order

__all__ = ["SegmentPlan", "cell_offsets", "segment_boundaries", "segment_sum"]


def _integer_keys(lib: Any, keys: Any, name: str, func: str) -> Any:
    keys = lib.asarray(keys)
    if keys.ndim != 1:
        msg = f"{func}: `{name}` must be 1-D, not of shape {tuple(keys.shape)!r}."
        raise ValueError(msg)
    if keys.dtype.kind not in "iu":
        msg = f"{func}: `{name}` must have an integer dtype, not {keys.dtype}."
        raise TypeError(msg)
    return keys


def _count(n: Any, name: str, func: str) -> int:
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


def _run_starts(lib: Any, keys: Any) -> Any:
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
        keys = _integer_keys(lib, sorted_keys, "sorted_keys", func)
        _check_sorted(lib, keys, "sorted_keys", func)
        if keys.shape[0] == 0:
            empty = lib.zeros(0, dtype=lib.int64)
            return keys.copy(), empty, empty.copy()
        starts = _run_starts(lib, keys)
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
    n = _count(n_cells, "n_cells", func)
    lib, on_gpu = library_of(sorted_cells, func=func)
    with on_gpu:
        cells = _integer_keys(lib, sorted_cells, "sorted_cells", func)
        _check_sorted(lib, cells, "sorted_cells", func)
        ends = lib.stack((cells[0], cells[-1])) if cells.shape[0] else None
        first, last = read_back(lib, ends, func, "range check") if ends is not None else (0, 0)
        if cells.shape[0] and (first < 0 or last >= n):
            msg = f"{func}: the cell ids must be in [0, {n}), not from {first} to {last}."
            raise ValueError(msg)
        bounds = lib.arange(n + 1, dtype=lib.int64)
        return lib.searchsorted(cells, bounds, side="left").astype(lib.int64)


class SegmentPlan:
    """Checked segment keys, sorted once, for repeated deterministic :meth:`sum` calls.

    The plan copies what it needs of `keys` (later changes to the caller's array do not
    affect it), checks them and sorts them: on CuPy that setup synchronizes. Each sum then
    runs a fixed number of gathers and additions without reading anything back to the
    host. The sums are bit-identical on NumPy and CuPy (see the module notes: a fixed
    pairwise tree per segment, in the rows' original order).

    Parameters
    ----------
    keys : array of int, shape (n,)
        The segment of every row; a negative key drops its row.
    n_segments : int
        The number of segments; every key must be smaller.

    Raises
    ------
    ValueError
        If `keys` is not 1-D, a key is ``>= n_segments``, or `n_segments` is negative.
    TypeError
        If `keys` is not an integer array.

    See Also
    --------
    segment_sum : The same for keys used once.

    Examples
    --------
    >>> import cunumpy as xp
    >>> plan = xp.algorithms.SegmentPlan(xp.asarray([0, 1, 0, -1]), 2)
    >>> plan.sum(xp.asarray([1.0, 2.0, 3.0, 4.0]))
    array([4., 2.])
    """

    def __init__(self, keys: Any, n_segments: int) -> None:
        func = "SegmentPlan"
        self._n_segments = _count(n_segments, "n_segments", func)
        lib, on_gpu = library_of(keys, func=func)
        self._lib = lib
        with on_gpu:
            keys = _integer_keys(lib, keys, "keys", func)
            self._n_rows = int(keys.shape[0])
            bounds = lib.stack((lib.min(keys), lib.max(keys))) if self._n_rows else None
            bottom, top = read_back(lib, bounds, func, "range check") if self._n_rows else (0, -1)
            if top >= self._n_segments:
                msg = f"{func}: every key must be below n_segments={self._n_segments}, not {top}."
                raise ValueError(msg)
            if bottom >= 0:
                self._rows = stable_order(lib, keys)  # the rows, segment by segment
            else:  # rows with negative keys are dropped
                kept = lib.nonzero(keys >= 0)[0]
                self._rows = kept[stable_order(lib, keys[kept])]
            sorted_keys = keys[self._rows]
            m = int(self._rows.shape[0])
            starts = _run_starts(lib, sorted_keys) if m else lib.zeros(0, dtype=lib.int64)
            self._starts = starts
            self._segments = sorted_keys[starts].astype(lib.int64)
            counts = lib.diff(lib.concatenate((starts, lib.full(1, m, dtype=lib.int64))))
            position = lib.arange(m, dtype=lib.int64)
            rank = position - lib.repeat(starts, counts)  # the row's place in its segment
            room = lib.repeat(starts + counts, counts) - position  # rows from it to the end
            largest = read_back(lib, lib.max(counts), func, "largest segment") if m else 0
            # the pairwise tree: at width w, rank r with r % 2w == 0 takes in rank r + w;
            # the candidates of a width are among those of the width before
            self._passes: list[tuple[Any, Any]] = []
            candidates = position
            width = 1
            while width < largest:
                candidates = candidates[(rank[candidates] & (2 * width - 1)) == 0]
                takes = candidates[room[candidates] > width]
                self._passes.append((takes, takes + width))
                width *= 2

    @property
    def n_segments(self) -> int:
        """The number of output segments, fixed when the plan is made."""
        return self._n_segments

    def sum(self, values: Any, *, out: Any = None) -> Any:
        """Sum the rows of `values` per segment, deterministically.

        Floating-point and complex dtypes are kept; integer and bool values give
        float64.

        Parameters
        ----------
        values : array, shape (n, ...)
            One row per key, on the backend (and GPU) of the keys.
        out : array, optional
            The array to overwrite: the exact shape and dtype of the result, writable,
            and not sharing memory with `values`.

        Returns
        -------
        array, shape (n_segments, ...)
            The sums (`out` if given); empty segments are 0.

        Raises
        ------
        ValueError
            If `values` lacks one row per key, or `out` is unsuitable.
        TypeError
            If `values` is not numeric, or is on another backend than the keys.

        Examples
        --------
        >>> import cunumpy as xp
        >>> plan = xp.algorithms.SegmentPlan(xp.asarray([1, 1, 0]), 3)
        >>> plan.sum(xp.asarray([[1, 2], [3, 4], [5, 6]]))
        array([[5., 6.],
               [4., 6.],
               [0., 0.]])
        """
        func = "SegmentPlan.sum"
        lib, on_gpu = library_of(self._rows, values, out, func=func)
        with on_gpu:
            rows = lib.asarray(values)
            if rows.ndim < 1 or rows.shape[0] != self._n_rows:
                msg = f"{func}: `values` needs {self._n_rows} rows (one per key), not shape {tuple(rows.shape)!r}."
                raise ValueError(msg)
            if rows.dtype.kind not in "biufc":
                msg = f"{func}: `values` must be numeric, not {rows.dtype}."
                raise TypeError(msg)
            dtype = rows.dtype if rows.dtype.kind in "fc" else np.dtype(np.float64)
            shape = (self._n_segments, *rows.shape[1:])
            if out is None:
                out = lib.zeros(shape, dtype=dtype)
            else:
                self._check_out(lib, out, rows, shape, dtype, func)
                out[...] = 0
            if self._rows.shape[0]:
                partial = lib.take(rows, self._rows, axis=0).astype(dtype, copy=False)
                for takes, sources in self._passes:
                    partial[takes] = partial[takes] + partial[sources]
                out[self._segments] = partial[self._starts]
            return out

    def _check_out(
        self, lib: Any, out: Any, rows: Any, shape: tuple[int, ...], dtype: Any, func: str
    ) -> None:
        if tuple(out.shape) != shape or out.dtype != dtype:
            msg = f"{func}: `out` must have shape {shape!r} and dtype {dtype}, not {tuple(out.shape)!r} and {out.dtype}."
            raise ValueError(msg)
        if lib is np and not out.flags.writeable:
            msg = f"{func}: `out` must be writable."
            raise ValueError(msg)
        if lib.may_share_memory(out, rows):
            msg = f"{func}: `out` must not share memory with `values`."
            raise ValueError(msg)


def segment_sum(values: Any, keys: Any, n_segments: int, *, out: Any = None) -> Any:
    """Sum the rows of `values` per integer key, deterministically.

    ``out[k]`` is the sum of the rows ``i`` with ``keys[i] == k``; a negative key drops
    its row. The sums are bit-identical on NumPy and CuPy (see :class:`SegmentPlan`).
    Make a :class:`SegmentPlan` when the keys are reused: it checks and sorts them once.

    Parameters
    ----------
    values : array, shape (n, ...)
        The values, with any trailing dimensions.
    keys : array of int, shape (n,)
        The segment of every row.
    n_segments : int
        The number of segments; every key must be smaller.
    out : array, optional
        The array to overwrite, see :meth:`SegmentPlan.sum`.

    Returns
    -------
    array, shape (n_segments, ...)
        The sums, float64 for integer or bool values, on the backend of `keys`.

    Raises
    ------
    ValueError
        For keys or values of the wrong shape, or a key ``>= n_segments``.
    TypeError
        For non-integer keys, non-numeric values, or mixed backends.

    Examples
    --------
    >>> import cunumpy as xp
    >>> keys = xp.asarray([0, 1, 0, -1])
    >>> xp.algorithms.segment_sum(xp.asarray([1.0, 2.0, 3.0, 4.0]), keys, 2)
    array([4., 2.])
    """
    library_of(values, keys, out, func="segment_sum")  # mixed backends name this function
    return SegmentPlan(keys, n_segments).sum(values, out=out)
