"""Elementwise functions where NumPy departs from the standard."""

from __future__ import annotations

import numpy as np

__all__ = ["clip", "expm1", "floor_divide", "tanh"]


def _clamp_int_bound(bound: object, dtype: np.dtype) -> object:
    """Clamp a Python int bound into ``dtype``'s range (NumPy would raise OverflowError)."""
    if type(bound) is int and dtype.kind in "iu":
        info = np.iinfo(dtype)
        return min(max(bound, int(info.min)), int(info.max))
    return bound


# Standard: clip takes `min=`/`max=` (None for no bound) and keeps the dtype of `x`.
def clip(
    x: np.ndarray,
    /,
    min: np.ndarray | float | None = None,
    max: np.ndarray | float | None = None,
) -> np.ndarray:
    """Clamp each element of ``x`` to the range [``min``, ``max``]."""
    if min is None and max is None:
        return np.positive(x) if x.dtype.kind != "b" else x.copy()
    dtype = x.dtype
    result = np.clip(x, _clamp_int_bound(min, dtype), _clamp_int_bound(max, dtype))  # type: ignore[call-overload]
    if result.dtype != dtype:
        result = result.astype(dtype)
    return result


# Standard: floor_divide(±inf, finite) is ±inf and floor_divide(finite, ±inf) is a signed
# zero; NumPy follows Python (NaN and -1.0). Where an operand is infinite, x1 / x2 is right.
def floor_divide(x1: np.ndarray | float, x2: np.ndarray | float, /) -> np.ndarray:
    """Floor of ``x1 / x2`` for each element pair, with the standard's infinity cases."""
    result = np.floor_divide(x1, x2)
    if result.dtype.kind != "f":
        return result
    infinite = np.isinf(x1) | np.isinf(x2)
    if not infinite.any():
        return result
    result = np.array(result, copy=True, ndmin=0)
    np.copyto(result, np.divide(x1, x2), where=infinite)
    return result


# Standard: complex expm1 at infinite, NaN or zero inputs equals exp(x) - 1 (NumPy differs:
# NaNs at infinities, and -0 + 0j at -0 + 0j where the standard asks for +0 + 0j).
def expm1(x: np.ndarray, /) -> np.ndarray:
    """``exp(x) - 1`` for each element, accurate near zero."""
    result = np.expm1(x)
    if x.dtype.kind != "c":
        return result
    special = ~np.isfinite(x) | (x == 0)
    if not special.any():
        return result
    result = np.array(result, copy=True, ndmin=0)
    with np.errstate(invalid="ignore", over="ignore"):
        result[special] = np.exp(x[special]) - 1
    return result


# Standard: complex tanh(±inf + bj) is ±1 + (sign of b)0j for finite b (NumPy gives NaNs).
def tanh(x: np.ndarray, /) -> np.ndarray:
    """Hyperbolic tangent of each element."""
    result = np.tanh(x)
    if x.dtype.kind != "c":
        return result
    infinite_real = np.isinf(x.real)
    if not infinite_real.any():
        return result
    result = np.array(result, copy=True, ndmin=0)
    result.real[infinite_real] = np.copysign(1.0, x.real[infinite_real])
    result.imag[infinite_real] = np.copysign(0.0, x.imag[infinite_real])
    return result
