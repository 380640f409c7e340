"""Overhead of cunumpy.profiling: entering and leaving a region, and benchmark() per run.

Run as ``python benchmarks/bench_profiling.py``. It prints the median cost per call and
its ratio to the budget (2 us on NumPy, 20 us on CuPy); the CuPy part runs only when
``cunumpy.cupy_available()``.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from contextlib import nullcontext

import cunumpy
from cunumpy import profiling

NUMPY_BUDGET = 2e-6
CUPY_BUDGET = 20e-6


def median_per_call(fn: Callable[[], object], number: int, repeat: int = 15) -> float:
    """Median over ``repeat`` rounds of the time of one call, in seconds."""
    rounds = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        rounds.append((time.perf_counter() - t0) / number)
    return statistics.median(rounds)


def show(label: str, seconds: float, reference: float, reference_label: str) -> None:
    ratio = seconds / reference
    print(f"  {label:<44s} {seconds * 1e6:8.3f} us   {ratio:6.2f}x {reference_label}")


def region(name: str | None, sync: bool = True) -> Callable[[], None]:
    def run() -> None:
        with profiling.timed_region(name, sync=sync):
            pass

    return run


def empty_with() -> None:
    with nullcontext():
        pass


def bench_numpy() -> None:
    print("NumPy backend (budget: 2 us per region)")
    baseline = median_per_call(empty_with, 200_000)
    show("empty `with nullcontext()` (baseline)", baseline, NUMPY_BUDGET, "budget")
    for label, fn in [
        ("timed_region() unnamed", region(None)),
        ("timed_region('name') recorded", region("bench")),
    ]:
        seconds = median_per_call(fn, 100_000)
        show(label, seconds, NUMPY_BUDGET, "budget")
        show(label, seconds, baseline, "empty `with`")
    per_run = median_per_call(lambda: profiling.benchmark(int, n_repeat=1000, n_warmup=0), 20)
    show("benchmark(int) per run", per_run / 1000, NUMPY_BUDGET, "budget")
    profiling.reset()


def bench_cupy() -> None:
    import cupy
    from cupyx.profiler import benchmark as cupyx_benchmark

    print("CuPy backend (budget: 20 us per region)")
    with cunumpy.use_backend("cupy"):
        cupy.cuda.Device().synchronize()
        for label, fn in [
            ("timed_region() sync=True", region(None)),
            ("timed_region('name') sync=True recorded", region("bench")),
            ("timed_region() sync=False", region(None, sync=False)),
        ]:
            show(label, median_per_call(fn, 2_000), CUPY_BUDGET, "budget")
        x = cupy.zeros(1)
        ours = profiling.benchmark(x.fill, 0, n_repeat=2000, n_warmup=50).median
        theirs = statistics.median(
            cupyx_benchmark(x.fill, (0,), n_repeat=2000, n_warmup=50).gpu_times[0]
        )
        show("benchmark(x.fill) device median", ours, theirs, "cupyx.profiler.benchmark")
    profiling.reset()


def main() -> None:
    bench_numpy()
    if cunumpy.cupy_available():
        bench_cupy()
    else:
        print(f"CuPy part skipped: {cunumpy.cupy_unavailable_reason()}")


if __name__ == "__main__":
    main()
