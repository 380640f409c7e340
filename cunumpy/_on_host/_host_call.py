"""Host-only code (SciPy, file readers, compiled host kernels) called with data of either backend.

``host_call`` copies the CuPy arrays among the arguments to the host, runs the function on
the NumPy backend, and copies its NumPy results back to the GPU the arguments came from:
one copy each way per array, each noted by the transfer counters. Arrays are found as
arguments and inside tuples and lists (to any depth), as CuNumpy 0.7.1 does.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

from .._backend_choice._config import current, use_backend
from .._namespaces._array_predicates import is_cupy_array
from .._placement._transfer_log import active, note_transfer

__all__ = ["evaluate_on_host", "host_call", "setup_on_host"]

F = TypeVar("F", bound=Callable[..., Any])


def _first_device_array(arg: Any) -> Any:
    """The first CuPy array in ``arg`` (an array, or tuples and lists of them), or ``None``."""
    if isinstance(arg, (tuple, list)):
        for item in arg:
            found = _first_device_array(item)
            if found is not None:
                return found
        return None
    return arg if is_cupy_array(arg) else None


def _to_host(arg: Any, where: str) -> Any:
    if isinstance(arg, (tuple, list)):
        return type(arg)(_to_host(item, where) for item in arg)
    if not is_cupy_array(arg):
        return arg
    from .._backends.cupy._device_copies import to_host

    return to_host(arg, None, where)  # counted there, named after `where`


def _to_device(out: Any, where: str) -> Any:
    if isinstance(out, (tuple, list)):
        return type(out)(_to_device(item, where) for item in out)
    if not isinstance(out, np.ndarray):
        return out
    import cupy

    device = cupy.asarray(out)
    if active():
        note_transfer("to_device", f"{where}: result {out.shape} {out.dtype}", nbytes=out.nbytes)
    return device


def host_call(fun: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Call host-only ``fun`` with arguments of either backend.

    With CuPy arrays among the arguments, they are copied to the host, ``fun`` runs on
    the NumPy backend, and the NumPy arrays it returns (alone, or in a tuple or list) are
    copied to the GPU of the first CuPy argument. Without CuPy arguments, ``fun`` runs on
    the NumPy backend with its arguments as they are, and its result is returned as it
    is: data stays where it lives. Each copy is noted by the transfer counters
    (``cunumpy.profiling``).

    Parameters
    ----------
    fun : callable
        The host-only function (a SciPy routine, an external code, ...).
    *args, **kwargs
        Its arguments: arrays of either backend (also inside tuples and lists), scalars,
        anything else.

    Returns
    -------
    object
        ``fun``'s result, its arrays on the GPU when an argument was.

    Examples
    --------
    >>> import numpy as np
    >>> import cunumpy as xp
    >>> xp.host_call(np.cumsum, xp.asarray([1, 2, 3]))
    array([1, 3, 6])
    """
    device_array = _first_device_array([*args, *kwargs.values()])
    if device_array is None:
        if current().name == "numpy":
            return fun(*args, **kwargs)
        with use_backend("numpy"):
            return fun(*args, **kwargs)
    where = f"host_call({getattr(fun, '__qualname__', type(fun).__name__)})"
    host_args = _to_host(args, where)
    host_kwargs = {key: _to_host(value, where) for key, value in kwargs.items()}
    with use_backend("numpy"):
        out = fun(*host_args, **host_kwargs)
    with device_array.device:
        return _to_device(out, where)


def evaluate_on_host(method: F) -> F:
    """Decorate a host-only method so that it takes arguments of either backend.

    Every call goes through :func:`host_call` (``self`` included among the arguments).

    Examples
    --------
    >>> import numpy as np
    >>> import cunumpy as xp
    >>> class Profile:
    ...     @xp.evaluate_on_host
    ...     def cumulative(self, x):
    ...         return np.cumsum(x)
    >>> Profile().cumulative(xp.asarray([1, 2, 3]))
    array([1, 3, 6])
    """

    @functools.wraps(method)
    def on_host(self: Any, *args: Any, **kwargs: Any) -> Any:
        return host_call(method, self, *args, **kwargs)

    return on_host  # type: ignore[return-value]


def setup_on_host(init: F) -> F:
    """Decorate an ``__init__`` so that it runs on the NumPy backend.

    The object then holds host data (NumPy arrays, SciPy splines, floats) whatever the
    current backend; its host-only methods can use :func:`evaluate_on_host`.

    Examples
    --------
    >>> import cunumpy as xp
    >>> class Grid:
    ...     @xp.setup_on_host
    ...     def __init__(self, n):
    ...         self.x = xp.linspace(0.0, 1.0, n)
    >>> with xp.use_backend("auto"):
    ...     grid = Grid(3)
    >>> xp.get_array_backend(grid.x)
    'numpy'
    """

    @functools.wraps(init)
    def on_host(self: Any, *args: Any, **kwargs: Any) -> None:
        with use_backend("numpy"):
            init(self, *args, **kwargs)

    return on_host  # type: ignore[return-value]
