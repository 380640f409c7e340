"""Element-wise comparison of two host arrays: which elements fail, and by how much.

Everything here works on NumPy arrays that the assertions copied from their devices; the
rules (NaN, infinities, signed zeros, tolerances) are the same for every namespace.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = [
    "MAX_ROWS",
    "Failures",
    "close_failures",
    "default_rtol",
    "first_failing",
    "less_failures",
]

#: How many failing elements a message lists (the count and the largest errors cover all).
MAX_ROWS = 10


def first_failing(mask: np.ndarray, limit: int) -> list[tuple[int, ...]]:
    """The indices of the first ``limit`` set elements of ``mask``, in C order."""
    flat = np.flatnonzero(mask)[:limit]
    return [tuple(int(i) for i in np.unravel_index(int(f), mask.shape)) for f in flat]


@dataclass(frozen=True)
class Failures:
    """The elements that fail a comparison, and what the report shows about them.

    ``mask`` marks the failing elements; ``difference`` is ``|actual - desired|`` (for
    ``assert_less``: ``x - y``) and ``relative`` the difference over ``|desired|``, both as
    float64 (NaN where they mean nothing, e.g. for bool arrays).
    """

    mask: np.ndarray
    difference: np.ndarray
    relative: np.ndarray
    notes: dict[tuple[int, ...], str]

    @property
    def count(self) -> int:
        return int(np.count_nonzero(self.mask))


def default_rtol(*dtypes: np.dtype[Any]) -> float:
    """``4 * sqrt(eps)`` of the least precise floating dtype among ``dtypes``; 0 if none is.

    That is 1.4e-3 for float32 and complex64 and 6.0e-8 for float64 and complex128 (the rule
    SciPy's ``xp_assert_close`` uses); integers and bools compare exactly.
    """
    epsilons = [float(np.finfo(dtype).eps) for dtype in dtypes if dtype.kind in "fc"]
    return 4.0 * math.sqrt(max(epsilons)) if epsilons else 0.0


def _is_inexact(x: np.ndarray) -> bool:
    return x.dtype.kind in "fc"


def _isnan(x: np.ndarray) -> np.ndarray:
    return np.isnan(x) if _is_inexact(x) else np.zeros(x.shape, dtype=bool)


def _zero_sign_differs(a: np.ndarray, d: np.ndarray) -> np.ndarray:
    """Where both values are zeros (component-wise for complex) whose signs differ."""

    def parts(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        if x.dtype.kind == "c":
            return x.real, x.imag
        return x, np.zeros(x.shape, dtype=x.dtype if x.dtype.kind == "f" else np.float64)

    differs = np.zeros(np.broadcast_shapes(a.shape, d.shape), dtype=bool)
    for part_a, part_d in zip(parts(a), parts(d)):
        if part_a.dtype.kind not in "f" and part_d.dtype.kind not in "f":
            continue  # integers have no negative zero
        both_zero = (part_a == 0) & (part_d == 0)
        differs |= both_zero & (np.signbit(part_a) != np.signbit(part_d))
    return differs


def _differences(a: np.ndarray, d: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``|a - d|`` and ``|a - d| / |d|`` in float64 (NaN for bools)."""
    if a.dtype.kind == "b" or d.dtype.kind == "b":
        nan = np.full(a.shape, np.nan)
        return nan, nan
    if a.dtype.kind in "iu" and d.dtype.kind in "iu":
        # Exact in uint64 (modulo 2**64, and |a - d| < 2**64), then rounded once to float64:
        # through float64 directly, 2**53 + 1 and 2**53 would not differ.
        a_u, d_u = a.astype(np.uint64), d.astype(np.uint64)
        difference = np.where(a >= d, a_u - d_u, d_u - a_u).astype(np.float64)
        scale = np.abs(d.astype(np.float64))
    else:
        work = np.result_type(a.dtype, d.dtype, np.float64)
        a_w, d_w = a.astype(work), d.astype(work)
        difference = np.abs(a_w - d_w).astype(np.float64)
        scale = np.abs(d_w).astype(np.float64)
    relative = np.where(difference == 0, 0.0, difference / scale)
    return difference, relative


def _notes(
    mask: np.ndarray, a: np.ndarray, d: np.ndarray, *, equal_nan: bool, signed_zeros: bool
) -> dict[tuple[int, ...], str]:
    """A short explanation for the failing elements whose numbers alone do not say why."""
    nan_a, nan_d = _isnan(a), _isnan(d)
    notes: dict[tuple[int, ...], str] = {}
    signs = _zero_sign_differs(a, d) if signed_zeros else None
    for key in first_failing(mask, MAX_ROWS):
        if nan_a[key] and nan_d[key]:
            notes[key] = "both NaN (equal_nan=False)"
        elif nan_a[key]:
            notes[key] = "NaN where a number is expected"
        elif nan_d[key]:
            notes[key] = "a number where NaN is expected"
        elif signs is not None and signs[key]:
            notes[key] = "zeros of opposite sign (check_signed_zeros=True)"
        elif not (np.isfinite(a[key]) and np.isfinite(d[key])):
            notes[key] = "infinities must be equal"
    return notes


def close_failures(
    a: np.ndarray,
    d: np.ndarray,
    *,
    rtol: float,
    atol: float,
    equal_nan: bool,
    signed_zeros: bool,
) -> Failures:
    """The elements of ``a`` not within ``atol + rtol * |d|`` of ``d`` (same shape)."""
    with np.errstate(all="ignore"):
        ok = np.asarray(a == d)
        difference, relative = _differences(a, d)
        if (rtol or atol) and (a.dtype.kind != "b" and d.dtype.kind != "b"):
            scale = np.abs(d.astype(np.result_type(d.dtype, np.float64))).astype(np.float64)
            within = difference <= atol + rtol * scale
            finite = np.isfinite(a) & np.isfinite(d)
            ok |= finite & within
        if equal_nan:
            ok |= _isnan(a) & _isnan(d)
        if signed_zeros:
            ok &= ~_zero_sign_differs(a, d)
        mask = ~ok
        notes = _notes(mask, a, d, equal_nan=equal_nan, signed_zeros=signed_zeros)
    return Failures(mask, difference, relative, notes)


def less_failures(x: np.ndarray, y: np.ndarray) -> Failures:
    """The elements where ``x < y`` is false (NaN on either side fails)."""
    with np.errstate(all="ignore"):
        mask = ~np.asarray(x < y)
        if x.dtype.kind == "b" or y.dtype.kind == "b":
            excess = np.full(x.shape, np.nan)
        else:
            work = np.result_type(x.dtype, y.dtype, np.float64)
            excess = np.real(x.astype(work) - y.astype(work)).astype(np.float64)
    notes: dict[tuple[int, ...], str] = {}
    nan_x, nan_y = _isnan(x), _isnan(y)
    for key in first_failing(mask, MAX_ROWS):
        if nan_x[key] or nan_y[key]:
            notes[key] = "x is NaN" if nan_x[key] else "y is NaN"
    return Failures(mask, excess, np.full(x.shape, np.nan), notes)
