"""Timing and profiling: timed regions, a per-name record, benchmarks and NVTX ranges.

On the CuPy backend, times come from CUDA events recorded on the current stream, so
they measure the GPU work and not only how long it took to queue it; on the NumPy
backend they come from ``time.perf_counter``. The backend is read from
``cunumpy.get_backend()`` at each region; the NumPy path never imports CuPy.
"""

from __future__ import annotations

import functools
import math
import sys
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import TracebackType
from typing import IO, Any, ParamSpec, TypeVar

import numpy as np

from .._config import get_backend

__all__ = [
    "BenchmarkResult",
    "RegionStats",
    "TimedRegion",
    "benchmark",
    "report",
    "reset",
    "timed_region",
]

_P = ParamSpec("_P")
_R = TypeVar("_R")
_perf_counter = time.perf_counter
_NVTX_DOMAIN = "cunumpy"
_PENDING_LIMIT = 256  # unsynchronized GPU regions kept before the record waits for them

# NVTX is resolved once per path (False: NumPy, True: CuPy), lazily, at the first region.
_NvtxHooks = tuple[Callable[[str], object], Callable[[], object]]
_nvtx_hooks: dict[bool, _NvtxHooks | None] = {}


def _resolve_nvtx(gpu: bool) -> _NvtxHooks | None:
    """Return NVTX (push, pop) functions, or ``None`` when no NVTX is available."""
    try:
        import nvtx  # the `nvtx` package supports domains
    except Exception:  # missing or broken: timing must work without it
        nvtx = None
    if nvtx is not None:

        def push(message: str) -> None:
            nvtx.push_range(message=message, domain=_NVTX_DOMAIN)

        def pop() -> None:
            nvtx.pop_range(domain=_NVTX_DOMAIN)

        return push, pop
    if gpu:  # CuPy's own NVTX has no domains: prefix the message instead
        try:
            from cupy.cuda import nvtx as cupy_nvtx
        except Exception:
            return None
        if getattr(cupy_nvtx, "available", False):
            return (lambda message: cupy_nvtx.RangePush(f"cunumpy: {message}")), cupy_nvtx.RangePop
    return None


def _format_seconds(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} us"
    if seconds < 1.0:
        return f"{seconds * 1e3:.3f} ms"
    return f"{seconds:.3f} s"


@dataclass(frozen=True)
class RegionStats:
    """Accumulated times, in seconds, of all closed regions with one name."""

    name: str
    count: int
    total: float
    min: float
    max: float

    @property
    def mean(self) -> float:
        """The mean time of one region, in seconds."""
        return self.total / self.count


class _Record:
    """The per-name record; every method holds the lock, so threads may share it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._stats: dict[str, list[float]] = {}  # name -> [count, total, min, max]
        self._pending: list[TimedRegion] = []  # GPU regions whose end is not known yet

    def _add(self, name: str, seconds: float) -> None:
        entry = self._stats.get(name)
        if entry is None:
            self._stats[name] = [1, seconds, seconds, seconds]
        else:
            entry[0] += 1
            entry[1] += seconds
            entry[2] = min(entry[2], seconds)
            entry[3] = max(entry[3], seconds)

    def add(self, region: TimedRegion) -> None:
        with self._lock:
            if region._end_event is None:
                self._add(region.name, region.elapsed)  # type: ignore[arg-type]
                return
            self._pending.append(region)
            if len(self._pending) >= _PENDING_LIMIT:
                self._flush()

    def _flush(self) -> None:
        for region in self._pending:
            self._add(region.name, region.elapsed)  # type: ignore[arg-type]
        self._pending.clear()

    def snapshot(self) -> dict[str, RegionStats]:
        with self._lock:
            self._flush()
            return {
                name: RegionStats(name, int(c), total, low, high)
                for name, (c, total, low, high) in self._stats.items()
            }

    def clear(self) -> None:
        with self._lock:
            self._stats.clear()
            self._pending.clear()


_record = _Record()


class TimedRegion:
    """A timed block of work; made by :func:`timed_region`, read after the block.

    Attributes
    ----------
    name : str or None
        The name under which the region is recorded (``None``: not recorded).
    sync : bool
        Whether the region waits for the GPU on entry and exit.
    host_time : float or None
        Host wall time of the block in seconds, ``None`` until the block has ended.
    """

    __slots__ = (
        "_device_time", "_end_event", "_nvtx_pop", "_start", "_start_event", "_stream",
        "host_time", "name", "sync",
    )  # fmt: skip

    def __init__(self, name: str | None, sync: bool) -> None:
        self.name = name
        self.sync = sync
        self.host_time: float | None = None
        self._device_time: float | None = None
        self._start: float | None = None
        self._stream: Any = None
        self._start_event: Any = None
        self._end_event: Any = None
        self._nvtx_pop: Callable[[], object] | None = None

    def __enter__(self) -> TimedRegion:
        if self._start is not None:
            msg = f"timed_region: the region {self.name!r} is already open; use a new one."
            raise RuntimeError(msg)
        gpu = get_backend() == "cupy"
        try:
            hooks = _nvtx_hooks[gpu]
        except KeyError:
            hooks = _nvtx_hooks[gpu] = _resolve_nvtx(gpu)
        self.host_time = self._device_time = self._end_event = self._start_event = None
        if hooks is not None:
            hooks[0](self.name or "timed_region")
            self._nvtx_pop = hooks[1]
        if gpu:
            cuda = sys.modules["cupy"].cuda
            self._stream = cuda.get_current_stream()
            if self.sync:
                self._stream.synchronize()
            self._start_event = cuda.Event()
            self._start_event.record(self._stream)
        self._start = _perf_counter()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        try:
            if self._start_event is not None:
                end = sys.modules["cupy"].cuda.Event()
                end.record(self._stream)
                self._end_event = end
                if self.sync:
                    end.synchronize()
            self.host_time = _perf_counter() - self._start  # type: ignore[operator]
        finally:
            self._start = None
            self._stream = None
            pop, self._nvtx_pop = self._nvtx_pop, None
            if pop is not None:
                pop()
        if self.sync and self._end_event is not None:
            _ = self.device_time  # resolve now, while the events are fresh
        if self.name is not None:
            _record.add(self)

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
    def elapsed(self) -> float:
        """The region's time in seconds: ``device_time`` on CuPy, else ``host_time``."""
        if self.host_time is None or self._start is not None:
            msg = f"timed_region: the region {self.name!r} has no time until its block ends."
            raise RuntimeError(msg)
        device = self.device_time
        return self.host_time if device is None else device

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

    def __repr__(self) -> str:
        state = "open" if self._start is not None else "not run"
        if self.host_time is not None and self._start is None:
            state = f"host {_format_seconds(self.host_time)}"
            if self._device_time is not None:
                state += f", device {_format_seconds(self._device_time)}"
        return f"<TimedRegion {self.name!r}: {state}>"


def timed_region(name: str | None = None, *, sync: bool = True) -> TimedRegion:
    """Time the work issued inside a ``with`` block, or each call of a decorated function.

    On the CuPy backend the region records CUDA events on the current stream (also
    inside ``xp.cuda.stream()`` blocks) and gives both the GPU time and the host wall
    time; on NumPy it uses ``time.perf_counter``. Named regions are added to the
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
        Use it as a context manager (it yields itself) or as a decorator. After the
        block, ``elapsed``, ``host_time`` and ``device_time`` hold seconds.

    Raises
    ------
    TypeError
        If ``name`` is not a str or None, or ``sync`` is not a bool.
    ValueError
        If ``name`` is an empty string.

    Examples
    --------
    >>> import time
    >>> from cunumpy import profiling
    >>> with profiling.timed_region("nap") as region:
    ...     time.sleep(0.01)
    >>> 0.005 < region.elapsed < 1.0
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


def report(*, file: IO[str] | None = None) -> dict[str, RegionStats]:
    """Print the per-name record of timed regions as a table, and return it.

    Parameters
    ----------
    file : text stream, optional
        Where to print; ``sys.stdout`` by default.

    Returns
    -------
    dict of str to RegionStats
        Count, total, mean, min and max (in seconds) per name, largest total first.

    Examples
    --------
    >>> from cunumpy import profiling
    >>> profiling.reset()
    >>> for _ in range(3):
    ...     with profiling.timed_region("solve"):
    ...         pass
    >>> stats = profiling.report()
    region  count  total  mean  min  max
    solve       3  ...
    >>> stats["solve"].count
    3
    """
    stats = dict(sorted(_record.snapshot().items(), key=lambda item: -item[1].total))
    out = sys.stdout if file is None else file
    if not stats:
        print("no timed regions recorded", file=out)
        return stats
    rows = [["region", "count", "total", "mean", "min", "max"]]
    for s in stats.values():
        times = [_format_seconds(t) for t in (s.total, s.mean, s.min, s.max)]
        rows.append([s.name, str(s.count), *times])
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        cells = [row[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(row[1:], widths[1:])]
        print("  ".join(cells).rstrip(), file=out)
    return stats


def reset() -> None:
    """Clear the per-name record of timed regions.

    Examples
    --------
    >>> from cunumpy import profiling
    >>> profiling.reset()
    >>> profiling.report()
    no timed regions recorded
    {}
    """
    _record.clear()


@dataclass(frozen=True, eq=False, repr=False)
class BenchmarkResult:
    """Times of the repeated runs of :func:`benchmark`, in seconds.

    Attributes
    ----------
    name : str
        The name shown when printed.
    host_times : numpy.ndarray
        Host time of each run (on CuPy: the time to issue the work, as in
        ``cupyx.profiler.benchmark``).
    device_times : numpy.ndarray or None
        GPU time of each run from CUDA events on CuPy; ``None`` on NumPy.
    """

    name: str
    host_times: np.ndarray
    device_times: np.ndarray | None

    @property
    def times(self) -> np.ndarray:
        """``device_times`` on CuPy, else ``host_times``: what the statistics use."""
        return self.host_times if self.device_times is None else self.device_times

    @property
    def n_repeat(self) -> int:
        """The number of timed runs (fewer than asked when ``max_duration`` stopped it)."""
        return int(self.host_times.size)

    @property
    def mean(self) -> float:
        """Mean of ``times``."""
        return float(np.mean(self.times))

    @property
    def median(self) -> float:
        """Median of ``times``."""
        return float(np.median(self.times))

    @property
    def std(self) -> float:
        """Standard deviation of ``times``."""
        return float(np.std(self.times))

    @property
    def min(self) -> float:
        """Smallest of ``times``."""
        return float(np.min(self.times))

    @property
    def max(self) -> float:
        """Largest of ``times``."""
        return float(np.max(self.times))

    def __str__(self) -> str:
        def part(label: str, t: np.ndarray) -> str:
            f = _format_seconds
            return (
                f"{label} {f(float(np.median(t)))} median, {f(float(np.mean(t)))} "
                f"+/- {f(float(np.std(t)))} (min {f(float(np.min(t)))}, "
                f"max {f(float(np.max(t)))})"
            )

        parts = [part("host", self.host_times)]
        if self.device_times is not None:
            parts.append(part("device", self.device_times))
        return f"{self.name}: {' | '.join(parts)}, {self.n_repeat} runs"

    __repr__ = __str__


def _check_count(value: object, param: str, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        msg = f"benchmark: `{param}` must be an int >= {minimum}, not {value!r}."
        raise TypeError(msg)
    if value < minimum:
        msg = f"benchmark: `{param}` must be an int >= {minimum}, not {value!r}."
        raise ValueError(msg)
    return value


def benchmark(
    fn: Callable[..., object],
    /,
    *args: Any,
    n_repeat: int = 100,
    n_warmup: int = 10,
    max_duration: float = math.inf,
    name: str | None = None,
    kwargs: Mapping[str, Any] | None = None,
) -> BenchmarkResult:
    """Time ``fn(*args, **kwargs)``: warm-up runs, then repeated timed runs.

    Like ``cupyx.profiler.benchmark``, on CuPy each run gets its host time and its
    GPU time from CUDA events on the current stream (waiting for each run to end);
    on NumPy only host times are taken. The call is the same on both backends.

    Parameters
    ----------
    fn : callable
        The function to time.
    *args
        Positional arguments for ``fn``.
    n_repeat : int, default 100
        Number of timed runs (at least 1).
    n_warmup : int, default 10
        Number of untimed runs first (at least 0), e.g. to compile kernels.
    max_duration : float, default inf
        Stop the timed runs once they took this many seconds (at least one runs).
    name : str, optional
        Name shown when printed; ``fn.__name__`` by default.
    kwargs : mapping, optional
        Keyword arguments for ``fn``.

    Returns
    -------
    BenchmarkResult
        The times; it prints as one line with the statistics.

    Raises
    ------
    TypeError
        If ``fn`` is not callable or an argument has the wrong type.
    ValueError
        If ``n_repeat < 1``, ``n_warmup < 0`` or ``max_duration <= 0``.

    Examples
    --------
    >>> import numpy as np
    >>> from cunumpy import profiling
    >>> result = profiling.benchmark(np.sort, np.arange(1000.0), n_repeat=20)
    >>> print(result)
    sort: host ... median, ... +/- ... (min ..., max ...), 20 runs
    >>> result.n_repeat, result.median > 0
    (20, True)
    """
    if not callable(fn):
        msg = f"benchmark: `fn` must be callable, not {fn!r}."
        raise TypeError(msg)
    _check_count(n_repeat, "n_repeat", 1)
    _check_count(n_warmup, "n_warmup", 0)
    if isinstance(max_duration, bool) or not isinstance(max_duration, (int, float)):
        msg = f"benchmark: `max_duration` must be a number of seconds > 0, not {max_duration!r}."
        raise TypeError(msg)
    if not max_duration > 0:
        msg = f"benchmark: `max_duration` must be a number of seconds > 0, not {max_duration!r}."
        raise ValueError(msg)
    if name is not None and not isinstance(name, str):
        msg = f"benchmark: `name` must be a str or None, not {name!r}."
        raise TypeError(msg)
    if kwargs is not None and not isinstance(kwargs, Mapping):
        msg = f"benchmark: `kwargs` must be a mapping or None, not {kwargs!r}."
        raise TypeError(msg)
    label = name if name is not None else getattr(fn, "__name__", repr(fn))
    kw = {} if kwargs is None else dict(kwargs)
    cuda = sys.modules["cupy"].cuda if get_backend() == "cupy" else None
    for _ in range(n_warmup):
        fn(*args, **kw)
    if cuda is not None:
        stream = cuda.get_current_stream()
        stream.synchronize()  # the warm-up runs must not leak into the first timed run
        start, end = cuda.Event(), cuda.Event()
    host: list[float] = []
    device: list[float] = []
    began = _perf_counter()
    while len(host) < n_repeat:
        if cuda is not None:
            start.record(stream)
        t0 = _perf_counter()
        fn(*args, **kw)
        host.append(_perf_counter() - t0)
        if cuda is not None:
            end.record(stream)
            end.synchronize()
            device.append(cuda.get_elapsed_time(start, end) * 1e-3)
        if _perf_counter() - began > max_duration:
            break
    device_times = None if cuda is None else np.asarray(device, dtype=np.float64)
    return BenchmarkResult(label, np.asarray(host, dtype=np.float64), device_times)
