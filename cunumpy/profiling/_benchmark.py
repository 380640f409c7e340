"""``benchmark()``: repeated runs of a function, timed on the host and, on CuPy, on the GPU."""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._placement._transfer_log import active, note_transfer
from ._record import format_seconds
from ._regions import cupy_holds_work

__all__ = ["BenchmarkResult", "benchmark"]

_perf_counter = time.perf_counter


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
            f = format_seconds
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

    Like ``cupyx.profiler.benchmark``, whenever CuPy holds work (the CuPy backend, or
    CuPy with a CUDA context on the current GPU on the NumPy backend) each run gets its
    host time and its GPU time from CUDA events on the current stream (waiting for each run to end);
    otherwise only host times are taken. The call is the same on both backends.

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
    cuda = sys.modules["cupy"].cuda if cupy_holds_work() else None
    for _ in range(n_warmup):
        fn(*args, **kw)
    if cuda is not None:
        stream = cuda.get_current_stream()
        if active():
            note_transfer("sync", f"benchmark {label!r}: waits for the warm-up runs")
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
            if active():
                note_transfer("sync", f"benchmark {label!r}: waits for a timed run")
            end.synchronize()
            device.append(cuda.get_elapsed_time(start, end) * 1e-3)
        if _perf_counter() - began > max_duration:
            break
    device_times = None if cuda is None else np.asarray(device, dtype=np.float64)
    return BenchmarkResult(label, np.asarray(host, dtype=np.float64), device_times)
