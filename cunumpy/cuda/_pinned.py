"""Pinned (page-locked) host memory, for fast and asynchronous copies to and from a GPU."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._namespaces._array_namespace import is_cupy_array, refuse_subclass
from .._placement._transfer_log import active, describe, note_transfer
from .._settings._cupy_probe import require_cupy_installed

__all__ = ["pin_memory"]


def pin_memory(a: Any, /) -> np.ndarray:
    """Return a copy of ``a`` in page-locked (pinned) host memory.

    Copies between pinned host memory and a GPU are faster than from ordinary memory and
    can overlap with work on other streams. The result is an ordinary ``numpy.ndarray``
    whose buffer comes from CuPy's pinned memory pool. cunumpy's copies from it
    (``to_device``, ``to_cupy``, ``asarray``) return when the copy has read the
    buffer, so it may be refilled as soon as they return.

    Parameters
    ----------
    a : array_like
        A NumPy array, anything ``numpy.asarray`` accepts, or a CuPy array (copied from
        its GPU).

    Returns
    -------
    numpy.ndarray
        A C-contiguous copy of ``a`` with the same shape and dtype.

    Raises
    ------
    ImportError
        If CuPy is not installed.
    RuntimeError
        If CuPy is installed but not usable; the message gives the reason.
    TypeError
        If ``a`` has an object dtype, which cannot live in pinned memory.

    Examples
    --------
    >>> import numpy as np
    >>> import cunumpy as xp
    >>> import cunumpy.cuda as cuda
    >>> if xp.cupy_available():
    ...     pinned = cuda.pin_memory(np.arange(3.0))
    ...     assert type(pinned) is np.ndarray and pinned.tolist() == [0.0, 1.0, 2.0]
    """
    refuse_subclass(a, "pin_memory")  # a masked array's mask would be lost
    source: Any = a if is_cupy_array(a) else np.asarray(a)
    if source.dtype.hasobject:  # a wrong argument, with or without a GPU
        msg = (
            f"pin_memory: cannot pin an array of dtype {source.dtype!r}, which holds Python "
            "objects; use a numeric or boolean dtype."
        )
        raise TypeError(msg)
    require_cupy_installed("pin_memory")
    import cupyx

    result: np.ndarray = cupyx.empty_pinned(source.shape, dtype=source.dtype)
    if is_cupy_array(source):
        with source.device:  # after the work queued on the current stream of its GPU
            source.get(out=result)
        if active():
            detail = f"from cuda:{source.device.id} into pinned memory"
            note_transfer("to_host", describe("pin_memory", source, detail), nbytes=result.nbytes)
    else:
        result[...] = source
    return result
