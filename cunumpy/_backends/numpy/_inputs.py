"""Inputs of the NumPy namespace's own functions: what is not an array of numbers is refused.

The namespace is a superset of NumPy, so its fixes take what NumPy's functions take (lists,
NumPy scalars) and convert it; what NumPy would turn into an object or string array, or
what is no array at all (``None``, a string), raises ``TypeError`` naming the function,
as NumPy's own functions would, instead of an ``AttributeError`` from inside the fix.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..._settings._errors import ZeroDivisionValueError

__all__ = ["numeric", "positive_length"]


def numeric(x: Any, func: str, name: str = "x") -> np.ndarray:
    """``x`` as a NumPy array of numbers (``x`` itself for one), or ``TypeError``."""
    if type(x) is np.ndarray:
        return x
    array = np.asarray(x)
    if array.dtype.kind not in "biufc":
        shown = "None" if x is None else f"{type(x).__qualname__} {x!r:.60}"
        msg = f"{func}: `{name}` must be an array of numbers, not {shown}."
        raise TypeError(msg)
    return array


def positive_length(n: Any, d: Any, func: str) -> None:
    """Raise for a length of 0 where NumPy divides by it in Python numbers (``1.0 / (n * d)``
    with a Python ``d``): a ``ValueError`` that is also the ``ZeroDivisionError`` NumPy raises.
    With a NumPy scalar or an array as ``d``, NumPy's division warns and answers (an empty
    array, or ``[nan]``), and so does the namespace. Any other length is NumPy's to judge (it
    answers ``rfftfreq(-1)`` and ``rfftfreq(True)``, and raises ``ValueError`` for
    ``fftfreq(1.5)``)."""
    if type(n) is int and n == 0 and type(d) in (int, float, complex, bool):
        msg = f"{func}: `n` must be a positive int, got 0."
        raise ZeroDivisionValueError(msg)
