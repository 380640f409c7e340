"""Elementwise functions where CuPy departs from the standard.

The special-case fixes use ``cupy.where`` rather than testing ``.any()`` first, so they
never wait for the GPU. Each also takes CuPy's ``out=`` (keyword only), as the CuPy
function it replaces does: the result is computed as the standard says, then written
into ``out``, which is returned.
"""

from __future__ import annotations

from typing import Any

import cupy
import numpy

from .._complex_cases import acosh_cases, log_cases, sqrt_cases, tanh_cases

__all__ = [
    "acosh",
    "clip",
    "expm1",
    "log",
    "log1p",
    "nextafter",
    "remainder",
    "sign",
    "sqrt",
    "tanh",
]


def _into(result: cupy.ndarray, out: cupy.ndarray | None) -> cupy.ndarray:
    """``result``, or ``out`` holding it (CuPy's ``out=``; casting as a ufunc would)."""
    if out is None:
        return result
    cupy.copyto(out, result, casting="same_kind")
    return out


def _clamp_int_bound(bound: object, dtype: numpy.dtype) -> object:
    """Clamp a Python int bound into ``dtype``'s range (CuPy would raise OverflowError)."""
    if type(bound) is int and dtype.kind in "iu":
        info = numpy.iinfo(dtype)
        return min(max(bound, int(info.min)), int(info.max))
    return bound


# Standard: clip takes `min=`/`max=` (None for no bound) and keeps the dtype of `x`.
def clip(
    x: cupy.ndarray,
    /,
    min: cupy.ndarray | float | None = None,
    max: cupy.ndarray | float | None = None,
    *,
    out: cupy.ndarray | None = None,
) -> cupy.ndarray:
    """Clamp each element of ``x`` to the range [``min``, ``max``]."""
    if min is None and max is None:
        return _into(x.copy(), out)
    dtype = x.dtype
    low, high = _clamp_int_bound(min, dtype), _clamp_int_bound(max, dtype)
    if low is None:
        result = cupy.minimum(x, high)
    elif high is None:
        result = cupy.maximum(x, low)
    elif dtype.kind in "biu":
        result = cupy.clip(x, low, high)  # one kernel; no NaN to propagate
    elif dtype in _KERNEL_FLOATS:  # one kernel, as CuPy's clip: two took 1.8 times as long
        result = _clip_kernel(x, _operand(low, dtype), _operand(high, dtype))
    else:  # CuPy's clip kernel ignores a NaN bound; the standard propagates it
        result = cupy.minimum(cupy.maximum(x, low), high)
    if result.dtype != dtype:
        result = result.astype(dtype)
    return _into(result, out)


# Standard: remainder is exact and has the sign of x2; x1 % ±inf is x1 when the signs agree
# (or x1 is zero) and x2 when they differ. CuPy computes x1 - floor(x1 / x2) * x2: NaN for an
# infinite x2, +0 where the standard asks for -0, and off by rounding. This is NumPy's
# algorithm (fmod, then one correction) in a single kernel.
_remainder_kernel = cupy.ElementwiseKernel(
    "T x1, T x2",
    "T y",
    """
    T r = fmod(x1, x2);
    if (r != T(0)) {
        if ((x2 < T(0)) != (r < T(0))) r += x2;
    } else {
        r = copysign(T(0), x2);
    }
    y = r;
    """,
    "cunumpy_remainder",
)
_KERNEL_FLOATS = (numpy.dtype(numpy.float32), numpy.dtype(numpy.float64))


# Standard: clip propagates a NaN of x, min or max (CuPy's clip ignores a NaN bound). As
# minimum(maximum(x, min), max), in one kernel.
_clip_kernel = cupy.ElementwiseKernel(
    "T x, T low, T high",
    "T y",
    """
    if (x != x) {
        y = x;
    } else if (low != low) {
        y = low;
    } else if (high != high) {
        y = high;
    } else {
        T raised = x < low ? low : x;
        y = raised > high ? high : raised;
    }
    """,
    "cunumpy_clip",
)


def _operand(x: cupy.ndarray | float, dtype: numpy.dtype[Any]) -> Any:
    if isinstance(x, cupy.ndarray):
        return x.astype(dtype, copy=False)
    return dtype.type(x)  # a NumPy scalar, not a 0-D array: that would lose -0.0


def _binary_float_kernel(kernel: Any, fallback: Any, x1: Any, x2: Any) -> cupy.ndarray:
    """``kernel`` on both operands cast to their float32/float64 result type; other result
    types (which the kernels do not cover) go to CuPy's ``fallback``."""
    dtype = cupy.result_type(x1, x2)
    if dtype not in _KERNEL_FLOATS:
        return fallback(x1, x2)
    return kernel(_operand(x1, dtype), _operand(x2, dtype))


def remainder(
    x1: cupy.ndarray | float, x2: cupy.ndarray | float, /, *, out: cupy.ndarray | None = None
) -> cupy.ndarray:
    """The remainder of ``x1 / x2`` with the sign of ``x2``, for each element pair."""
    return _into(_binary_float_kernel(_remainder_kernel, cupy.remainder, x1, x2), out)


# Standard: nextafter(x1, x2) is x2 when x1 == x2, so nextafter(+0, -0) is -0. C99 says the
# same, but CUDA's libdevice documents no such case; the comparison makes it certain.
_nextafter_kernel = cupy.ElementwiseKernel(
    "T x1, T x2", "T y", "y = (x1 == x2) ? x2 : nextafter(x1, x2)", "cunumpy_nextafter"
)


def nextafter(
    x1: cupy.ndarray | float, x2: cupy.ndarray | float, /, *, out: cupy.ndarray | None = None
) -> cupy.ndarray:
    """The next representable value after ``x1`` towards ``x2``, for each element pair."""
    return _into(_binary_float_kernel(_nextafter_kernel, cupy.nextafter, x1, x2), out)


# Standard: complex expm1 at infinite, NaN or zero inputs equals exp(x) - 1.
def expm1(x: cupy.ndarray, /, *, out: cupy.ndarray | None = None) -> cupy.ndarray:
    """``exp(x) - 1`` for each element, accurate near zero."""
    result = cupy.expm1(x)
    if x.dtype.kind != "c":
        return _into(result, out)
    special = ~cupy.isfinite(x) | (x == 0)
    return _into(cupy.where(special, cupy.exp(x) - 1, result), out)


# Standard: sign propagates NaN (CuPy gives 0) and complex sign is x / |x| (0 at 0).
def sign(x: cupy.ndarray, /, *, out: cupy.ndarray | None = None) -> cupy.ndarray:
    """The sign of each element: -1, 0 or 1 for real ``x``, ``x / |x|`` for complex ``x``."""
    kind = x.dtype.kind
    if kind == "f":
        return _into(cupy.where(cupy.isnan(x), x, cupy.sign(x)), out)
    if kind == "c":
        magnitude = cupy.abs(x)
        safe = cupy.where(magnitude == 0, 1, magnitude)
        zero = cupy.zeros((), dtype=x.dtype)  # +0 + 0j: x * 0 keeps the sign of a zero part
        return _into(cupy.where(magnitude == 0, zero, x / safe).astype(x.dtype, copy=False), out)
    return _into(cupy.sign(x), out)


# Standard: complex tanh(±inf + bj) is ±1 + 0j and tanh(±0 + bj) is ±0 + NaN j for an
# infinite or NaN b (CuPy gives NaNs).
def tanh(x: cupy.ndarray, /, *, out: cupy.ndarray | None = None) -> cupy.ndarray:
    """Hyperbolic tangent of each element."""
    result = cupy.tanh(x)
    return _into(tanh_cases(cupy, x, result) if x.dtype.kind == "c" else result, out)


# Standard: complex log(±inf + NaN j) and log(NaN ± inf j) are +inf + NaN j.
def log(x: cupy.ndarray, /, *, out: cupy.ndarray | None = None) -> cupy.ndarray:
    """Natural logarithm of each element."""
    result = cupy.log(x)
    return _into(log_cases(cupy, x, result) if x.dtype.kind == "c" else result, out)


# Standard: complex log1p(±inf + NaN j) and log1p(NaN ± inf j) are +inf + NaN j.
def log1p(x: cupy.ndarray, /, *, out: cupy.ndarray | None = None) -> cupy.ndarray:
    """``log(1 + x)`` for each element, accurate near zero."""
    result = cupy.log1p(x)
    return _into(log_cases(cupy, x, result) if x.dtype.kind == "c" else result, out)


# Standard: complex sqrt(+inf + bj) is +inf + 0j for finite b.
def sqrt(x: cupy.ndarray, /, *, out: cupy.ndarray | None = None) -> cupy.ndarray:
    """Principal square root of each element."""
    result = cupy.sqrt(x)
    return _into(sqrt_cases(cupy, x, result) if x.dtype.kind == "c" else result, out)


# Standard: acosh (CuPy 13: arccosh); complex acosh(±0 + NaN j) is NaN + πj/2.
def acosh(x: cupy.ndarray, /, *, out: cupy.ndarray | None = None) -> cupy.ndarray:
    """Inverse hyperbolic cosine of each element."""
    result = cupy.arccosh(x)
    return _into(acosh_cases(cupy, x, result) if x.dtype.kind == "c" else result, out)
