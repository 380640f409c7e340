"""Sorting, manipulation and utility functions whose NumPy signatures differ from the standard."""

from __future__ import annotations

import numpy as np

from ._inputs import numeric

__all__ = ["argsort", "diff", "expand_dims", "sort"]

_ndarray = np.ndarray


# Standard: sort takes `descending=` and is stable by default.
def sort(
    x: np.ndarray, /, *, axis: int = -1, descending: bool = False, stable: bool = True
) -> np.ndarray:
    """Return a sorted copy of ``x`` along ``axis`` (ascending unless ``descending``)."""
    if type(x) is not _ndarray:
        x = numeric(x, "sort")
    if not descending:
        if axis is None:
            return np.sort(x, axis=axis, stable=stable)
        result = x.copy(order="K")  # what numpy.sort does with an axis, without its call
        result.sort(axis=axis, stable=stable)
        return result
    # Sorting the reversed array and reversing back keeps equal elements in input order.
    return np.flip(np.sort(np.flip(x, axis=axis), axis=axis, stable=stable), axis=axis)


# Standard: argsort takes `descending=`, is stable by default, and keeps ties in input order.
def argsort(
    x: np.ndarray, /, *, axis: int = -1, descending: bool = False, stable: bool = True
) -> np.ndarray:
    """Return the indices that sort ``x`` along ``axis`` (ascending unless ``descending``)."""
    if type(x) is not _ndarray:
        x = numeric(x, "argsort")
    if not descending:
        return np.argsort(x, axis=axis, stable=stable)
    n = x.shape[axis] if x.ndim else 1
    reversed_order = np.argsort(np.flip(x, axis=axis), axis=axis, stable=stable)
    return np.flip(n - 1 - reversed_order, axis=axis)


# Standard: expand_dims has the default axis=0.
def expand_dims(x: np.ndarray, /, axis: int | tuple[int, ...] = 0) -> np.ndarray:
    """Insert axes of size one at ``axis`` (an int or, since 2025.12, a tuple)."""
    return np.expand_dims(x, axis)


# Standard: diff takes prepend=None/append=None meaning "nothing" (NumPy rejects None there).
def diff(
    x: np.ndarray,
    /,
    *,
    axis: int = -1,
    n: int = 1,
    prepend: np.ndarray | None = None,
    append: np.ndarray | None = None,
) -> np.ndarray:
    """The ``n``-th discrete difference of ``x`` along ``axis``."""
    if prepend is None and append is None:
        if n == 1 and axis == -1:  # numpy.diff's defaults: its keywords cost a little
            return np.diff(x)
        return np.diff(x, n=n, axis=axis)
    extra: dict[str, np.ndarray] = {}
    if prepend is not None:
        extra["prepend"] = prepend
    if append is not None:
        extra["append"] = append
    return np.diff(x, n=n, axis=axis, **extra)
