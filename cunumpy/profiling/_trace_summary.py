"""The summary of a recording: tables per name, per call site, per stream and per rank.

``summarize`` turns the ranks of a recording into tables; ``summary_text`` prints them
for the terminal, and the HTML timeline shows the same tables under the tracks.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass

from ._record import format_seconds
from ._trace_ranks import RankTrace

__all__ = ["Table", "summarize", "summary_text"]


@dataclass(frozen=True)
class Table:
    """One table of the summary: a title, column names, rows of text, and a note."""

    title: str
    columns: tuple[str, ...]
    rows: Sequence[tuple[str, ...]]
    note: str = ""


def _seconds(ns: float) -> str:
    return format_seconds(ns * 1e-9)


def _bytes(n: float) -> str:
    for unit, size in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n >= size:
            return f"{n / size:.2f} {unit}"
    return f"{int(n)} B"


def _site(site: str) -> str:
    """A call site relative to the working folder when it lies inside it."""
    here = os.getcwd() + os.sep
    return site[len(here) :] if site.startswith(here) else site


def _rate(nbytes: float, ns: float) -> str:
    per_second = nbytes / (ns * 1e-9)
    if per_second >= 1e9:
        return f"{per_second / 1e9:.2f} GB/s"
    return f"{per_second / 1e6:.2f} MB/s"


def _union(intervals: list[tuple[int, int]]) -> int:
    """The time covered by the intervals, each counted once (overlaps merged)."""
    covered, reach = 0, None
    for start, end in sorted(intervals):
        if reach is None or start > reach:
            covered += end - start
            reach = end
        elif end > reach:
            covered += end - reach
            reach = end
    return covered


def _regions(ranks: list[RankTrace]) -> Table:
    rows: dict[str, list[float]] = {}
    device: dict[str, float] = {}
    for rank in ranks:
        for name, (count, total, longest) in rank.totals.regions.items():
            row = rows.setdefault(name, [0, 0, 0])
            row[0] += count
            row[1] += total
            row[2] = max(row[2], longest)
        for event in rank.events:
            if event.cat == "device" and event.dur is not None:
                device[event.name] = device.get(event.name, 0) + event.dur
    body = [
        (
            name,
            str(int(count)),
            _seconds(total),
            _seconds(total / count),
            _seconds(longest),
            _seconds(device[name]) if name in device else "-",
        )
        for name, (count, total, longest) in sorted(rows.items(), key=lambda kv: -kv[1][1])
    ]
    return Table(
        "Regions by name (timed_region)",
        ("name", "count", "total", "mean", "max", "device total"),
        body,
        "all ranks together; device total from CUDA events where CuPy held work",
    )


def _copies(ranks: list[RankTrace]) -> Table:
    rows: dict[tuple[str, str], list[float]] = {}
    for rank in ranks:
        for key, (count, nbytes, took) in rank.totals.copies.items():
            row = rows.setdefault(key, [0, 0, 0])
            row[0] += count
            row[1] += nbytes
            row[2] += took
    body = []
    for (site, kind), (count, nbytes, took) in sorted(rows.items(), key=lambda kv: -kv[1][2]):
        rate = _rate(nbytes, took) if took > 0 and nbytes else "-"
        body.append((_site(site), kind, str(int(count)), _bytes(nbytes), _seconds(took), rate))
    return Table(
        "Copies between host and device, by call site",
        ("call site", "direction", "count", "bytes", "time", "bandwidth"),
        body,
        "time as the host saw it, from the call to its return",
    )


def _idle(ranks: list[RankTrace]) -> Table:
    body = []
    for rank in ranks:
        span = max(rank.end - rank.start, 1)
        tracks: dict[str, list[tuple[int, int]]] = {}
        for event in rank.events:
            if event.dur is None:
                continue
            if event.track.startswith("cuda:"):
                tracks.setdefault(event.track, []).append((event.ts, event.ts + event.dur))
            elif event.cat in ("region", "nvtx") and event.depth == 0:
                key = f"{event.track} (in top-level regions)"
                tracks.setdefault(key, []).append((event.ts, event.ts + event.dur))
        for track, intervals in sorted(tracks.items()):
            busy = min(_union(intervals), span)
            body.append(
                (str(rank.rank), track, _seconds(busy), f"{100.0 * (1 - busy / span):.1f} %")
            )
    return Table(
        "Idle fraction per stream",
        ("rank", "track", "busy", "idle"),
        body,
        "busy: covered by a device interval on a stream (a region's, a kernel's, a copy's), "
        "by a top-level region on a host thread; idle: the rest of the recording",
    )


def _waits(ranks: list[RankTrace]) -> Table:
    body = []
    for rank in ranks:
        for what, (count, took) in sorted(rank.totals.waits.items(), key=lambda kv: -kv[1][1]):
            body.append((str(rank.rank), "sync", what, str(int(count)), _seconds(took)))
        for name, (count, took, nbytes) in sorted(
            rank.totals.mpi.items(), key=lambda kv: -kv[1][1]
        ):
            body.append(
                (
                    str(rank.rank),
                    "MPI",
                    f"{name} ({_bytes(nbytes)})",
                    str(int(count)),
                    _seconds(took),
                )
            )
    return Table(
        "Time waiting: synchronizations and MPI, per rank",
        ("rank", "kind", "what", "count", "time"),
        body,
        "MPI: the time each rank spent inside the call, waiting for its partners included",
    )


def _kernels(ranks: list[RankTrace]) -> Table:
    rows: dict[str, list[float]] = {}
    device: dict[str, float] = {}
    for rank in ranks:
        for name, (count, took) in rank.totals.kernels.items():
            row = rows.setdefault(name, [0, 0])
            row[0] += count
            row[1] += took
        for event in rank.events:
            if event.cat == "kernel" and event.track.startswith("cuda:") and event.dur:
                device[event.name] = device.get(event.name, 0) + event.dur
    body = [
        (name, str(int(count)), _seconds(took), _seconds(device[name]) if name in device else "-")
        for name, (count, took) in sorted(rows.items(), key=lambda kv: -kv[1][1])
    ]
    return Table(
        "Kernel launches (cunumpy.kernels)",
        ("kernel", "launches", "host time", "device time"),
        body,
    )


def summarize(ranks: list[RankTrace]) -> list[Table]:
    """The tables of the summary of ``ranks``."""
    tables = [_regions(ranks), _copies(ranks), _idle(ranks), _waits(ranks), _kernels(ranks)]
    dropped = [r for r in ranks if r.dropped]
    if dropped:
        tables.append(
            Table(
                "Buffer full",
                ("rank", "events kept", "events dropped", "dropped from"),
                [
                    (
                        str(r.rank),
                        str(len(r.events)),
                        str(r.dropped),
                        _seconds((r.first_drop or r.start) - r.start),
                    )
                    for r in dropped
                ],
                "the timeline stops at the capacity; the totals above count every event",
            )
        )
    return tables


def _render(table: Table) -> list[str]:
    lines = [table.title]
    if not table.rows:
        return [*lines, "  (none)"]
    widths = [
        max(len(c), *(len(row[i]) for row in table.rows)) for i, c in enumerate(table.columns)
    ]
    lines.append("  " + "  ".join(c.ljust(w) for c, w in zip(table.columns, widths, strict=True)))
    lines.extend(
        "  " + "  ".join(v.ljust(w) for v, w in zip(row, widths, strict=True)).rstrip()
        for row in table.rows
    )
    if table.note:
        lines.append(f"  ({table.note})")
    return lines


def summary_text(ranks: list[RankTrace]) -> str:
    """The summary for the terminal."""
    span = max((r.end - r.start for r in ranks), default=0)
    head = (
        f"cunumpy trace: {len(ranks)} rank(s), {sum(len(r.events) for r in ranks)} events, "
        f"{_seconds(span)} recorded"
    )
    lines = [head]
    for table in summarize(ranks):
        lines.append("")
        lines.extend(_render(table))
    return "\n".join(lines)
