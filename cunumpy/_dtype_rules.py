"""The top level's dtype rule: no dtype outside the standard's set is created without an error.

The standard's dtypes are bool, the signed and unsigned integers of 8 to 64 bits,
float32, float64, complex64 and complex128. At the top level (``cunumpy.zeros``,
``cunumpy.sqrt``, ...), a call that would create an array of another dtype (float16,
object, strings, bytes, datetimes, structured dtypes, ...) raises ``TypeError`` naming the
function and the dtype, and saying what to pass instead. Where the standard leaves a
result unspecified, NumPy's answer is kept when it is one of the standard's dtypes
(``sqrt`` of an int64 array is float64); ``result_type``, the standard's promotion
table itself, raises where the table has no entry (a signed integer with uint64).

The namespaces that ``array_namespace`` returns keep NumPy's and CuPy's leniency; only
the top level applies the rule. The checks run on the paths that are slow anyway (a
conversion from Python objects, a ``dtype=`` argument) or, for the elementwise functions
that NumPy computes in float16 for bool, int8 and uint8 inputs, as one identity test of
the result's dtype.
"""

from __future__ import annotations

import math
from typing import Any, NoReturn

import numpy as np

__all__ = [
    "DTYPE_ARGUMENTS",
    "FLOAT16",
    "STANDARD_DTYPES",
    "check_cast",
    "check_converted",
    "check_dtype",
    "check_fill",
    "check_promotion",
    "refuse_float16",
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

#: float16, the dtype NumPy gives some elementwise functions of bool, int8 and uint8.
FLOAT16 = np.dtype(np.float16)

_ACCEPTED = "one of the standard's dtypes (" + ", ".join(_NAMES) + ")"


def _dtype_of(dtype: Any) -> np.dtype[Any] | None:
    try:
        return np.dtype(dtype)
    except (TypeError, ValueError):
        return None


def check_dtype(dtype: Any, func: str) -> None:
    """Raise ``TypeError`` unless ``dtype`` names one of the standard's dtypes."""
    try:
        if dtype in DTYPE_ARGUMENTS:
            return
    except TypeError:  # unhashable: no dtype at all
        pass
    resolved = _dtype_of(dtype)
    if resolved is not None and resolved in STANDARD_DTYPES:
        return
    if resolved is None and type(dtype).__module__.partition(".")[0] not in ("numpy", "builtins"):
        return  # another library's dtype (torch.float32, ...): its own namespace judges it
    shown = f"{dtype!r:.80}" if resolved is None else f"{dtype!r:.80} ({resolved})"
    msg = (
        f"{func}: `dtype` {shown} is not {_ACCEPTED}; the top level creates arrays of "
        f"those only (NumPy's own functions take other dtypes)."
    )
    raise TypeError(msg)


def check_converted(result: Any, obj: Any, func: str) -> Any:
    """``result`` (converted from the Python object ``obj``), or ``TypeError``/``ValueError``."""
    dtype = result.dtype
    if dtype in STANDARD_DTYPES:
        return result
    if type(obj) is int:  # too large for int64 and uint64: NumPy makes an object array
        msg = (
            f"{func}: the int {obj!r:.60} is out of range for every integer dtype of the "
            f"standard (int64 holds -2**63 to 2**63 - 1, uint64 0 to 2**64 - 1)."
        )
        raise ValueError(msg)
    msg = (
        f"{func}: cannot make an array of {type(obj).__qualname__} {obj!r:.60}: NumPy would "
        f"give dtype {dtype}, which is not {_ACCEPTED}. Pass numbers (bool, int, float, "
        f"complex), nested lists of them, or an array."
    )
    raise TypeError(msg)


def refuse_float16(func: str, *inputs: Any) -> NoReturn:
    """The ``TypeError`` of an elementwise function whose result would be float16."""
    given = ", ".join(str(getattr(x, "dtype", type(x).__name__)) for x in inputs)
    msg = (
        f"{func}: the result for inputs of dtype {given} would be float16, which is not "
        f"{_ACCEPTED}. Convert the input first, for example "
        f"{func}(astype(x, float32)) or float64."
    )
    raise TypeError(msg)


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


_CATEGORY = {"b": "bool", "i": "integer", "u": "integer", "f": "floating", "c": "floating"}


def check_promotion(result: Any, dtypes: tuple[Any, ...], func: str) -> Any:
    """``result`` (a promoted dtype), or ``TypeError`` where the standard's table has none.

    The table promotes within bool, within the integers and within the floating-point
    dtypes (real and complex); a signed integer with uint64 and any mix of those three
    categories have no entry.
    """
    kinds = {d.kind for d in dtypes}
    categories = {_CATEGORY.get(kind, kind) for kind in kinds}
    mixed_integers = result.kind == "f" and kinds <= {"i", "u"}
    if result in STANDARD_DTYPES and len(categories) <= 1 and not mixed_integers:
        return result
    shown = ", ".join(str(d) for d in dtypes)
    msg = (
        f"{func}: the standard defines no promotion of {shown} (NumPy gives {result}); "
        f"convert to a common dtype first, for example with astype."
    )
    raise TypeError(msg)
