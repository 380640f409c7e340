"""NumPy's ufunc methods and attributes on the top-level standard functions.

In NumPy, ``add``, ``maximum``, ``sin``, ``pow`` (``power``) and the other standard names
listed in ``UFUNC_NAMES`` are ufuncs, with the methods ``reduce``, ``accumulate``,
``reduceat``, ``outer`` and ``at`` and the attributes ``nin``, ``nout``, ``nargs``,
``identity``, ``ntypes``, ``types`` and ``signature``. The top-level functions stay the
generated functions; their ``@fast_path(..., ufunc=...)`` record (``_fast_path``) gives
each of them those attributes, NumPy's values, and one ``UfuncMethod`` per method.

A method dispatches on its inputs like the call itself: NumPy arrays run NumPy's ufunc
method, CuPy arrays CuPy's (on their GPU), and Python data alone the current backend's
library. Arrays of both libraries raise ``TypeError``.
"""

from __future__ import annotations

import contextlib
from types import ModuleType
from typing import Any

import numpy as np

from .._backend_choice._config import current
from .._namespaces._array_predicates import is_cupy_array
from .._namespaces._data_library import library_of
from .._settings._cupy_probe import require_cupy
from ._arguments import ARRAY_ERRORS, raise_restated_call

__all__ = ["METHODS", "UFUNC_ATTRIBUTES", "UFUNC_NAMES", "UfuncMethod"]

#: Each standard name that is a ufunc in NumPy, and the ufunc's name in NumPy and CuPy.
UFUNC_NAMES: dict[str, str] = {
    "abs": "absolute", "acos": "arccos", "acosh": "arccosh", "add": "add", "asin": "arcsin",
    "asinh": "arcsinh", "atan": "arctan", "atan2": "arctan2", "atanh": "arctanh",
    "bitwise_and": "bitwise_and", "bitwise_invert": "invert", "bitwise_left_shift": "left_shift",
    "bitwise_or": "bitwise_or", "bitwise_right_shift": "right_shift",
    "bitwise_xor": "bitwise_xor", "ceil": "ceil", "conj": "conjugate", "copysign": "copysign",
    "cos": "cos", "cosh": "cosh", "divide": "divide", "equal": "equal", "exp": "exp",
    "expm1": "expm1", "floor": "floor", "floor_divide": "floor_divide", "greater": "greater",
    "greater_equal": "greater_equal", "hypot": "hypot", "isfinite": "isfinite",
    "isinf": "isinf", "isnan": "isnan", "less": "less", "less_equal": "less_equal",
    "log": "log", "log1p": "log1p", "log2": "log2", "log10": "log10", "logaddexp": "logaddexp",
    "logical_and": "logical_and", "logical_not": "logical_not", "logical_or": "logical_or",
    "logical_xor": "logical_xor", "matmul": "matmul", "maximum": "maximum",
    "minimum": "minimum", "multiply": "multiply", "negative": "negative",
    "nextafter": "nextafter", "not_equal": "not_equal", "positive": "positive", "pow": "power",
    "reciprocal": "reciprocal", "remainder": "remainder", "sign": "sign", "signbit": "signbit",
    "sin": "sin", "sinh": "sinh", "sqrt": "sqrt", "square": "square", "subtract": "subtract",
    "tan": "tan", "tanh": "tanh", "trunc": "trunc", "vecdot": "vecdot",
}  # fmt: skip

#: The ufunc methods, and the positions of their array arguments.
METHODS: dict[str, tuple[int, ...]] = {
    "reduce": (0,),
    "accumulate": (0,),
    "reduceat": (0, 1),
    "outer": (0, 1),
    "at": (0, 1, 2),
}

_NO_CONTEXT = contextlib.nullcontext()

#: Types of the arguments that leave a call with a NumPy array first on NumPy (fast path).
_HOST_TYPES = frozenset({np.ndarray, bool, int, float, complex, str, type, type(None)})


def _host(args: tuple[Any, ...], kwargs: dict[str, Any]) -> bool:
    """Whether every argument after the first, and every keyword, is of ``_HOST_TYPES``."""
    for value in args[1:]:
        if type(value) not in _HOST_TYPES:
            return False
    for value in kwargs.values():  # noqa: SIM110 (a plain loop: all() of a generator is slower)
        if type(value) not in _HOST_TYPES:
            return False
    return True


#: The attributes copied from NumPy's ufunc (the same on CuPy's, where CuPy has them).
UFUNC_ATTRIBUTES = ("nin", "nout", "nargs", "identity", "ntypes", "types", "signature")


def _arrays_among(values: tuple[Any, ...]) -> list[Any]:
    """The values, with the items of tuples and lists (``out=``, ``at``'s indices) spread."""
    spread: list[Any] = []
    for value in values:
        if isinstance(value, (tuple, list)):
            spread.extend(value)
        else:
            spread.append(value)
    return spread


def _library(
    values: tuple[Any, ...], func: str
) -> tuple[ModuleType, contextlib.AbstractContextManager[Any]]:
    """NumPy or CuPy for ``values``, and the context that makes their GPU current."""
    spread = _arrays_among(values)
    for value in spread:
        if isinstance(value, (np.ndarray, np.generic)) or is_cupy_array(value):
            return library_of(*spread, func=func)  # an array decides (a mix raises)
    if current().name == "cupy":  # Python data only: the current backend computes
        return require_cupy(func), contextlib.nullcontext()
    return np, contextlib.nullcontext()


class UfuncMethod:
    """A ufunc method of a top-level function: ``cunumpy.add.reduce``, ``cunumpy.pow.outer``.

    It calls the method of the same name of NumPy's or CuPy's ufunc, chosen by the inputs
    as the top-level call chooses: NumPy arrays give NumPy's answer, CuPy arrays CuPy's
    (on their GPU), and Python data alone the current backend's (on CuPy, lists and tuples
    of values become CuPy arrays first, since CuPy's ufuncs do not take them). Every
    keyword of the library's method is accepted (``axis=``, ``out=``, ``where=``,
    ``dtype=``, ``casting=``, ``keepdims=``, ``initial=``).

    Parameters
    ----------
    name : str
        The top-level name (``"pow"``).
    ufunc : str
        The ufunc's name in NumPy and CuPy (``"power"``).
    method : str
        One of ``"reduce"``, ``"accumulate"``, ``"reduceat"``, ``"outer"`` and ``"at"``.

    Examples
    --------
    >>> import cunumpy as xp
    >>> a = xp.asarray([[1, 2], [3, 4]])
    >>> xp.add.reduce(a, axis=0)
    array([4, 6])
    >>> xp.maximum.accumulate(xp.asarray([1, 3, 2, 5]))
    array([1, 3, 3, 5])
    >>> xp.multiply.outer(xp.asarray([1, 2]), xp.asarray([10, 20, 30]))
    array([[10, 20, 30],
           [20, 40, 60]])
    >>> grid = xp.zeros(3)
    >>> xp.add.at(grid, xp.asarray([0, 2, 0]), 1.0)
    >>> grid
    array([2., 0., 1.])
    >>> xp.pow.reduce([2, 3])
    np.int64(8)
    """

    __slots__ = ("_method", "_name", "_numpy_method", "_positions", "_ufunc")

    def __init__(self, name: str, ufunc: str, method: str) -> None:
        if ufunc not in UFUNC_NAMES.values() or method not in METHODS:
            msg = (
                f"UfuncMethod: `ufunc` {ufunc!r} and `method` {method!r} must be one of "
                f"UFUNC_NAMES' values and one of {sorted(METHODS)}."
            )
            raise ValueError(msg)
        self._name = f"{name}.{method}"
        self._ufunc = ufunc
        self._method = method
        self._positions = METHODS[method]
        self._numpy_method = getattr(getattr(np, ufunc, None), method, None)

    def __repr__(self) -> str:
        return f"<ufunc method cunumpy.{self._name}>"

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Call the library's ufunc method with ``args`` and ``kwargs`` (see the class)."""
        func = self._name
        method = self._numpy_method
        if method is not None and args and type(args[0]) is np.ndarray and _host(args, kwargs):
            # a NumPy array and nothing that could be CuPy's: NumPy's method, as _library chooses
            context: contextlib.AbstractContextManager[Any] = _NO_CONTEXT
        else:
            library, context = _library((*args, kwargs.get("out"), kwargs.get("where")), func)
            if library is not np:
                args = self._on_cupy(library, args)
            method = getattr(getattr(library, self._ufunc, None), self._method, None)
        if method is None:
            msg = f"{func}: {library.__name__}.{self._ufunc} has no method {self._method!r}."
            raise RuntimeError(msg)
        with context:
            try:
                return method(*args, **kwargs)
            except (*ARRAY_ERRORS, RuntimeError) as exc:
                self.restate(exc)
                raise

    def restate(self, exc: BaseException, *_call: Any) -> None:
        """Raise the library's error ``exc`` naming the method (other errors: as they are)."""
        if isinstance(exc, ARRAY_ERRORS):
            raise_restated_call(self._name, exc)
        if isinstance(exc, RuntimeError):  # a method the ufunc lacks (matmul.reduce)
            msg = f"{self._name}: {str(exc).rstrip('.')}."
            raise RuntimeError(msg) from exc

    def _on_cupy(self, cupy: ModuleType, args: tuple[Any, ...]) -> tuple[Any, ...]:
        """``args`` with the lists and tuples of values at array positions as CuPy arrays."""
        converted = list(args)
        for index in self._positions:
            if index < len(args) and isinstance(args[index], (list, tuple)):
                if self._method == "at" and index == 1 and isinstance(args[index], tuple):
                    continue  # a tuple of index arrays, one per axis
                converted[index] = cupy.asarray(args[index])
        return tuple(converted)
