"""Device placement for the CuPy namespace: ``device=`` arguments, and copies between GPUs and the host.

The copies follow the stream-ordering model of ``docs/devices.md``.
"""

from __future__ import annotations

from typing import Any

import cupy
import numpy
from cupy.cuda.pinned_memory import is_memory_pinned

from ..._placement._devices import canonical_device
from ..._placement._stream_order import current_stream_of, wait_for, wait_on_host
from ..._placement._transfer_log import active, describe, note_transfer
from ..._trace._recorder import copy_start

__all__ = [
    "CUPY_MAJOR",
    "copy_from_other_gpu",
    "gpu",
    "host_buffer_is_pinned",
    "move",
    "ready_on",
    "to_host",
    "wait_for_host_copy",
]

CUPY_MAJOR = int(cupy.__version__.partition(".")[0])


def gpu(device: Any, func: str) -> Any:
    """The ``cupy.cuda.Device`` for ``device``; the CPU is a ``ValueError`` naming ``func``."""
    index = canonical_device(device, func)
    if index == "cpu":
        msg = (
            f"{func}: the CuPy namespace creates arrays on GPUs only, not on {device!r}; "
            f"use the NumPy namespace (or cunumpy.{func} with device='cpu') for the CPU."
        )
        raise ValueError(msg)
    return cupy.cuda.Device(index)


def move(x: Any, target: Any, copy: bool | None, func: str) -> Any:
    """``x`` (a CuPy array) on GPU ``target``, copied there only when it lives elsewhere."""
    if x.device.id == target.id:
        return x
    if copy is False:
        msg = (
            f"{func}: copy=False cannot be honoured: the array is on GPU {x.device.id} and "
            f"moving it to GPU {target.id} needs a copy; pass copy=None or copy=True."
        )
        raise ValueError(msg)
    with target:
        return copy_from_other_gpu(x, func)


def copy_from_other_gpu(x: Any, func: str = "to_device") -> Any:
    """A copy of ``x`` on the current GPU, queued on its current stream (``func`` names the caller).

    The copy first waits (on the device, not the host) for the work already queued on the
    current stream of ``x``'s GPU, which may still be writing ``x``; a strided ``x`` is
    made contiguous there first. Afterwards that stream waits for the copy, so the memory
    of ``x`` (or of the contiguous temporary), once released to CuPy's pool, is not
    handed to new work before the copy has read it. CuPy copies between GPUs peer to
    peer, or through the host.
    """
    target = int(cupy.cuda.runtime.getDevice())
    stream = cupy.cuda.get_current_stream()
    source_device = int(x.device.id)
    with x.device:
        source = cupy.ascontiguousarray(x)
    source_stream = current_stream_of(source_device)
    wait_for(stream, target, source_stream, source_device)
    result = source.copy()
    wait_for(source_stream, source_device, stream, target)
    if active():
        detail = f"cuda:{source_device} -> cuda:{target}"
        note_transfer("device_copy", describe(func, x, detail), nbytes=int(result.nbytes))
    return result


def ready_on(x: Any, stream: Any) -> None:
    """Make ``stream`` (of the GPU of ``x``; ``None`` for the current one) wait for ``x``'s producer."""
    if stream is not None:
        index = int(x.device.id)
        wait_for(stream, index, current_stream_of(index), index)


def to_host(x: Any, stream: Any, func: str = "to_numpy") -> numpy.ndarray:
    """``x`` copied to a new NumPy array, after the work queued on the current stream of its GPU.

    With ``stream`` (of ``x``'s GPU), the copy runs there after that stream waits for the
    current one. The call returns when the data is on the host. ``func`` names the caller
    for the transfer counters.
    """
    index = int(x.device.id)
    with x.device:
        if stream is None:
            started = copy_start()
            result: numpy.ndarray = x.get()
        else:
            wait_for(stream, index, current_stream_of(index), index)
            started = copy_start(stream)
            result = x.get(stream=stream)
    if active():
        note_transfer(
            "to_host",
            describe(func, x, f"from cuda:{index}"),
            nbytes=int(result.nbytes),
            started=started,
            stream=stream,
            pinned=False,
        )
    return result


def host_buffer_is_pinned(obj: Any) -> bool:
    """Whether ``obj`` is a NumPy array in page-locked memory, which CuPy copies from asynchronously."""
    return (
        isinstance(obj, numpy.ndarray)
        and obj.nbytes > 0
        and bool(is_memory_pinned(obj.ctypes.data))
    )


def wait_for_host_copy() -> None:
    """Block the host until the copies queued on the current stream so far are done.

    ``cupy.asarray`` of a pinned NumPy array queues the copy straight from the array's
    memory and returns; cunumpy's copies from the host return when the buffer may be
    refilled, as from pageable memory (which CuPy stages first).
    """
    wait_on_host(cupy.cuda.get_current_stream(), int(cupy.cuda.runtime.getDevice()))
