"""Elementwise functions where NumPy departs from the standard.

Each also takes NumPy's ``out=`` (keyword only), as the NumPy function it replaces does:
code written for NumPy, such as a library's NumPy fast path on this namespace (a
superset of NumPy), passes it. The result is computed as the standard says, then written
into ``out``, which is returned.
"""

from __future__ import annotations

import numpy as np

from ._inputs import numeric

__all__ = ["clip", "expm1", "floor_divide", "tanh"]

_ndarray = np.ndarray


def _into(result: np.ndarray, out: np.ndarray | None) -> np.ndarray:
    """``result``, or ``out`` holding it (NumPy's ``out=``; casting as a ufunc would)."""
    if out is None:
        return result
    np.copyto(out, result, casting="same_kind")
    return out


def _fixed(result: np.ndarray, fix: np.ndarray, out: np.ndarray | None) -> np.ndarray:
    """``fix`` (a writable copy of the ufunc's ``result``, special cases replaced) in the
    ufunc's kind of result: a NumPy scalar where the ufunc gave one (for 0-D inputs), as
    NumPy's ufuncs do, else the array; or ``out`` holding it."""
    if out is not None:
        return _into(fix, out)
    return fix if type(result) is _ndarray else fix[()]


# Standard: clip takes `min=`/`max=` (None for no bound); with bounds of x's dtype (or
# Python scalars within its range) the result has x's dtype. Where the standard leaves the
# answer open (bounds of another dtype or kind, a Python int outside the dtype's range),
# it is NumPy's, as the top level's clip gives it: ndarray.clip, the call numpy.clip makes.
def clip(
    x: np.ndarray,
    /,
    min: np.ndarray | float | None = None,
    max: np.ndarray | float | None = None,
    *,
    out: np.ndarray | None = None,
) -> np.ndarray:
    """Clamp each element of ``x`` to the range [``min``, ``max``]."""
    if type(x) is not _ndarray:
        x = numeric(x, "clip")
    if out is None:
        return x.clip(min, max)  # type: ignore[arg-type]  # None for a missing bound, as NumPy 2.1+
    return x.clip(min, max, out=out)  # type: ignore[arg-type]


# Standard: floor_divide(±inf, finite) is ±inf and floor_divide(finite, ±inf) is a signed
# zero; NumPy follows Python (NaN and -1.0). Where an operand is infinite, x1 / x2 is right.
def floor_divide(
    x1: np.ndarray | float, x2: np.ndarray | float, /, *, out: np.ndarray | None = None
) -> np.ndarray:
    """Floor of ``x1 / x2`` for each element pair, with the standard's infinity cases."""
    result = np.floor_divide(x1, x2)
    if result.dtype.kind != "f":
        return _into(result, out)
    infinite = np.isinf(x1) | np.isinf(x2)
    if not infinite.any():
        return _into(result, out)
    fix = np.array(result, copy=True, ndmin=0)
    np.copyto(fix, np.divide(x1, x2), where=infinite)
    return _fixed(result, fix, out)


# Standard: complex expm1 at infinite, NaN or zero inputs equals exp(x) - 1 (NumPy differs:
# NaNs at infinities, and -0 + 0j at -0 + 0j where the standard asks for +0 + 0j).
def expm1(x: np.ndarray, /, *, out: np.ndarray | None = None) -> np.ndarray:
    """``exp(x) - 1`` for each element, accurate near zero."""
    if type(x) is not _ndarray:
        x = numeric(x, "expm1")
    result = np.expm1(x)
    if x.dtype.kind != "c":
        return _into(result, out)
    special = ~np.isfinite(x) | (x == 0)
    if not special.any():
        return _into(result, out)
    fix = np.array(result, copy=True, ndmin=0)
    with np.errstate(invalid="ignore", over="ignore"):
        fix[special] = np.exp(x[special]) - 1
    return _fixed(result, fix, out)


# Standard: complex tanh(±inf + bj) is ±1 + (sign of b)0j for finite b (NumPy gives NaNs).
def tanh(x: np.ndarray, /, *, out: np.ndarray | None = None) -> np.ndarray:
    """Hyperbolic tangent of each element."""
    if type(x) is not _ndarray:
        x = numeric(x, "tanh")
    result = np.tanh(x)
    if x.dtype.kind != "c":
        return _into(result, out)
    infinite_real = np.isinf(x.real)
    if not infinite_real.any():
        return _into(result, out)
    fix = np.array(result, copy=True, ndmin=0)
    fix.real[infinite_real] = np.copysign(1.0, x.real[infinite_real])
    fix.imag[infinite_real] = np.copysign(0.0, x.imag[infinite_real])
    return _fixed(result, fix, out)
