"""The fake CuPy's ``cupyx.scipy``: SciPy on the host buffers, results as fake arrays.

Each subpackage that ``cupyx.scipy`` has (``_settings._backend_names.SCIPY_SUBMODULES``) is
a module whose attributes import ``scipy.<subpackage>`` on first use. Functions and
classes take fake arrays (NumPy arrays raise, as on CuPy) and give fake arrays back;
objects they return (splines, sparse matrices) are wrapped so that their attributes,
calls and ``@`` do the same. Fake CuPy, never a GPU; SciPy is imported only when a name is used.
"""

from __future__ import annotations

import importlib
import types
from typing import Any

import numpy as np

from ..._settings._backend_names import SCIPY_SUBMODULES
from ._ndarray import unwrap, wrap

__all__ = ["HostObject", "make_scipy"]


def _unwrap(value: Any, name: str) -> Any:
    if type(value) is HostObject:
        return value._obj
    if isinstance(value, (list, tuple)):
        items = [_unwrap(v, name) for v in value]
        return tuple(items) if isinstance(value, tuple) else items
    return unwrap(value, name)


def _wrap(value: Any, name: str) -> Any:
    if isinstance(value, (np.ndarray, np.generic, tuple, list)) or value is None:
        return wrap(value)
    if isinstance(value, (bool, int, float, complex, str)):
        return value
    return HostObject(value, name)


def _call(function: Any, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    result = function(
        *_unwrap(list(args), name), **{k: _unwrap(v, name) for k, v in kwargs.items()}
    )
    return _wrap(result, name)


class HostObject:
    """A SciPy object (function, class, spline, sparse matrix) behind fake-CuPy arguments."""

    __slots__ = ("_name", "_obj")

    def __init__(self, obj: Any, name: str) -> None:
        self._obj = obj
        self._name = name

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return _call(self._obj, self._name, args, kwargs)

    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("__"):
            raise AttributeError(attr)
        return _wrap(getattr(self._obj, attr), f"{self._name}.{attr}")

    def __matmul__(self, other: Any) -> Any:
        return _wrap(self._obj @ _unwrap(other, f"{self._name}.__matmul__"), self._name)

    def __rmatmul__(self, other: Any) -> Any:
        return _wrap(_unwrap(other, f"{self._name}.__rmatmul__") @ self._obj, self._name)

    def __repr__(self) -> str:
        return f"<fake cupyx {self._name}: {self._obj!r}>"


class _HostModule(types.ModuleType):
    """``cupyx.scipy.<path>`` of the fake: ``scipy.<path>``'s names, imported on first use."""

    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("__"):
            raise AttributeError(attr)
        source = importlib.import_module("scipy" + self.__name__.removeprefix("cupyx.scipy"))
        if not hasattr(source, attr):
            msg = f"module {self.__name__!r} has no attribute {attr!r} (fake CuPy)"
            raise AttributeError(msg)
        value = HostObject(getattr(source, attr), f"{self.__name__}.{attr}")
        setattr(self, attr, value)
        return value


def make_scipy() -> dict[str, types.ModuleType]:
    """The fake ``cupyx.scipy`` and its subpackages, by their ``sys.modules`` names."""
    modules: dict[str, types.ModuleType] = {"cupyx.scipy": _HostModule("cupyx.scipy")}
    for path in SCIPY_SUBMODULES:
        modules[f"cupyx.scipy.{path}"] = _HostModule(f"cupyx.scipy.{path}")
    for name, module in modules.items():
        module.__path__ = []
        parent, _, child = name.rpartition(".")
        if parent in modules:
            setattr(modules[parent], child, module)
    return modules
