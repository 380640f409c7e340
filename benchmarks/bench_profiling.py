"""Overhead of cunumpy.profiling: entering and leaving a region, benchmark() per run, counters.

Measures the cost per call of a timed region and of one run of ``profiling.benchmark``,
as a ratio to the budget (2 us on NumPy, 20 us on CuPy), once per repeat, for information:
a time against a fixed budget depends on the machine and its load, so it carries no bound
(``--check`` applies bounds only to ratios of two things measured in one run). The detail
also gives the ratio to an empty ``with`` block. Transfer counting must cost nothing where
nothing is copied: ``to_numpy`` of a NumPy array is timed against ``numpy.asarray`` (the
raw call), and inside an open ``count_transfers`` block against outside one (bound: 1.2),
in loops of 1000 calls, interleaved. On CuPy it also compares the device median of
``profiling.benchmark`` with ``cupyx.profiler.benchmark`` on the same kernel. The CuPy
part runs only when ``cunumpy.cupy_available()``; otherwise its figures are skipped.
While ``profiling.trace`` records, a region and a copy cost more: the figures "traced" give
the time per region and per noted copy inside a recording, and outside one, interleaved
(for information; docs/tracing.md quotes them).

Run: ``python benchmarks/bench_profiling.py [--quick | --full]`` (or ``python -m benchmarks``).
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import Callable
from contextlib import nullcontext

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
import cunumpy
from benchmarks._harness import Check, Mode, Progress, Result, Skipped, interleaved_times, main
from cunumpy import profiling

TITLE = "Overhead of cunumpy.profiling: timed regions and benchmark() against their budget"
NEEDS: tuple[str, ...] = ()

NUMPY_BUDGET = 2e-6
LOOP = 1000  # calls per timed run of the transfer-counting figures
CUPY_BUDGET = 20e-6


def per_call(fn: Callable[[], object], number: int, repeat: int) -> list[float]:
    """Seconds per call of ``fn``, one figure per repeat of ``number`` calls."""
    rounds = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        rounds.append((time.perf_counter() - t0) / number)
    return rounds


def region(name: str | None, sync: bool = True) -> Callable[[], None]:
    def run() -> None:
        with profiling.timed_region(name, sync=sync):
            pass

    return run


def empty_with() -> None:
    with nullcontext():
        pass


def _of(seconds: list[float], reference: float) -> tuple[float, ...]:
    return tuple(s / reference for s in seconds)


def bench_numpy(quick: bool, repeat: int, progress: Progress) -> list[Result]:
    progress.step("NumPy backend: empty `with`, timed regions, benchmark()")
    n = 20_000 if quick else 100_000
    baseline = statistics.median(per_call(empty_with, 2 * n, repeat))
    results: list[Result] = []
    lines = ["NumPy backend (budget: 2 us per region), median per call"]
    lines.append(f"  {'empty `with nullcontext()` (baseline)':<44s} {baseline * 1e6:8.3f} us")
    for label, fn in [
        ("timed_region() unnamed", region(None)),
        ("timed_region('name') recorded", region("bench")),
    ]:
        seconds = per_call(fn, n, repeat)
        median = statistics.median(seconds)
        lines.append(
            f"  {label:<44s} {median * 1e6:8.3f} us   {median / NUMPY_BUDGET:6.2f}x budget"
            f"   {median / baseline:6.2f}x empty `with`"
        )
        results.append(Check(f"NumPy {label} / 2 us", _of(seconds, NUMPY_BUDGET)))
    runs = 1000
    per_run = [
        s / runs
        for s in per_call(
            lambda: profiling.benchmark(int, n_repeat=runs, n_warmup=0), 5 if quick else 20, repeat
        )
    ]
    lines.append(f"  {'benchmark(int) per run':<44s} {statistics.median(per_run) * 1e6:8.3f} us")
    results.append(Check("NumPy benchmark(int) per run / 2 us", _of(per_run, NUMPY_BUDGET)))
    profiling.reset()
    progress.detail("\n".join(lines))
    return results


def bench_counting(quick: bool, repeat: int, progress: Progress) -> list[Result]:
    """``to_numpy`` of a NumPy array: against the raw call, and with a counter open."""
    from cunumpy._placement._transfer_log import active

    progress.step("transfer counting: to_numpy of a NumPy array, with and without a counter")
    x = np.arange(16.0)
    to_numpy, asarray = cunumpy.to_numpy, np.asarray
    loop = range(LOOP)
    counters: list[profiling.TransferCounter] = []

    def raw() -> None:
        for _ in loop:
            asarray(x)

    def idle() -> None:
        for _ in loop:
            to_numpy(x)

    def counting() -> None:
        with profiling.count_transfers() as counter:
            for _ in loop:
                to_numpy(x)
        counters.append(counter)

    def check() -> None:
        for _ in loop:
            active()

    runs = {
        "numpy.asarray(x) (raw)": raw,
        "to_numpy(x), no counter": idle,
        "to_numpy(x), count_transfers open": counting,
        "the active() check alone, no counter": check,
    }
    times = interleaved_times(runs, number=20 if quick else 100, repeat=repeat)
    counted = sum(len(c.events) for c in counters)
    if counted:
        msg = f"bench_profiling: to_numpy of a NumPy array was counted {counted} times"
        raise RuntimeError(msg)
    raw_t, idle_t, open_t = (times[k] for k in list(runs)[:3])
    lines = [f"Transfer counting, median per call (loops of {LOOP} calls)"]
    for label, ts in times.items():
        lines.append(f"  {label:<44s} {statistics.median(ts) / LOOP * 1e9:8.1f} ns")
    progress.detail("\n".join(lines))
    return [
        Check("to_numpy(numpy) / numpy.asarray (raw)", tuple(a / b for a, b in zip(idle_t, raw_t))),
        Check(
            "to_numpy(numpy) in count_transfers / without",
            tuple(a / b for a, b in zip(open_t, idle_t)),
            1.2,
        ),
    ]


def bench_cupy(quick: bool, repeat: int, progress: Progress) -> list[Result]:
    import cupy
    from cupyx.profiler import benchmark as cupyx_benchmark

    progress.step("CuPy backend: timed regions, benchmark() against cupyx.profiler.benchmark")
    results: list[Result] = []
    lines = ["CuPy backend (budget: 20 us per region), median per call"]
    with cunumpy.use_backend("cupy"):
        cupy.cuda.Device().synchronize()
        for label, fn in [
            ("timed_region() sync=True", region(None)),
            ("timed_region('name') sync=True recorded", region("bench")),
            ("timed_region() sync=False", region(None, sync=False)),
        ]:
            seconds = per_call(fn, 500 if quick else 2_000, repeat)
            lines.append(f"  {label:<44s} {statistics.median(seconds) * 1e6:8.3f} us")
            results.append(Check(f"CuPy {label} / 20 us", _of(seconds, CUPY_BUDGET)))
        x = cupy.zeros(1)
        n_repeat = 500 if quick else 2000
        ratios = []
        for _ in range(repeat):
            ours = profiling.benchmark(x.fill, 0, n_repeat=n_repeat, n_warmup=50).median
            theirs = cupyx_benchmark(x.fill, (0,), n_repeat=n_repeat, n_warmup=50)
            ratios.append(ours / statistics.median(theirs.gpu_times[0]))
        lines.append(
            f"  benchmark(x.fill) device median / cupyx's: {statistics.median(ratios):.3f}"
        )
        results.append(Check("CuPy benchmark(x.fill) device median / cupyx's", tuple(ratios)))
    profiling.reset()
    progress.detail("\n".join(lines))
    return results


def bench_tracing(quick: bool, repeat: int, progress: Progress) -> list[Result]:
    """A region and a noted copy inside a ``profiling.trace`` recording, and outside one."""
    import tempfile

    from cunumpy._placement._transfer_log import note_transfer
    from cunumpy._trace._recorder import clock

    progress.step("profiling.trace: a region and a copy, recorded and not")
    loop = range(LOOP)

    def regions() -> None:
        for _ in loop:
            with profiling.timed_region("bench"):
                pass

    def copies() -> None:
        for _ in loop:
            note_transfer("to_host", "to_numpy(shape=(16,))", nbytes=128, started=clock())

    number = 5 if quick else 20
    off = interleaved_times({"region": regions, "copy": copies}, number=number, repeat=repeat)
    with tempfile.TemporaryDirectory() as folder:
        recording = profiling.trace(os.path.join(folder, "bench.json"), html=False, summary=False)
        with recording:
            on = interleaved_times(
                {"region": regions, "copy": copies}, number=number, repeat=repeat
            )
    profiling.reset()
    lines = [f"profiling.trace, median per call (loops of {LOOP} calls)"]
    results: list[Result] = []
    for what in ("region", "copy"):
        per_off = [t / LOOP for t in off[what]]
        per_on = [t / LOOP for t in on[what]]
        extra = statistics.median(per_on) - statistics.median(per_off)
        lines.append(
            f"  {what:<8s} not recorded {statistics.median(per_off) * 1e6:7.3f} us   "
            f"recorded {statistics.median(per_on) * 1e6:7.3f} us   (+{extra * 1e6:.3f} us)"
        )
        results.append(
            Check(f"traced {what} / not traced", tuple(a / b for a, b in zip(per_on, per_off)))
        )
    progress.detail("\n".join(lines))
    return results


def run(mode: Mode, progress: Progress) -> list[Result]:
    quick = mode == "quick"
    repeat = 7 if quick else 15
    results = bench_numpy(quick, repeat, progress)
    results += bench_counting(quick, repeat, progress)
    results += bench_tracing(quick, repeat, progress)
    if cunumpy.cupy_available():
        results += bench_cupy(quick, 5 if quick else repeat, progress)
    else:
        reason = f"no usable GPU: {cunumpy.cupy_unavailable_reason()}"
        results.append(Skipped("CuPy timed regions and benchmark()", reason))
    return results


if __name__ == "__main__":
    sys.exit(main(run, TITLE, NEEDS))
