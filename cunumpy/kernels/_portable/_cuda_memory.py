"""How the CUDA target of portable kernels reaches arrays: views, allocation, the launch.

``CupyMemory``: CuPy arrays on a GPU; its views are ``RawArray`` (pointer, shape, strides),
the first launch of a compiled version goes through Numba (which compiles) and leaves a
``Launcher`` for the later ones, with the stream object made once per handle.
``SimulatorMemory``: NumPy arrays under Numba's CUDA simulator, for the tests.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np

__all__ = ["CupyMemory", "Memory", "SimulatorMemory"]

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
            return k.Launcher.make(kernel, device_args, args)

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
