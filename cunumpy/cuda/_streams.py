"""Streams: the ``stream()`` block, the current stream, synchronization, and stream arguments.

Every ``stream=`` argument of cunumpy goes through ``as_cupy_stream``, which turns it
into a CuPy stream checked against the GPU the work runs on.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from typing import Any

from .._backend_choice._config import get_backend
from .._placement._devices import canonical_device
from .._placement._keep_alive import close_block, open_block, release_finished
from .._placement._stream_order import acquire_stream, release_stream, wait_for
from .._placement._transfer_log import active, note_transfer
from .._settings._cupy_probe import require_cupy
from .._trace._recorder import waiting
from ._events import HostStream
from ._memory import loaded_cupy, target_gpu

__all__ = [
    "as_cupy_stream",
    "current_stream",
    "on_device_and_stream",
    "stream",
    "streams",
    "synchronize",
]

_ACCEPTED = (
    "None, a stream from cunumpy.cuda.stream(), a cupy.cuda.Stream, or an int CUDA stream handle"
)


def _stream_device(stream: Any) -> int | None:
    device_id = getattr(stream, "device_id", None)
    return None if device_id is None or device_id < 0 else int(device_id)


class _Handle:
    """A raw stream handle, offered through the CUDA stream protocol."""

    def __init__(self, ptr: int) -> None:
        self.ptr = ptr

    def __cuda_stream__(self) -> tuple[int, int]:
        return (0, self.ptr)


def _wrap_handle(cupy: Any, ptr: int, device_index: int) -> Any:
    """A CuPy stream for handle ``ptr`` on GPU ``device_index``; it never destroys the stream.

    CuPy 14 deprecates ``ExternalStream`` (a ``DeprecationWarning``) for
    ``Stream.from_external``, which records no device; CuPy 13 has only the former.
    """
    from_external = getattr(cupy.cuda.Stream, "from_external", None)
    if from_external is None:
        return cupy.cuda.ExternalStream(ptr, device_index)
    wrapped = from_external(_Handle(ptr))
    wrapped.device_id = device_index
    return wrapped


def as_cupy_stream(stream: Any, device_index: int, func: str) -> Any:
    """Return ``stream`` as a CuPy stream usable on GPU ``device_index`` (or None).

    An int is a raw CUDA stream handle (the DLPack convention) and is wrapped in a CuPy
    stream recorded on ``device_index`` that does not own it. A stream that belongs to
    another GPU raises ``ValueError``.
    """
    if stream is None:
        return None
    cupy = sys.modules.get("cupy")
    if isinstance(stream, bool):
        msg = f"{func}: `stream` cannot be a bool ({stream!r}); expected {_ACCEPTED}."
        raise TypeError(msg)
    if isinstance(stream, int):
        cupy = require_cupy(func)
        if stream < 0:
            msg = f"{func}: a CUDA stream handle cannot be negative ({stream!r})."
            raise ValueError(msg)
        return _wrap_handle(cupy, stream, device_index)
    if cupy is None or not isinstance(stream, (cupy.cuda.Stream, cupy.cuda.ExternalStream)):
        msg = f"{func}: cannot use {stream!r} as a stream; expected {_ACCEPTED}."
        raise TypeError(msg)
    owner = _stream_device(stream)
    if owner is not None and owner != device_index:
        msg = (
            f"{func}: the stream {stream!r} belongs to GPU {owner}, but the work runs on "
            f"GPU {device_index}; use a stream created on GPU {device_index}."
        )
        raise ValueError(msg)
    return stream


@contextmanager
def on_device_and_stream(device_index: int, stream: Any, func: str) -> Iterator[None]:
    """Make GPU ``device_index`` current and, when given, ``stream`` current, for a block."""
    import cupy

    resolved = as_cupy_stream(stream, device_index, func)
    with cupy.cuda.Device(device_index), resolved if resolved is not None else nullcontext():
        yield


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
        Wait for this stream only: a stream from ``stream()`` or ``create_stream()``, a
        ``cupy.cuda.Stream`` or an int CUDA stream handle. It must belong to ``device``
        when both are given. A ``HostStream`` has nothing to wait for.

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
    if isinstance(stream, HostStream):
        return  # host work is complete when it returns
    if stream is not None:
        _check_stream_type(stream, "synchronize")
        owner = _stream_gpu(stream, device, "synchronize")
        resolved = as_cupy_stream(stream, owner, "synchronize")
        if active():
            note_transfer("sync", f"synchronize(stream={stream!r}) on cuda:{owner}")
        with sys.modules["cupy"].cuda.Device(owner), waiting(f"synchronize of cuda:{owner}"):
            resolved.synchronize()
        release_finished()
        return
    index = target_gpu(device, "synchronize")
    if index is not None:
        if active():
            note_transfer("sync", f"synchronize() of cuda:{index}")
        with waiting(f"synchronize of cuda:{index}"):
            sys.modules["cupy"].cuda.Device(index).synchronize()
        release_finished()
    elif device is None and (cupy := loaded_cupy()) is not None:
        if active():
            note_transfer("sync", "synchronize() of the current GPU")
        with waiting("synchronize of the current GPU"):
            cupy.cuda.runtime.deviceSynchronize()
        release_finished()


@contextmanager
def stream(s: Any = None, /) -> Iterator[Any]:
    """Queue the GPU work of a ``with`` block on another stream.

    Without an argument the block is a *branch* of the current stream: it runs on a
    non-blocking stream of the current GPU, taken from a per-thread pool, which first
    waits for the work already queued on the stream that was current, and which that
    stream waits for when the block ends (on the GPU; the host does not block). Code
    inside and after the block therefore sees every result in program order, as
    without the block. Work of the block overlaps with what the host does meanwhile
    and, for branches opened together with ``streams(n)``, with the other branches.

    With a stream ``s``, ``s`` is made current for the block and nothing is ordered:
    ``s`` neither waits for the outer stream nor is waited for. That is the rule for
    streams you create yourself (as in CuPy) and for the branches of ``streams(n)``,
    which order themselves.

    Parameters
    ----------
    s : stream, optional
        An existing stream to make current instead: a branch from ``streams(n)``, a
        stream from ``create_stream()``, a ``cupy.cuda.Stream`` (or ``ExternalStream``)
        or an int CUDA stream handle (for the current GPU). The stream's GPU is made
        current for the block too. A ``HostStream`` (``create_stream()`` on the NumPy
        backend) is yielded and changes nothing; on the CuPy backend it is a ``ValueError``,
        since GPU work cannot be queued on it.

    Yields
    ------
    cupy.cuda.Stream or None
        The current stream. Without ``s`` it is a branch whenever CuPy holds work: on the
        CuPy backend, and on the NumPy backend once CuPy has a CUDA context on the current
        GPU (arrays made with ``device="cuda:N"`` compute there); ``None`` otherwise
        (no GPU work: CuPy is not imported then, or has no context), so portable code
        must not call methods on it.

    Raises
    ------
    TypeError
        If ``s`` is not a stream.
    ValueError
        If ``s`` is a ``HostStream`` on the CuPy backend.
    RuntimeError
        If ``s`` is given and CuPy is not usable.

    See Also
    --------
    streams : several branches that start from the same point and may overlap.

    Examples
    --------
    >>> import cunumpy.cuda as cuda
    >>> with cuda.stream() as s:
    ...     same = cuda.current_stream() is s
    >>> same
    True
    """
    if s is None:
        cupy = _gpu_work("stream")
        if cupy is None:
            yield None
            return
        index = int(cupy.cuda.runtime.getDevice())
        outer = cupy.cuda.get_current_stream()
        branch = acquire_stream(index)
        wait_for(branch, index, outer, index)
        seen = open_block()
        try:
            with branch:
                yield branch
        finally:
            wait_for(outer, index, branch, index)
            close_block(seen, branch, index)  # what the block used lives until it has run
            release_stream(index, branch)
        return
    if isinstance(s, HostStream):
        if get_backend() == "cupy":
            msg = (
                f"stream: {s!r} is a host stand-in, on which the CuPy backend cannot queue GPU "
                f"work; create the stream with create_stream() on the CuPy backend."
            )
            raise ValueError(msg)
        with s:
            yield s
        return
    _check_stream_type(s, "stream")
    index = _stream_gpu(s, None, "stream")
    resolved = as_cupy_stream(s, index, "stream")
    with sys.modules["cupy"].cuda.Device(index), resolved:
        seen = open_block()
        try:
            yield resolved
        finally:
            close_block(seen, resolved, index)  # what the block used lives until it has run


@contextmanager
def streams(n: int, /) -> Iterator[tuple[Any, ...]]:
    """Open ``n`` branches of the current stream that may run at the same time.

    Each branch is a non-blocking stream of the current GPU (from the same per-thread
    pool as ``stream()``). All of them first wait for the work queued so far on the
    current stream, and the current stream waits for all of them when the block ends,
    so code after the block sees their results. The current stream does not change:
    queue work on a branch with ``with stream(branch):``. Work on different branches
    is not ordered: a branch that needs another's result must get it after the block.

    Parameters
    ----------
    n : int
        The number of branches, at least 1.

    Yields
    ------
    tuple of cupy.cuda.Stream, or tuple of None
        ``n`` distinct streams whenever CuPy holds work (as for ``stream()``); ``n``
        times ``None`` otherwise, where ``stream(None)`` is a no-op, so the same code
        runs there.

    Raises
    ------
    TypeError
        If ``n`` is not an int.
    ValueError
        If ``n`` is less than 1.

    Examples
    --------
    Copy the next batch while the current one is processed (double buffering):

    >>> import numpy as np
    >>> import cunumpy as xp
    >>> import cunumpy.cuda as cuda
    >>> current, following = xp.asarray(np.ones(4)), np.full(4, 2.0)
    >>> with cuda.streams(2) as (compute, copy):
    ...     with cuda.stream(compute):
    ...         total = xp.sum(xp.multiply(current, 2))  # cunumpy's calls: kept alive
    ...     with cuda.stream(copy):
    ...         current = xp.asarray(following, device=cuda.current_device())
    >>> float(total), float(xp.sum(current))
    (8.0, 8.0)
    """
    if isinstance(n, bool) or not isinstance(n, int):
        msg = f"streams: `n` must be an int (the number of branches), not {n!r}."
        raise TypeError(msg)
    if n < 1:
        msg = f"streams: `n` must be at least 1, not {n!r}."
        raise ValueError(msg)
    cupy = _gpu_work("streams")
    if cupy is None:
        yield (None,) * n
        return
    index = int(cupy.cuda.runtime.getDevice())
    outer = cupy.cuda.get_current_stream()
    branches = tuple(acquire_stream(index) for _ in range(n))
    try:
        for branch in branches:
            wait_for(branch, index, outer, index)
        yield branches
    finally:
        for branch in branches:
            wait_for(outer, index, branch, index)
            release_stream(index, branch)


def current_stream() -> Any:
    """Return the stream CuPy queues work on in this thread.

    Returns
    -------
    cupy.cuda.Stream or None
        CuPy's current stream of the current GPU whenever CuPy holds work (the CuPy
        backend, or CuPy with a CUDA context on the current GPU on the NumPy backend);
        ``None`` otherwise.

    Examples
    --------
    >>> import cunumpy as xp
    >>> import cunumpy.cuda as cuda
    >>> xp.get_backend() == "numpy" or cuda.current_stream() is not None
    True
    """
    cupy = _gpu_work("current_stream")
    return None if cupy is None else cupy.cuda.get_current_stream()


def _gpu_work(func: str) -> Any:
    """CuPy where it may hold work: on the CuPy backend (usable, or ``RuntimeError``), and
    on the NumPy backend once it has a CUDA context on the current GPU; else None."""
    if get_backend() == "cupy":
        return require_cupy(func)
    return loaded_cupy()


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
