"""Portable kernels on the CPU: Numba's ``cpu`` or ``parallel`` target, as NumPy ufuncs.

Each loop signature is compiled on first use with ``numba.vectorize`` (elementwise) or
``numba.guvectorize`` (generalized) into a NumPy (g)ufunc with that one loop; NumPy then
broadcasts, and handles ``out=`` and overlapping arguments.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .._compile_log import CompileLog
from ._loop_types import DTYPES, LoopSignature, scalar_value
from ._numba_import import require_numba
from ._shapes import Layout

__all__ = ["CPU_TARGETS", "CpuLoops", "infer_result"]

CPU_TARGETS = ("cpu", "parallel")


class CpuLoops:
    """The CPU versions of one portable kernel, compiled on first use and cached per loop."""

    def __init__(
        self,
        pyfunc: Callable[..., Any],
        name: str,
        target: str,
        fastmath: bool,
        layout: Layout | None,
        log: CompileLog,
    ) -> None:
        self._pyfunc = pyfunc
        self._name = name
        self._target = target
        self._fastmath = fastmath
        self._layout = layout
        self._log = log
        self._lock = threading.Lock()
        self._compiled: dict[LoopSignature, Any] = {}

    def get(self, loop: LoopSignature) -> Any:
        """The compiled (g)ufunc of ``loop``."""
        found = self._compiled.get(loop)
        if found is None:
            with self._lock:
                found = self._compiled.get(loop)
                if found is None:
                    found = self._compile(loop)
                    self._compiled[loop] = found
        return found

    def _compile(self, loop: LoopSignature) -> Any:
        numba = require_numba(self._name)
        start = time.perf_counter()
        ins = [numba.from_dtype(d) for d in loop.inputs]
        options = {"target": self._target, "fastmath": self._fastmath}
        try:
            if self._layout is None:
                signature = numba.from_dtype(loop.outputs[0])(*ins)
                compiled = numba.vectorize([signature], **options)(self._pyfunc)
            else:
                args = [
                    numba.types.Array(t, len(core), "A") if core else t
                    for t, core in zip(ins, self._layout.inputs)
                ]
                args += [
                    numba.types.Array(numba.from_dtype(d), max(len(core), 1), "A")
                    for d, core in zip(loop.outputs, self._layout.outputs)
                ]
                signature = numba.types.void(*args)
                compiled = numba.guvectorize([signature], self._layout.text, **options)(
                    self._pyfunc
                )
        except numba.core.errors.TypingError as exc:
            msg = f"{self._name}: Numba cannot compile the kernel for {loop}: {exc}"
            raise TypeError(msg) from exc
        self._log.add(f"{loop} {self._target}", time.perf_counter() - start)
        # the NumPy (g)ufunc itself: Numba's wrapper around it only adds call overhead
        inner = getattr(compiled, "ufunc", compiled)
        return inner if isinstance(inner, np.ufunc) else compiled

    def operands(self, loop: LoopSignature, values: Sequence[Any]) -> list[Any]:
        """The inputs as the compiled loop takes them: cast to its dtypes, scalars typed."""
        operands = []
        for i, (value, dtype) in enumerate(zip(values, loop.inputs)):
            have = getattr(value, "dtype", None)
            if have is None:  # a Python scalar
                operands.append(scalar_value(value, dtype, i, self._name))
            elif have != dtype:  # cast once, rather than in NumPy's buffered chunks
                operands.append(value.astype(dtype))
            else:
                operands.append(value)
        return operands

    def run_elementwise(
        self,
        loop: LoopSignature,
        values: Sequence[Any],
        out: np.ndarray | None,
        shape: tuple[int, ...],
    ) -> np.ndarray:
        """Run the kernel; returns ``out`` (allocated with the loop's result dtype when None)."""
        ufunc = self.get(loop)
        target = _result_buffer(out, shape, loop.outputs[0])
        ufunc(*self.operands(loop, values), out=target)
        if out is None:
            return target
        if target is not out:
            np.copyto(out, target)
        return out

    def run_generalized(
        self,
        loop: LoopSignature,
        values: Sequence[Any],
        outs: Sequence[np.ndarray] | None,
        out_shapes: Sequence[tuple[int, ...]],
    ) -> list[np.ndarray]:
        """Run the kernel; returns the outputs (allocated when ``outs`` is None)."""
        gufunc = self.get(loop)
        if outs is None:
            outs = [np.empty(s, dtype=d) for s, d in zip(out_shapes, loop.outputs)]
        targets = [_result_buffer(o, o.shape, d) for o, d in zip(outs, loop.outputs)]
        gufunc(*self.operands(loop, values), out=tuple(targets))
        for o, t in zip(outs, targets):
            if t is not o:
                np.copyto(o, t)
        return list(outs)


def _result_buffer(out: np.ndarray | None, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    """Where the loop writes a result of ``dtype``: ``out`` itself when it has that dtype.

    An ``out`` of a wider dtype gets a temporary that is copied into it afterwards: NumPy
    would otherwise cast ``out`` back to the loop's dtype as well, and warn
    (``ComplexWarning`` for a complex ``out`` of a real loop).
    """
    if out is not None and out.dtype == dtype:
        return out
    return np.empty(shape, dtype=dtype)


class _Inference:
    """Result dtypes Numba infers for an undeclared elementwise kernel, per input dtypes."""

    def __init__(self, pyfunc: Callable[..., Any], name: str, log: CompileLog) -> None:
        self._pyfunc = pyfunc
        self._name = name
        self._log = log
        self._dispatcher: Any = None
        self._results: dict[tuple[np.dtype, ...], np.dtype] = {}
        self._lock = threading.Lock()

    def result(self, inputs: tuple[np.dtype, ...]) -> np.dtype:
        found = self._results.get(inputs)
        if found is not None:
            return found
        with self._lock:
            numba = require_numba(self._name)
            if self._dispatcher is None:
                self._dispatcher = numba.njit(self._pyfunc)
            argtypes = tuple(numba.from_dtype(d) for d in inputs)
            start = time.perf_counter()
            try:
                self._dispatcher.compile(argtypes)
            except numba.core.errors.TypingError as exc:
                names = ", ".join(d.name for d in inputs)
                msg = f"{self._name}: Numba cannot compile the kernel for inputs ({names}): {exc}"
                raise TypeError(msg) from exc
            signature = next(s for s in self._dispatcher.nopython_signatures if s.args == argtypes)
            names = ", ".join(d.name for d in inputs)
            self._log.add(f"typing ({names})", time.perf_counter() - start)
            try:
                found = np.dtype(numba.np.numpy_support.as_dtype(signature.return_type))
            except Exception:
                found = None
            if found is None or found.name not in DTYPES:
                msg = (
                    f"{self._name}: the kernel returns {signature.return_type} for inputs "
                    f"({names}), which is not an Array API dtype; return a number or a bool, "
                    "or declare signatures."
                )
                raise TypeError(msg)
            self._results[inputs] = found
            return found


def infer_result(pyfunc: Callable[..., Any], name: str, log: CompileLog) -> _Inference:
    """An object whose ``result(input_dtypes)`` is the dtype Numba infers for the kernel."""
    return _Inference(pyfunc, name, log)
