"""``CudaKernel``: CUDA C compiled with NVRTC through CuPy, every call checked against its signature."""

from __future__ import annotations

import operator
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..._placement._transfer_log import note_transfer
from ..._settings._cupy_probe import require_cupy
from ..._trace._recorder import note_grid
from ...cuda._checks import Checker, checker
from ...cuda._debug import DEFAULT_SHARED_MEMORY_PER_BLOCK, max_shared_memory_per_block
from ...cuda._signature import CudaParameter, parse_cuda_signature
from .._call_device import locate, on_gpu
from . import _launch as launch
from ._compile import CudaSource
from ._launch import for_cupy

__all__ = ["CudaKernel"]


class CudaKernel(CudaSource):
    """A CUDA C kernel compiled with NVRTC through CuPy, called like the host kernel it mirrors.

    The ``__global__`` signature is parsed once, without a GPU, and every call is
    checked against it: the argument count; each array a CuPy array (never copied) of
    the declared dtype, C-contiguous behind a pointer, packed with its strides for an
    ``ArrayND<T>`` view; scalars cast to the declared C type, integers within its range.
    Objects with ``__cuda_args__()`` are flattened first. Errors name the kernel, the
    parameter and the value. The kernel runs on the GPU holding its arrays, on
    ``stream`` or that GPU's current stream (the stream-ordering model of
    ``docs/devices.md``), and is compiled there on first use with
    :func:`~cunumpy.cuda.cuda_include_dir` on the include path.

    Parameters
    ----------
    source : str
        CUDA C source defining the ``__global__`` function ``name`` (``extern "C"``
        unless it is a template).
    name : str
        The kernel's name.
    block_size : int or sequence of int, default 128
        Threads per block, 1 to 3 extents, at most 1024 threads.
    options : sequence of str, optional
        More NVRTC options, e.g. ``("-std=c++17",)``.
    include_dirs : sequence of str or Path, optional
        Directories for ``#include`` (``-I``).
    source_dir : str or Path, optional
        The directory the source was read from, searched first for ``#include "..."``.
    structs : iterable of CudaStruct, optional
        Struct types the kernel takes by value.
    template_args : sequence, optional
        Template arguments when ``name`` is a function template, e.g. ``(np.float64, 3)``.
    check_signature : bool, default True
        Check and cast every call; False passes arguments on as they are.
    debug : bool, optional
        Debug mode for this kernel (see :func:`~cunumpy.cuda.set_cuda_debug`); None
        follows the global setting at each launch.
    n_threads_from : {"auto", "first_array", "last_axis"}, callable or None, default "auto"
        The launch size when a call gives neither ``n_threads`` nor ``grid``: the
        leading axes of the first array (one per block dimension), its first or last
        axis, a function of the argument tuple, or None (no inference).
    check_finite : bool, default False
        After each launch, synchronize and raise ``RuntimeError`` if a floating-point
        array argument holds NaN or inf (debugging).

    Raises
    ------
    ValueError
        If the signature cannot be parsed while checked, or ``block_size`` is invalid.

    Examples
    --------
    >>> from cunumpy import kernels
    >>> axpy = kernels.CudaKernel(r'''
    ... extern "C" __global__
    ... void axpy(double a, const double* x, double* y, int n) {
    ...     int i = blockDim.x * blockIdx.x + threadIdx.x;
    ...     if (i < n) y[i] += a * x[i];
    ... }''', "axpy")
    >>> [p.name for p in axpy.signature]
    ['a', 'x', 'y', 'n']
    >>> axpy.launch_shape(1000)
    ((8,), (128,))
    >>> axpy.prepare_args(2, 10)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    TypeError: CudaKernel axpy takes 4 arguments (after flattening argument objects), not 2.
    """

    def __init__(
        self,
        source: str,
        name: str,
        *,
        block_size: int | Sequence[int] = 128,
        options: Sequence[str] = (),
        include_dirs: Sequence[str | Path] = (),
        source_dir: str | Path | None = None,
        structs: Iterable[Any] = (),
        template_args: Sequence[Any] | None = None,
        check_signature: bool = True,
        debug: bool | None = None,
        n_threads_from: Any = "auto",
        check_finite: bool = False,
    ) -> None:
        if not isinstance(source, str) or not isinstance(name, str):
            msg = f"CudaKernel: `source` and `name` must be str, not {type(source).__name__} and {name!r}."
            raise TypeError(msg)
        self._name = name
        self._source = source
        self._block = launch.check_block(launch.as_dims(block_size, "block_size", name), name)
        self._options = tuple(options)
        self._include_dirs = tuple(Path(d) for d in include_dirs)
        self._source_dir = None if source_dir is None else Path(source_dir)
        self._structs = tuple(structs)
        self._template_args = None if template_args is None else tuple(template_args)
        self._debug = None if debug is None else bool(debug)
        self.check_finite = bool(check_finite)
        self.n_threads_from = n_threads_from
        self._signature: tuple[CudaParameter, ...] | None = None
        self._checkers: list[Checker] | None = None
        if check_signature:
            self._signature = parse_cuda_signature(
                source, name, structs=self._structs, template_args=self._template_args
            )
            owner = f"CudaKernel {self.expression}"
            self._checkers = [checker(p, i, owner) for i, p in enumerate(self._signature)]
        self._compiled: dict[int, Any] = {}

    def __repr__(self) -> str:
        return f"CudaKernel(name={self.expression!r}, block_size={self.block_size})"

    @property
    def name(self) -> str:
        """The kernel's name."""
        return self._name

    @property
    def block_size(self) -> int | tuple[int, ...]:
        """Threads per block: an int for 1-D blocks, else a tuple."""
        return self._block[0] if len(self._block) == 1 else self._block

    @property
    def structs(self) -> tuple[Any, ...]:
        """The struct types the kernel takes by value."""
        return self._structs

    @property
    def signature(self) -> tuple[CudaParameter, ...] | None:
        """The parsed parameters, or None when calls are not checked."""
        return self._signature

    @property
    def n_threads_from(self) -> launch.ThreadsFrom | None:
        """How a call without ``n_threads`` or ``grid`` is sized (settable as in the constructor)."""
        return self._threads_from

    @n_threads_from.setter
    def n_threads_from(self, value: Any) -> None:
        if isinstance(value, str):
            value = launch.threads_from(value, len(self._block), self._name)
        elif value is not None and not callable(value):
            msg = f"CudaKernel {self._name}: `n_threads_from` must be a str, a callable or None, not {value!r}."
            raise TypeError(msg)
        self._threads_from = value

    def prepare_args(self, *args: Any) -> tuple[Any, ...]:
        """The values a launch passes to CuPy: argument objects flattened, then checked and cast.

        Parameters
        ----------
        *args
            The kernel's arguments.

        Returns
        -------
        tuple
            The values: arrays as given, scalars as NumPy scalars of the declared C
            types, array views and structs as packed NumPy structured scalars.

        Raises
        ------
        TypeError
            For a wrong count, a host (NumPy) array, a wrong dtype, contiguity or
            dimension, a value of another struct, or a scalar of an incompatible type.
        OverflowError
            For an integer outside its C type's range.

        Examples
        --------
        >>> from cunumpy import kernels
        >>> scale = kernels.CudaKernel('extern "C" __global__ void scale(double a, int n) {}', "scale")
        >>> scale.prepare_args(2, 10)
        (np.float64(2.0), np.int32(10))
        """
        values, structs = launch.flatten(args)
        if self._checkers is None or self._signature is None:
            return tuple(values)
        if len(values) != len(self._checkers):
            msg = (
                f"CudaKernel {self.expression} takes {len(self._checkers)} arguments "
                f"(after flattening argument objects), not {len(values)}."
            )
            raise TypeError(msg)
        for index, (struct, param) in enumerate(zip(structs or (), self._signature)):
            if struct is not None and struct != param.ctype:
                msg = (
                    f"CudaKernel {self.expression}: parameter {index} ({param.ctype} "
                    f"{param.name}) does not take a value of struct {struct}."
                )
                raise TypeError(msg)
        return tuple([check(v) for check, v in zip(self._checkers, values)])

    def launch_shape(
        self,
        n_threads: Any = None,
        *,
        grid: Any = None,
        block: Any = None,
        args: Sequence[Any] | None = None,
    ) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The ``(grid, block)`` of a launch with these launch arguments.

        Parameters
        ----------
        n_threads : int or sequence of int, optional
            Threads in 1 to 3 dimensions; the grid is this over the block, rounded up.
        grid : int or sequence of int, optional
            Blocks, instead of ``n_threads``.
        block : int or sequence of int, optional
            The block for this launch instead of :attr:`block_size`.
        args : sequence, optional
            A call's arguments, to infer ``n_threads`` (:attr:`n_threads_from`).

        Returns
        -------
        tuple of (tuple of int, tuple of int)
            Grid and block.

        Raises
        ------
        TypeError
            If not exactly one of ``n_threads`` and ``grid`` is given or inferred.

        Examples
        --------
        >>> from cunumpy import kernels
        >>> k = kernels.CudaKernel('extern "C" __global__ void f(double* a) {}', "f", block_size=(16, 16))
        >>> k.launch_shape((100, 50))
        ((7, 4), (16, 16))
        """
        shape = (
            self._block
            if block is None
            else launch.check_block(launch.as_dims(block, "block", self._name), self._name)
        )
        if n_threads is None and grid is None and args is not None and self._threads_from:
            n_threads = self._threads_from(tuple(args))
        return launch.grid_and_block(n_threads, grid, shape, self._name)

    def __call__(
        self,
        *args: Any,
        n_threads: Any = None,
        grid: Any = None,
        block: Any = None,
        shared_mem: int = 0,
        stream: Any = None,
    ) -> None:
        """Launch the kernel on the GPU that holds its arrays (asynchronously, except in debug mode).

        Parameters
        ----------
        *args
            The kernel's arguments: CuPy arrays, scalars, struct values and argument
            objects (see :meth:`prepare_args`).
        n_threads, grid, block
            The launch shape, as for :meth:`launch_shape`; inferred from the first
            array without ``n_threads`` and ``grid``.
        shared_mem : int, default 0
            Dynamic shared memory per block, in bytes (``extern __shared__``).
        stream : stream, optional
            The stream to queue on (``cunumpy.cuda.stream()``, a ``cupy.cuda.Stream``
            or a handle) of the arrays' GPU; that GPU's current stream by default.

        Raises
        ------
        TypeError
            For arguments that do not fit the signature (NumPy arrays included: kernels
            never copy host data), or arrays of NumPy and CuPy mixed. Inside
            :func:`~cunumpy.kernel_testing.emulated_launches`, a call on NumPy arrays runs
            emulated on the CPU instead.
        ValueError
            For arrays on several GPUs, a stream of another GPU, or a bad launch shape.
        RuntimeError
            Without a usable GPU; in debug mode, for a CUDA error of this launch (the
            kernel and its grid and block are named); with ``check_finite``, for NaN or inf.
        """
        arrays = [a for _, a in launch.device_arrays(args)]
        host = [v for v in launch.flatten(args)[0] if isinstance(v, np.ndarray)]
        # arrays of both libraries: the TypeError naming both, as for every cunumpy call
        where = locate([*arrays, *host], (), stream, f"CudaKernel {self.expression}", strict=False)
        if where == "cpu" and _launches_emulated():
            from ._host_launch import launch_on_host

            launch_on_host(
                self, args, n_threads=n_threads, grid=grid, block=block, shared_mem=shared_mem
            )
            return
        values = self.prepare_args(*args)  # NumPy arrays alone: a TypeError naming the parameter
        if where == "cpu":
            msg = (
                f"CudaKernel {self.expression} runs on a GPU, but its call has no CuPy array "
                "and the backend is NumPy; pass CuPy arrays (cunumpy.to_device) or call "
                "the host kernel."
            )
            raise RuntimeError(msg)
        grid_shape, block_shape = self.launch_shape(n_threads, grid=grid, block=block, args=args)
        shared_mem = operator.index(shared_mem)
        if shared_mem < 0:
            msg = f"CudaKernel {self.expression}: `shared_mem` must be >= 0, not {shared_mem!r}."
            raise ValueError(msg)
        if 0 in grid_shape:
            return
        cupy = require_cupy(f"CudaKernel {self.expression}")
        packed = tuple(for_cupy(v) for v in values)
        with on_gpu(where, stream, f"CudaKernel {self.expression}", arrays) as queue:
            function = self._function(cupy, where)
            if shared_mem > DEFAULT_SHARED_MEMORY_PER_BLOCK:
                limit = max_shared_memory_per_block(where, opt_in=True)
                if shared_mem > limit:
                    msg = (
                        f"CudaKernel {self.expression}: shared_mem={shared_mem} bytes exceeds "
                        f"the {limit} bytes a block may use on GPU {where}."
                    )
                    raise ValueError(msg)
                function.max_dynamic_shared_size_bytes = shared_mem
            note_grid(grid_shape, block_shape)
            function(grid_shape, block_shape, packed, shared_mem=shared_mem)
            if self.debug_active() or self.check_finite:
                self._wait(cupy, queue, grid_shape, block_shape)
            if self.check_finite:
                self._check_finite(cupy, args)

    def _wait(self, cupy: Any, queue: Any, grid: tuple[int, ...], block: tuple[int, ...]) -> None:
        if _capturing(queue):  # a CUDA graph being recorded: nothing runs, nothing to wait for
            return
        note_transfer("sync", f"debug synchronization after CudaKernel {self.expression}")
        try:
            queue.synchronize()
        except (cupy.cuda.runtime.CUDARuntimeError, cupy.cuda.driver.CUDADriverError) as exc:
            msg = (
                f"CudaKernel {self.expression} failed, launched with grid {grid} and block "
                f"{block}: {exc}"
            )
            raise RuntimeError(msg) from exc

    def _check_finite(self, cupy: Any, args: Sequence[Any]) -> None:
        for label, array in launch.device_arrays(args):
            if array.dtype.kind not in "fc":
                continue
            note_transfer(
                "to_host", f"CudaKernel {self.expression}: check_finite of {label}", nbytes=1
            )
            if not bool(cupy.isfinite(array).all()):
                msg = (
                    f"CudaKernel {self.expression} left NaN or inf in {label} (shape "
                    f"{tuple(array.shape)}, dtype {array.dtype})."
                )
                raise RuntimeError(msg)


def _launches_emulated() -> bool:
    """Whether an ``emulated_launches()`` block is open: host arrays then run emulated."""
    from ..._emulation._emulator import SETTINGS

    return bool(SETTINGS["launches"])


def _capturing(stream: Any) -> bool:
    """Whether ``stream`` is recording a CUDA graph (the legacy stream cannot: False)."""
    is_capturing = getattr(stream, "is_capturing", None)
    try:
        return bool(is_capturing()) if is_capturing is not None else False
    except Exception:  # the legacy default stream refuses the query
        return False
