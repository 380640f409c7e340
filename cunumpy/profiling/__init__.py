"""Timing and profiling: timed regions, a per-name record, benchmarks and NVTX ranges."""

from ._regions import (
    BenchmarkResult,
    RegionStats,
    TimedRegion,
    _nvtx_hooks,  # noqa: F401 (read by tests/test_profiling.py)
    benchmark,
    report,
    reset,
    timed_region,
)

__all__ = [
    "BenchmarkResult",
    "RegionStats",
    "TimedRegion",
    "benchmark",
    "report",
    "reset",
    "timed_region",
]
