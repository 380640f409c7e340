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
    "Launcher",
    "RawArray",
    "array_layout",
    "caller",
    "device_array",
    "device_function",
    "elementwise_kernel",
    "core_stream",
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


def device_array(a: RawArray) -> Any:
    """A Numba device array over the memory of ``a`` (no synchronization)."""
    desc = {
        "shape": a.shape,
        "strides": a.strides,
        "typestr": a.dtype.str,
        "data": (a.ptr, False),
        "version": 3,
    }
    return cuda.from_cuda_array_interface(desc, owner=None, sync=False)


def core_stream(ptr: int) -> Any:
    """The stream with handle ``ptr`` as numba-cuda hands it to its lowest launch call."""
    return _numba("cudadrv.driver")._to_core_stream(cuda.external_stream(ptr))


class Launcher:
    """One compiled version of a kernel, launched without Numba's per-call work.

    numba-cuda's ``kernel[grid, block, stream](*args)`` types every argument at each call
    (a tuple holding device arrays has no type fingerprint, so it goes back to Python's
    ``typeof``), needs each CuPy array as a ``DeviceNDArray``, and builds a launch
    configuration, a stream object and the argument list. For a version already compiled,
    this makes the argument list that ``_Kernel.launch`` makes (an array as meminfo,
    parent, size, itemsize, data pointer, shape and strides; scalars as its ctypes values)
    straight from the operands' pointers, shapes and strides, and calls the same lowest
    launch function with a launch configuration cached per grid and block.

    Made after a first launch through Numba, from the device arrays of that launch:
    ``make`` returns None (launch through Numba) when the version is one this cannot
    launch the same way, or when its argument list differs from the one Numba built.
    """

    def __init__(self, overload: Any, types: tuple[Any, ...]) -> None:
        numba_dispatcher = _numba("dispatcher")
        self._overload = overload
        self._launch = numba_dispatcher.launch
        self._function = overload._codelibrary.get_cufunc().kernel
        self._steps = tuple(_argument_step(t, overload) for t in types)
        self._configs: dict[tuple[Any, Any], Any] = {}

    @classmethod
    def make(cls, dispatcher: Any, device_args: tuple[Any, ...], raw_args: tuple[Any, ...]) -> Any:
        """The launcher of the version ``dispatcher`` just ran on ``device_args`` (Numba's
        device arrays), checked against ``raw_args`` (the same operands as ``RawArray``)."""
        types = tuple(dispatcher.typeof_pyval(a) for a in device_args)
        overload = dispatcher.overloads.get(types)
        if (
            overload is None
            or getattr(overload, "debug", False)
            or getattr(overload, "extensions", None)
            or getattr(dispatcher, "_launch_config_sensitive", False)
            or not all(_raw_layouts_match(t, a) for t, a in zip(types, raw_args))
        ):
            return None
        launcher = cls(overload, types)
        launcher._config((1,), (1,))  # numba-cuda's launch configuration builds here, or raises
        expected: list[Any] = []
        for t, a in zip(types, device_args):
            overload._prepare_args(t, a, 0, [], expected)
        return launcher if _same_arguments(launcher.arguments(raw_args), expected) else None

    def arguments(self, args: tuple[Any, ...]) -> list[Any]:
        """The kernel's argument list for ``args`` (``RawArray`` for arrays)."""
        out: list[Any] = []
        for step, value in zip(self._steps, args):
            step(value, out)
        return out

    def __call__(
        self, grid: tuple[int, ...], block: tuple[int, ...], stream: Any, args: Any
    ) -> None:
        config = self._configs.get((grid, block))
        if config is None:
            config = self._configs[grid, block] = self._config(grid, block)
        self._launch(stream, config, self._function, *self.arguments(args))

    def _config(self, grid: tuple[int, ...], block: tuple[int, ...]) -> Any:
        numba_dispatcher = _numba("dispatcher")
        griddim, blockdim = numba_dispatcher.normalize_kernel_dimensions(grid, block)
        flag = "is_cooperative" if numba_dispatcher.CUDA_CORE_GE_1_0 else "cooperative_launch"
        return numba_dispatcher.LaunchConfig(
            grid=griddim, block=blockdim, shmem_size=0, **{flag: self._overload.cooperative}
        )


class RawArray:
    """An operand as the fast launch needs it: pointer, shape, byte strides, dtype.

    ``key`` is what Numba's type of the array depends on (dtype, rank, layout), with the
    layout decided as ``DeviceNDArray`` decides it ('C', 'F' or 'A').
    """

    __slots__ = ("dtype", "itemsize", "key", "ptr", "shape", "size", "strides")

    def __init__(
        self, ptr: int, shape: tuple[int, ...], strides: tuple[int, ...], dtype: Any
    ) -> None:
        self.ptr = ptr
        self.shape = shape
        self.strides = strides
        self.dtype = dtype
        self.itemsize = dtype.itemsize
        size = 1
        for n in shape:
            size *= n
        self.size = size
        self.key = (dtype, len(shape), array_layout(shape, strides, self.itemsize))


def array_layout(shape: tuple[int, ...], strides: tuple[int, ...], itemsize: int) -> str:
    """'C', 'F' or 'A': the layout numba-cuda gives a device array of this shape and these
    byte strides (``DeviceNDArray._numba_type_`` over ``dummyarray``'s contiguity flags)."""
    size = 1
    for n in shape:
        size *= n
    if size == 0 or not shape:
        return "C"
    if 0 in strides:
        return "A"
    step = itemsize
    c_order = True
    for n, s in zip(reversed(shape), reversed(strides)):
        if n != 1:
            if s != step:
                c_order = False
                break
            step *= n
    if c_order:
        return "C"
    step = itemsize
    for n, s in zip(shape, strides):
        if n != 1:
            if s != step:
                return "A"
            step *= n
    return "F"


def _numba(name: str) -> Any:
    """The module ``numba.cuda.<name>`` (``types``: the types its dispatcher gives)."""
    import importlib

    return importlib.import_module(f"numba.cuda.{name}")


def _raw_layouts_match(numba_type: Any, value: Any) -> bool:
    """Whether the key of each ``RawArray`` in ``value`` names Numba's type for it."""
    nbtypes = _numba("types")

    if isinstance(numba_type, nbtypes.Array):
        return isinstance(value, RawArray) and (
            numba_type.layout == value.key[2] and numba_type.ndim == value.key[1]
        )
    if isinstance(numba_type, nbtypes.BaseTuple):
        return all(_raw_layouts_match(t, v) for t, v in zip(numba_type, value))
    return not isinstance(value, RawArray)


def _argument_step(numba_type: Any, overload: Any) -> Callable[[Any, list[Any]], None]:
    """What appends one argument of ``numba_type`` to the kernel's argument list, as
    ``_Kernel._prepare_args`` does (which it calls for the rarer scalar types)."""
    import ctypes

    nbtypes = _numba("types")

    if isinstance(numba_type, nbtypes.Array):

        def array(a: Any, out: list[Any]) -> None:
            out += (0, 0, a.size, a.itemsize, a.ptr, *a.shape, *a.strides)

        return array
    if isinstance(numba_type, nbtypes.BaseTuple):
        steps = tuple(_argument_step(t, overload) for t in numba_type)

        def items(values: Any, out: list[Any]) -> None:
            for step, v in zip(steps, values):
                step(v, out)

        return items
    convert: Any = None
    if numba_type == nbtypes.float64:
        convert = ctypes.c_double
    elif numba_type == nbtypes.float32:
        convert = ctypes.c_float
    elif isinstance(numba_type, nbtypes.Integer):
        convert = getattr(ctypes, f"c_{numba_type}")
    if convert is not None:

        def scalar(v: Any, out: list[Any]) -> None:
            out.append(convert(v))

        return scalar

    def other(v: Any, out: list[Any]) -> None:
        overload._prepare_args(numba_type, v, 0, [], out)

    return other


def _same_arguments(ours: list[Any], numbas: list[Any]) -> bool:
    def plain(x: Any) -> Any:
        value = getattr(x, "value", None)
        return (type(x), value) if value is not None else (int, int(x))

    return len(ours) == len(numbas) and all(plain(a) == plain(b) for a, b in zip(ours, numbas))
