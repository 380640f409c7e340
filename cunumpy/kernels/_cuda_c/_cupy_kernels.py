"""CuPy's CUDA C kernels with ``stream=``, device checks and an optional CPU implementation.

Each wrapper keeps CuPy's arguments and creates the CuPy kernel on first GPU use (CuPy
compiles it then, per device). A call runs where its arrays live: CuPy arrays on their
GPU (which must be one), on ``stream`` or the current stream of that GPU; NumPy arrays
through ``cpu=``, or a ``RuntimeError`` naming the kernel when there is none.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..._settings._distributions import install_hint
from .._call_device import Where, locate, on_gpu

__all__ = ["CudaCKernel", "ElementwiseKernel", "ReductionKernel"]


class CudaCKernel:
    """What the CUDA C kernel wrappers share: the name, ``cpu=`` and the CuPy object."""

    def __init__(self, name: str, cpu: Callable[..., Any] | None) -> None:
        if not isinstance(name, str) or not name:
            msg = f"{type(self).__name__}: `name` must be a non-empty str, not {name!r}."
            raise TypeError(msg)
        if cpu is not None and not callable(cpu):
            msg = f"{type(self).__name__} {name}: `cpu` must be a callable or None, not {cpu!r}."
            raise TypeError(msg)
        self.name = name
        self.cpu = cpu
        self._cupy_kernel: Any = None

    def _check_texts(self, **texts: Any) -> None:
        """Raise ``TypeError`` for the first of the kernel's source texts that is not a str."""
        for label, text in texts.items():
            if not isinstance(text, str):
                msg = f"{type(self).__name__} {self.name}: `{label}` must be a str, not {text!r}."
                raise TypeError(msg)

    def _where(self, values: Sequence[Any], stream: Any, *, strict: bool = True) -> Where:
        return locate(values, (), stream, self.name, strict=strict)

    def _run_cpu(self, args: Sequence[Any], kwargs: dict[str, Any]) -> Any:
        if self.cpu is None:
            msg = (
                f"{self.name}: this {type(self).__name__} has no CPU implementation, so it "
                "cannot run on NumPy arrays; pass `cpu=` (a NumPy or Numba function taking "
                "the same arguments) when creating it, or move the arrays to a GPU."
            )
            raise RuntimeError(msg)
        return self.cpu(*args, **kwargs)

    def _make(self, cupy: Any) -> Any:
        raise NotImplementedError

    def kernel(self) -> Any:
        """The CuPy kernel object, made on first use (CuPy must be installed, not usable).

        CuPy compiles it when it is first called on a GPU, once per device and types.
        """
        if self._cupy_kernel is None:
            try:
                import cupy
            except ImportError as exc:
                msg = (
                    f"{self.name}: a CUDA C kernel needs CuPy, which cannot be imported ({exc}); "
                    f"{install_hint('cuda12', 'cuda13')}."
                )
                raise ImportError(msg) from exc
            self._cupy_kernel = self._make(cupy)
        return self._cupy_kernel

    def __repr__(self) -> str:
        cpu = "with" if self.cpu is not None else "without"
        return f"<{type(self).__name__} {self.name!r}, {cpu} a CPU implementation>"


class ElementwiseKernel(CudaCKernel):
    """A CUDA C elementwise kernel: ``cupy.ElementwiseKernel`` with ``stream=`` and ``cpu=``.

    Parameters
    ----------
    in_params, out_params, operation, name, reduce_dims, preamble, no_return, return_tuple
        As for ``cupy.ElementwiseKernel``.
    loop_prep, after_loop : str, optional
        CUDA C inserted before and after the loop, as for ``cupy.ElementwiseKernel``.
    options : tuple of str, optional
        Compiler options, as for ``cupy.ElementwiseKernel``.
    cpu : callable, optional
        Called instead, with the same arguments (and ``size`` when given), when the
        arrays are NumPy arrays: a NumPy function or a Numba kernel. Without it, such a
        call raises ``RuntimeError``.

    Examples
    --------
    >>> import numpy as np
    >>> from cunumpy import kernels
    >>> squared_diff = kernels.ElementwiseKernel(
    ...     "float64 x, float64 y", "float64 z", "z = (x - y) * (x - y)", "squared_diff",
    ...     cpu=lambda x, y: (x - y) ** 2)
    >>> squared_diff(np.arange(3.0), 1.0)
    array([1., 0., 1.])
    """

    def __init__(
        self,
        in_params: str,
        out_params: str,
        operation: str,
        name: str = "kernel",
        reduce_dims: bool = True,
        preamble: str = "",
        no_return: bool = False,
        return_tuple: bool = False,
        *,
        loop_prep: str = "",
        after_loop: str = "",
        options: tuple[str, ...] = (),
        cpu: Callable[..., Any] | None = None,
    ) -> None:
        super().__init__(name, cpu)
        self._check_texts(in_params=in_params, out_params=out_params, operation=operation,
                          preamble=preamble, loop_prep=loop_prep, after_loop=after_loop)  # fmt: skip
        self.in_params = in_params
        self.out_params = out_params
        self.operation = operation
        self.preamble = preamble
        self.loop_prep = loop_prep
        self.after_loop = after_loop
        self.options = tuple(options)
        self.reduce_dims = reduce_dims
        self.no_return = no_return
        self.return_tuple = return_tuple

    def _make(self, cupy: Any) -> Any:
        return cupy.ElementwiseKernel(
            self.in_params, self.out_params, self.operation, self.name,
            reduce_dims=self.reduce_dims, preamble=self.preamble, no_return=self.no_return,
            return_tuple=self.return_tuple, loop_prep=self.loop_prep,
            after_loop=self.after_loop, options=self.options,
        )  # fmt: skip

    def __call__(
        self, *args: Any, size: int | None = None, block_size: int | None = None, stream: Any = None
    ) -> Any:
        """Run the kernel on ``args`` (inputs, then optionally outputs).

        Parameters
        ----------
        *args : array or scalar
            As for ``cupy.ElementwiseKernel``; CuPy arrays must live on one GPU.
        size : int, optional
            The range of the index when no array sets it (as for CuPy).
        block_size : int, optional
            Threads per block on the GPU (as for CuPy); not used on the CPU.
        stream : stream, optional
            The stream the kernel is queued on: from ``cunumpy.cuda.stream()``, a
            ``cupy.cuda.Stream`` or an int handle. The current stream of the arrays'
            GPU by default. It must belong to that GPU (else ``ValueError``); it must be
            None for NumPy arrays.

        Returns
        -------
        array or tuple of arrays or None
            As for ``cupy.ElementwiseKernel``, or what ``cpu`` returns.

        Raises
        ------
        TypeError
            If the arrays mix NumPy and CuPy, or ``stream`` is not a stream.
        ValueError
            If CuPy arrays live on several GPUs, or ``stream`` belongs to another GPU.
        RuntimeError
            On NumPy arrays without ``cpu``.
        """
        where = self._where(args, stream)
        if where == "cpu":
            return self._run_cpu(args, {} if size is None else {"size": size})
        # CuPy 14 takes no None for size or block_size: only what was given is passed
        given = {"size": size, "block_size": block_size}
        launch = {key: value for key, value in given.items() if value is not None}
        with on_gpu(where, stream, self.name, args):
            return self.kernel()(*args, **launch)


class ReductionKernel(CudaCKernel):
    """A CUDA C reduction kernel: ``cupy.ReductionKernel`` with ``stream=`` and ``cpu=``.

    Parameters
    ----------
    in_params, out_params, map_expr, reduce_expr, post_map_expr, identity, name
        As for ``cupy.ReductionKernel``.
    reduce_type, reduce_dims, preamble, options
        As for ``cupy.ReductionKernel``.
    cpu : callable, optional
        Called instead when the arrays are NumPy arrays, with the same positional
        arguments and those of ``out``, ``axis`` and ``keepdims`` that were given.
        Without it, such a call raises ``RuntimeError``.

    Examples
    --------
    >>> import numpy as np
    >>> from cunumpy import kernels
    >>> l2norm = kernels.ReductionKernel(
    ...     "T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm",
    ...     cpu=lambda x, axis=None, keepdims=False: np.sqrt(
    ...         (x * x).sum(axis=axis, keepdims=keepdims)))
    >>> float(l2norm(np.array([3.0, 4.0])))
    5.0
    """

    def __init__(
        self,
        in_params: str,
        out_params: str,
        map_expr: str,
        reduce_expr: str,
        post_map_expr: str,
        identity: str | None,
        name: str = "reduce_kernel",
        reduce_type: str | None = None,
        reduce_dims: bool = True,
        preamble: str = "",
        options: tuple[str, ...] = (),
        *,
        cpu: Callable[..., Any] | None = None,
    ) -> None:
        super().__init__(name, cpu)
        self._check_texts(in_params=in_params, out_params=out_params, map_expr=map_expr,
                          reduce_expr=reduce_expr, post_map_expr=post_map_expr,
                          preamble=preamble)  # fmt: skip
        self.in_params = in_params
        self.out_params = out_params
        self.map_expr = map_expr
        self.reduce_expr = reduce_expr
        self.post_map_expr = post_map_expr
        self.identity = identity
        self.reduce_type = reduce_type
        self.reduce_dims = reduce_dims
        self.preamble = preamble
        self.options = tuple(options)

    def _make(self, cupy: Any) -> Any:
        return cupy.ReductionKernel(
            self.in_params, self.out_params, self.map_expr, self.reduce_expr,
            self.post_map_expr, self.identity, self.name, reduce_type=self.reduce_type,
            reduce_dims=self.reduce_dims, preamble=self.preamble, options=self.options,
        )  # fmt: skip

    def __call__(
        self,
        *args: Any,
        out: Any = None,
        axis: int | tuple[int, ...] | None = None,
        keepdims: bool = False,
        stream: Any = None,
    ) -> Any:
        """Reduce ``args`` over ``axis`` (all axes by default).

        Parameters
        ----------
        *args : array or scalar
            As for ``cupy.ReductionKernel``; CuPy arrays must live on one GPU.
        out : array, optional
            The output array, on the same device.
        axis : int or tuple of int, optional
            The axes reduced; all by default.
        keepdims : bool, default False
            Keep the reduced axes with length one.
        stream : stream, optional
            As for :class:`ElementwiseKernel`.

        Returns
        -------
        array
            The reduction, or what ``cpu`` returns.

        Raises
        ------
        TypeError
            If the arrays mix NumPy and CuPy, or ``stream`` is not a stream.
        ValueError
            If CuPy arrays live on several GPUs, or ``stream`` belongs to another GPU.
        RuntimeError
            On NumPy arrays without ``cpu``.
        """
        where = self._where((*args, *(() if out is None else (out,))), stream)
        if where == "cpu":
            given = {"out": out, "axis": axis, "keepdims": keepdims or None}
            return self._run_cpu(args, {k: v for k, v in given.items() if v is not None})
        with on_gpu(where, stream, self.name, (*args, out)) as queue:
            return self.kernel()(*args, out=out, axis=axis, keepdims=keepdims, stream=queue)
