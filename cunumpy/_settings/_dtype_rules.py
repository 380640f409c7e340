"""The standard's dtypes, and the few checks the top level keeps for calls written the standard's way.

The standard's dtypes are bool, the signed and unsigned integers of 8 to 64 bits,
float32, float64, complex64 and complex128. A ``dtype=`` argument that names one of them
as the standard does (``float64``, ``xp.int32``, ``float``) or any other NumPy takes
(float16, object, strings, datetimes, ``"float32"``, ``np.dtype(...)``) is passed on to the
library's function, which answers it (``astype`` looks the standard's up in
``DTYPE_ARGUMENTS`` for its fast path).

For the standard's calls the top level keeps the standard's rules where NumPy answers the
same call otherwise: ``full``/``full_like`` refuse a fill value the integer dtype cannot
hold exactly, and ``astype`` refuses complex to real. ``docs/migrating.md`` lists these.
Where the standard's promotion table has no entry (a signed integer with uint64, mixed
kinds), the standard leaves the answer open, and ``result_type`` gives NumPy's.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

__all__ = [
    "DTYPE_ARGUMENTS",
    "STANDARD_DTYPES",
    "check_cast",
    "check_fill",
]

_NAMES = (
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float32", "float64", "complex64", "complex128",
)  # fmt: skip

#: The standard's dtypes, as NumPy dtypes (native byte order).
STANDARD_DTYPES = frozenset(np.dtype(name) for name in _NAMES)

#: ``dtype=`` values that name a standard dtype, recognised by one set look-up: the dtypes
#: themselves, NumPy's scalar types (``xp.float64``) and Python's ``bool``, ``int``,
#: ``float`` and ``complex``.
DTYPE_ARGUMENTS = frozenset(
    [*STANDARD_DTYPES, *(d.type for d in STANDARD_DTYPES), bool, int, float, complex]
)


def _dtype_of(dtype: Any) -> np.dtype[Any] | None:
    try:
        return np.dtype(dtype)
    except (TypeError, ValueError):
        return None


def check_fill(fill_value: Any, dtype: Any, func: str) -> None:
    """Raise unless the Python float or complex ``fill_value`` fits ``dtype`` exactly.

    NumPy writes INT64_MIN for NaN, truncates 1.5 to 1 and drops an imaginary part.
    """
    resolved = _dtype_of(dtype)
    if resolved is None:
        return  # the creation function reports the dtype itself
    if type(fill_value) is complex and resolved.kind in "biuf":
        msg = (
            f"{func}: `fill_value` {fill_value!r} is complex and `dtype` {resolved} is real: "
            f"its imaginary part would be lost; pass a complex dtype or a real fill_value."
        )
        raise TypeError(msg)
    if resolved.kind in "biu" and not (math.isfinite(fill_value) and fill_value.is_integer()):
        msg = (
            f"{func}: `fill_value` {fill_value!r} cannot be stored exactly in `dtype` "
            f"{resolved}; pass an integer fill_value or a floating-point dtype."
        )
        raise ValueError(msg)


def check_cast(from_dtype: Any, dtype: Any, func: str) -> None:
    """Raise ``TypeError`` for a cast the standard does not permit: complex to real."""
    resolved = _dtype_of(dtype)
    if getattr(from_dtype, "kind", "") == "c" and resolved is not None and resolved.kind != "c":
        msg = (
            f"{func}: casting complex {from_dtype} to real {resolved} is not permitted by "
            f"the standard (the imaginary part would be lost); take real(x), imag(x) or "
            f"abs(x) first."
        )
        raise TypeError(msg)
