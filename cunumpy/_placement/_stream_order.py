"""Ordering GPU work between streams, and the pool of streams that ``stream()`` blocks use.

These helpers implement the stream-ordering model of ``docs/devices.md``. They make one
stream wait for another on the GPU (an event, never a host wait) and are called only
when CuPy holds work (the CuPy backend, or a CUDA context on the current GPU).
"""

from __future__ import annotations

import sys
import threading
from typing import Any

__all__ = ["acquire_stream", "current_stream_of", "release_stream", "wait_for", "wait_on_host"]


def current_stream_of(device_index: int) -> Any:
    """The current CuPy stream of GPU ``device_index`` in this thread."""
    return sys.modules["cupy"].cuda.get_current_stream(device_index)


def wait_for(waiter: Any, waiter_device: int, producer: Any, producer_device: int) -> None:
    """Make ``waiter`` (on GPU ``waiter_device``) wait for the work queued so far on ``producer``.

    The wait happens on the GPU: the host does not block. Nothing is queued when both
    are the same stream, since work on one stream already runs in order.
    """
    if waiter_device == producer_device and int(waiter.ptr) == int(producer.ptr):
        return
    cuda = sys.modules["cupy"].cuda
    with cuda.Device(producer_device):  # an event is recorded on a stream of its own GPU
        event = cuda.Event(disable_timing=True)
        event.record(producer)
    with cuda.Device(waiter_device):  # the null stream means the current GPU's
        waiter.wait_event(event)


def wait_on_host(stream: Any, device_index: int) -> None:
    """Block the host until the work queued so far on ``stream`` (of GPU ``device_index``) is done.

    Unlike ``stream.synchronize()``, work that other threads queue on the stream later
    is not waited for.
    """
    cuda = sys.modules["cupy"].cuda
    with cuda.Device(device_index):
        event = cuda.Event(disable_timing=True)
        event.record(stream)
    event.synchronize()


class _Pool(threading.local):
    """Idle non-blocking streams of this thread, per GPU; see ``acquire_stream``."""

    def __init__(self) -> None:
        self.idle: dict[int, list[Any]] = {}


_pool = _Pool()


def acquire_stream(device_index: int) -> Any:
    """A non-blocking stream of GPU ``device_index`` that no open block of this thread uses.

    Streams come from a per-thread pool and go back with ``release_stream``: CuPy caches
    device memory per stream, so a new CUDA stream for every block would make the cache
    grow with each block and never reuse it.
    """
    idle = _pool.idle.get(device_index)
    if idle:
        return idle.pop()
    cuda = sys.modules["cupy"].cuda
    with cuda.Device(device_index):
        return cuda.Stream(non_blocking=True)


def release_stream(device_index: int, stream: Any) -> None:
    """Give ``stream`` back to this thread's pool, for the next block on GPU ``device_index``."""
    _pool.idle.setdefault(device_index, []).append(stream)
