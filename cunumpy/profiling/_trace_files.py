"""The files of a recording: Chrome trace event JSON and the self-contained HTML timeline.

Both put each rank in a process (``pid`` = rank) and each track in a thread of it: the
host threads, the MPI calls, one track per CUDA stream, and the CuPy pool's counter.
Times are microseconds from rank 0's start; the ranks' clocks are aligned where they met
(a barrier at the start of the recording, or at its end for a whole program).
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

from ._trace_html import PAGE
from ._trace_ranks import RankTrace
from ._trace_summary import Table, summarize

__all__ = ["chrome_events", "write_chrome_json", "write_html"]


def _track_order(track: str) -> tuple[int, str]:
    for order, prefix in enumerate(("host", "MPI", "cuda:", "memory")):
        if track.startswith(prefix):
            return order, track
    return 4, track


def _tracks(rank: RankTrace) -> dict[str, int]:
    """Track name -> thread id, in display order (host first, then MPI, streams, memory)."""
    names = sorted({e.track for e in rank.events}, key=_track_order)
    return {name: n + 1 for n, name in enumerate(names)}


def _shifts(ranks: list[RankTrace]) -> tuple[dict[int, int], int]:
    """Per rank, what to add to its clock to read rank 0's; and the common origin."""
    reference = ranks[0].sync
    shift = {r.rank: reference - r.sync for r in ranks}
    origin = min(r.start + shift[r.rank] for r in ranks)
    return shift, origin


def chrome_events(ranks: list[RankTrace]) -> list[dict[str, Any]]:
    """The ``traceEvents`` of the Chrome trace event format for ``ranks``."""
    shift, origin = _shifts(ranks)
    out: list[dict[str, Any]] = []
    for rank in ranks:
        pid = rank.rank
        label = f"rank {rank.rank} ({rank.host}, pid {rank.pid}, {rank.backend})"
        out.append(
            {"name": "process_name", "ph": "M", "pid": pid, "tid": 0, "args": {"name": label}}
        )
        out.append(
            {
                "name": "process_sort_index",
                "ph": "M",
                "pid": pid,
                "tid": 0,
                "args": {"sort_index": pid},
            }
        )
        tids = _tracks(rank)
        for track, tid in tids.items():
            out.append(
                {"name": "thread_name", "ph": "M", "pid": pid, "tid": tid, "args": {"name": track}}
            )
            out.append(
                {
                    "name": "thread_sort_index",
                    "ph": "M",
                    "pid": pid,
                    "tid": tid,
                    "args": {"sort_index": tid},
                }
            )
        move = shift[rank.rank] - origin
        for e in rank.events:
            item: dict[str, Any] = {
                "name": e.name,
                "cat": e.cat,
                "ph": e.ph,
                "ts": (e.ts + move) / 1000.0,
                "pid": pid,
                "tid": tids[e.track],
            }
            if e.ph == "X":
                item["dur"] = (e.dur or 0) / 1000.0
            if e.args:
                item["args"] = e.args
            out.append(item)
        if rank.dropped:
            out.append({
                "name": f"trace buffer full: {rank.dropped} later events dropped",
                "cat": "trace", "ph": "i", "s": "p", "pid": pid, "tid": 0,
                "ts": ((rank.first_drop or rank.end) + move) / 1000.0,
                "args": {"capacity": rank.capacity, "dropped": rank.dropped},
            })  # fmt: skip
    return out


def _other_data(ranks: list[RankTrace]) -> dict[str, Any]:
    return {
        "producer": "cunumpy.profiling.trace",
        "ranks": len(ranks),
        "dropped events": {str(r.rank): r.dropped for r in ranks},
        "capacity per rank": ranks[0].capacity if ranks else 0,
    }


def write_chrome_json(ranks: list[RankTrace], path: Path) -> Path:
    """Write the Chrome trace event JSON object format to ``path``."""
    document = {
        "traceEvents": chrome_events(ranks),
        "displayTimeUnit": "ms",
        "otherData": _other_data(ranks),
    }
    with open(path, "w", encoding="utf-8") as f:
        json.dump(document, f, separators=(",", ":"), default=str)
    return path


def _table_html(table: Table) -> str:
    head = "".join(f"<th>{html.escape(c)}</th>" for c in table.columns)
    if table.rows:
        body = "".join(
            "<tr>" + "".join(f"<td>{html.escape(v)}</td>" for v in row) + "</tr>"
            for row in table.rows
        )
    else:
        body = f'<tr><td colspan="{len(table.columns)}">(none)</td></tr>'
    note = f'<p class="note">{html.escape(table.note)}</p>' if table.note else ""
    return (
        f'<section class="table"><h3>{html.escape(table.title)}</h3>'
        f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>{note}</section>"
    )


def _tracks_html(ranks: list[RankTrace]) -> str:
    parts = []
    for rank in ranks:
        tracks = "".join(
            f'<div class="track" data-rank="{rank.rank}" data-track="{html.escape(t)}">'
            f'<div class="label">{html.escape(t)}</div><canvas></canvas></div>'
            for t in _tracks(rank)
        )
        parts.append(
            f'<div class="process" data-rank="{rank.rank}"><h2>rank {rank.rank} '
            f'<span class="meta">{html.escape(rank.host)}, {html.escape(rank.backend)}</span>'
            f"</h2>{tracks}</div>"
        )
    return "".join(parts)


def write_html(ranks: list[RankTrace], path: Path) -> Path:
    """Write the self-contained HTML timeline (no network: data, style and script inline)."""
    data = json.dumps({"traceEvents": chrome_events(ranks)}, separators=(",", ":"), default=str)
    data = data.replace("<", "\\u003c")  # nothing in the data can close the script element
    span = max((r.end - r.start for r in ranks), default=0) / 1e9
    title = f"{len(ranks)} rank(s), {span:.3f} s"
    page = (
        PAGE.replace("@TITLE@", html.escape(title))
        .replace("@TRACKS@", _tracks_html(ranks))
        .replace("@SUMMARY@", "".join(_table_html(t) for t in summarize(ranks)))
        .replace("@DATA@", data)
    )
    with open(path, "w", encoding="utf-8") as f:
        f.write(page)
    return path
