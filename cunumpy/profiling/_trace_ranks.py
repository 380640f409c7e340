"""What one rank recorded, in the form gathered to rank 0 and read by the files and summary."""

from __future__ import annotations

from dataclasses import dataclass

from .._trace._buffer import Event, _Totals

__all__ = ["RankTrace"]


@dataclass
class RankTrace:
    """What one rank recorded, as gathered to rank 0 (picklable)."""

    rank: int
    host: str
    pid: int
    backend: str
    events: list[Event]
    totals: _Totals
    start: int
    end: int
    sync: int
    dropped: int
    first_drop: int | None
    capacity: int
