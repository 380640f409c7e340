"""The CUDA kernels behind portable kernels, for Numba's CUDA target (imported on first use).

A kernel walks the loop dimensions (one to three, after merging) with grid-stride loops
and at each index calls the user's function through a *caller* (see ``_callers``): a
device function that gives it every operand at that index. Elementwise callers load each
operand with a *loader* defined here (an element, an element cast to the loop's dtype,
or a scalar passed by value); generalized ones pass core views. Nothing is generated
from text.

``cuda`` must stay a global of this module: Numba's simulator replaces it there while a
kernel runs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numba import cuda as _cuda_module

from ._callers import ELEMENTWISE_CALLERS, GENERALIZED_CALLERS

cuda: Any = _cuda_module  # the module itself (the simulator swaps every global bound to it)

__all__ = [
    "MAX_OPERANDS",
    "caller",
    "device_array",
    "device_function",
    "elementwise_kernel",
    "external_stream",
    "generalized_caller",
    "generalized_kernel",
    "gpu",
    "loader",
]

MAX_OPERANDS = 12


def _load_view(a: Any, idx: Any) -> Any:
    return a[idx]


def _load_scalar(s: Any, idx: Any) -> Any:
    return s


def _cast_loader(cast: Callable[[Any], Any]) -> Callable[[Any, Any], Any]:
    def load(a: Any, idx: Any) -> Any:
        return cast(a[idx])

    return load


_LOADERS: dict[tuple[str, str | None], Any] = {}


def loader(kind: str, cast_to: str | None) -> Any:
    """The device function that loads one operand: kind ``"array"`` or ``"scalar"``.

    With ``cast_to`` (a dtype name), an array element is converted to that dtype.
    """
    key = (kind, cast_to)
    found = _LOADERS.get(key)
    if found is None:
        if kind == "scalar":
            found = cuda.jit(device=True)(_load_scalar)
        elif cast_to is None:
            found = cuda.jit(device=True)(_load_view)
        else:
            found = cuda.jit(device=True)(_cast_loader(getattr(np, cast_to)))
        _LOADERS[key] = found
    return found


def caller(f: Any, loaders: tuple[Any, ...]) -> Any:
    """The device function ``call(ops, idx)`` that calls ``f`` with every loaded operand."""
    make = ELEMENTWISE_CALLERS[len(loaders) - 1]
    return cuda.jit(device=True)(make(f, *loaders))


def generalized_caller(f: Any, count: int) -> Any:
    """The device function ``call(ops, idx)`` that calls ``f`` with ``ops[k][idx]`` for each
    of the ``count`` array operands: core views (device functions cannot return views, so
    they are made here) or, for operands without core dimensions, elements."""
    return cuda.jit(device=True)(GENERALIZED_CALLERS[count - 2](f))


def _elementwise_1(call: Any) -> Callable[..., None]:
    def kernel(out: Any, ops: Any) -> None:
        start = cuda.grid(1)
        step = cuda.gridsize(1)
        for i in range(start, out.shape[0], step):
            out[i] = call(ops, i)

    return kernel


def _elementwise_2(call: Any) -> Callable[..., None]:
    def kernel(out: Any, ops: Any) -> None:
        x, y = cuda.grid(2)
        sx, sy = cuda.gridsize(2)
        for i in range(y, out.shape[0], sy):
            for j in range(x, out.shape[1], sx):
                out[i, j] = call(ops, (i, j))

    return kernel


def _elementwise_3(call: Any) -> Callable[..., None]:
    def kernel(out: Any, ops: Any) -> None:
        x, y, z = cuda.grid(3)
        sx, sy, sz = cuda.gridsize(3)
        for i in range(z, out.shape[0], sz):
            for j in range(y, out.shape[1], sy):
                for k in range(x, out.shape[2], sx):
                    out[i, j, k] = call(ops, (i, j, k))

    return kernel


def _generalized_1(call: Any) -> Callable[..., None]:
    def kernel(ops: Any, shape: Any) -> None:
        start = cuda.grid(1)
        step = cuda.gridsize(1)
        for i in range(start, shape[0], step):
            call(ops, i)

    return kernel


def _generalized_2(call: Any) -> Callable[..., None]:
    def kernel(ops: Any, shape: Any) -> None:
        x, y = cuda.grid(2)
        sx, sy = cuda.gridsize(2)
        for i in range(y, shape[0], sy):
            for j in range(x, shape[1], sx):
                call(ops, (i, j))

    return kernel


def _generalized_3(call: Any) -> Callable[..., None]:
    def kernel(ops: Any, shape: Any) -> None:
        x, y, z = cuda.grid(3)
        sx, sy, sz = cuda.gridsize(3)
        for i in range(z, shape[0], sz):
            for j in range(y, shape[1], sy):
                for k in range(x, shape[2], sx):
                    call(ops, (i, j, k))

    return kernel


def elementwise_kernel(call: Any, ndim: int) -> Any:
    """The kernel ``kernel(out, ops)`` over an ``ndim``-dimensional (1 to 3) result."""
    make = (_elementwise_1, _elementwise_2, _elementwise_3)[ndim - 1]
    return cuda.jit(make(call))


def generalized_kernel(call: Any, ndim: int) -> Any:
    """The kernel ``kernel(ops, loop_shape)`` over ``ndim`` (1 to 3) loop dimensions."""
    make = (_generalized_1, _generalized_2, _generalized_3)[ndim - 1]
    return cuda.jit(make(call))


def device_function(pyfunc: Callable[..., Any], signature: Any, fastmath: bool) -> Any:
    """The user's function as a CUDA device function; eager when ``signature`` is given."""
    if signature is None:
        return cuda.jit(device=True, fastmath=fastmath)(pyfunc)
    return cuda.jit(signature, device=True, fastmath=fastmath)(pyfunc)


def external_stream(ptr: int) -> Any:
    """CuPy's stream ``ptr`` as a Numba stream (it is not destroyed by Numba)."""
    return cuda.external_stream(ptr)


def gpu(index: int) -> Any:
    """A context manager that makes GPU ``index`` Numba's current device."""
    return cuda.gpus[index]


def device_array(desc: dict[str, Any], owner: Any) -> Any:
    """A Numba device array over memory described by a CUDA array interface ``desc``."""
    return cuda.from_cuda_array_interface(desc, owner=owner, sync=False)
