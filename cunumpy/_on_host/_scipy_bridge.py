"""SciPy on the host with device data: copies to the host and back, each one noted.

``cunumpy.integrate`` and ``cunumpy.optimize`` run SciPy's solvers on the host. When the
initial value is a CuPy array, a :class:`Bridge` gives every callback its array
arguments on that array's GPU, copies the callback's results to the host for SciPy, and
copies the arrays of the final result back to the GPU. The copies go through the CuPy
backend's own copy functions, which tell the transfer counters of ``cunumpy.profiling``.
"""

from __future__ import annotations

import copy
import functools
import importlib
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np

from .._namespaces._array_predicates import is_cupy_array

__all__ = ["Bridge", "scipy_module", "to_host", "wraps_scalar"]


def scipy_module(name: str, func: str) -> ModuleType:
    """``scipy.<name>``, or a RuntimeError that says what needs SciPy."""
    try:
        return importlib.import_module(f"scipy.{name}")
    except ImportError as exc:
        msg = f"{func} runs SciPy on the host, which is not installed here: {exc}"
        raise RuntimeError(msg) from exc


def to_host(value: Any, func: str) -> Any:
    """`value` with every CuPy array in it (or in a tuple or list) copied to the host."""
    if isinstance(value, (tuple, list)):
        return type(value)(to_host(item, func) for item in value)
    if not is_cupy_array(value):
        return value
    from .._backends.cupy._device_copies import to_host as copy_to_host

    return copy_to_host(value, None, func)  # noted for the transfer counters


def _to_gpu(value: Any, device: Any, func: str) -> Any:
    """`value` with every NumPy array in it (dicts, tuples, lists too) copied to `device`."""
    if isinstance(value, dict):  # OptimizeResult, infodict: a copy of the same type
        moved = copy.copy(value)
        for key, item in value.items():
            moved[key] = _to_gpu(item, device, func)
        return moved
    if isinstance(value, (tuple, list)):
        return type(value)(_to_gpu(item, device, func) for item in value)
    if not isinstance(value, np.ndarray) or value.dtype.kind not in "biufc":
        return value
    from .._backends.cupy._creation import copy_from_host

    with device:
        return copy_from_host(value, func)  # noted for the transfer counters


class Bridge:
    """Where the callbacks of one solver call get their arrays: the device of `x0`.

    For a NumPy (or non-array) `x0` every method returns its input unchanged.
    """

    def __init__(self, x0: Any, func: str) -> None:
        self.device = x0.device if is_cupy_array(x0) else None
        self.func = func

    def host(self, value: Any) -> Any:
        """`value` on the host, for SciPy."""
        return to_host(value, self.func)

    def result(self, value: Any) -> Any:
        """SciPy's result with its arrays on the device of `x0`."""
        return value if self.device is None else _to_gpu(value, self.device, self.func)

    def callback(self, fun: Any, n_arrays: int = 1) -> Any:
        """`fun` taking its first `n_arrays` positional and all keyword arguments on the device."""
        if self.device is None or not callable(fun):
            return fun
        device, func = self.device, f"{self.func} callback"

        # wraps: SciPy inspects some callbacks' signatures (``intermediate_result``)
        @functools.wraps(fun)
        def on_device(*args: Any, **kwargs: Any) -> Any:
            moved = [_to_gpu(arg, device, func) for arg in args[:n_arrays]]
            keywords = {key: _to_gpu(item, device, func) for key, item in kwargs.items()}
            return to_host(fun(*moved, *args[n_arrays:], **keywords), func)

        return on_device

    def constraints(self, constraints: Any) -> Any:
        """The constraints of ``minimize`` with their functions taking device arrays."""
        if self.device is None:
            return constraints
        if isinstance(constraints, (tuple, list)):
            return type(constraints)(self.constraints(item) for item in constraints)
        if isinstance(constraints, dict):  # {"type": "ineq", "fun": ..., "jac": ...}
            bridged = dict(constraints)
            for key in ("fun", "jac"):
                if key in bridged:
                    bridged[key] = self.callback(bridged[key])
            return bridged
        bridged = copy.copy(constraints)  # NonlinearConstraint, LinearConstraint
        for name, n_arrays in (("fun", 1), ("jac", 1), ("hess", 2)):
            if callable(getattr(bridged, name, None)):
                setattr(bridged, name, self.callback(getattr(bridged, name), n_arrays))
        return bridged


def wraps_scalar(fun: Callable[..., Any], func: str) -> Callable[..., Any]:
    """`fun` whose result, maybe a 0-d device array, is copied to the host."""

    def on_host(*args: Any) -> Any:
        return to_host(fun(*args), func)

    return on_host
