"""How the CUDA target of portable kernels reaches arrays: views, allocation, the launch.

``CupyMemory``: CuPy arrays on a GPU; its views are ``RawArray`` (pointer, shape, strides),
the first launch of a compiled version goes through Numba (which compiles) and leaves a
``Launcher`` for the later ones, with the stream object made once per handle.
``SimulatorMemory``: NumPy arrays under Numba's CUDA simulator, for the tests.
"""

from __future__ import annotations

import importlib
import threading
import warnings
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np

__all__ = ["CupyMemory", "Memory", "SimulatorMemory", "fast_launcher", "give_up_fast_launch"]

Shape = tuple[int, ...]


def _kernels() -> ModuleType:
    return importlib.import_module("cunumpy.kernels._portable._numba_cuda_kernels")


class Memory:
    """How the CUDA target reaches arrays: allocation, views and the launch stream."""

    library: ModuleType
    simulator: bool

    def pointer(self, x: Any) -> int:
        raise NotImplementedError

    def view(self, x: Any, shape: Shape, strides: Shape) -> Any:
        raise NotImplementedError

    def launch(self, kernel: Any, grid: tuple[int, ...], block: tuple[int, ...], args: Any) -> Any:
        """Launch ``kernel`` through Numba; returns a ``Launcher`` for its next calls, or None."""
        raise NotImplementedError


class CupyMemory(Memory):
    """CuPy arrays on GPU ``device``, launched on the stream with handle ``stream_ptr``.

    Views are ``RawArray`` (pointer, shape, strides): the first launch of a kernel version
    converts them to Numba device arrays and launches through Numba, which compiles;
    later ones go through the ``Launcher`` that launch returns (see ``CudaLoops``).
    """

    simulator = False

    def __init__(self, cupy: ModuleType, device: int, stream_ptr: int) -> None:
        self.library = cupy
        self.device = device
        self.stream_ptr = stream_ptr

    def pointer(self, x: Any) -> int:
        return int(x.data.ptr)

    def view(self, x: Any, shape: Shape, strides: Shape) -> Any:
        return _kernels().RawArray(int(x.data.ptr), shape, strides, x.dtype)

    def launch(self, kernel: Any, grid: tuple[int, ...], block: tuple[int, ...], args: Any) -> Any:
        k = _kernels()
        device_args = _map_arrays(k.device_array, args)
        with k.gpu(self.device):
            kernel[grid, block, k.external_stream(self.stream_ptr)](*device_args)
            return fast_launcher(kernel, device_args, args)

    def stream(self) -> Any:
        """The launch stream as the lowest launch call takes it, made once per handle."""
        key = (self.device, self.stream_ptr)
        found = _CORE_STREAMS.get(key)
        if found is None:
            if len(_CORE_STREAMS) >= _MAX_CORE_STREAMS:
                _CORE_STREAMS.clear()
            k = _kernels()
            with k.gpu(self.device):
                found = _CORE_STREAMS[key] = k.core_stream(self.stream_ptr)
        return found

    def ready(self) -> None:
        """Make the GPU's primary context current on this thread (once per thread), as the
        fast launch calls the driver directly, without entering Numba's context."""
        devices = getattr(_THREAD, "devices", None)
        if devices is None:
            devices = _THREAD.devices = set()
        if self.device not in devices:
            self.library.cuda.runtime.setDevice(self.device)
            devices.add(self.device)


# Why the fast launch was given up in this process (numba-cuda's private launch path failed
# to build), or None while it works.
_FAST_LAUNCH_PROBLEM: list[str] = []


def fast_launcher(kernel: Any, device_args: tuple[Any, ...], args: Any) -> Any:
    """The ``Launcher`` of the version ``kernel`` just ran, or None: launch through Numba.

    The fast launch uses numba-cuda's private launch path (``_codelibrary.get_cufunc``,
    ``_prepare_args``, ``dispatcher.launch``, ``LaunchConfig``, ``_to_core_stream``). If
    building it fails, as on a numba-cuda release that changed them, every later launch
    goes through numba-cuda's public ``kernel[grid, block, stream](*args)``, with one
    warning per process.
    """
    if _FAST_LAUNCH_PROBLEM:
        return None
    try:
        return _kernels().Launcher.make(kernel, device_args, args)
    except Exception as exc:  # any failure of private internals: the public launch
        give_up_fast_launch(exc)
        return None


def give_up_fast_launch(exc: BaseException) -> None:
    """Launch portable kernels through numba-cuda's public launch from now on, and say so once."""
    if _FAST_LAUNCH_PROBLEM:
        return
    try:
        from importlib.metadata import version

        numba_cuda = f"numba-cuda {version('numba-cuda')}"
    except Exception:  # the version only decorates the message
        numba_cuda = "this numba-cuda"
    problem = f"{type(exc).__name__}: {exc}"
    _FAST_LAUNCH_PROBLEM.append(problem)
    msg = (
        f"portable kernels: the fast GPU launch cannot be built on {numba_cuda} ({problem}); "
        "kernels are launched through numba-cuda's public `kernel[grid, block, stream](*args)` "
        "from now on (correct, some microseconds slower per launch). Please report it to "
        "cunumpy with your numba-cuda version."
    )
    warnings.warn(msg, RuntimeWarning, stacklevel=2)


# The stream objects of the fast launch, by GPU and stream handle: each only wraps the
# handle; a handle reused by a new stream is the same stream to the driver.
_CORE_STREAMS: dict[tuple[int, int], Any] = {}
_MAX_CORE_STREAMS = 64
_THREAD = threading.local()


def _map_arrays(convert: Callable[[Any], Any], args: Any) -> Any:
    """``args`` with each ``RawArray`` (in nested tuples) replaced by ``convert`` of it."""
    if isinstance(args, tuple):
        return tuple(_map_arrays(convert, a) for a in args)
    return convert(args) if isinstance(args, _kernels().RawArray) else args


class SimulatorMemory(Memory):
    """NumPy arrays under Numba's CUDA simulator (``NUMBA_ENABLE_CUDASIM=1``): for tests."""

    library = np
    simulator = True

    def pointer(self, x: Any) -> int:
        return int(x.__array_interface__["data"][0])

    def view(self, x: Any, shape: Shape, strides: Shape) -> Any:
        return np.lib.stride_tricks.as_strided(x, shape, strides)

    def launch(self, kernel: Any, grid: tuple[int, ...], block: tuple[int, ...], args: Any) -> Any:
        kernel[grid, block](*args)
        return None
