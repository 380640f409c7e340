"""The hooks of the timeline recorder, which cunumpy's layers call.

``RECORDER`` is ``None`` unless a recording runs (``cunumpy.profiling.trace``); every hook
reads it first and returns at once when it is ``None``, so that tracing off costs one
module-attribute read. This module imports nothing heavy (``import cunumpy`` imports it);
the recording itself (``_buffer.Recorder``) is imported when one starts. A recording keeps at most ``capacity`` timeline events: when the
buffer is full, later events are counted as dropped (the files and the summary say how
many and from when), while the summary's totals (per name, per call site, waits, MPI)
keep counting every event to the end.

Times are ``time.perf_counter_ns()`` values; device intervals come from CUDA events, placed
on the host clock through one anchor event per device, synchronized when first needed.
"""

from __future__ import annotations

import functools
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

__all__ = [
    "DEFAULT_CAPACITY",
    "RECORDER",
    "clock",
    "copy_start",
    "launching",
    "mpi_call",
    "note_grid",
    "stream_track",
    "waiting",
]

DEFAULT_CAPACITY = 1_000_000
"""Timeline events a recording keeps by default (about 200 MB at most in Python objects)."""

_now = time.perf_counter_ns


RECORDER: Any = None
"""The recording in progress (a ``_buffer.Recorder``), or ``None``: the one switch every
hook reads. Typed ``Any``: this module must not import ``_buffer``, even for a checker."""


def clock() -> int:
    """``perf_counter_ns()`` while recording, else 0 (the start a hook passes back)."""
    return _now() if RECORDER is not None else 0


def copy_start(stream: Any = None) -> Any:
    """The start of a copy on CuPy ``stream`` (None: the current stream): 0 while not
    recording, else the host clock, a device mark and the stream, from which
    ``note_transfer(started=...)`` makes the copy's device interval."""
    recorder = RECORDER
    if recorder is None:
        return 0
    if stream is None:
        stream = sys.modules["cupy"].cuda.get_current_stream()
    return (_now(), recorder.mark(stream), stream)


def stream_track(stream: Any) -> str:
    """The track of a CuPy stream: ``cuda:<device> stream <ptr>`` (``null`` for 0)."""
    ptr = int(getattr(stream, "ptr", 0) or 0)
    device = getattr(stream, "device_id", None)
    if device is None or device < 0:
        cupy = sys.modules.get("cupy")
        device = int(cupy.cuda.runtime.getDevice()) if cupy is not None else 0
    return f"cuda:{device} stream {'null' if ptr == 0 else hex(ptr)}"


class _Off:
    """What ``launching`` gives while not recording: a context manager that does nothing."""

    __slots__ = ()

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


_OFF = _Off()


@contextmanager
def _waiting(recorder: Any, what: str) -> Iterator[None]:
    start = _now()
    try:
        yield
    finally:
        recorder.wait(what, start, _now())


def waiting(what: str) -> Any:
    """A context manager that times a wait of the host for the device (while recording)."""
    recorder = RECORDER
    if recorder is None:
        return _OFF
    return _waiting(recorder, what)


class _Launch:
    """The open launch of this thread, to which ``note_grid`` adds the grid."""

    __slots__ = ("args",)

    def __init__(self) -> None:
        self.args: dict[str, Any] = {}


@contextmanager
def _launching(name: str, stream: Any) -> Iterator[None]:
    recorder = RECORDER
    if recorder is None:
        yield
        return
    launch = _Launch()
    _open = recorder.launches
    outer = getattr(_open, "launch", None)
    _open.launch = launch
    begin = recorder.mark(stream) if stream is not None else None
    start = _now()
    try:
        yield
    finally:
        end_ns = _now()
        _open.launch = outer
        recorder.launch(name, start, end_ns, stream, launch.args)
        if begin is not None:
            recorder.device_span("kernel", name, stream, begin, recorder.mark(stream), launch.args)


def launching(name: str, stream: Any = None) -> Any:
    """A context manager around one kernel launch on ``stream`` (nothing while not recording)."""
    if RECORDER is None:
        return _OFF
    return _launching(name, stream)


def note_grid(grid: Any, block: Any) -> None:
    """The grid and block of the launch open on this thread (kept only while recording)."""
    if RECORDER is None:
        return
    launch = getattr(RECORDER.launches, "launch", None)
    if launch is not None:
        launch.args["grid"] = str(tuple(grid) if isinstance(grid, (list, tuple)) else (grid,))
        launch.args["block"] = str(tuple(block) if isinstance(block, (list, tuple)) else (block,))


_F = TypeVar("_F", bound=Callable[..., Any])


def _payload(x: Any) -> int | None:
    nbytes = getattr(x, "nbytes", None)
    return int(nbytes) if isinstance(nbytes, int) else None


def mpi_call(fn: _F) -> _F:
    """Decorate a function of ``cunumpy.mpi``: while recording, its call is an interval on
    the rank's MPI track (the time this rank spent in it, waiting included)."""
    name = f"mpi.{fn.__name__}"
    peer_at, peer_key = {"send": (1, "dest"), "recv": (0, "source")}.get(fn.__name__, (0, None))

    @functools.wraps(fn)
    def traced(*args: Any, **kwargs: Any) -> Any:
        recorder = RECORDER
        if recorder is None:
            return fn(*args, **kwargs)
        start = _now()
        try:
            return fn(*args, **kwargs)
        finally:
            peer = None
            if peer_key is not None:
                peer = kwargs.get(peer_key, args[peer_at] if len(args) > peer_at else None)
            recorder.mpi(name, start, _now(), _payload(args[0]) if args else None, peer)

    return traced  # type: ignore[return-value]
