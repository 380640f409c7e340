"""Sorting, searching and set functions whose CuPy signatures differ from the standard."""

from __future__ import annotations

from typing import Any

import cupy

__all__ = ["argsort", "isin", "searchsorted", "sort"]


# Standard: sort takes `descending=` and `stable=` (CuPy's sort is always stable).
def sort(
    x: cupy.ndarray, /, *, axis: int = -1, descending: bool = False, stable: bool = True
) -> cupy.ndarray:
    """Return a sorted copy of ``x`` along ``axis`` (ascending unless ``descending``)."""
    if not descending:
        return cupy.sort(x, axis=axis)
    # Sorting the reversed array and reversing back keeps equal elements in input order.
    return cupy.flip(cupy.sort(cupy.flip(x, axis=axis), axis=axis), axis=axis)


# Standard: argsort takes `descending=` and `stable=`, and keeps ties in input order.
def argsort(
    x: cupy.ndarray, /, *, axis: int = -1, descending: bool = False, stable: bool = True
) -> cupy.ndarray:
    """Return the indices that sort ``x`` along ``axis`` (ascending unless ``descending``)."""
    if not descending:
        return cupy.argsort(x, axis=axis)
    n = x.shape[axis] if x.ndim else 1
    reversed_order = cupy.argsort(cupy.flip(x, axis=axis), axis=axis)
    return cupy.flip(n - 1 - reversed_order, axis=axis)


# Standard: isin takes `invert=` by keyword and accepts Python scalars (CuPy does not).
def isin(
    x1: cupy.ndarray | int | float | complex,
    x2: cupy.ndarray | int | float | complex,
    /,
    *,
    invert: bool = False,
) -> cupy.ndarray:
    """Whether each element of ``x1`` is in ``x2``."""
    return cupy.isin(cupy.asarray(x1), cupy.asarray(x2), invert=invert)


# Standard: searchsorted accepts a Python scalar `x2` (CuPy 13 does not; used only there).
def searchsorted(
    x1: cupy.ndarray,
    x2: cupy.ndarray | int | float,
    /,
    *,
    side: str = "left",
    sorter: Any = None,
) -> cupy.ndarray:
    """Indices where the elements of ``x2`` would be inserted into sorted ``x1``."""
    if not isinstance(x2, cupy.ndarray):
        x2 = cupy.asarray(x2)
    return cupy.searchsorted(x1, x2, side=side, sorter=sorter)
