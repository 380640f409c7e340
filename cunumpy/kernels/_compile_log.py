"""Compile times of a kernel: kept on the kernel and added to ``cunumpy.profiling``'s record."""

from __future__ import annotations

import threading

__all__ = ["CompileLog"]


class CompileLog:
    """Seconds spent compiling each version of one kernel, in the order they were compiled.

    Each entry is also recorded by ``cunumpy.profiling`` under the name
    ``"compile <kernel>: <version>"``, so ``profiling.report()`` lists it.
    """

    def __init__(self, name: str) -> None:
        self._name = name
        self._lock = threading.Lock()
        self._times: dict[str, float] = {}

    def add(self, version: str, seconds: float) -> None:
        """Record that compiling ``version`` took ``seconds``."""
        from ..profiling._record import record

        with self._lock:
            self._times[version] = self._times.get(version, 0.0) + seconds
        record.add_time(f"compile {self._name}: {version}", seconds)

    def snapshot(self) -> dict[str, float]:
        """A copy of the compile times, in seconds, by version."""
        with self._lock:
            return dict(self._times)
