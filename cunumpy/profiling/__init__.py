"""Timing and profiling: timed regions, a per-name record, benchmarks and NVTX ranges.

On the CuPy backend, times come from CUDA events recorded on the current stream, so
they measure the GPU work and not only how long it took to queue it; on the NumPy
backend they come from ``time.perf_counter``. The backend is read from
``cunumpy.get_backend()`` at each region; the NumPy path never imports CuPy.
"""

from ._benchmark import BenchmarkResult, benchmark
from ._record import RegionStats, report, reset
from ._regions import TimedRegion, timed_region

__all__ = [
    "BenchmarkResult",
    "RegionStats",
    "TimedRegion",
    "benchmark",
    "report",
    "reset",
    "timed_region",
]


def __dir__() -> list[str]:
    """The public names only (``__all__``), not the imports and private submodules."""
    return list(__all__)
