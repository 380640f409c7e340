"""The standard's creation functions on NumPy, refusing a device that is not the CPU in
cunumpy's words.

NumPy's own functions take ``device="cpu"`` only, and refuse any other device with
"Device not understood. Only "cpu" is allowed, but received: cuda:0", which names neither
the function nor what to do. Each function here checks ``device`` first and then calls
NumPy's, with NumPy's signature (``order=``, ``like=``, ... pass through).

Examples
--------
>>> import numpy as np
>>> import cunumpy
>>> xp = cunumpy.array_namespace(np.ones(1))
>>> xp.zeros(2, device="cpu")
array([0., 0.])
>>> xp.zeros(2, device="cuda:0")
Traceback (most recent call last):
...
ValueError: zeros: device 'cuda:0' is not a device of cunumpy's NumPy namespace, whose only device is 'cpu'; for a GPU, create the array with the top-level cunumpy (cunumpy.zeros(..., device='cuda:0')) or move it with cunumpy.to_device(x, 'cuda:0').
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = [
    "arange",
    "asarray",
    "empty",
    "empty_like",
    "eye",
    "full",
    "full_like",
    "linspace",
    "ones",
    "ones_like",
    "zeros",
    "zeros_like",
]


def _check_device(device: Any, func: str) -> None:
    """Refuse every device but the CPU (``None`` or ``"cpu"``), naming ``func``."""
    if device is None or (isinstance(device, str) and device == "cpu"):
        return
    msg = (
        f"{func}: device {device!r} is not a device of cunumpy's NumPy namespace, whose only "
        f"device is 'cpu'; for a GPU, create the array with the top-level cunumpy "
        f"(cunumpy.{func}(..., device={device!r})) or move it with "
        f"cunumpy.to_device(x, {device!r})."
    )
    raise ValueError(msg)


# Standard: arange; the device checked in our words, then NumPy's.
def arange(*args: Any, device: Any = None, **kwargs: Any) -> np.ndarray:
    """NumPy's ``arange`` (``[start,] stop[, step], dtype=None, *, like=None``) on the CPU."""
    _check_device(device, "arange")
    return np.arange(*args, **kwargs)


# Standard: asarray; the device checked in our words, then NumPy's.
def asarray(
    a: Any, dtype: Any = None, order: Any = None, *, device: Any = None, copy: Any = None,
    like: Any = None,
) -> np.ndarray:  # fmt: skip
    """NumPy's ``asarray`` on the CPU."""
    _check_device(device, "asarray")
    return np.asarray(a, dtype, order, copy=copy, like=like)


# Standard: empty; the device checked in our words, then NumPy's.
def empty(
    shape: Any, dtype: Any = None, order: Any = "C", *, device: Any = None, like: Any = None
) -> np.ndarray:
    """NumPy's ``empty`` on the CPU."""
    _check_device(device, "empty")
    return np.empty(shape, dtype, order, like=like)


# Standard: empty_like; the device checked in our words, then NumPy's.
def empty_like(
    prototype: Any, dtype: Any = None, order: Any = "K", subok: bool = True, shape: Any = None,
    *, device: Any = None,
) -> np.ndarray:  # fmt: skip
    """NumPy's ``empty_like`` on the CPU."""
    _check_device(device, "empty_like")
    return np.empty_like(prototype, dtype, order, subok, shape)


# Standard: eye; the device checked in our words, then NumPy's.
def eye(
    N: int, M: int | None = None, k: int = 0, dtype: Any = None, order: Any = "C", *,
    device: Any = None, like: Any = None,
) -> np.ndarray:  # fmt: skip
    """NumPy's ``eye`` on the CPU."""
    _check_device(device, "eye")
    return np.eye(N, M, k, dtype, order, like=like)


# Standard: full; the device checked in our words, then NumPy's.
def full(
    shape: Any, fill_value: Any, dtype: Any = None, order: Any = "C", *, device: Any = None,
    like: Any = None,
) -> np.ndarray:  # fmt: skip
    """NumPy's ``full`` on the CPU."""
    _check_device(device, "full")
    return np.full(shape, fill_value, dtype, order, like=like)


# Standard: full_like; the device checked in our words, then NumPy's.
def full_like(
    a: Any, fill_value: Any, dtype: Any = None, order: Any = "K", subok: bool = True,
    shape: Any = None, *, device: Any = None,
) -> np.ndarray:  # fmt: skip
    """NumPy's ``full_like`` on the CPU."""
    _check_device(device, "full_like")
    return np.full_like(a, fill_value, dtype, order, subok, shape)


# Standard: linspace; the device checked in our words, then NumPy's.
def linspace(
    start: Any, stop: Any, num: int = 50, endpoint: bool = True, retstep: bool = False,
    dtype: Any = None, axis: int = 0, *, device: Any = None,
) -> Any:  # fmt: skip
    """NumPy's ``linspace`` on the CPU."""
    _check_device(device, "linspace")
    return np.linspace(start, stop, num, endpoint, retstep, dtype, axis)  # type: ignore[call-overload]


# Standard: ones; the device checked in our words, then NumPy's.
def ones(
    shape: Any, dtype: Any = None, order: Any = "C", *, device: Any = None, like: Any = None
) -> np.ndarray:
    """NumPy's ``ones`` on the CPU."""
    _check_device(device, "ones")
    return np.ones(shape, dtype, order, like=like)


# Standard: ones_like; the device checked in our words, then NumPy's.
def ones_like(
    a: Any, dtype: Any = None, order: Any = "K", subok: bool = True, shape: Any = None, *,
    device: Any = None,
) -> np.ndarray:  # fmt: skip
    """NumPy's ``ones_like`` on the CPU."""
    _check_device(device, "ones_like")
    return np.ones_like(a, dtype, order, subok, shape)


# Standard: zeros; the device checked in our words, then NumPy's.
def zeros(
    shape: Any, dtype: Any = None, order: Any = "C", *, device: Any = None, like: Any = None
) -> np.ndarray:
    """NumPy's ``zeros`` on the CPU."""
    _check_device(device, "zeros")
    return np.zeros(shape, dtype, order, like=like)


# Standard: zeros_like; the device checked in our words, then NumPy's.
def zeros_like(
    a: Any, dtype: Any = None, order: Any = "K", subok: bool = True, shape: Any = None, *,
    device: Any = None,
) -> np.ndarray:  # fmt: skip
    """NumPy's ``zeros_like`` on the CPU."""
    _check_device(device, "zeros_like")
    return np.zeros_like(a, dtype, order, subok, shape)
