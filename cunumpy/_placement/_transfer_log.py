"""Where cunumpy notes every copy it makes between host and device.

Each copy that cunumpy makes (``to_numpy``, ``to_cupy``, ``to_device``, ``asarray`` across
devices, staging, host calls, kernel copy-back) calls :func:`note_transfer`. The counters of
``cunumpy.profiling`` (``count_transfers``) listen through :func:`listening`. The listeners
are context-local, like the backend: a counter in one thread or asyncio task does not see
another's copies. With no listener the call costs one context-variable read. A
recording of ``cunumpy.profiling.trace`` hears every copy too (``cunumpy._trace``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from .._settings._user_frames import call_site
from .._trace import _recorder

__all__ = [
    "KINDS",
    "Listener",
    "active",
    "call_site",
    "describe",
    "listening",
    "nbytes_of",
    "note_transfer",
]

KINDS = ("to_host", "to_device", "kernel_conversion", "fallback", "device_copy", "sync")
"""The kinds of copy, in the order reports list them."""

Listener = Callable[[str, str, "int | None", bool, bool], None]
"""Called as ``listener(kind, description, nbytes, blocking, implicit)``; see :func:`call_site`."""

_listeners: ContextVar[tuple[Listener, ...]] = ContextVar("cunumpy_transfer_listeners", default=())


def active() -> bool:
    """Whether a listener or a recording is active: callers skip describing a copy when not."""
    return bool(_listeners.get()) or _recorder.RECORDER is not None


def describe(func: str, x: Any, detail: str = "") -> str:
    """``func(shape=..., dtype=...)`` for array ``x``, followed by ``detail`` when given."""
    shape, dtype = getattr(x, "shape", None), getattr(x, "dtype", None)
    inside = (
        type(x).__name__
        if shape is None or dtype is None
        else f"shape={tuple(shape)}, dtype={dtype}"
    )
    return f"{func}({inside})" + (f" {detail}" if detail else "")


def nbytes_of(x: Any) -> int | None:
    """The payload bytes of array ``x`` from its shape and dtype (no device read), or None."""
    shape, dtype = getattr(x, "shape", None), getattr(x, "dtype", None)
    itemsize = getattr(dtype, "itemsize", None)
    if shape is None or itemsize is None:
        return None
    return math.prod(shape) * int(itemsize)


def note_transfer(
    kind: str,
    description: str,
    *,
    nbytes: int | None = None,
    blocking: bool = True,
    implicit: bool = False,
    started: Any = 0,
    stream: Any = None,
    pinned: bool | None = None,
) -> None:
    """Tell the active listeners of one copy (``kind`` is one of :data:`KINDS`).

    A recording (``cunumpy.profiling.trace``) also gets the copy's start (``started``, from
    ``cunumpy._trace._recorder.clock()`` or ``copy_start(stream)`` before the copy; 0 when
    unknown), its ``stream`` and whether the host side was pinned (``None``: unknown).
    """
    recorder = _recorder.RECORDER
    if recorder is not None:
        if kind not in KINDS:
            msg = f"note_transfer: kind {kind!r} is not one of {KINDS}"
            raise ValueError(msg)
        recorder.transfer(kind, description, nbytes, blocking, started, stream, pinned, call_site())
    listeners = _listeners.get()
    if not listeners:
        return
    if kind not in KINDS:
        msg = f"note_transfer: kind {kind!r} is not one of {KINDS}"
        raise ValueError(msg)
    for listener in listeners:
        listener(kind, description, nbytes, blocking, implicit)


@contextmanager
def listening(listener: Listener) -> Iterator[None]:
    """Add `listener` for the duration of the block, in this context only.

    A listener that is already active here is not added again, so that it hears each
    copy once (a counter reused inside its own block).
    """
    current = _listeners.get()
    if any(existing is listener for existing in current):
        yield
        return
    token = _listeners.set((*current, listener))
    try:
        yield
    finally:
        _listeners.reset(token)
