"""Devices, memory, synchronization and streams, safe to call on every backend.

On the CuPy backend these helpers act on the current GPU. On the NumPy backend, called
without a GPU device, they are no-ops or return a neutral value (``"cpu"``, ``None``)
and do not import CuPy, so portable code can call them unconditionally. Asking for a GPU
explicitly (an int index, ``"cuda:N"``, a ``cupy.cuda.Device`` or a CuPy array's
``.device``) needs a usable CuPy and raises ``RuntimeError`` with the reason otherwise;
``set_device`` is the one exception (see its docstring).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ._config import get_backend
from ._cuda_memory import (
    MemoryStats,
    free_memory,
    loaded_cupy,
    memory_info,
    memory_stats,
    pin_memory,
    target_gpu,
)
from ._cupy import cupy_available, require_cupy, visible_gpu_count
from ._devices import Canonical, canonical_device
from ._streams import _stream_device, as_cupy_stream

__all__ = [
    "MemoryStats",
    "cupy_available",
    "current_device",
    "current_stream",
    "device",
    "device_count",
    "free_memory",
    "memory_info",
    "memory_stats",
    "pin_memory",
    "set_device",
    "stream",
    "synchronize",
]


def device_count() -> int:
    """Return the number of GPUs visible to this process, whatever the backend.

    Returns
    -------
    int
        The number of visible CUDA devices; ``0`` when CuPy is not installed or not
        usable (this may import CuPy to find out, and never raises).

    Examples
    --------
    >>> import cunumpy.cuda as cuda
    >>> cuda.device_count() >= 0
    True
    """
    return visible_gpu_count()


def current_device() -> Canonical:
    """Return the device new arrays are created on.

    Returns
    -------
    int or "cpu"
        The index of the current GPU on the CuPy backend, ``"cpu"`` on the NumPy
        backend. Both forms are accepted by every ``device`` argument of cunumpy.

    Examples
    --------
    >>> import cunumpy as xp
    >>> import cunumpy.cuda as cuda
    >>> d = cuda.current_device()
    >>> d == "cpu" if xp.get_backend() == "numpy" else isinstance(d, int)
    True
    """
    if get_backend() != "cupy":
        return "cpu"
    return int(require_cupy("current_device").cuda.runtime.getDevice())


def set_device(device: Any, /) -> None:
    """Make a GPU the current device of this thread: CuPy arrays created afterwards live there.

    On the NumPy backend, arrays are created on the CPU whatever the current GPU, so this
    is a no-op when CuPy is not usable: scripts that call it unconditionally still run on
    machines without a GPU. When CuPy is usable, the GPU is validated and made current
    also on the NumPy backend, so that a later ``set_backend("cupy")`` or ``to_cupy``
    uses it. ``"cpu"`` is a no-op on every backend.

    Parameters
    ----------
    device : device
        An int GPU index, ``"cuda:N"``, ``"cuda"``, a ``cupy.cuda.Device``, an array's
        ``.device`` or ``"cpu"``.

    Raises
    ------
    TypeError
        If ``device`` is not a device.
    ValueError
        If ``device`` is malformed or, with a usable CuPy, not a visible GPU.

    See Also
    --------
    device : the same for a ``with`` block, restoring the previous GPU on exit.

    Examples
    --------
    >>> import cunumpy.cuda as cuda
    >>> cuda.set_device("cpu")
    >>> if cuda.device_count() > 0:
    ...     cuda.set_device(0)
    """
    try:
        canonical = canonical_device(device, "set_device")
    except RuntimeError:
        if get_backend() == "cupy":  # cannot happen: the CuPy backend needs a usable CuPy
            raise
        return  # NumPy backend without a usable GPU: documented no-op
    if canonical == "cpu":
        return
    sys.modules["cupy"].cuda.Device(canonical).use()


@contextmanager
def device(device: Any, /) -> Iterator[Canonical]:
    """Make a device current inside a ``with`` block, then restore the previous GPU.

    The previous GPU is restored on exit, also when the block raises. ``"cpu"`` changes
    nothing. The backend is not changed: on the NumPy backend, creation functions still
    create NumPy arrays inside the block.

    Parameters
    ----------
    device : device
        An int GPU index, ``"cuda:N"``, ``"cuda"``, a ``cupy.cuda.Device``, an array's
        ``.device`` or ``"cpu"``.

    Yields
    ------
    int or "cpu"
        The canonical form of ``device``.

    Raises
    ------
    TypeError
        If ``device`` is not a device.
    ValueError
        If ``device`` is malformed or not a visible GPU.
    RuntimeError
        If a GPU is asked for and CuPy is not usable; the message gives the reason.

    Examples
    --------
    >>> import numpy as np
    >>> import cunumpy.cuda as cuda
    >>> x = np.zeros(3)
    >>> with cuda.device(x.device) as d:
    ...     print(d)
    cpu
    """
    canonical = canonical_device(device, "device")
    if canonical == "cpu":
        yield canonical
        return
    with sys.modules["cupy"].cuda.Device(canonical):
        yield canonical


def synchronize(device: Any = None, *, stream: Any = None) -> None:
    """Wait until the queued GPU work is done: of a device, or of one stream.

    Call it before timing with a host clock, or before a library that does not know
    about CuPy (MPI, most importantly) reads device memory.

    Parameters
    ----------
    device : device, optional
        The GPU to wait for, in any form ``memory_info`` accepts. ``None`` means the
        current GPU; on the NumPy backend it waits only when CuPy has already been
        imported and is usable (CuPy arrays may exist, since compute follows data), and
        returns at once, without importing CuPy, otherwise. ``"cpu"`` does nothing.
    stream : stream, optional
        Wait for this stream only: a stream from ``stream()``, a ``cupy.cuda.Stream``
        or an int CUDA stream handle. It must belong to ``device`` when both are given.

    Raises
    ------
    TypeError
        If ``device`` or ``stream`` has a wrong type.
    ValueError
        If ``device`` is not valid, is ``"cpu"`` with a ``stream``, or ``stream``
        belongs to another GPU.
    RuntimeError
        If a GPU or a stream is asked for and CuPy is not usable.

    Examples
    --------
    >>> import cunumpy.cuda as cuda
    >>> with cuda.stream() as s:
    ...     pass
    >>> cuda.synchronize()
    """
    if stream is not None:
        _check_stream_type(stream, "synchronize")
        owner = _stream_gpu(stream, device, "synchronize")
        resolved = as_cupy_stream(stream, owner, "synchronize")
        with sys.modules["cupy"].cuda.Device(owner):  # the null stream is per device
            resolved.synchronize()
        return
    index = target_gpu(device, "synchronize")
    if index is not None:
        sys.modules["cupy"].cuda.Device(index).synchronize()
    elif device is None and (cupy := loaded_cupy()) is not None:
        cupy.cuda.runtime.deviceSynchronize()


@contextmanager
def stream(s: Any = None, /) -> Iterator[Any]:
    """Make a CUDA stream current inside a ``with`` block.

    Work on one stream runs in order; work queued on different streams may overlap.
    Without an argument, a new non-blocking stream (one that does not wait for the
    legacy default stream) is created on the current GPU. Its work starts after the work
    already queued on the stream that was current (it waits on an event; the host does
    not block), so arrays made just before the block are ready inside it. Leaving the
    block does not wait for the stream: call ``synchronize()`` before using its results
    elsewhere.

    Parameters
    ----------
    s : stream, optional
        An existing stream to make current instead: a ``cupy.cuda.Stream`` (or
        ``ExternalStream``) or an int CUDA stream handle (for the current GPU). The
        stream's GPU is made current for the block too.

    Yields
    ------
    cupy.cuda.Stream or None
        The current stream; ``None`` on the NumPy backend without ``s`` (CuPy is not
        imported then), so portable code must not call methods on it.

    Raises
    ------
    TypeError
        If ``s`` is not a stream.
    RuntimeError
        If ``s`` is given and CuPy is not usable.

    Examples
    --------
    >>> import cunumpy.cuda as cuda
    >>> with cuda.stream() as s:
    ...     same = cuda.current_stream() is s
    >>> same
    True
    >>> cuda.synchronize()
    """
    if s is None:
        if get_backend() != "cupy":
            yield None
            return
        cupy = require_cupy("stream")
        before = cupy.cuda.get_current_stream().record()
        new = cupy.cuda.Stream(non_blocking=True)
        new.wait_event(before)
        with new:
            yield new
        return
    _check_stream_type(s, "stream")
    index = _stream_gpu(s, None, "stream")
    resolved = as_cupy_stream(s, index, "stream")
    with sys.modules["cupy"].cuda.Device(index), resolved:
        yield resolved


def current_stream() -> Any:
    """Return the stream CuPy queues work on in this thread.

    Returns
    -------
    cupy.cuda.Stream or None
        CuPy's current stream of the current GPU on the CuPy backend; ``None`` on the
        NumPy backend (CuPy is not imported).

    Examples
    --------
    >>> import cunumpy as xp
    >>> import cunumpy.cuda as cuda
    >>> (cuda.current_stream() is None) == (xp.get_backend() == "numpy")
    True
    """
    if get_backend() != "cupy":
        return None
    return require_cupy("current_stream").cuda.get_current_stream()


def _check_stream_type(s: Any, func: str) -> None:
    """Raise ``TypeError`` for a non-stream before anything needs a GPU."""
    cupy = sys.modules.get("cupy")
    kinds: tuple[type, ...] = (int,)
    if cupy is not None:
        kinds = (int, cupy.cuda.Stream, cupy.cuda.ExternalStream)
    if isinstance(s, bool) or not isinstance(s, kinds):
        as_cupy_stream(s, 0, func)  # raises the TypeError listing what is accepted


def _stream_gpu(s: Any, device: Any, func: str) -> int:
    """Return the GPU a stream is used on: ``device``, else the stream's own, else the current."""
    if device is not None:
        canonical = canonical_device(device, func)
        if canonical == "cpu":
            msg = f"{func}: a stream ({s!r}) cannot be used with device {device!r}; pass a GPU device or None."
            raise ValueError(msg)
        return canonical
    cupy = require_cupy(func)
    owner = _stream_device(s)
    return owner if owner is not None else int(cupy.cuda.runtime.getDevice())
