"""A recording's buffer: its events, the summary's totals, and the device anchors.

Imported when a recording starts (``cunumpy.profiling.trace``), never by ``import
cunumpy``: the hooks of ``_recorder`` reach it only through ``_recorder.RECORDER``.
"""

from __future__ import annotations

import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from ._recorder import DEFAULT_CAPACITY, stream_track

__all__ = ["Event", "Recorder", "Tee"]

_now = time.perf_counter_ns


@dataclass(slots=True)
class Event:
    """One timeline event: an interval (``dur`` in ns), an instant (``dur`` None) or a counter."""

    ph: str  # "X" interval, "i" instant, "C" counter
    cat: str  # region, nvtx, device, copy, wait, kernel, mpi, memory
    name: str
    track: str
    ts: int  # ns, perf_counter
    dur: int | None = None
    args: dict[str, Any] | None = None
    depth: int = 0


@dataclass(slots=True)
class _Totals:
    """What the summary reports, counted for every event (also after the buffer is full)."""

    regions: dict[str, list[float]] = field(default_factory=dict)  # name -> [count, ns, max]
    copies: dict[tuple[str, str], list[float]] = field(default_factory=dict)  # site, kind
    waits: dict[str, list[float]] = field(default_factory=dict)  # what -> [count, ns]
    mpi: dict[str, list[float]] = field(default_factory=dict)  # function -> [count, ns, bytes]
    kernels: dict[str, list[float]] = field(default_factory=dict)  # name -> [count, ns]


class Recorder:
    """The events of one recording, its totals, and the device anchors."""

    def __init__(self, capacity: int = DEFAULT_CAPACITY) -> None:
        self.capacity = capacity
        self.events: list[Event] = []
        self.dropped = 0
        self.first_drop: int | None = None
        self.totals = _Totals()
        self.start = _now()
        self.end: int | None = None
        self.start_wall = time.time()
        self.sync_point: int | None = None  # when the ranks met (MPI), on this clock
        self._depth = threading.local()
        self._pending: list[tuple[str, str, str, Any, Any, dict[str, Any] | None]] = []
        self._anchors: dict[int, tuple[Any, int]] = {}
        self.launches = threading.local()  # the launch open on each thread (``launching``)
        self._lock = threading.Lock()

    # -- the buffer -------------------------------------------------------------------
    def _keep(self, event: Event) -> None:
        if len(self.events) < self.capacity:
            self.events.append(event)
        else:
            if self.first_drop is None:
                self.first_drop = event.ts
            self.dropped += 1

    def host_track(self) -> str:
        """The track of the calling thread: ``host <thread name>``."""
        track: str | None = getattr(self._depth, "track", None)
        if track is None:
            track = self._depth.track = f"host {threading.current_thread().name}"
        return track

    # -- regions ----------------------------------------------------------------------
    def enter(self) -> int:
        """A region opens on this thread: its nesting depth."""
        depth: int = getattr(self._depth, "n", 0)
        self._depth.n = depth + 1
        return depth

    def leave(
        self, cat: str, name: str, start: int, end: int, depth: int, args: dict[str, Any] | None
    ) -> None:
        """A region (``cat`` ``"region"`` or ``"nvtx"``) closes on this thread."""
        self._depth.n = depth
        self._keep(Event("X", cat, name, self.host_track(), start, end - start, args, depth))
        if cat == "region":
            row = self.totals.regions.get(name)
            took = end - start
            if row is None:
                self.totals.regions[name] = [1, took, took]
            else:
                row[0] += 1
                row[1] += took
                row[2] = max(row[2], took)

    def memory(self, ts: int) -> None:
        """The CuPy pool's bytes in use, as a counter (at region boundaries)."""
        cupy = sys.modules.get("cupy")
        if cupy is None:
            return
        try:
            pool = cupy.get_default_memory_pool()
            used, held = int(pool.used_bytes()), int(pool.total_bytes())
        except Exception:
            return
        self._keep(
            Event("C", "memory", "CuPy pool", "memory", ts, None, {"used": used, "held": held})
        )

    # -- host waits and copies --------------------------------------------------------
    def wait(self, what: str, start: int, end: int) -> None:
        """The host waited for the device from ``start`` to ``end``."""
        self._keep(Event("X", "wait", what, self.host_track(), start, end - start, None))
        key = what.split(" of ", 1)[0].split("(", 1)[0] or what
        row = self.totals.waits.get(key)
        if row is None:
            self.totals.waits[key] = [1, end - start]
        else:
            row[0] += 1
            row[1] += end - start

    def transfer(
        self,
        kind: str,
        description: str,
        nbytes: int | None,
        blocking: bool,
        started: Any,
        stream: Any,
        pinned: bool | None,
        site: str,
    ) -> None:
        """One copy between host and device (``kind`` of the transfer log), or a ``sync``."""
        end = _now()
        begin = None
        if isinstance(started, tuple):  # from ``copy_start``: with a device mark
            started, begin, queue = started
            stream = queue if stream is None else stream
        start = started or end
        if kind == "sync":
            return  # the waits are timed by ``waiting``
        args: dict[str, Any] = {
            "kind": kind,
            "bytes": nbytes,
            "memory": "pinned" if pinned else ("pageable" if pinned is not None else "unknown"),
            "blocking": blocking,
            "call site": site,
            "what": description,
        }
        if stream is not None:
            args["stream"] = stream_track(stream)
            if begin is not None:
                self.device_span("copy", kind, stream, begin, self.mark(stream), args)
        self._keep(Event("X", "copy", kind, self.host_track(), start, end - start, args))
        row = self.totals.copies.get((site, kind))
        if row is None:
            self.totals.copies[(site, kind)] = [1, nbytes or 0, end - start]
        else:
            row[0] += 1
            row[1] += nbytes or 0
            row[2] += end - start
        if kind == "to_host" and started and blocking:
            self.wait(f"{description.split('(', 1)[0]}: copy to the host", start, end)

    # -- kernels and MPI --------------------------------------------------------------
    def launch(self, name: str, start: int, end: int, stream: Any, args: dict[str, Any]) -> None:
        """A kernel launch (host interval); its device interval comes from its events."""
        args["stream"] = stream_track(stream) if stream is not None else "host"
        self._keep(Event("X", "kernel", name, self.host_track(), start, end - start, args))
        row = self.totals.kernels.get(name)
        if row is None:
            self.totals.kernels[name] = [1, end - start]
        else:
            row[0] += 1
            row[1] += end - start

    def mpi(self, name: str, start: int, end: int, nbytes: int | None, peer: Any) -> None:
        """An MPI call of ``cunumpy.mpi``: the time this rank spent in it."""
        args: dict[str, Any] = {"bytes": nbytes}
        if peer is not None:
            args["peer"] = peer
        self._keep(Event("X", "mpi", name, "MPI", start, end - start, args))
        row = self.totals.mpi.get(name)
        if row is None:
            self.totals.mpi[name] = [1, end - start, nbytes or 0]
        else:
            row[0] += 1
            row[1] += end - start
            row[2] += nbytes or 0

    # -- device intervals -------------------------------------------------------------
    def mark(self, stream: Any) -> Any:
        """A timing CUDA event recorded on ``stream`` now (after an anchor for its device)."""
        cuda = sys.modules["cupy"].cuda
        device = int(cuda.runtime.getDevice())
        if device not in self._anchors:
            anchor = cuda.Event()
            anchor.record(stream)
            anchor.synchronize()
            self._anchors[device] = (anchor, _now())
        event = cuda.Event()
        event.record(stream)
        return (self._anchors[device], event)

    def device_span(
        self, cat: str, name: str, stream: Any, begin: Any, end: Any, args: dict[str, Any] | None
    ) -> None:
        """The device interval between marks ``begin`` and ``end``, resolved at the end."""
        with self._lock:
            self._pending.append((cat, name, stream_track(stream), begin, end, args))

    def resolve(self) -> None:
        """Turn the pending device intervals into events (waits for their end events)."""
        if not self._pending:
            return
        cuda = sys.modules["cupy"].cuda
        with self._lock:
            pending, self._pending = self._pending, []
        for cat, name, track, ((anchor, host), begin), (_, end), args in pending:
            end.synchronize()
            start_ns = host + int(cuda.get_elapsed_time(anchor, begin) * 1e6)
            took = int(cuda.get_elapsed_time(begin, end) * 1e6)
            self._keep(Event("X", cat, name, track, start_ns, max(took, 0), args))

    def finish(self) -> None:
        """The recording ends: device intervals resolved, events in time order."""
        self.end = _now()
        self.resolve()
        self.events.sort(key=lambda e: (e.ts, -(e.dur or 0)))


class Tee:
    """Two recordings at once, an outer one and one started inside it: every hook reaches both.

    ``enter`` returns both depths, which ``leave`` takes back; marks are the outer
    recording's (each carries its anchor, so that both place the interval alike).
    """

    def __init__(self, outer: Any, inner: Recorder) -> None:
        self.outer = outer
        self.inner = inner
        self.launches = outer.launches

    def enter(self) -> tuple[Any, int]:
        return (self.outer.enter(), self.inner.enter())

    def leave(
        self, cat: str, name: str, start: int, end: int, depth: Any, args: dict[str, Any] | None
    ) -> None:
        self.outer.leave(cat, name, start, end, depth[0], args)
        self.inner.leave(cat, name, start, end, depth[1], args)

    def memory(self, ts: int) -> None:
        self.outer.memory(ts)
        self.inner.memory(ts)

    def wait(self, what: str, start: int, end: int) -> None:
        self.outer.wait(what, start, end)
        self.inner.wait(what, start, end)

    def transfer(self, *args: Any) -> None:
        self.outer.transfer(*args)
        self.inner.transfer(*args)

    def launch(self, name: str, start: int, end: int, stream: Any, args: dict[str, Any]) -> None:
        self.outer.launch(name, start, end, stream, args)
        self.inner.launch(name, start, end, stream, args)

    def mpi(self, name: str, start: int, end: int, nbytes: int | None, peer: Any) -> None:
        self.outer.mpi(name, start, end, nbytes, peer)
        self.inner.mpi(name, start, end, nbytes, peer)

    def mark(self, stream: Any) -> Any:
        return self.outer.mark(stream)

    def device_span(
        self, cat: str, name: str, stream: Any, begin: Any, end: Any, args: dict[str, Any] | None
    ) -> None:
        self.outer.device_span(cat, name, stream, begin, end, args)
        self.inner.device_span(cat, name, stream, begin, end, args)
