"""The fake CuPy's ufuncs: NumPy's ufuncs whose call and methods take and give fake arrays.

CuPy's ufuncs are objects with ``reduce``, ``accumulate``, ``reduceat``, ``outer`` and
``at``, and the attributes ``nin``, ``nout``, ``types``...; the fake's are NumPy's ufunc
run on the host buffers, refusing NumPy arrays as CuPy does, and silent about invalid
values and overflow, as a GPU kernel is (NumPy's floating-point warnings are CuPy-free).
Fake CuPy, never a GPU.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._ndarray import unwrap, wrap

__all__ = ["FakeUfunc"]


class FakeUfunc:
    """``cupy.<ufunc>`` of the fake: NumPy's ufunc under CuPy's rules."""

    __slots__ = ("__name__", "_ufunc")

    def __init__(self, ufunc: np.ufunc) -> None:
        self._ufunc = ufunc
        self.__name__ = ufunc.__name__

    def __repr__(self) -> str:
        return f"<ufunc 'cupy.{self.__name__}' (fake CuPy)>"

    def __getattr__(self, name: str) -> Any:  # nin, nout, nargs, identity, types, ...
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._ufunc, name)

    def _run(self, method: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        func = f"cupy.{self.__name__}" + ("" if method == "__call__" else f".{method}")
        inputs = unwrap(list(args), func)
        keywords = {key: unwrap(value, func) for key, value in kwargs.items()}
        with np.errstate(all="ignore"):  # CuPy's kernels never warn
            result = getattr(self._ufunc, method)(*inputs, **keywords)
        out: Any = kwargs.get("out")
        buffer: Any = keywords.get("out")
        if isinstance(out, tuple) and len(out) == 1:
            out, buffer = out[0], buffer[0]
        if out is not None and result is buffer:
            return out  # CuPy returns the `out` array itself
        return wrap(result)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._run("__call__", args, kwargs)

    def reduce(self, *args: Any, **kwargs: Any) -> Any:
        """NumPy's ``reduce`` on the host buffers."""
        return self._run("reduce", args, kwargs)

    def accumulate(self, *args: Any, **kwargs: Any) -> Any:
        """NumPy's ``accumulate`` on the host buffers."""
        return self._run("accumulate", args, kwargs)

    def reduceat(self, *args: Any, **kwargs: Any) -> Any:
        """NumPy's ``reduceat`` on the host buffers."""
        return self._run("reduceat", args, kwargs)

    def outer(self, *args: Any, **kwargs: Any) -> Any:
        """NumPy's ``outer`` on the host buffers."""
        return self._run("outer", args, kwargs)

    def at(self, *args: Any, **kwargs: Any) -> None:
        """NumPy's ``at`` on the host buffers, in place (the buffers are not copies)."""
        self._run("at", args, kwargs)
