"""Data types and data-type functions of the NumPy namespace.

The namespace's dtypes are NumPy's scalar types (``numpy.float64``, ...), as in NumPy's own
namespace: they compare equal to ``x.dtype`` and, unlike ``numpy.dtype`` instances, not to
``None``. This module holds the data-type functions that NumPy does not provide as the
standard asks.
"""

from __future__ import annotations

import builtins
from functools import lru_cache
from typing import Any

import numpy as np

from ..._settings._errors import ValueTypeError

__all__ = ["astype", "finfo", "finfo_object", "iinfo", "iinfo_object"]


class _Limits:
    """A frozen record of named fields (what ``dataclass(frozen=True)`` would make):
    keyword construction, a field-wise ``repr``, ``==`` and ``hash``, no assignment.

    Written out because ``dataclasses`` would cost ``import cunumpy`` a tenth of its time.
    """

    __slots__: tuple[str, ...] = ()

    def __init__(self, **fields: Any) -> None:
        if fields.keys() != set(self.__slots__):
            msg = (
                f"{type(self).__name__}: expected the fields {self.__slots__}, got {tuple(fields)}."
            )
            raise TypeError(msg)
        for name, value in fields.items():
            object.__setattr__(self, name, value)

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __repr__(self) -> str:
        values = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"{type(self).__name__}({values})"

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __setattr__(self, name: str, value: Any) -> None:
        msg = f"cannot assign to field {name!r} of {type(self).__name__}; it is frozen."
        raise AttributeError(msg)

    def __delattr__(self, name: str) -> None:
        msg = f"cannot delete field {name!r} of {type(self).__name__}; it is frozen."
        raise AttributeError(msg)


class finfo_object(_Limits):
    """Machine limits of a floating-point dtype, as Python numbers (the standard's finfo object)."""

    __slots__ = ("bits", "eps", "max", "min", "smallest_normal", "dtype")  # noqa: RUF023 (repr order)
    bits: int
    eps: float
    max: float
    min: float
    smallest_normal: float
    dtype: np.dtype[Any]


class iinfo_object(_Limits):
    """Machine limits of an integer dtype, as Python ints (the standard's iinfo object)."""

    __slots__ = ("bits", "max", "min", "dtype")  # noqa: RUF023 (repr order)
    bits: int
    max: int
    min: int
    dtype: np.dtype[Any]


def _dtype_of(type: Any, func: str) -> np.dtype[Any]:
    candidate: Any
    if isinstance(type, (np.dtype, builtins.type)):
        candidate = type
    else:
        candidate = getattr(type, "dtype", None)
    try:
        if candidate is None:
            raise TypeError
        return np.dtype(candidate)
    except TypeError:
        msg = f"{func}: expected a dtype or an array, got {type!r}."
        raise TypeError(msg) from None


@lru_cache(maxsize=64)
def _finfo(dtype: np.dtype[Any]) -> finfo_object:
    info = np.finfo(dtype)
    return finfo_object(
        bits=int(info.bits),
        eps=float(info.eps),
        max=float(info.max),
        min=float(info.min),
        smallest_normal=float(info.smallest_normal),
        dtype=np.dtype(info.dtype),
    )


@lru_cache(maxsize=64)
def _iinfo(dtype: np.dtype[Any]) -> iinfo_object:
    info = np.iinfo(dtype)
    return iinfo_object(bits=int(info.bits), max=int(info.max), min=int(info.min), dtype=dtype)


# Standard: finfo accepts a dtype or an array and its fields are Python float/int.
def finfo(type: Any, /) -> finfo_object:
    """Machine limits of a real or complex floating-point dtype (or of an array's dtype)."""
    dtype = _dtype_of(type, "finfo")
    if dtype.kind not in "fc":
        msg = f"finfo: expected a floating-point or complex dtype, got {dtype!r}; use iinfo for integers."
        raise ValueTypeError(msg)  # NumPy's finfo raises ValueError
    return _finfo(dtype)


# Standard: iinfo accepts a dtype or an array and its fields are Python int.
def iinfo(type: Any, /) -> iinfo_object:
    """Machine limits of an integer dtype (or of an array's dtype)."""
    dtype = _dtype_of(type, "iinfo")
    if dtype.kind not in "iu":
        msg = f"iinfo: expected an integer dtype, got {dtype!r}; use finfo for floating point."
        raise ValueTypeError(msg)  # NumPy's iinfo raises ValueError
    return _iinfo(dtype)


# Standard: astype. The array method is NumPy's fast path: numpy.astype checks its
# arguments in Python before calling it, which triples the cost of a small cast.
def astype(x: np.ndarray, dtype: Any, /, *, copy: bool = True, device: Any = None) -> np.ndarray:
    """Return ``x`` cast to ``dtype`` (a copy unless ``copy=False`` and nothing changes)."""
    if copy is True and device is None:
        try:
            return x.astype(dtype)
        except AttributeError:  # not an array: the checks below say so
            pass
    if not isinstance(x, (np.ndarray, np.generic)):
        msg = f"astype: expected a NumPy array, got {type(x).__name__} {x!r:.60}."
        raise TypeError(msg)
    if device is not None:
        from ._info import _check_device

        _check_device(device, "astype")
    result: np.ndarray = x.astype(dtype, copy=copy)
    return result
