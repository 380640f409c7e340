"""Timing and profiling: timed regions, a per-name record, benchmarks, NVTX ranges, transfer counting.

Whenever CuPy holds work (the CuPy backend, or CuPy with a CUDA context on the current
GPU: GPU arrays may exist on the NumPy backend, since compute follows data), times come
from CUDA events
recorded on the current stream, so they measure the GPU work and not only how long it
took to queue it; otherwise they come from ``time.perf_counter``, and CuPy is never
imported. ``trace`` records a timeline of regions, copies, waits, kernels and MPI calls
to files a person opens offline (Chrome trace JSON, a self-contained HTML page).
``count_transfers``, ``assert_no_transfers`` and ``TransferBudget`` count the copies
between host and device that cunumpy makes, with their call sites and sizes.
"""

from .._settings._homes import set_public_homes as _set_public_homes
from ._benchmark import BenchmarkResult, benchmark
from ._budget import TransferBudget
from ._nvtx import nvtx_range
from ._record import RegionStats, report, reset
from ._regions import TimedRegion, Timing, timed_region
from ._trace import Trace, trace
from ._transfer_events import TransferEvent
from ._transfers import TransferCounter, assert_no_transfers, count_transfers

__all__ = [
    "BenchmarkResult",
    "RegionStats",
    "TimedRegion",
    "Timing",
    "Trace",
    "TransferBudget",
    "TransferCounter",
    "TransferEvent",
    "assert_no_transfers",
    "benchmark",
    "count_transfers",
    "nvtx_range",
    "report",
    "reset",
    "timed_region",
    "trace",
]


_set_public_homes(__name__, __all__, globals())  # tracebacks name the public module


def __dir__() -> list[str]:
    """The public names only (``__all__``), not the imports and private submodules."""
    return list(__all__)
