"""``RawKernel``: a CUDA C ``__global__`` function (``cupy.RawKernel``) with ``stream=`` and ``cpu=``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..._trace._recorder import note_grid
from .._call_device import on_gpu
from ._cupy_kernels import CudaCKernel

__all__ = ["RawKernel"]


class RawKernel(CudaCKernel):
    """A raw CUDA C kernel: ``cupy.RawKernel`` with ``stream=``, device checks and ``cpu=``.

    Parameters
    ----------
    code : str
        CUDA C source defining ``extern "C" __global__ void <name>(...)``.
    name : str
        The kernel's name in ``code``.
    options, backend, translate_cucomplex, enable_cooperative_groups, jitify
        As for ``cupy.RawKernel``.
    cpu : callable, optional
        Called instead as ``cpu(*args)`` (the kernel's arguments, without grid, block or
        shared memory) when the arrays among ``args`` are NumPy arrays. Without it, such
        a call raises ``RuntimeError``.

    Examples
    --------
    >>> import numpy as np
    >>> from cunumpy import kernels
    >>> def add_cpu(x, y, out, n):
    ...     out[:n] = x[:n] + y[:n]
    >>> add = kernels.RawKernel(r'''
    ... extern "C" __global__ void add(const float* x, const float* y, float* out, int n) {
    ...     int i = blockDim.x * blockIdx.x + threadIdx.x;
    ...     if (i < n) out[i] = x[i] + y[i];
    ... }''', "add", cpu=add_cpu)
    >>> x = np.arange(4, dtype=np.float32)
    >>> out = np.empty_like(x)
    >>> add((1,), (4,), (x, x, out, np.int32(4)))
    >>> out
    array([0., 2., 4., 6.], dtype=float32)
    """

    def __init__(
        self,
        code: str,
        name: str,
        options: tuple[str, ...] = (),
        backend: str = "nvrtc",
        translate_cucomplex: bool = False,
        *,
        enable_cooperative_groups: bool = False,
        jitify: bool = False,
        cpu: Callable[..., Any] | None = None,
    ) -> None:
        super().__init__(name, cpu)
        if not isinstance(code, str):
            msg = f"RawKernel {name}: `code` must be a str of CUDA C source, not {code!r}."
            raise TypeError(msg)
        if backend not in ("nvrtc", "nvcc"):
            msg = f"RawKernel {name}: `backend` must be 'nvrtc' or 'nvcc', not {backend!r}."
            raise ValueError(msg)
        self.code = code
        self.options = tuple(options)
        self.backend = backend
        self.translate_cucomplex = translate_cucomplex
        self.enable_cooperative_groups = enable_cooperative_groups
        self.jitify = jitify

    def _make(self, cupy: Any) -> Any:
        # CuPy 14 deprecates passing `jitify` (even False): forward it only when asked for
        extra = {"jitify": True} if self.jitify else {}
        return cupy.RawKernel(
            self.code, self.name, options=self.options, backend=self.backend,
            translate_cucomplex=self.translate_cucomplex,
            enable_cooperative_groups=self.enable_cooperative_groups, **extra,
        )  # fmt: skip

    def __call__(
        self,
        grid: tuple[int, ...],
        block: tuple[int, ...],
        args: tuple[Any, ...],
        *,
        shared_mem: int = 0,
        stream: Any = None,
    ) -> None:
        """Launch the kernel with ``grid`` blocks of ``block`` threads on ``args``.

        Parameters
        ----------
        grid, block : tuple of int
            Grid and block dimensions (as for ``cupy.RawKernel``).
        args : tuple
            The kernel's arguments: CuPy arrays (on one GPU), NumPy scalars of the C
            parameter types, ...; NumPy arrays select ``cpu``.
        shared_mem : int, default 0
            Dynamic shared memory per block, in bytes.
        stream : stream, optional
            As for :class:`ElementwiseKernel`.

        Raises
        ------
        TypeError
            If ``args`` is not a tuple or list, the arrays mix NumPy and CuPy, or
            ``stream`` is not a stream.
        ValueError
            If CuPy arrays live on several GPUs, or ``stream`` belongs to another GPU.
        RuntimeError
            On NumPy arrays without ``cpu``.
        """
        if not isinstance(args, (tuple, list)):
            msg = (
                f"{self.name}: `args` must be a tuple (or list) of kernel arguments, not {args!r}."
            )
            raise TypeError(msg)
        where = self._where(args, stream, strict=False)
        if where == "cpu":
            self._run_cpu(args, {})
            return
        with on_gpu(where, stream, self.name, args):
            note_grid(grid, block)
            self.kernel()(tuple(grid), tuple(block), tuple(args), shared_mem=shared_mem)
