"""Timed regions: a block or a function whose time is measured, recorded under a name."""

from __future__ import annotations

import functools
import sys
import time
from collections.abc import Callable
from types import TracebackType
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

from .._backend_choice._config import current
from .._placement._transfer_log import active as _active
from .._placement._transfer_log import note_transfer as _note_transfer
from .._settings._cupy_probe import loaded_cupy as _loaded_cupy
from .._trace import _recorder

if TYPE_CHECKING:
    from .._trace._buffer import Recorder
from ._nvtx import _nvtx_hooks, nvtx_hooks
from ._record import _KNOWN_LIMIT, format_seconds, record

__all__ = ["TimedRegion", "Timing", "timed_region"]

_P = ParamSpec("_P")
_R = TypeVar("_R")
_perf_counter = time.perf_counter
_known = record.known
_known_append = _known.append
_modules = sys.modules


def cupy_holds_work() -> bool:
    """Whether GPU work may be queued: the CuPy backend, or CuPy with a CUDA context on the
    current GPU (compute follows data, so CuPy arrays may exist on the NumPy backend);
    never imports CuPy, nor creates a context."""
    return current().name == "cupy" or ("cupy" in _modules and _loaded_cupy() is not None)


class Timing:
    """The times of one timed region, read after its block: what ``timed_region`` yields.

    A :class:`TimedRegion` (what :func:`timed_region` returns and yields) is a Timing
    that fills itself; a Timing can also be made directly, e.g. to test code that reads
    one. Besides the attributes below, the properties ``elapsed`` (the region's time: its
    GPU time from CUDA events on CuPy, its host wall time on NumPy; ``None`` until the
    block has ended) and ``device_time`` (the GPU time on CuPy, ``None`` on NumPy) hold
    its times.

    Parameters
    ----------
    name : str or None
        The name of the region.
    elapsed : float, optional
        Its time in seconds.
    synced : bool, default False
        Whether the GPU was waited for before the time was read.

    Attributes
    ----------
    name : str or None
        The name under which the region is recorded (``None``: not recorded).
    synced : bool
        Whether the host waited for the region's GPU work before the block ended
        (``sync=True`` on CuPy). ``False`` on NumPy, where there is nothing to wait for,
        and with ``sync=False``; ``elapsed`` is the GPU time either way.
    host_time : float or None
        Host wall time of the block in seconds, ``None`` until the block has ended.

    Raises
    ------
    TypeError
        If an argument has the wrong type.

    Examples
    --------
    >>> from cunumpy import profiling
    >>> with profiling.timed_region("solve") as timing:
    ...     pass
    >>> isinstance(timing, profiling.Timing), timing.name, timing.elapsed >= 0.0
    (True, 'solve', True)
    >>> profiling.Timing("io", elapsed=0.5).elapsed
    0.5
    """

    __slots__ = (
        "_device_time", "_end_event", "_start", "_start_event", "host_time", "name", "synced",
    )  # fmt: skip

    def __init__(
        self, name: str | None, elapsed: float | None = None, synced: bool = False
    ) -> None:
        if name is not None and not isinstance(name, str):
            msg = f"Timing: `name` must be a str or None, not {name!r}."
            raise TypeError(msg)
        if elapsed is not None and (
            isinstance(elapsed, bool) or not isinstance(elapsed, (int, float))
        ):
            msg = f"Timing: `elapsed` must be a number of seconds or None, not {elapsed!r}."
            raise TypeError(msg)
        if not isinstance(synced, bool):
            msg = f"Timing: `synced` must be a bool (True or False), not {synced!r}."
            raise TypeError(msg)
        self.name = name
        self.host_time = None if elapsed is None else float(elapsed)
        self.synced = synced
        self._device_time: float | None = None
        self._start: float | None = None
        self._start_event: Any = None
        self._end_event: Any = None

    @property
    def device_time(self) -> float | None:
        """GPU time of the block in seconds on CuPy (waits for it), ``None`` on NumPy."""
        if self._device_time is None and self._end_event is not None:
            cuda = sys.modules["cupy"].cuda
            self._end_event.synchronize()
            self._device_time = cuda.get_elapsed_time(self._start_event, self._end_event) * 1e-3
            self._end_event = self._start_event = None
        return self._device_time

    @property
    def elapsed(self) -> float | None:
        """The region's time in seconds (``device_time`` on CuPy, else ``host_time``); ``None`` until it ends."""
        if self.host_time is None or self._start is not None:
            return None
        device = self.device_time
        return self.host_time if device is None else device

    def __repr__(self) -> str:
        state = "open" if self._start is not None else "not run"
        if self.host_time is not None and self._start is None:
            state = f"host {format_seconds(self.host_time)}"
            if self._device_time is not None:
                state += f", device {format_seconds(self._device_time)}"
        return f"<{type(self).__name__} {self.name!r}: {state}>"


class TimedRegion(Timing):
    """A timed block of work; made by :func:`timed_region`, read after the block.

    It is a :class:`Timing`: after the block, ``elapsed``, ``synced``, ``host_time`` and
    ``device_time`` hold its times.

    Attributes
    ----------
    sync : bool
        Whether the region waits for the GPU on entry and exit.
    """

    __slots__ = ("_device", "_nvtx_pop", "_stream", "_trace", "sync")

    def __init__(self, name: str | None, sync: bool) -> None:
        # Timing.__init__ written out: a region is made per decorated call (hot path).
        self.name = name
        self.host_time: float | None = None
        self.synced = False
        self._device_time: float | None = None
        self._start: float | None = None
        self._start_event: Any = None
        self._end_event: Any = None
        self.sync = sync
        self._stream: Any = None
        self._device = 0
        self._nvtx_pop: Callable[[], object] | None = None
        self._trace: tuple[Recorder, int, Any] | None = None

    def __enter__(self) -> TimedRegion:
        if self._start is not None:
            msg = f"timed_region: the region {self.name!r} is already open; use a new one."
            raise RuntimeError(msg)
        gpu = current().name == "cupy" or ("cupy" in _modules and _loaded_cupy() is not None)
        if gpu in _nvtx_hooks:  # resolved once per path; a dict look-up, not a call
            hooks = _nvtx_hooks[gpu]
        else:
            hooks = nvtx_hooks(gpu)
        self.host_time = self._device_time = self._end_event = self._start_event = None
        if self.synced:  # a region used again
            self.synced = False
        if hooks is not None:
            hooks[0](self.name or "timed_region")
            self._nvtx_pop = hooks[1]
        if gpu:
            cuda = sys.modules["cupy"].cuda
            self._device = cuda.runtime.getDevice()
            self._stream = cuda.get_current_stream()
            if self.sync:
                if _active():
                    _note_transfer(
                        "sync", f"timed_region {self.name!r}: waits for cuda:{self._device}"
                    )
                self._stream.synchronize()
            self._start_event = cuda.Event()
            self._start_event.record(self._stream)
        self._start = _perf_counter()
        if _recorder.RECORDER is not None:  # after the start: the device interval lies inside
            self._trace_enter(_recorder.RECORDER)
        return self

    def _trace_enter(self, recorder: Recorder) -> None:
        """A recording runs: note the depth, the pool's bytes and a device mark."""
        begin = None
        if self._stream is not None:
            recorder.memory(_recorder.clock())
            begin = recorder.mark(self._stream)
        self._trace = (recorder, recorder.enter(), begin)

    def _trace_mark_end(self) -> None:
        """Before the region's end event: the end mark of its device interval."""
        recorder, _, begin = self._trace  # type: ignore[misc]
        if begin is not None and self._stream is not None:
            cuda = _modules["cupy"].cuda
            with cuda.Device(self._device):
                end = recorder.mark(self._stream)
            recorder.device_span("device", self.name or "timed_region", self._stream, begin, end, None)  # fmt: skip

    def _trace_exit(self, start: float, end: float) -> None:
        """The region's host interval (its device interval is noted by ``_trace_mark_end``)."""
        recorder, depth, begin = self._trace  # type: ignore[misc]
        self._trace = None
        name = self.name or "timed_region"
        recorder.leave("region", name, int(start * 1e9), int(end * 1e9), depth, None)
        if begin is not None:
            recorder.memory(_recorder.clock())

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        traced = self._trace is not None
        try:
            if traced:
                self._trace_mark_end()
            if self._start_event is not None:
                cuda = sys.modules["cupy"].cuda
                with cuda.Device(self._device):  # the block may have made another GPU current
                    end = cuda.Event()
                    end.record(self._stream)
                self._end_event = end
                if self.sync:
                    if _active():
                        _note_transfer(
                            "sync", f"timed_region {self.name!r}: waits for cuda:{self._device}"
                        )
                    end.synchronize()
                    self.synced = True
            ended = _perf_counter()
            self.host_time = ended - self._start  # type: ignore[operator]
            if traced:
                self._trace_exit(self._start, ended)  # type: ignore[arg-type]
        finally:
            if traced:
                self._trace = None
            self._start = None
            self._stream = None
            pop, self._nvtx_pop = self._nvtx_pop, None
            if pop is not None:
                pop()
        if self.sync and self._end_event is not None:
            _ = self.device_time  # resolve now, while the events are fresh
        if self.name is not None:
            if self._end_event is None:  # its time is known: queued, folded in later
                device = self._device_time
                _known_append((self.name, self.host_time if device is None else device))
                if len(_known) >= _KNOWN_LIMIT:
                    record.fold()
            else:  # on the GPU, unsynchronized: its end is read later
                record.add(self)

    def __call__(self, fn: Callable[_P, _R]) -> Callable[_P, _R]:
        """Decorate ``fn``: each call runs in a new region named after it by default."""
        if not callable(fn):
            msg = f"timed_region: can only decorate a callable, not {fn!r}."
            raise TypeError(msg)
        name = self.name if self.name is not None else getattr(fn, "__qualname__", repr(fn))
        sync = self.sync

        @functools.wraps(fn)
        def wrapper(*args: _P.args, **kwargs: _P.kwargs) -> _R:
            with TimedRegion(name, sync):
                return fn(*args, **kwargs)

        return wrapper


def timed_region(name: str | None = None, *, sync: bool = True) -> TimedRegion:
    """Time the work issued inside a ``with`` block, or each call of a decorated function.

    Whenever CuPy holds work (on the CuPy backend, and on the NumPy backend once CuPy has
    a CUDA context on the current GPU: arrays made with ``device="cuda:0"`` compute on
    the GPU) the region records CUDA events on the current stream (also inside
    ``xp.cuda.stream()`` blocks) and gives both the GPU time and the host wall time;
    otherwise it uses ``time.perf_counter``. Named regions are added to the
    record that :func:`report` prints; regions nest, and a region is closed and
    recorded also when its block raises. When NVTX is installed, each region is also
    an NVTX range in the ``cunumpy`` domain, visible in Nsight Systems.

    Parameters
    ----------
    name : str, optional
        Name in the record and the NVTX range. ``None`` (the default) does not record
        a ``with`` block; as a decorator, it names the region after the function.
    sync : bool, default True
        On CuPy, wait for work already queued on the stream before starting the clock
        and for the region's work before stopping it. With ``False`` nothing blocks:
        ``host_time`` then measures queuing only, and ``device_time`` waits when read.

    Returns
    -------
    TimedRegion
        Use it as a context manager (it yields itself, a :class:`Timing`) or as a
        decorator. After the block, ``elapsed``, ``host_time`` and ``device_time`` hold
        seconds (``elapsed`` is ``None`` before the block ends), and ``synced`` says
        whether the host waited for the GPU work (``sync=True`` on CuPy).

    Raises
    ------
    TypeError
        If ``name`` is not a str or None, or ``sync`` is not a bool.
    ValueError
        If ``name`` is an empty string.

    Examples
    --------
    >>> import time
    >>> import cunumpy as xp
    >>> from cunumpy import profiling
    >>> with profiling.timed_region("nap") as region:
    ...     time.sleep(0.01)
    >>> 0.005 < region.elapsed < 1.0
    True
    >>> region.synced == (region.device_time is not None)  # waited for the GPU, if any
    True
    >>> @profiling.timed_region()
    ... def step():
    ...     return 42
    >>> step()
    42
    """
    if name is not None and not isinstance(name, str):
        hint = " (decorate with @timed_region(), with parentheses)" if callable(name) else ""
        msg = f"timed_region: `name` must be a str or None, not {name!r}{hint}."
        raise TypeError(msg)
    if name == "":
        msg = "timed_region: `name` must be a non-empty str or None, not ''."
        raise ValueError(msg)
    if not isinstance(sync, bool):
        msg = f"timed_region: `sync` must be a bool (True or False), not {sync!r}."
        raise TypeError(msg)
    return TimedRegion(name, sync)
