"""Arrays as Pyccel's wrapper reads them: no zero stride where the stride is free.

NumPy counts ``x[:, None]`` (stride 0 on the new axis of length 1) and an empty view such
as ``full((6, 0), 0.5)[::2]`` (strides ``(0, 0)``) as C-contiguous, so the wrapper of a
Pyccel-compiled kernel (Pyccel 2.x) accepts them, then divides by their strides (its C part
folds them into a base shape, its Fortran part takes array sections with them): an integer
division by zero, which ends the process with ``Fatal Python error: Floating point
exception``. An axis of length 1, or any axis of an empty array, is never stepped along, so
its stride is free: the host call passes the same memory with the stride a C-contiguous
array would have there.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.lib.stride_tricks import as_strided

__all__ = ["foldable", "foldable_args"]


def foldable(array: np.ndarray) -> np.ndarray:
    """A view of ``array``'s memory without a zero stride where the stride is free."""
    strides = list(array.strides)
    step = array.itemsize
    for axis in range(array.ndim - 1, -1, -1):
        if strides[axis] == 0 and (array.shape[axis] == 1 or array.size == 0):
            strides[axis] = step
        step = abs(strides[axis]) * array.shape[axis] or step
    return as_strided(array, strides=tuple(strides), writeable=array.flags.writeable)


def foldable_args(args: tuple[Any, ...]) -> tuple[Any, ...]:
    """``args`` with :func:`foldable` applied to the NumPy arrays with a free zero stride."""
    if not any(type(a) is np.ndarray and 0 in a.strides for a in args):
        return args
    return tuple(_foldable_if_free(a) for a in args)


def _foldable_if_free(value: Any) -> Any:
    if type(value) is np.ndarray and 0 in value.strides and (1 in value.shape or not value.size):
        return foldable(value)
    return value
