"""``CudaKernel`` launches on host (NumPy) arrays inside ``emulated_launches()``.

The arrays are given to the kernel as arrays of the fake CuPy over the same memory (a
read-only array over a copy), so the launch is checked against the parsed signature as
on a GPU and runs on the CPU emulator of CUDA C; the kernel writes into the NumPy arrays.
This works with and without the fake CuPy installed. Emulated, never a GPU check.
"""

from __future__ import annotations

import weakref
from typing import Any

import numpy as np

from ..._emulation._fake._cuda import RawKernel, RawModule
from ..._emulation._fake._ndarray import ndarray
from ...cuda._checks import accept_device_type
from ._launch import flatten, for_cupy

__all__ = ["launch_on_host"]

accept_device_type(ndarray)  # the stand-ins below pass the checks as CuPy arrays do

# the emulation of each kernel, per option set (the kernel's and the block's)
_FUNCTIONS: weakref.WeakKeyDictionary[Any, dict[tuple[str, ...], RawKernel]] = (
    weakref.WeakKeyDictionary()
)


def _on_device(value: Any) -> Any:
    """A NumPy array as a fake-CuPy array over its memory (over a copy if read-only)."""
    if not isinstance(value, np.ndarray):
        return value
    usable = value.flags.writeable and value.flags.aligned
    return ndarray._of(value if usable else np.array(value))


def _function(kernel: Any) -> RawKernel:
    options = kernel.compile_options()
    functions = _FUNCTIONS.setdefault(kernel, {})
    function = functions.get(options)
    if function is None:
        template = kernel.template_args is not None
        module = RawModule(
            code=kernel.source,
            options=options,
            name_expressions=[kernel.expression] if template else None,
        )
        function = functions[options] = module.get_function(kernel.expression)
    return function


def launch_on_host(
    kernel: Any, args: tuple[Any, ...], *, n_threads: Any, grid: Any, block: Any, shared_mem: int
) -> None:
    """Run one launch of the ``CudaKernel`` `kernel` on host arrays, emulated."""
    values = [_on_device(v) for v in flatten(args)[0]]
    packed = kernel.prepare_args(*values)
    grid_shape, block_shape = kernel.launch_shape(n_threads, grid=grid, block=block, args=args)
    if 0 in grid_shape:
        return
    function = _function(kernel)
    function(grid_shape, block_shape, tuple(for_cupy(v) for v in packed), shared_mem=shared_mem)
