"""Running one CUDA C kernel on the CPU emulator directly, on NumPy arrays."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .._emulation import _emulator
from .._emulation._emulator import (
    EmulatedLibrary,
    emulation_cache_dir,
    emulation_compiler,
    pack_arguments,
)
from ._emulate_args import pack_declared

__all__ = [
    "compile_for_emulation",
    "emulate_cuda_kernel",
    "emulation_cache_dir",
    "emulation_compiler",
]


def _parts(kernel: Any) -> tuple[str, str, tuple[str, ...]]:
    """The source, the name expression and the options of a kernel object."""
    source = getattr(kernel, "source", None) or getattr(kernel, "code", None)
    name = getattr(kernel, "name_expression", None) or getattr(kernel, "name", None)
    if not isinstance(source, str) or not isinstance(name, str):
        msg = (
            f"emulate_cuda_kernel: `kernel` must be a CUDA C kernel with `source` (or `code`) and "
            f"`name` (a CudaKernel or RawKernel), not {type(kernel).__name__}."
        )
        raise TypeError(msg)
    options = tuple(getattr(kernel, "options", ()) or ())
    dirs = tuple(f"-I{d}" for d in getattr(kernel, "include_dirs", ()) or ())
    return source, name, (*options, *dirs)


def _library(
    kernel: Any, compiler: str | None, options: Sequence[str]
) -> tuple[EmulatedLibrary, str]:
    source, name, own = _parts(kernel)
    previous = dict(_emulator.SETTINGS)
    if compiler is not None:
        _emulator.SETTINGS["compiler"] = compiler
    _emulator.SETTINGS["options"] = (*previous["options"], *options)
    try:
        return _emulator.build(source, (name,), own, what=f"kernel {name!r}"), name
    finally:
        _emulator.SETTINGS.update(previous)


def compile_for_emulation(
    kernel: Any, *, compiler: str | None = None, options: Sequence[str] = ()
) -> None:
    """Build (or take from the cache) the emulation library of `kernel` now.

    Parameters
    ----------
    kernel : CudaKernel or RawKernel
        A CUDA C kernel (``source``/``code`` and ``name``).
    compiler : str, optional
        The C++ compiler; default :func:`emulation_compiler`.
    options : sequence of str, optional
        Extra compiler options.

    Raises
    ------
    NotImplementedError
        If the kernel uses warp intrinsics, or an inline PTX instruction other than
        ``trap``, ``membar`` and ``fence``, which the emulation cannot run.
    RuntimeError
        Without a C++ compiler, or when the kernel does not compile (with the output).

    Examples
    --------
    >>> from cunumpy.kernel_testing import compile_for_emulation
    >>> from cunumpy.kernels import RawKernel
    >>> compile_for_emulation(RawKernel('extern "C" __global__ void noop() {}', "noop"))
    """
    _library(kernel, compiler, options)


def _cast(params: list[tuple[int, str]], args: Sequence[Any]) -> list[Any]:
    """Scalars cast to their parameters' C types (a ``CudaKernel`` call does the same)."""
    codes = {"floating": "f", "signed integer": "i", "unsigned integer": "u"}
    cast = []
    for (size, kind), value in zip(params, args):
        if (
            kind in codes
            and isinstance(value, (int, float, np.number))
            and not isinstance(value, bool)
        ):
            dtype = np.dtype(f"{codes[kind]}{size}")
            if dtype.kind in "iu" and not np.iinfo(dtype).min <= int(value) <= np.iinfo(dtype).max:
                msg = (
                    f"emulate_cuda_kernel: {value!r} does not fit the {size}-byte {kind} parameter."
                )
                raise OverflowError(msg)
            value = dtype.type(value)
        elif kind == "bool" and isinstance(value, (bool, np.bool_)):
            value = np.bool_(value)
        cast.append(value)
    return cast


def _shape(value: int | Sequence[int]) -> tuple[int, int, int]:
    dims = (int(value),) if isinstance(value, (int, np.integer)) else tuple(int(v) for v in value)
    return (*dims, 1, 1)[:3]  # type: ignore[return-value]


def emulate_cuda_kernel(
    kernel: Any,
    *args: Any,
    n_threads: int | Sequence[int] | None = None,
    grid: int | Sequence[int] | None = None,
    block: int | Sequence[int] | None = None,
    compiler: str | None = None,
    options: Sequence[str] = (),
    shared_mem: int = 0,
) -> None:
    """Run `kernel` on the CPU, thread by thread, as if launched on `args` (emulated).

    Pointer parameters take NumPy arrays (or fake CuPy arrays) and the kernel writes into
    them; scalars are cast to the parameters' C types with range checks. Threads of a block
    that call ``__syncthreads`` run as fibers, so barriers and shared memory work.

    Parameters
    ----------
    kernel : CudaKernel or RawKernel
        A CUDA C kernel (``source``/``code`` and ``name``).
    *args : array or scalar
        The kernel's arguments. An array view parameter (``Array2D<double>``, declared
        in ``cunumpy/array_view.cuh`` or a header of the same layout) takes an array of
        any strides; a struct parameter takes a value of its ``CudaStruct``, a mapping
        of field names to values or an object with an attribute per field (views and
        pointers among them take arrays).
    n_threads : int or tuple of int, optional
        Total threads: ``grid`` is rounded up from it with ``block`` threads a block
        (default the kernel's ``block_size``, else 128). Without it or ``grid``, a
        ``CudaKernel`` launches as a call would (its ``n_threads_from``: by default the
        first array's size).
    grid, block : int or tuple of int, optional
        The launch shape, instead of `n_threads`.
    compiler : str, optional
        The C++ compiler.
    options : sequence of str, optional
        Extra compiler options, e.g. ``("-ffp-contract=off",)``.
    shared_mem : int, optional
        Dynamic shared memory per block, in bytes (``extern __shared__``).

    Raises
    ------
    TypeError
        If an argument does not fit its parameter.
    ValueError
        Without `n_threads` or `grid`, or with a negative `shared_mem`.
    RuntimeError
        Without a C++ compiler, when the kernel does not compile, or calls ``__trap()``
        (also through the inline PTX ``asm("trap;")``).
    NotImplementedError
        If the kernel uses warp intrinsics, or reaches an inline PTX instruction other
        than ``trap``, ``membar`` and ``fence``; the message names it and the kernel.

    Examples
    --------
    >>> import numpy as np
    >>> from cunumpy.kernels import RawKernel
    >>> from cunumpy.kernel_testing import emulate_cuda_kernel
    >>> axpy = RawKernel(
    ...     'extern "C" __global__ void axpy(double a, const double* x, double* y, int n) {'
    ...     " int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] += a * x[i]; }",
    ...     "axpy",
    ... )
    >>> y = np.zeros(3)
    >>> emulate_cuda_kernel(axpy, 2.0, np.arange(3.0), y, 3, n_threads=3)
    >>> y
    array([0., 2., 4.])
    """
    if shared_mem < 0:
        msg = f"emulate_cuda_kernel: `shared_mem` must be non-negative, not {shared_mem!r}."
        raise ValueError(msg)
    library, name = _library(kernel, compiler, options)
    params = library.params[name]
    block_shape = _shape(block if block is not None else getattr(kernel, "block_size", 128) or 128)
    inferred = n_threads is not None or getattr(kernel, "n_threads_from", None) is not None
    if grid is None and inferred and hasattr(kernel, "launch_shape"):
        # a CudaKernel's launch: its block, n_threads in 1 to 3 dimensions or from the arguments
        grid_dims, block_dims = kernel.launch_shape(n_threads, block=block, args=args)
        grid_shape, block_shape = _shape(grid_dims), _shape(block_dims)
    elif grid is not None:
        grid_shape = _shape(grid)
    elif n_threads is not None:
        total = int(np.prod(_shape(n_threads)))
        grid_shape = (max(1, -(-total // block_shape[0])), 1, 1)
    else:
        msg = f"emulate_cuda_kernel: kernel {name!r} needs `n_threads` or `grid`."
        raise ValueError(msg)
    from .._emulation._fake._ndarray import ndarray

    def buffer_of(value: Any) -> Any:
        if type(value) is ndarray:
            return value._a
        return value if isinstance(value, np.ndarray) else None

    declared = pack_declared(
        f"emulate_cuda_kernel: kernel {name!r}", getattr(kernel, "signature", None), args
    )
    argv, keep = pack_arguments(name, params, _cast(params, declared), buffer_of)
    trapped = library.launch(name, argv, grid_shape, block_shape, int(shared_mem))
    del keep
    if trapped:
        msg = f"emulate_cuda_kernel: kernel {name!r} called __trap() (e.g. a failed bounds check)."
        raise RuntimeError(msg)
