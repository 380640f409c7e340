"""``fuse``: an elementwise function as one CuPy kernel on CuPy data, a plain call on NumPy data."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

from ..._namespaces._array_predicates import is_cupy_array

__all__ = ["fuse"]

F = TypeVar("F", bound=Callable[..., Any])


def fuse(function: F | None = None, *, kernel_name: str | None = None) -> Any:
    """Fuse an elementwise function into one kernel when it is called with CuPy arrays.

    Compute follows data: with a CuPy array among the arguments it runs as one
    ``cupy.fuse`` kernel (made at the first such call), Python scalars cast to the dtype
    they promote to with the arrays; otherwise `function` itself runs. Usable as
    ``@fuse`` or ``@fuse(kernel_name=...)``. The function must be what ``cupy.fuse``
    traces: arithmetic, comparisons, ufuncs, ``where``, no control flow on values.

    Parameters
    ----------
    function : callable, optional
        The elementwise function (omitted with ``fuse(kernel_name=...)``).
    kernel_name : str, optional
        The kernel's name in profiles; default the function's name.

    Returns
    -------
    callable
        The function (or, without `function`, a decorator).

    Examples
    --------
    >>> import numpy as np
    >>> import cunumpy as xp
    >>> @xp.kernels.fuse
    ... def pressure(rho, T, gamma):
    ...     return (gamma - 1.0) * rho * T
    >>> pressure(np.array([1.0, 2.0]), np.array([3.0, 3.0]), 2.0)
    array([3., 6.])
    """
    if function is None:
        return lambda f: fuse(f, kernel_name=kernel_name)
    if not callable(function):
        msg = f"fuse: `function` must be callable, not {function!r}."
        raise TypeError(msg)
    name = kernel_name if kernel_name is not None else function.__name__
    fused: list[Any] = []

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        values = (*args, *kwargs.values())
        if not any(is_cupy_array(v) for v in values):
            return function(*args, **kwargs)
        dtypes = [v.dtype for v in values if hasattr(v, "dtype")]

        def typed(v: Any) -> Any:
            if isinstance(v, (int, float, complex)) and not isinstance(v, bool):
                return np.result_type(*dtypes, v).type(v)
            return v

        if not fused:
            fused.append(sys.modules["cupy"].fuse(kernel_name=name)(function))
        return fused[0](*(typed(a) for a in args), **{k: typed(v) for k, v in kwargs.items()})

    return wrapper
