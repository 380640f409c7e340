"""Compare two outcomes of one call: NumPy's and ours. ``None`` where they agree.

Otherwise a ``(class, detail)`` pair: ``accepts`` (we answer where NumPy raises),
``refuses`` (we raise where NumPy answers), ``exception-class`` (ours is not an instance
of NumPy's public class, ``numpy_idioms.public_class``), ``silent`` (the result's kind,
type, dtype, shape, values, layout or aliasing differ, or the inputs end up different),
``warning`` (other warning categories). Values are compared bit for bit, NaN-aware (any
NaN equals any NaN, in the same places), so signed zeros count, in complex parts too.
"""

from __future__ import annotations

import math
import re
import warnings
from typing import Any

import numpy as np
from numpy_idioms import public_class

from .outcome import Outcome

_ADDRESS = re.compile(r"0x[0-9a-fA-F]+")
_UINT = {2: np.uint16, 4: np.uint32, 8: np.uint64}


def _kind(value: Any) -> str:
    if isinstance(value, np.ndarray):
        return "ndarray" if type(value) is np.ndarray else type(value).__name__
    if isinstance(value, np.generic):
        return "NumPy scalar"  # its type is its dtype's, compared next
    return type(value).__name__


def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    """Equal arrays of one dtype and shape: bit for bit, any NaN equal to any NaN."""
    kind = a.dtype.kind
    if kind in "fc":
        a = np.ascontiguousarray(a).view(a.dtype.type(0).real.dtype)
        b = np.ascontiguousarray(b).view(b.dtype.type(0).real.dtype)
        nan_a, nan_b = np.isnan(a), np.isnan(b)
        if not np.array_equal(nan_a, nan_b):
            return False
        uint = _UINT.get(a.dtype.itemsize)
        if uint is None:  # long double: equal values and signs
            return bool(np.all(nan_a | ((a == b) & (np.signbit(a) == np.signbit(b)))))
        return bool(np.all(nan_a | (a.view(uint) == b.view(uint))))
    if kind == "O":
        return all(same_python(x, y) for x, y in zip(a.ravel().tolist(), b.ravel().tolist()))
    if kind in "USV":
        return bool(np.array_equal(a, b))
    return np.ascontiguousarray(a).tobytes() == np.ascontiguousarray(b).tobytes()


def same_python(x: Any, y: Any) -> bool:
    """Equal Python values of one type: NaN equals NaN, -0.0 is not 0.0."""
    if type(x) is not type(y):
        return False
    if isinstance(x, float):
        return (math.isnan(x) and math.isnan(y)) or (
            x == y and math.copysign(1.0, x) == math.copysign(1.0, y)
        )
    if isinstance(x, complex):
        return same_python(x.real, y.real) and same_python(x.imag, y.imag)
    if isinstance(x, (list, tuple)):
        return len(x) == len(y) and all(same_python(a, b) for a, b in zip(x, y))
    try:
        return bool(x == y)
    except Exception:
        return repr(x) == repr(y)


def _arrays_in(value: Any) -> list[np.ndarray]:
    if isinstance(value, np.ndarray):
        return [value]
    if isinstance(value, (tuple, list)):
        return [a for item in value for a in _arrays_in(item)]
    return []


def compare_results(ours: Any, theirs: Any, values: bool = True) -> str | None:
    """What differs between two answers, or ``None``."""
    if _kind(ours) != _kind(theirs):
        return f"kind: ours {_kind(ours)}, NumPy {_kind(theirs)}"
    if isinstance(theirs, (np.ndarray, np.generic)):
        if ours.dtype != theirs.dtype:
            return f"dtype: ours {ours.dtype}, NumPy {theirs.dtype}"
        if ours.shape != theirs.shape:
            return f"shape: ours {ours.shape}, NumPy {theirs.shape}"
        if values and not same_bits(np.asarray(ours), np.asarray(theirs)):
            return "values"
        if isinstance(theirs, np.ndarray) and theirs.ndim >= 2 and theirs.size > 1:
            kept = (theirs.flags.c_contiguous, theirs.flags.f_contiguous)
            if any(kept) and (ours.flags.c_contiguous, ours.flags.f_contiguous) != kept:
                return f"layout: ours C={ours.flags.c_contiguous} F={ours.flags.f_contiguous}, NumPy C={kept[0]} F={kept[1]}"
        if isinstance(theirs, np.ndarray) and ours.flags.writeable != theirs.flags.writeable:
            return f"writeable: ours {ours.flags.writeable}, NumPy {theirs.flags.writeable}"
        return None
    if isinstance(theirs, (tuple, list)):
        fields = getattr(theirs, "_fields", None)
        if fields is not None and getattr(ours, "_fields", None) != fields:
            return f"fields: ours {getattr(ours, '_fields', None)}, NumPy {fields}"
        if len(ours) != len(theirs):
            return f"length: ours {len(ours)}, NumPy {len(theirs)}"
        for i, (a, b) in enumerate(zip(ours, theirs)):
            found = compare_results(a, b, values)
            if found:
                return f"[{i}] {found}"
        return None
    if isinstance(theirs, (bool, int, float, complex, str, bytes, type(None), np.dtype, type)):
        return None if same_python(ours, theirs) else "values"
    text = repr(theirs)
    if not _ADDRESS.search(text) and repr(ours) != text:
        return f"repr: ours {repr(ours)[:60]}, NumPy {text[:60]}"
    return None


def _aliasing(outcome: Outcome) -> list[tuple[bool, bool]]:
    found = []
    for r in _arrays_in(outcome.result):
        for a in outcome.inputs:
            found.append((r is a, bool(np.may_share_memory(r, a))))
    return found


def compare(ours: Outcome, theirs: Outcome, values: bool = True) -> tuple[str, str] | None:
    """The finding ``(class, detail)`` of one call, or ``None`` where the outcomes agree.

    ``values=False`` leaves the values out (``empty``, and a ufunc's ``where=`` without
    ``out=``, where NumPy leaves the other elements uninitialized).
    """
    if theirs.error is not None:
        if ours.error is None:
            return (
                "accepts",
                f"NumPy raises {type(theirs.error).__name__}: {str(theirs.error)[:100]}",
            )
        expected = public_class(theirs.error)
        if not isinstance(ours.error, expected):
            return (
                "exception-class",
                f"ours {type(ours.error).__name__}, NumPy {expected.__name__}: {str(ours.error)[:80]}",
            )
        return None
    if ours.error is not None:
        return "refuses", f"{type(ours.error).__name__}: {str(ours.error)[:120]}"
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # reading flags of broadcast_arrays' answer warns
        found = compare_results(ours.result, theirs.result, values)
        if found:
            return "silent", found
        if _aliasing(ours) != _aliasing(theirs):
            return "silent", "aliasing: the answer shares memory with other inputs than NumPy's"
        for i, (a, b) in enumerate(zip(ours.inputs, theirs.inputs)):
            if not same_bits(a, b):
                return "silent", f"mutation: input {i} differs after the call"
    if ours.warned != theirs.warned:
        return "warning", f"ours {list(ours.warned)}, NumPy {list(theirs.warned)}"
    return None
