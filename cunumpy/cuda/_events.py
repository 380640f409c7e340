"""Streams and events you create and order yourself, with host stand-ins on the NumPy backend.

``create_stream`` and ``create_event`` give CuPy objects on the CuPy backend and a
:class:`HostStream` / :class:`HostEvent` on NumPy, so that code ordering work with events
runs unchanged on both. Host work is synchronous: a host event is complete as soon as it
is recorded, and waiting for it orders nothing that is not already in order.
"""

from __future__ import annotations

import sys
from types import TracebackType
from typing import Any

from .._backend_choice._config import get_backend
from .._settings._cupy_probe import require_cupy

__all__ = ["HostEvent", "HostStream", "create_event", "create_stream", "record_event", "wait_event"]


class HostEvent:
    """The NumPy backend's event: complete once recorded, since host work is synchronous.

    Made by :func:`create_event` on the NumPy backend; it offers the methods of
    ``cupy.cuda.Event`` that portable code uses.

    Examples
    --------
    >>> from cunumpy import cuda
    >>> event = cuda.HostEvent()
    >>> event.record(cuda.HostStream())
    >>> event.done
    True
    >>> event.synchronize()
    """

    __slots__ = ()

    @property
    def done(self) -> bool:
        """Whether the work before the event is complete: always ``True`` on the host."""
        return True

    def record(self, stream: Any = None) -> None:
        """Record the event on a host stream (``None``: the current one); nothing to wait for.

        Raises
        ------
        TypeError
            If ``stream`` is not a :class:`HostStream` or None (a host event cannot mark
            a point in a GPU stream).
        """
        if stream is not None and not isinstance(stream, HostStream):
            msg = (
                f"HostEvent.record: a host event can only be recorded on a HostStream or None, "
                f"not {stream!r}; create the event with create_event() on the CuPy backend."
            )
            raise TypeError(msg)

    def synchronize(self) -> None:
        """Wait for the event: returns at once."""

    def __repr__(self) -> str:
        return "<HostEvent (done)>"


class HostStream:
    """The NumPy backend's stream: host work runs in program order, so it orders nothing.

    Made by :func:`create_stream` on the NumPy backend; it offers the methods of
    ``cupy.cuda.Stream`` that portable code uses and can be used in ``with`` blocks
    (also nested, and again), directly or through :func:`stream`.

    Examples
    --------
    >>> import cunumpy as xp
    >>> from cunumpy import cuda
    >>> s = cuda.HostStream()
    >>> with s:
    ...     y = xp.ones(3)
    >>> s.record().done, s.done
    (True, True)
    """

    __slots__ = ()

    def __enter__(self) -> HostStream:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        return None

    @property
    def done(self) -> bool:
        """Whether the work queued on the stream is complete: always ``True``."""
        return True

    def synchronize(self) -> None:
        """Wait for the stream's work: returns at once."""

    def record(self, event: HostEvent | None = None) -> HostEvent:
        """Record ``event`` (a new :class:`HostEvent` by default) on this stream and return it."""
        recorded = HostEvent() if event is None else event
        if not isinstance(recorded, HostEvent):
            msg = f"HostStream.record: `event` must be a HostEvent or None, not {event!r}."
            raise TypeError(msg)
        recorded.record(self)
        return recorded

    def wait_event(self, event: HostEvent) -> None:
        """Order later work on this stream after ``event``: already so on the host.

        Raises
        ------
        TypeError
            If ``event`` is not a :class:`HostEvent`.
        """
        if not isinstance(event, HostEvent):
            msg = f"HostStream.wait_event: `event` must be a HostEvent, not {event!r}."
            raise TypeError(msg)

    def __repr__(self) -> str:
        return "<HostStream>"


def _check_bool(value: object, param: str, func: str) -> None:
    if not isinstance(value, bool):
        msg = f"{func}: `{param}` must be a bool (True or False), not {value!r}."
        raise TypeError(msg)


def create_stream(*, non_blocking: bool = True) -> Any:
    """Create a stream to queue work on: a CUDA stream on CuPy, a :class:`HostStream` on NumPy.

    The CUDA stream belongs to the current GPU; make it current with ``with
    cuda.stream(s):`` (which also makes its GPU current). A stream you create orders
    nothing by itself (rule 1 of the stream-ordering model in the guide): order it
    against others with :func:`record_event` and :func:`wait_event`, or
    ``synchronize(stream=s)``.

    Parameters
    ----------
    non_blocking : bool, default True
        Create a stream that does not wait for the legacy default (null) stream.

    Returns
    -------
    cupy.cuda.Stream or HostStream
        The new stream.

    Raises
    ------
    TypeError
        If ``non_blocking`` is not a bool.

    Examples
    --------
    >>> import cunumpy as xp
    >>> from cunumpy import cuda
    >>> s = cuda.create_stream()
    >>> with cuda.stream(s):
    ...     y = xp.ones(3) * 2
    >>> s.synchronize()
    >>> float(y[0])
    2.0
    """
    _check_bool(non_blocking, "non_blocking", "create_stream")
    if get_backend() != "cupy":
        return HostStream()
    return require_cupy("create_stream").cuda.Stream(non_blocking=non_blocking)


def create_event(*, timing: bool = False) -> Any:
    """Create an event: a ``cupy.cuda.Event`` on CuPy, a :class:`HostEvent` on NumPy.

    Parameters
    ----------
    timing : bool, default False
        Let the CUDA event measure time (``cupy.cuda.get_elapsed_time``); events without
        timing are cheaper to record and wait for. Host events never measure time.

    Returns
    -------
    cupy.cuda.Event or HostEvent
        The new event; a host event is complete.

    Raises
    ------
    TypeError
        If ``timing`` is not a bool.

    Examples
    --------
    >>> from cunumpy import cuda
    >>> cuda.create_event().done
    True
    """
    _check_bool(timing, "timing", "create_event")
    if get_backend() != "cupy":
        return HostEvent()
    return require_cupy("create_event").cuda.Event(disable_timing=not timing)


def _is_cupy(value: Any, kind: str) -> bool:
    cupy = sys.modules.get("cupy")
    if cupy is None:
        return False
    kinds = (cupy.cuda.Stream, cupy.cuda.ExternalStream) if kind == "stream" else (cupy.cuda.Event,)
    return isinstance(value, kinds)


def _check_pair(event: Any, stream: Any, func: str) -> None:
    """A host event goes with host streams, a CUDA event with CUDA streams; TypeError otherwise."""
    host_event = isinstance(event, HostEvent)
    if not host_event and not _is_cupy(event, "event"):
        msg = f"{func}: `event` must be an event from create_event() (a cupy.cuda.Event or a HostEvent), not {event!r}."
        raise TypeError(msg)
    if stream is None:
        return
    host_stream = isinstance(stream, HostStream)
    if not host_stream and not _is_cupy(stream, "stream"):
        msg = f"{func}: `stream` must be a stream from create_stream() (a cupy.cuda.Stream or a HostStream) or None, not {stream!r}."
        raise TypeError(msg)
    if host_event != host_stream:
        msg = (
            f"{func}: cannot mix a {type(event).__name__} with a {type(stream).__name__}: "
            f"create both with create_event() and create_stream() on one backend."
        )
        raise TypeError(msg)


def record_event(event: Any = None, *, stream: Any = None) -> Any:
    """Mark the point reached by the work queued so far on a stream: the producer's side.

    Recording an event again moves its mark: let the consumers queue their
    :func:`wait_event` on one recording before recording it again.

    Parameters
    ----------
    event : event, optional
        An event from :func:`create_event`; a new one by default.
    stream : stream, optional
        The producer's stream; ``None`` means the current stream (on the NumPy backend,
        with a host event: nothing to mark).

    Returns
    -------
    cupy.cuda.Event or HostEvent
        The recorded event.

    Raises
    ------
    TypeError
        If ``event`` or ``stream`` is not one of cunumpy's or CuPy's, or a host event is
        paired with a CUDA stream (or the reverse).

    See Also
    --------
    wait_event : make another stream wait for the event.

    Examples
    --------
    >>> from cunumpy import cuda
    >>> producer, consumer = cuda.create_stream(), cuda.create_stream()
    >>> event = cuda.record_event(stream=producer)
    >>> cuda.wait_event(event, stream=consumer)
    >>> event.done
    True
    """
    if event is None:
        host = isinstance(stream, HostStream) or (stream is None and get_backend() != "cupy")
        event = HostEvent() if host else create_event()
    _check_pair(event, stream, "record_event")
    if isinstance(event, HostEvent):
        event.record(stream)
    elif stream is None:
        event.record(sys.modules["cupy"].cuda.get_current_stream())
    else:
        event.record(stream)
    return event


def wait_event(event: Any, *, stream: Any = None) -> None:
    """Make later work on a stream wait for an event, on the GPU: the consumer's side.

    The host does not block (use ``event.synchronize()`` for that). With a host event
    there is nothing to wait for: host work is complete when it returns.

    Parameters
    ----------
    event : event
        An event recorded with :func:`record_event`.
    stream : stream, optional
        The consumer's stream; ``None`` means the current stream.

    Raises
    ------
    TypeError
        As for :func:`record_event`.

    See Also
    --------
    record_event : record the event to wait for.

    Examples
    --------
    >>> from cunumpy import cuda
    >>> event = cuda.record_event(stream=cuda.create_stream())
    >>> cuda.wait_event(event)
    """
    _check_pair(event, stream, "wait_event")
    if isinstance(event, HostEvent):
        return
    if stream is None:
        stream = sys.modules["cupy"].cuda.get_current_stream()
    stream.wait_event(event)
