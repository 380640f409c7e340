"""Sums per key, deterministic and identical on NumPy and CuPy.

Every segment's sum adds its rows one after another, in their original order, starting
from zero: the order of ``numpy.add.at``. NumPy runs ``numpy.add.at`` (``numpy.bincount``
for float64 rows). On CuPy the plan sorts the rows by key once (a stable sort), and each
sum runs one GPU thread per segment and trailing column that adds the segment's rows in
that same order. The IEEE additions are the same, so the sums are bit-identical on both
backends and from run to run (no atomics), except that CuPy compiles kernels to flush
float32 subnormal numbers (below about 1.2e-38) to zero. One thread per segment is fast for
many small segments (cells of a particle code); a few very large segments make it slow.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._namespaces._data_library import library_of, read_back
from ._segments import check_count, integer_keys, run_starts
from ._sorting import stable_order

__all__ = ["SegmentPlan", "segment_sum", "sorted_layout"]

# One thread per (segment, column): its rows, in sorted order, summed from zero.
_SEQUENTIAL_SUM = r"""
T total = T(0);
const long long column = i % width;
for (long long r = start; r < stop; ++r) {
    total = total + values[rows[r] * width + column];
}
out = total;
"""

_KERNEL: list[Any] = []


def _sequential_sum_kernel() -> Any:
    """The CuPy kernel of the GPU sums, compiled on first use."""
    if not _KERNEL:
        import cupy

        _KERNEL.append(
            cupy.ElementwiseKernel(
                "int64 start, int64 stop, int64 width, raw T values, raw int64 rows",
                "T out",
                _SEQUENTIAL_SUM,
                "cunumpy_segment_sum",
            )
        )
    return _KERNEL[0]


def sorted_layout(lib: Any, keys: Any, kept: Any) -> tuple[Any, Any, Any, Any]:
    """``(rows, starts, stops, segments)``: the rows sorted stably by key, and per segment.

    `keys` are the kept rows' keys and `kept` their indices (None: every row).
    ``rows[starts[j]:stops[j]]`` are the indices, in their original order, of the rows of
    segment ``segments[j]``; segments without rows are left out.
    """
    order = stable_order(lib, keys)
    rows = order if kept is None else kept[order]
    sorted_keys = keys[order]
    if sorted_keys.shape[0] == 0:
        return rows, order[:0], order[:0], order[:0]
    starts = run_starts(lib, sorted_keys)
    stops = lib.concatenate((starts[1:], lib.full(1, sorted_keys.shape[0], dtype=lib.int64)))
    return rows, starts, stops, sorted_keys[starts].astype(lib.int64)


class SegmentPlan:
    """Checked segment keys for repeated deterministic :meth:`sum` calls.

    The plan copies what it needs of `keys` (later changes to the caller's array do not
    affect it) and checks them once; on CuPy it also sorts the rows by key, and that
    setup synchronizes. Each sum then runs without reading anything back to the host.
    The sums add each segment's rows in their original order (the order of
    ``numpy.add.at``), bit-identical on NumPy and CuPy.

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
        self._n_segments = check_count(n_segments, "n_segments", func)
        lib, on_gpu = library_of(keys, func=func)
        self._lib = lib
        with on_gpu:
            keys = integer_keys(lib, keys, "keys", func)
            self._n_rows = int(keys.shape[0])
            bounds = lib.stack((lib.min(keys), lib.max(keys))) if self._n_rows else None
            bottom, top = read_back(lib, bounds, func, "range check") if self._n_rows else (0, -1)
            if top >= self._n_segments:
                msg = f"{func}: every key must be below n_segments={self._n_segments}, not {top}."
                raise ValueError(msg)
            # the rows kept (None: all of them), by index
            self._kept = None if bottom >= 0 else lib.nonzero(keys >= 0)[0]
            kept_keys = keys if self._kept is None else keys[self._kept]
            if lib is np:
                self._keys = kept_keys.astype(np.int64)  # a copy, in row order
                return
            self._rows, starts, stops, self._segments = sorted_layout(lib, kept_keys, self._kept)
            self._starts, self._stops = starts[:, None], stops[:, None]  # a row per segment

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
        plan_data = self._keys if self._lib is np else self._rows
        lib, on_gpu = library_of(plan_data, values, out, func=func)
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
            if out is not None:
                _check_out(lib, out, rows, shape, dtype, func)
            if lib is np:
                return self._numpy_sum(rows, dtype, shape, out)
            return self._cupy_sum(lib, rows, dtype, shape, out)

    def _numpy_sum(self, rows: np.ndarray, dtype: Any, shape: tuple[int, ...], out: Any) -> Any:
        kept = rows if self._kept is None else rows[self._kept]
        if dtype == np.float64 and rows.ndim == 1:
            # bincount adds in row order in float64, as add.at does, and faster
            sums = np.bincount(self._keys, weights=kept, minlength=self._n_segments)
            sums = sums.astype(np.float64, copy=False)  # int64 when there are no rows
            if out is None:
                return sums
            out[...] = sums
            return out
        if out is None:
            out = np.zeros(shape, dtype=dtype)
        else:
            out[...] = 0
        np.add.at(out, self._keys, kept.astype(dtype, copy=False))
        return out

    def _cupy_sum(self, lib: Any, rows: Any, dtype: Any, shape: tuple[int, ...], out: Any) -> Any:
        if out is None:
            out = lib.zeros(shape, dtype=dtype)
        else:
            out[...] = 0
        width = math.prod(shape[1:])
        if self._segments.shape[0] and width:
            flat = lib.ascontiguousarray(rows.astype(dtype, copy=False)).reshape(
                self._n_rows, width
            )
            sums = lib.empty((self._segments.shape[0], width), dtype=dtype)
            _sequential_sum_kernel()(self._starts, self._stops, width, flat, self._rows, sums)
            out.reshape(self._n_segments, width)[self._segments] = sums
        return out


def _check_out(
    lib: Any, out: Any, rows: Any, shape: tuple[int, ...], dtype: Any, func: str
) -> None:
    if tuple(out.shape) != shape or out.dtype != dtype:
        msg = f"{func}: `out` must have shape {shape!r} and dtype {dtype}, not {tuple(out.shape)!r} and {out.dtype}."
        raise ValueError(msg)
    if lib is np and not out.flags.writeable:
        msg = f"{func}: `out` must be writable."
        raise ValueError(msg)
    if not out.flags.c_contiguous:
        msg = f"{func}: `out` must be C-contiguous."
        raise ValueError(msg)
    if lib.may_share_memory(out, rows):
        msg = f"{func}: `out` must not share memory with `values`."
        raise ValueError(msg)


def segment_sum(values: Any, keys: Any, n_segments: int, *, out: Any = None) -> Any:
    """Sum the rows of `values` per integer key, deterministically.

    ``out[k]`` is the sum of the rows ``i`` with ``keys[i] == k``, added in row order
    from zero (the order of ``numpy.add.at``); a negative key drops its row. The sums
    are bit-identical on NumPy and CuPy (see :class:`SegmentPlan`). Make a
    :class:`SegmentPlan` when the keys are reused: it checks them (and on CuPy sorts
    them) once.

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
