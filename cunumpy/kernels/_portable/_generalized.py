"""``@generalized(layout)``: a gufunc-like kernel over core dimensions, for both backends."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .._call_device import locate, normalize_out
from ._common import PortableKernel, shape_of
from ._loop_types import (
    LoopSignature,
    common_dtype,
    describe_arg,
    infer_inputs,
    select_loop,
    type_key,
)
from ._shapes import Layout

__all__ = ["GeneralizedFunction", "generalized"]


class GeneralizedFunction(PortableKernel):
    """A portable generalized kernel (gufunc), made by :func:`generalized`.

    Call it as ``f(*inputs, out=None, stream=None)``; it returns the output array, or a
    tuple of them for several outputs.

    Attributes
    ----------
    layout : str
        The core dimensions, as in ``"(n),(n)->()"``.
    py_func : callable
        The Python function.
    signatures : tuple of str
        The declared loop signatures (empty when inferred from the arguments).
    compile_times : dict of str to float
        Seconds spent compiling each version so far.
    cpu_target : {"cpu", "parallel"}
        Numba's target for NumPy arrays.
    """

    def __init__(
        self,
        pyfunc: Callable[..., Any],
        layout: str,
        signatures: str | Sequence[str] | None = None,
        *,
        cpu_target: str = "cpu",
        fastmath: bool = False,
    ) -> None:
        parsed = Layout.parse(layout, "generalized")
        super().__init__(pyfunc, signatures, parsed, cpu_target, fastmath, "generalized")
        self.layout = parsed.text
        self._by_types: dict[tuple[Any, ...], LoopSignature] = {}

    def _loop(self, args: tuple[Any, ...]) -> LoopSignature:
        """The loop for the arguments' types, chosen once per combination of types."""
        key = tuple(map(type_key, args))
        loop = self._by_types.get(key)
        if loop is None:
            name = self.__name__
            described = [describe_arg(v, i, name) for i, v in enumerate(args)]
            if self._loops:
                loop = select_loop(self._loops, described, name)
            else:
                inputs = infer_inputs(described, name)
                loop = LoopSignature(inputs, (common_dtype(inputs, name),) * self.nout)
            self._by_types[key] = loop
        return loop

    def _prepare(
        self, args: tuple[Any, ...], out: Any, stream: Any
    ) -> tuple[Any, LoopSignature, Any, tuple[int, ...], list[tuple[int, ...]]]:
        name = self.__name__
        layout = self._layout
        assert layout is not None
        if len(args) != self.nin:
            msg = f"{name}: takes {self.nin} input(s), but {len(args)} were given."
            raise TypeError(msg)
        outs = normalize_out(out, self.nout, name)
        where = locate(args, outs or (), stream, name)
        loop = self._loop(args)
        out_shapes = None if outs is None else [o.shape for o in outs]
        loop_shape, shapes = layout.bind([shape_of(v) for v in args], out_shapes, name)
        if outs is not None:
            self._check_out_dtypes(loop, outs)
        return where, loop, outs, loop_shape, shapes

    def __call__(self, *args: Any, out: Any = None, stream: Any = None, **unexpected: Any) -> Any:
        """Apply the kernel over the loop dimensions of ``args``.

        Parameters
        ----------
        *args : array or scalar
            One per input of the layout; inputs with core dimensions must be arrays.
        out : array or tuple of arrays, optional
            The outputs to write, of the backend of the inputs.
        stream : stream, optional
            On a GPU, the stream the kernel is queued on (see ``ElementwiseFunction``).

        Returns
        -------
        array or tuple of arrays
            The output(s).
        """
        if unexpected:
            self._reject_keywords(unexpected)
        where, loop, outs, loop_shape, shapes = self._prepare(args, out, stream)
        if where == "cpu":
            results = self._cpu.run_generalized(loop, args, outs, shapes)
        else:
            cores = [len(core) for core in self._layout.inputs]  # type: ignore[union-attr]
            with self._on_gpu(where, stream, (*args, *(outs or ()))) as memory:
                results = self._cuda_loops().run_generalized(
                    loop, cores, args, outs, loop_shape, shapes, memory
                )
        return results[0] if self.nout == 1 else tuple(results)

    def _simulate(self, *args: Any, out: Any = None) -> Any:
        """Run the CUDA target's code on NumPy arrays under Numba's CUDA simulator (tests)."""
        memory = self._simulator_memory()
        _, loop, outs, loop_shape, shapes = self._prepare(args, out, None)
        cores = [len(core) for core in self._layout.inputs]  # type: ignore[union-attr]
        results = self._cuda_loops().run_generalized(
            loop, cores, args, outs, loop_shape, shapes, memory
        )
        return results[0] if self.nout == 1 else tuple(results)


def generalized(
    layout: str,
    signatures: str | Sequence[str] | None = None,
    /,
    *,
    cpu_target: str = "cpu",
    fastmath: bool = False,
) -> Callable[[Callable[..., Any]], GeneralizedFunction]:
    """Turn a Python function over core arrays into a portable, gufunc-like kernel.

    The function takes the inputs, then the outputs, and writes the outputs in place, as
    with ``numba.guvectorize``: an input with core dimensions arrives as an array, one
    without as a scalar, and an output without core dimensions as a one-element array
    (write ``out[0]``). The kernel loops over the broadcast leading dimensions, compiled
    by Numba for the CPU (NumPy arrays) or the GPU holding the arrays (CuPy arrays).

    Parameters
    ----------
    layout : str
        The core dimensions of each input and output, as in ``"(n),(n)->()"``.
    signatures : str or sequence of str, optional
        Declared signatures, such as ``"float64(float64, float64)"`` (element dtypes;
        ``"(float64, int64)(float64)"`` for two outputs), chosen as for
        :func:`elementwise`. Without them, inputs keep their dtypes and every output
        gets their promoted dtype.
    cpu_target : {"cpu", "parallel"}, default "cpu"
        Numba's target for NumPy arrays.
    fastmath : bool, default False
        Let the compilers reorder floating-point operations.

    Returns
    -------
    callable
        A decorator that makes a :class:`GeneralizedFunction`.

    Raises
    ------
    ImportError
        If Numba is not installed (the ``kernels`` extra).
    ValueError
        If the layout or a signature cannot be parsed, a signature does not match the
        layout's numbers of inputs and outputs, or the list of signatures is empty.
    TypeError
        If the function's parameters do not match the layout.

    Examples
    --------
    >>> import numpy as np
    >>> from cunumpy import kernels
    >>> @kernels.generalized("(n),(n)->()", ["float64(float64, float64)"])
    ... def dot(x, y, out):
    ...     total = 0.0
    ...     for i in range(x.shape[0]):
    ...         total += x[i] * y[i]
    ...     out[0] = total
    >>> dot(np.ones((2, 3)), np.arange(3.0))
    array([3., 3.])
    """
    Layout.parse(layout, "generalized")

    def decorate(fn: Callable[..., Any]) -> GeneralizedFunction:
        return GeneralizedFunction(fn, layout, signatures, cpu_target=cpu_target, fastmath=fastmath)

    return decorate
