"""Arguments that are not arrays, at the top level: the standard's checks of the standard's calls.

The generated functions test these arguments with exact identity and type tests (a few
nanoseconds) and call the functions here only when a test fails. In a parameter of the
standard's only (``sort``'s ``descending``, which NumPy's sort does not take), a refused
value raises the error of the project's table: ``TypeError`` for a wrong type,
``ValueError`` for a bad value, naming the function, the argument and the value. In a
parameter that NumPy's function takes too (``sum(x, keepdims=1)``, ``roll(x, 1.5)``,
``std(x, correction=-1)``), a value the standard's check refuses is not the standard's
call: ``refused`` says so, and the call goes to NumPy, which answers it or raises its own
class (see ``_numpy_calls``).

Errors that NumPy or CuPy raise themselves are restated on the error path only
(``raise_restated_call``): the message names our function (not NumPy's internal one, such
as ``solve1``) and the arguments. ``IndexError``, ``OverflowError`` and
``ZeroDivisionError`` become ``ValueError`` (a bad value, by the project's table) through
classes that are also the original type, so code that catches what NumPy raises still
catches them; other classes (``numpy.linalg.LinAlgError``, ``numpy.exceptions.AxisError``)
are kept.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable
from typing import Any, NoReturn

import numpy as np

from .._settings._errors import (
    IndexValueError,
    OverflowValueError,
    ZeroDivisionValueError,
    called_with,
    value_error_for,
)

__all__ = [
    "ARRAY_ERRORS",
    "BOOL",
    "IndexValueError",
    "OverflowValueError",
    "ZeroDivisionValueError",
    "check_bools",
    "check_correction",
    "check_int",
    "check_repeats",
    "check_shift",
    "check_sorted_1d",
    "check_tensordot_axes",
    "is_scalar_fill",
    "checked_shape",
    "raise_restated_call",
    "refused",
]


#: NumPy's bool dtype (one object): ``where`` tests its condition's dtype against it.
BOOL = np.dtype(np.bool_)

#: What the generated functions restate: the backends' errors for bad arguments, and a
#: size they cannot allocate.
ARRAY_ERRORS = (TypeError, ValueError, IndexError, OverflowError, ZeroDivisionError, MemoryError)


def _shown(value: Any) -> str:
    return f"{type(value).__qualname__} {value!r:.60}"


def refused(check: Callable[..., None], *args: Any, **kwargs: Any) -> bool:
    """Whether the standard's ``check`` refuses its arguments: then, in a parameter that
    NumPy's function takes too (``sum(x, keepdims=1)``), the call is NumPy's to judge."""
    try:
        check(*args, **kwargs)
    except (TypeError, ValueError):
        return True
    return False


def check_bools(func: str, **flags: Any) -> None:
    """Raise ``TypeError`` for the first flag that is not ``True`` or ``False``."""
    for name, value in flags.items():
        if value is not True and value is not False and not isinstance(value, np.bool_):
            if name == "copy" and value is None:
                continue
            accepted = "True, False or None" if name == "copy" else "True or False"
            msg = f"{func}: `{name}` must be {accepted}, not {_shown(value)}."
            raise TypeError(msg)


def is_scalar_fill(fill_value: Any) -> bool:
    """Whether a ``fill_value`` that is not a Python scalar is the standard's: a NumPy number
    or a 0-D array. Any other (a list, a string, ...) makes the call NumPy's."""
    if isinstance(fill_value, np.generic):
        return fill_value.dtype.kind in "biufc"
    return getattr(fill_value, "ndim", None) == 0 and hasattr(fill_value, "dtype")


def check_int(value: Any, func: str, name: str) -> None:
    """Raise ``TypeError`` unless ``value`` is an int (a NumPy integer too, never a bool)."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        return
    msg = f"{func}: `{name}` must be an int, not {_shown(value)}."
    raise TypeError(msg)


def checked_shape(shape: Any, func: str) -> tuple[int, ...]:
    """A ``shape`` argument as a tuple of ints: ``TypeError`` or ``ValueError`` otherwise."""
    try:
        dims = (operator.index(shape),) if not isinstance(shape, tuple) else shape
        dims = tuple(operator.index(n) for n in dims)
    except TypeError:
        msg = f"{func}: `shape` must be an int or a tuple of ints, not {shape!r}."
        raise TypeError(msg) from None
    if any(n < 0 for n in dims):
        msg = f"{func}: `shape` must not be negative, got {dims!r}."
        raise ValueError(msg)
    return dims


def check_shift(shift: Any, func: str) -> None:
    """``roll``'s ``shift``: an int or a tuple of ints."""
    for value in shift if isinstance(shift, tuple) else (shift,):
        if not isinstance(value, (int, np.integer)) or isinstance(value, (bool, np.bool_)):
            msg = f"{func}: `shift` must be an int or a tuple of ints, not {_shown(shift)}."
            raise TypeError(msg)


def check_repeats(repeats: Any, func: str) -> None:
    """``repeat``'s ``repeats`` given as a Python scalar: a non-negative int."""
    check_int(repeats, func, "repeats")
    if repeats < 0:
        msg = f"{func}: `repeats` must not be negative, got {repeats!r}."
        raise ValueError(msg)


def check_correction(correction: Any, func: str) -> None:
    """``std``/``var``'s ``correction``: a non-negative int or float."""
    if isinstance(correction, (bool, np.bool_)) or not isinstance(
        correction, (int, float, np.integer, np.floating)
    ):
        msg = f"{func}: `correction` must be an int or a float, not {_shown(correction)}."
        raise TypeError(msg)
    if not correction >= 0:
        msg = f"{func}: `correction` must be non-negative, got {correction!r}."
        raise ValueError(msg)


def check_tensordot_axes(axes: Any) -> None:
    """``tensordot``'s ``axes``: a non-negative int, or two sequences of ints."""
    if isinstance(axes, (int, np.integer)) and not isinstance(axes, (bool, np.bool_)):
        if axes < 0:
            msg = f"tensordot: `axes` must be a non-negative int, got {axes!r}."
            raise ValueError(msg)
        return
    if isinstance(axes, (tuple, list)) and len(axes) == 2:
        return  # NumPy checks the two sequences; its errors are restated
    msg = f"tensordot: `axes` must be an int or a pair of sequences of ints, not {_shown(axes)}."
    raise TypeError(msg)


def check_sorted_1d(x1: Any) -> None:
    """``searchsorted``'s ``x1``: a 1-D array (NumPy says "object too deep")."""
    msg = (
        f"searchsorted: `x1` must be a 1-D sorted array, got an array of shape "
        f"{getattr(x1, 'shape', None)}; search each row separately, or flatten it."
    )
    raise ValueError(msg)


_INTERNAL_NAME = re.compile(r"^[A-Za-z_][\w.]*: ")  # NumPy's own function names: "solve1: "


def raise_restated_call(func: str, exc: BaseException, **arguments: Any) -> NoReturn:
    """Raise the backend's ``exc`` again with a message that names ``func`` and the arguments
    (arrays by their dtype and shape, as given)."""
    text = str(exc)
    if text.startswith(f"{func}:"):
        raise exc
    text = _INTERNAL_NAME.sub("", text, count=1) or type(exc).__name__
    name = "axis" if "axis" in arguments else "axes"
    axis = arguments.get(name)
    if isinstance(exc, IndexError) and not isinstance(exc, ValueError) and axis is not None:
        text = f"`{name}` {axis!r} is out of range for the input ({text})"
    message = f"{func}: {text.rstrip('.')}{called_with(arguments)}"
    new = TypeError(message) if isinstance(exc, TypeError) else value_error_for(exc)(message)
    raise new from exc
