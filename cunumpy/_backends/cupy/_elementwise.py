"""Elementwise functions where CuPy departs from the standard.

The special-case fixes use ``cupy.where`` rather than testing ``.any()`` first, so they
never wait for the GPU.
"""

from __future__ import annotations

import cupy

from ..numpy._elementwise import _clamp_int_bound

__all__ = ["clip", "expm1", "floor_divide", "sign", "tanh"]


# Standard: clip takes `min=`/`max=` (None for no bound) and keeps the dtype of `x`.
def clip(
    x: cupy.ndarray,
    /,
    min: cupy.ndarray | float | None = None,
    max: cupy.ndarray | float | None = None,
) -> cupy.ndarray:
    """Clamp each element of ``x`` to the range [``min``, ``max``]."""
    with x.device:
        if min is None and max is None:
            return x.copy()
        dtype = x.dtype
        low, high = _clamp_int_bound(min, dtype), _clamp_int_bound(max, dtype)
        if low is None:
            result = cupy.minimum(x, high)
        elif high is None:
            result = cupy.maximum(x, low)
        else:
            result = cupy.minimum(cupy.maximum(x, low), high)
        if result.dtype != dtype:
            result = result.astype(dtype)
        return result


# Standard: floor_divide(±inf, finite) is ±inf and floor_divide(finite, ±inf) a signed zero;
# where an operand is infinite, x1 / x2 is the standard's answer.
def floor_divide(x1: cupy.ndarray | float, x2: cupy.ndarray | float, /) -> cupy.ndarray:
    """Floor of ``x1 / x2`` for each element pair, with the standard's infinity cases."""
    result = cupy.floor_divide(x1, x2)
    if result.dtype.kind != "f":
        return result
    return cupy.where(cupy.isinf(x1) | cupy.isinf(x2), cupy.divide(x1, x2), result)


# Standard: complex expm1 at infinite, NaN or zero inputs equals exp(x) - 1.
def expm1(x: cupy.ndarray, /) -> cupy.ndarray:
    """``exp(x) - 1`` for each element, accurate near zero."""
    result = cupy.expm1(x)
    if x.dtype.kind != "c":
        return result
    special = ~cupy.isfinite(x) | (x == 0)
    return cupy.where(special, cupy.exp(x) - 1, result)


# Standard: sign propagates NaN (CuPy gives 0) and complex sign is x / |x| (0 at 0).
def sign(x: cupy.ndarray, /) -> cupy.ndarray:
    """The sign of each element: -1, 0 or 1 for real ``x``, ``x / |x|`` for complex ``x``."""
    kind = x.dtype.kind
    if kind == "f":
        return cupy.where(cupy.isnan(x), x, cupy.sign(x))
    if kind == "c":
        magnitude = cupy.abs(x)
        safe = cupy.where(magnitude == 0, 1, magnitude)
        return cupy.where(magnitude == 0, x * 0, x / safe).astype(x.dtype, copy=False)
    return cupy.sign(x)


# Standard: complex tanh(±inf + bj) is ±1 + (sign of b)0j for finite b.
def tanh(x: cupy.ndarray, /) -> cupy.ndarray:
    """Hyperbolic tangent of each element."""
    result = cupy.tanh(x)
    if x.dtype.kind != "c":
        return result
    fixed = cupy.empty_like(x)  # set the parts one by one: adding them would lose -0.0
    fixed.real[...] = cupy.copysign(1.0, x.real)
    fixed.imag[...] = cupy.copysign(0.0, x.imag)
    return cupy.where(cupy.isinf(x.real), fixed, result)
