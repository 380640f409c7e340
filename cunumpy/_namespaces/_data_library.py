"""The array library (NumPy or CuPy) that holds some arguments, and the GPU to compute on.

The helpers of ``cunumpy.rng``, ``cunumpy.algorithms`` and ``cunumpy.optimize`` compute
with the library's own functions, where their data lives: :func:`library_of` finds that
library among the arguments (NumPy when none is an array) and a context that makes the
arrays' GPU current for the computation. It never imports CuPy unless an argument is a
CuPy array.
"""

from __future__ import annotations

import contextlib
from types import ModuleType
from typing import Any

import numpy as np

from ._array_predicates import is_cupy_array, is_numpy_array

__all__ = ["library_of", "note_sync", "read_back"]


def library_of(
    *values: Any, func: str
) -> tuple[ModuleType, contextlib.AbstractContextManager[Any]]:
    """Return ``(numpy or cupy, context)`` for the arrays among ``values``.

    Python scalars, sequences and NumPy scalars count as NumPy data; beside CuPy arrays
    they are scalars, as in the top level's functions. The context makes the GPU of the CuPy
    arrays current (a no-op context for NumPy).

    Raises
    ------
    TypeError
        For arrays of two libraries, or of a library other than NumPy and CuPy.
    ValueError
        For CuPy arrays on two GPUs.
    """
    gpu_arrays = []
    host_array = None
    for value in values:
        if is_cupy_array(value):
            gpu_arrays.append(value)
        elif isinstance(value, (np.generic, type)):
            continue  # a NumPy scalar (a scalar beside CuPy arrays); a class (np.float64)
        elif is_numpy_array(value):
            host_array = value
        elif hasattr(value, "__array_namespace__") or hasattr(value, "__dlpack__"):
            msg = (
                f"{func}: arrays of {type(value).__module__}.{type(value).__qualname__} are "
                "not supported; pass NumPy or CuPy arrays."
            )
            raise TypeError(msg)
    if not gpu_arrays:
        return np, contextlib.nullcontext()
    if host_array is not None:
        msg = (
            f"{func}: the arguments mix a NumPy array and a CuPy array; move them to one "
            "backend first (cunumpy.to_numpy or cunumpy.to_cupy)."
        )
        raise TypeError(msg)
    devices = {int(array.device.id) for array in gpu_arrays}
    if len(devices) > 1:
        msg = f"{func}: the CuPy arrays are on GPUs {sorted(devices)!r}; put them on one GPU."
        raise ValueError(msg)
    import cupy

    return cupy, gpu_arrays[0].device


def note_sync(lib: ModuleType, func: str, what: str, nbytes: int = 0) -> None:
    """Note, on CuPy, that ``func`` waits for the GPU to read ``what`` back to the host."""
    if lib is not np:
        from .._placement._transfer_log import note_transfer

        note_transfer("sync", f"{func}: reads back {what}", nbytes=nbytes)


def read_back(lib: ModuleType, value: Any, func: str, what: str) -> Any:
    """A small result as Python scalars (``item()``, or ``tolist()`` for 1-D), noted as a sync.

    Reading a GPU value on the host waits for the GPU: the transfer counters see it as a
    ``"sync"`` of the calling function.
    """
    note_sync(lib, func, what, int(value.nbytes))
    return value.item() if value.ndim == 0 else value.tolist()
