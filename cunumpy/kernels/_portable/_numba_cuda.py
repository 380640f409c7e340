"""Portable kernels on Numba's CUDA target: operand views, loop planning and launches.

The same code runs CuPy arrays on a GPU and, for the tests, NumPy arrays under Numba's
CUDA simulator; a ``Memory`` object hides which (views, allocation, the stream).
Loop dimensions of all operands are reordered after the first output's strides and merged
where every operand allows it, so most calls run a one-dimensional kernel; layouts that
stay above three dimensions are first copied to contiguous memory.
"""

from __future__ import annotations

import importlib
import math
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np

from .._compile_log import CompileLog
from ._cuda_memory import CupyMemory, Memory, SimulatorMemory, give_up_fast_launch
from ._loop_types import LoopSignature, scalar_value

__all__ = ["CudaLoops", "CupyMemory", "Memory", "SimulatorMemory", "plan_loop"]

Shape = tuple[int, ...]
_MAX_RANK = 3


def _kernels() -> ModuleType:
    return importlib.import_module("cunumpy.kernels._portable._numba_cuda_kernels")


def plan_loop(shape: Shape, strides: Sequence[Shape]) -> tuple[Shape, list[Shape]]:
    """Reorder and merge loop dimensions shared by operands with the given byte ``strides``.

    Dimensions of size 1 are dropped; the rest are ordered by the first operand's stride
    (largest first) and adjacent ones merged when every operand steps through them as
    one. Returns the new shape (at least one dimension) and each operand's strides.
    """
    axes = [a for a in range(len(shape)) if shape[a] != 1]
    axes.sort(key=lambda a: -abs(strides[0][a]))
    dims: list[int] = []
    merged: list[list[int]] = [[] for _ in strides]
    for a in axes:
        if dims and all(m[-1] == s[a] * shape[a] for m, s in zip(merged, strides)):
            dims[-1] *= shape[a]
            for m, s in zip(merged, strides):
                m[-1] = s[a]
            continue
        dims.append(shape[a])
        for m, s in zip(merged, strides):
            m.append(s[a])
    if not dims:
        return (1,), [(0,) for _ in strides]
    return tuple(dims), [tuple(m) for m in merged]


# numba-cuda warns of "low occupancy" for a grid of fewer blocks. A small array needs
# fewer, but the kernels loop with the grid's stride, so the extra blocks just return: a
# few microseconds on the GPU, and no process-wide warning filter changed at every launch.
_MIN_BLOCKS = 128


def _extent(x: Any, memory: Memory) -> tuple[int, int]:
    low = high = memory.pointer(x)
    for n, s in zip(x.shape, x.strides):
        if s < 0:
            low += s * (n - 1)
        else:
            high += s * (n - 1)
    return low, high + x.dtype.itemsize


def _overlaps(a: Any, b: Any, memory: Memory) -> bool:
    if a.size == 0 or b.size == 0:
        return False
    (a0, a1), (b0, b1) = _extent(a, memory), _extent(b, memory)
    return a0 < b1 and b0 < a1


def _same_view(a: Any, b: Any, memory: Memory) -> bool:
    return (
        memory.pointer(a) == memory.pointer(b)
        and a.shape == b.shape
        and a.strides == b.strides
        and a.dtype == b.dtype
    )


def _launch_shape(dims: Shape, simulator: bool) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Grid and block for ``dims`` (last dimension on threadIdx.x); kernels loop over the rest."""
    if simulator:  # every simulated thread is a Python thread: few, and grid-stride loops
        block = {1: (4,), 2: (2, 2), 3: (2, 2, 1)}[len(dims)]
        return (2,) * len(dims), block
    block = {1: (256,), 2: (32, 8), 3: (32, 4, 2)}[len(dims)]
    limit = {1: 1 << 20, 2: 65535, 3: 65535}[len(dims)]
    reverse = tuple(reversed(dims))
    grid = [min(max(1, -(-n // b)), limit) for n, b in zip(reverse, block)]
    others = math.prod(grid[1:])
    grid[0] = max(grid[0], -(-_MIN_BLOCKS // others))
    return tuple(grid), block


@dataclass(frozen=True)
class _Operand:
    kind: str  # "array" or "scalar"
    value: Any
    cast_to: str | None = None


class CudaLoops:
    """The CUDA versions of one portable kernel, compiled on first use and cached.

    A version is compiled per loop signature, operand kinds (array or scalar, cast or
    not) and loop rank; Numba adds one per array layout it meets.
    """

    def __init__(
        self, pyfunc: Callable[..., Any], name: str, fastmath: bool, log: CompileLog
    ) -> None:
        self._pyfunc = pyfunc
        self._name = name
        self._fastmath = fastmath
        self._log = log
        self._lock = threading.Lock()
        self._device_functions: dict[LoopSignature | None, Any] = {}
        self._kernels: dict[tuple[Any, ...], Any] = {}
        # Per compiled version (kernel, GPU, each array's dtype, rank and layout): its
        # Launcher, or False where it launches through Numba at every call.
        self._launchers: dict[tuple[Any, ...], Any] = {}

    def _device_function(self, loop: LoopSignature | None) -> Any:
        found = self._device_functions.get(loop)
        if found is None:
            signature = None
            if loop is not None:
                from numba import from_dtype

                signature = from_dtype(loop.outputs[0])(*(from_dtype(d) for d in loop.inputs))
            found = _kernels().device_function(self._pyfunc, signature, self._fastmath)
            self._device_functions[loop] = found
        return found

    def _kernel(
        self, kind: str, loop: LoopSignature, operands: Sequence[_Operand], rank: int
    ) -> Any:
        shape = tuple((op.kind, op.cast_to) for op in operands)
        key = (kind, loop, shape, rank)
        found = self._kernels.get(key)
        if found is None:
            with self._lock:
                found = self._kernels.get(key)
                if found is None:
                    k = _kernels()
                    if kind == "elementwise":
                        f = self._device_function(loop)
                        call = k.caller(f, tuple(k.loader(*s) for s in shape))
                        found = k.elementwise_kernel(call, rank)
                    else:
                        f = self._device_function(None)
                        call = k.generalized_caller(f, len(operands))
                        found = k.generalized_kernel(call, rank)
                    self._kernels[key] = found
        return found

    def _launch(
        self,
        kernel: Any,
        loop: LoopSignature,
        rank: int,
        memory: Memory,
        dims: Shape,
        args: Any,
        views: Sequence[Any],
    ) -> None:
        """Launch ``kernel`` on ``args`` (whose arrays are ``views``) over ``dims``."""
        grid, block = _launch_shape(dims, memory.simulator)
        if isinstance(memory, CupyMemory):
            key = (kernel, memory.device, *(v.key for v in views))
            launcher = self._launchers.get(key)
            if launcher:
                try:
                    stream = memory.stream()
                except Exception as exc:  # numba-cuda's private stream: the public launch
                    give_up_fast_launch(exc)
                    self._launchers.clear()
                else:
                    memory.ready()
                    launcher(grid, block, stream, args)
                    return
        before = _overload_count(kernel)
        start = time.perf_counter()
        made = memory.launch(kernel, grid, block, args)
        if isinstance(memory, CupyMemory):
            self._launchers[key] = made or False
            if _overload_count(kernel) > before:
                self._log.add(f"{loop} cuda rank {rank}", time.perf_counter() - start)

    def run_elementwise(
        self,
        loop: LoopSignature,
        values: Sequence[Any],
        out: Any,
        shape: Shape,
        memory: Memory,
    ) -> Any:
        """Run the elementwise kernel for ``loop``; returns ``out`` (allocated when None)."""
        lib = memory.library
        given = [] if out is None else [out]  # a new result overlaps no input
        if out is None:
            out = lib.empty(shape, dtype=loop.outputs[0])
        if math.prod(shape) == 0:
            return out
        operands = self._operands(loop, values, memory, given, same_view_ok=True)
        for i, op in enumerate(operands):
            if op.kind == "array" and op.value.shape != shape:
                operands[i] = _Operand("array", lib.broadcast_to(op.value, shape), op.cast_to)
        arrays = [out, *(op.value for op in operands if op.kind == "array")]
        dims, strides = plan_loop(shape, [a.strides for a in arrays])
        target = out
        if len(dims) > _MAX_RANK:
            if not out.flags.c_contiguous:
                target = lib.empty(shape, dtype=out.dtype)
            for i, op in enumerate(operands):
                if op.kind == "array":
                    operands[i] = _Operand("array", lib.ascontiguousarray(op.value), op.cast_to)
            arrays = [target, *(op.value for op in operands if op.kind == "array")]
            dims, strides = plan_loop(shape, [a.strides for a in arrays])
        views = [memory.view(a, dims, s) for a, s in zip(arrays, strides)]
        inputs = iter(views[1:])
        ops = tuple(next(inputs) if op.kind == "array" else op.value for op in operands)
        kernel = self._kernel("elementwise", loop, operands, len(dims))
        self._launch(kernel, loop, len(dims), memory, dims, (views[0], ops), views)
        if target is not out:
            lib.copyto(out, target)
        return out

    def run_generalized(
        self,
        loop: LoopSignature,
        cores: Sequence[int],
        values: Sequence[Any],
        outs: Sequence[Any] | None,
        loop_shape: Shape,
        out_shapes: Sequence[Shape],
        memory: Memory,
    ) -> list[Any]:
        """Run the generalized kernel for ``loop``; ``cores`` gives each input's core rank."""
        lib = memory.library
        given = [] if outs is None else list(outs)  # new results overlap no input
        if outs is None:
            outs = [lib.empty(s, dtype=d) for s, d in zip(out_shapes, loop.outputs)]
        outs = list(outs)
        if math.prod(loop_shape) == 0:
            return outs
        operands = self._operands(loop, values, memory, given, same_view_ok=False)
        n = len(loop_shape)
        for i, op in enumerate(operands):  # all arrays: the callers index every operand
            if op.kind == "scalar":
                x = lib.full((), op.value, dtype=loop.inputs[i])
            else:
                x = op.value if op.cast_to is None else op.value.astype(op.cast_to)
            core = x.shape[x.ndim - cores[i] :] if cores[i] else ()
            operands[i] = _Operand("array", lib.broadcast_to(x, loop_shape + core))
        # a core-less output is seen by the function as a one-element array, as in Numba
        shaped = [o if o.ndim > n else o[..., None] for o in outs]
        targets = shaped
        arrays = [*targets, *(op.value for op in operands if op.kind == "array")]
        dims, strides = plan_loop(loop_shape, [a.strides[:n] for a in arrays])
        if len(dims) > _MAX_RANK:
            targets = [t if t.flags.c_contiguous else lib.empty(t.shape, t.dtype) for t in shaped]
            for i, op in enumerate(operands):
                if op.kind == "array":
                    operands[i] = _Operand("array", lib.ascontiguousarray(op.value))
            arrays = [*targets, *(op.value for op in operands if op.kind == "array")]
            dims, strides = plan_loop(loop_shape, [a.strides[:n] for a in arrays])
        views = [
            memory.view(a, dims + a.shape[n:], s + a.strides[n:]) for a, s in zip(arrays, strides)
        ]
        out_views, in_views = views[: len(outs)], views[len(outs) :]
        ops = (*in_views, *out_views)
        out_operands = [_Operand("array", None) for _ in outs]
        kernel = self._kernel("generalized", loop, [*operands, *out_operands], len(dims))
        self._launch(kernel, loop, len(dims), memory, dims, (ops, dims), views)
        for view, target in zip(shaped, targets):
            if target is not view:
                lib.copyto(view, target)
        return outs

    def _operands(
        self,
        loop: LoopSignature,
        values: Sequence[Any],
        memory: Memory,
        outs: Sequence[Any],
        same_view_ok: bool,
    ) -> list[_Operand]:
        """Each input as an array (copied when it overlaps an output) or a typed scalar."""
        operands = []
        for i, (value, dtype) in enumerate(zip(values, loop.inputs)):
            if getattr(value, "dtype", None) is None:  # a Python scalar
                value = _plain(scalar_value(value, dtype, i, self._name))
                operands.append(_Operand("scalar", value))
            elif isinstance(value, np.generic):
                operands.append(_Operand("scalar", _plain(dtype.type(value))))
            else:
                x = value
                for o in outs:
                    if _overlaps(x, o, memory) and not (same_view_ok and _same_view(x, o, memory)):
                        x = x.copy()
                        break
                cast = None if x.dtype == dtype else dtype.name
                operands.append(_Operand("array", x, cast))
        return operands


def _plain(value: Any) -> Any:
    """A bool scalar as a Python bool: Numba passes it to kernels as such."""
    return bool(value) if isinstance(value, (bool, np.bool_)) else value


def _overload_count(kernel: Any) -> int:
    overloads = getattr(kernel, "overloads", None)
    try:
        return len(overloads)  # type: ignore[arg-type]
    except TypeError:
        return 0
