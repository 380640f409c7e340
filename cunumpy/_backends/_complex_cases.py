"""Special cases of the standard's complex functions that CuPy's kernels get wrong.

CuPy's complex functions (ports of C99 ``<complex.h>`` routines) miss a few of the
standard's special cases; array-api-compat lists them as expected failures. Each function
here takes the array module (``cupy``, or ``numpy`` in the tests), the input ``x`` and the
library's result, and returns the result with those elements replaced by the standard's
value. The masks are computed from ``x`` alone, so the correction does not depend on what
the library put there, and no function waits for the GPU.
"""

from __future__ import annotations

import math
from types import ModuleType
from typing import Any

__all__ = ["acosh_cases", "log_cases", "sqrt_cases", "tanh_cases"]


def _replace(xp: ModuleType, result: Any, mask: Any, real: Any, imag: Any) -> Any:
    """``result`` with ``real + imag j`` where ``mask`` holds.

    The two parts are written one by one: adding them would turn -0.0 into +0.0.
    """
    fixed = xp.empty_like(result)
    fixed.real[...] = real
    fixed.imag[...] = imag
    return xp.where(mask, fixed, result)


def log_cases(xp: ModuleType, x: Any, result: Any) -> Any:
    """``log`` and ``log1p``: an infinite part with a NaN part is ``+infinity + NaN j``."""
    a, b = x.real, x.imag
    mask = (xp.isinf(a) & xp.isnan(b)) | (xp.isnan(a) & xp.isinf(b))
    return _replace(xp, result, mask, math.inf, math.nan)


def sqrt_cases(xp: ModuleType, x: Any, result: Any) -> Any:
    """``sqrt(+infinity + bj)`` for finite ``b`` is ``+infinity + 0j``, the zero signed as ``b``."""
    a, b = x.real, x.imag
    mask = (a == math.inf) & xp.isfinite(b)
    return _replace(xp, result, mask, math.inf, xp.copysign(0.0, b))


def tanh_cases(xp: ModuleType, x: Any, result: Any) -> Any:
    """``tanh``: ``±infinity + bj`` is ``±1 + 0j``, the zero signed as ``b``, and ``±0 + bj``
    is ``±0 + NaN j`` when ``b`` is infinite or NaN."""
    a, b = x.real, x.imag
    infinite_real = xp.isinf(a)
    result = _replace(xp, result, infinite_real, xp.copysign(1.0, a), xp.copysign(0.0, b))
    zero_real = (a == 0) & ~xp.isfinite(b)
    return _replace(xp, result, zero_real, a, math.nan)


def acosh_cases(xp: ModuleType, x: Any, result: Any) -> Any:
    """``acosh(±0 + NaN j)`` is ``NaN + πj/2`` (the standard leaves the sign open)."""
    a, b = x.real, x.imag
    mask = (a == 0) & xp.isnan(b)
    return _replace(xp, result, mask, math.nan, math.pi / 2)
