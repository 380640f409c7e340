"""The per-name record of closed timed regions, and its report."""

from __future__ import annotations

import sys
import threading
from collections import deque
from dataclasses import dataclass
from typing import IO, Protocol

__all__ = ["RegionStats", "format_seconds", "record", "report", "reset"]

_PENDING_LIMIT = 256  # unsynchronized GPU regions kept before the record waits for them
_KNOWN_LIMIT = 4096  # known times queued before they are folded into the record


class _ClosedRegion(Protocol):
    """A closed GPU region (``_regions._ClosedRegion``) as the record reads it."""

    @property
    def name(self) -> str | None: ...

    @property
    def elapsed(self) -> float | None: ...


def format_seconds(seconds: float) -> str:
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
    """The per-name record; threads may share it.

    A region whose time is known when it closes (on the host, or synchronized on the GPU)
    only appends ``(name, seconds)`` to the ``known`` queue: a deque, whose two ends are
    safe across threads without a lock. The queue is folded into the per-name figures
    under the lock when it is long or the record is read. Every other method holds the
    lock.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._stats: dict[str, list[float]] = {}  # name -> [count, total, min, max]
        self._pending: list[_ClosedRegion] = []  # GPU regions whose end is not known yet
        self.known: deque[tuple[str, float]] = deque()  # appended to by closing regions

    def fold(self) -> None:
        """Fold the queued known times into the per-name figures."""
        with self._lock:
            self._fold()

    def _fold(self) -> None:
        queue = self.known
        for _ in range(len(queue)):  # only what is queued now: others may still append
            name, seconds = queue.popleft()
            self._add(name, seconds)

    def _add(self, name: str, seconds: float) -> None:
        entry = self._stats.get(name)
        if entry is None:
            self._stats[name] = [1, seconds, seconds, seconds]
        else:
            entry[0] += 1
            entry[1] += seconds
            if seconds < entry[2]:  # comparisons, not min() and max(): this is a hot path
                entry[2] = seconds
            elif seconds > entry[3]:
                entry[3] = seconds

    def add(self, region: _ClosedRegion) -> None:
        """Record an unsynchronized GPU region, whose end is read later."""
        with self._lock:
            self._pending.append(region)
            if len(self._pending) >= _PENDING_LIMIT:
                self._flush()

    def add_time(self, name: str, seconds: float) -> None:
        """Record ``seconds`` of host work under ``name`` (work timed outside a region)."""
        self.known.append((name, seconds))  # folded in with the regions' known times

    def _flush(self) -> None:
        for region in self._pending:
            self._add(region.name, region.elapsed)  # type: ignore[arg-type]
        self._pending.clear()

    def snapshot(self) -> dict[str, RegionStats]:
        with self._lock:
            self._fold()
            self._flush()
            return {
                name: RegionStats(name, int(c), total, low, high)
                for name, (c, total, low, high) in self._stats.items()
            }

    def clear(self) -> None:
        with self._lock:
            self.known.clear()
            self._stats.clear()
            self._pending.clear()


record = _Record()


def report(*, file: IO[str] | None = None) -> dict[str, RegionStats]:
    """Print the per-name record of timed regions as a table, and return it.

    Parameters
    ----------
    file : text stream, optional
        Where to print; ``sys.stdout`` by default.

    Raises
    ------
    TypeError
        If ``file`` is not a text stream (has no ``write`` method).

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
    if file is not None and not callable(getattr(file, "write", None)):
        msg = (
            f"report: `file` must be a text stream with a write() method (an open file, "
            f"sys.stderr, io.StringIO) or None, not {file!r}."
        )
        raise TypeError(msg)
    stats = dict(sorted(record.snapshot().items(), key=lambda item: -item[1].total))
    out = sys.stdout if file is None else file
    if not stats:
        print("no timed regions recorded", file=out)
        return stats
    rows = [["region", "count", "total", "mean", "min", "max"]]
    for s in stats.values():
        times = [format_seconds(t) for t in (s.total, s.mean, s.min, s.max)]
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
    record.clear()
