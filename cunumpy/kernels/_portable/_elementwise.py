"""``@elementwise``: a scalar Python function turned into a ufunc-like kernel for both backends."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, overload

from .._call_device import locate, normalize_out
from ._common import PortableKernel, shape_of
from ._loop_types import LoopSignature, describe_arg, infer_inputs, select_loop, type_key
from ._shapes import broadcast, check_out

__all__ = ["ElementwiseFunction", "elementwise"]


class ElementwiseFunction(PortableKernel):
    """A portable elementwise kernel, made by :func:`elementwise`.

    Call it like a NumPy ufunc: ``f(*args, out=None, stream=None)``. On NumPy arrays it
    runs on the CPU, on CuPy arrays on the GPU that holds them.

    Attributes
    ----------
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
        signatures: str | Sequence[str] | None = None,
        *,
        cpu_target: str = "cpu",
        fastmath: bool = False,
    ) -> None:
        super().__init__(pyfunc, signatures, None, cpu_target, fastmath, "elementwise")
        from ._numba_cpu import infer_result

        self._inference = infer_result(pyfunc, self.__name__, self._log)
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
                loop = LoopSignature(inputs, (self._inference.result(inputs),))
            self._by_types[key] = loop
        return loop

    def _prepare(
        self, args: tuple[Any, ...], out: Any, stream: Any
    ) -> tuple[Any, LoopSignature, Any, tuple[int, ...]]:
        name = self.__name__
        if len(args) != self.nin:
            msg = f"{name}: takes {self.nin} argument(s), but {len(args)} were given."
            raise TypeError(msg)
        outs = normalize_out(out, 1, name)
        where = locate(args, outs or (), stream, name)
        loop = self._loop(args)
        shape = broadcast([shape_of(v) for v in args], name)
        target = None
        if outs is not None:
            target = outs[0]
            check_out(target.shape, shape, 0, name)
            self._check_out_dtypes(loop, outs)
        return where, loop, target, shape

    def __call__(self, *args: Any, out: Any = None, stream: Any = None, **unexpected: Any) -> Any:
        """Apply the kernel elementwise to broadcast ``args``.

        Parameters
        ----------
        *args : array or scalar
            NumPy arrays (or NumPy scalars) run on the CPU, CuPy arrays on their GPU;
            Python scalars mix with both.
        out : array, optional
            Where to write the result: an array of the backend of the inputs, of their
            broadcast shape, whose dtype the result's promotes to.
        stream : stream, optional
            On a GPU, the stream the kernel is queued on: a stream from
            ``cunumpy.cuda.stream()``, a ``cupy.cuda.Stream`` or an int handle; the
            current stream of the arrays' GPU by default. Must be None on the CPU.

        Returns
        -------
        array
            ``out``, or a new array of the loop's result dtype.
        """
        if unexpected:
            self._reject_keywords(unexpected)
        where, loop, target, shape = self._prepare(args, out, stream)
        if where == "cpu":
            return self._cpu.run_elementwise(loop, args, target, shape)
        with self._on_gpu(where, stream, (*args, target)) as memory:
            return self._cuda_loops().run_elementwise(loop, args, target, shape, memory)

    def _simulate(self, *args: Any, out: Any = None) -> Any:
        """Run the CUDA target's code on NumPy arrays under Numba's CUDA simulator (tests)."""
        memory = self._simulator_memory()
        _, loop, target, shape = self._prepare(args, out, None)
        return self._cuda_loops().run_elementwise(loop, args, target, shape, memory)


@overload
def elementwise(fn: Callable[..., Any], /) -> ElementwiseFunction: ...


@overload
def elementwise(
    signatures: str | Sequence[str] | None = None,
    /,
    *,
    cpu_target: str = "cpu",
    fastmath: bool = False,
) -> Callable[[Callable[..., Any]], ElementwiseFunction]: ...


def elementwise(
    fn_or_signatures: Any = None,
    /,
    *,
    cpu_target: str = "cpu",
    fastmath: bool = False,
) -> Any:
    """Turn a scalar Python function into a portable, ufunc-like kernel.

    The function takes scalars and returns one. The kernel applies it to every element
    of its broadcast arguments: compiled by Numba for the CPU when they are NumPy arrays,
    and for the GPU that holds them when they are CuPy arrays. Each version (loop
    signature and target) is compiled on its first call and cached; the compile time
    is recorded by ``cunumpy.profiling``.

    Parameters
    ----------
    fn_or_signatures : callable, str or sequence of str, optional
        Used bare (``@elementwise``), the function. Otherwise the declared signatures,
        such as ``"float64(float64, float64)"``: a call uses the narrowest one its
        arguments promote to under the Array API standard's rules (see
        ``docs/kernels.md``). Without signatures, the inputs keep their dtypes and the
        result dtype is the one Numba infers.
    cpu_target : {"cpu", "parallel"}, default "cpu"
        Numba's target for NumPy arrays: ``"parallel"`` splits large arrays over the
        CPU's cores (``NUMBA_NUM_THREADS``), ``"cpu"`` runs on the calling thread.
    fastmath : bool, default False
        Let the compilers reorder floating-point operations (Numba's ``fastmath``).

    Returns
    -------
    ElementwiseFunction or callable
        The kernel, or a decorator that makes it.

    Raises
    ------
    ImportError
        If Numba is not installed (the ``kernels`` extra).
    TypeError
        If the function's parameters are not plain positional ones.
    ValueError
        If a signature cannot be parsed or does not have one input per parameter and
        one result, the list of signatures is empty, or ``cpu_target`` is unknown.

    Examples
    --------
    >>> import math
    >>> import numpy as np
    >>> from cunumpy import kernels
    >>> @kernels.elementwise(["float32(float32, float32)", "float64(float64, float64)"])
    ... def damped(x, y):
    ...     return math.exp(-x) * y
    >>> damped(np.zeros(3), 2.0)
    array([2., 2., 2.])
    >>> damped(np.zeros(2, dtype=np.float32), np.ones(2, dtype=np.float32)).dtype
    dtype('float32')
    """
    if callable(fn_or_signatures):
        return ElementwiseFunction(fn_or_signatures, None, cpu_target=cpu_target, fastmath=fastmath)

    def decorate(fn: Callable[..., Any]) -> ElementwiseFunction:
        return ElementwiseFunction(fn, fn_or_signatures, cpu_target=cpu_target, fastmath=fastmath)

    return decorate
