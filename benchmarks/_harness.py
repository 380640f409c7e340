"""What every benchmark shares: results, progress, interleaved timing, tables, ``main()``.

A benchmark module (``benchmarks/bench_<name>.py``) defines ``TITLE``, ``NEEDS`` and
``run(mode, progress)`` and ends with ``sys.exit(main(run, TITLE, NEEDS))``; see
``benchmarks/README.md``. This module imports neither cunumpy nor CuPy at import time.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Literal

Mode = Literal["quick", "full"]

#: What a benchmark may need besides NumPy: a usable GPU, MPI (then it runs under
#: mpiexec), or Numba (portable kernels).
KNOWN_NEEDS = ("gpu", "mpi", "numba", "dask")

#: What the figures and bounds mean, printed under every table.
LEGEND = """\
ratio: one figure divided by its baseline, both measured in this run, back to back
  (times: ours / theirs, lower is better; speedups and bandwidths: higher is better);
  the median over the repeats, min-max their spread (a wide spread is noise).
bound: the limit a median must keep, <= or >=. A plain run reports it ("within" or
  "outside"); --check applies it (pass or FAIL, exit status 1 when one is missed).
  Only ratios carry bounds; a time against a fixed budget is information only."""

PROGRESS_MARK = "» "


# A figure named as a time over a fixed budget ("... / 2 us"): never bounded.
_ABSOLUTE = re.compile(r"/ *[\d.]+ *(ns|us|µs|ms|s)\b")


@dataclass(frozen=True)
class Check:
    """One figure of a benchmark: a ratio measured once per repeat, and its bound.

    ``samples`` holds the figure computed from each repeat (each repeat times every
    contender once, interleaved), so their spread shows the noise. The verdict compares
    the median with ``bound``: at most ``bound``, or at least it when ``higher_is_better``.
    Without a bound the figure is shown for information only.
    """

    name: str
    samples: tuple[float, ...]
    bound: float | None = None
    higher_is_better: bool = False

    def __post_init__(self) -> None:
        if not self.samples:
            msg = f"Check {self.name!r}: `samples` is empty; give the ratio of each repeat"
            raise ValueError(msg)
        if self.bound is not None and _ABSOLUTE.search(self.name):
            msg = (
                f"Check {self.name!r}: a time against a fixed budget depends on the machine; "
                f"give it no bound (information only), or bound a ratio of two things "
                f"measured in this run"
            )
            raise ValueError(msg)

    @property
    def median(self) -> float:
        return statistics.median(self.samples)

    @property
    def low(self) -> float:
        return min(self.samples)

    @property
    def high(self) -> float:
        return max(self.samples)

    @property
    def verdict(self) -> str:
        """``"pass"``, ``"FAIL"``, or ``"info"`` for a figure without a bound."""
        if self.bound is None:
            return "info"
        ok = self.median >= self.bound if self.higher_is_better else self.median <= self.bound
        return "pass" if ok else "FAIL"

    def shown_verdict(self, checked: bool) -> str:
        """``verdict`` under ``--check``; otherwise "within"/"outside" the bound."""
        if checked or self.bound is None:
            return self.verdict
        return "within" if self.verdict == "pass" else "outside"

    @property
    def bound_text(self) -> str:
        if self.bound is None:
            return "-"
        return f"{'>=' if self.higher_is_better else '<='} {self.bound:g}"

    @property
    def spread_text(self) -> str:
        return f"{self.low:.3f}-{self.high:.3f}"


@dataclass(frozen=True)
class Skipped:
    """A figure (or a whole benchmark) that could not be measured here, and why."""

    name: str
    reason: str

    verdict = "skipped"


Result = Check | Skipped


class Progress:
    """Where a benchmark reports as it runs: ``step`` for progress, ``detail`` for tables.

    Progress lines start with ``PROGRESS_MARK``; ``python -m benchmarks`` shows those as they
    come and the detail only with ``--verbose``. Run on its own, a benchmark shows both.
    """

    def __init__(self, stream: Any = None) -> None:
        self._stream = stream or sys.stdout
        self._start = time.perf_counter()

    def step(self, message: str) -> None:
        elapsed = time.perf_counter() - self._start
        print(f"{PROGRESS_MARK}[{elapsed:5.1f} s] {message}", file=self._stream, flush=True)

    def detail(self, text: str) -> None:
        print(text, file=self._stream, flush=True)


def batch_time(
    func: Callable[[], Any], number: int, sync: Callable[[], Any] | None, sync_after: bool = True
) -> float:
    """Seconds per call of ``number`` calls of ``func`` (synchronized before and, unless not
    ``sync_after``, after: then the time is the host's, to queue the calls)."""
    if sync is not None:
        sync()
    start = time.perf_counter()
    for _ in range(number):
        func()
    if sync is not None and sync_after:
        sync()
    return (time.perf_counter() - start) / number


def interleaved_times(
    runs: dict[str, Callable[[], Any]],
    *,
    number: int,
    repeat: int,
    sync: Callable[[], Any] | None = None,
    sync_after: bool = True,
) -> dict[str, list[float]]:
    """Seconds per call of each run, once per repeat, the runs interleaved (``sync_after``:
    see ``batch_time``).

    Every run is called once first (warm-up: compilation, caches, memory pools). Each
    repeat then times a batch of ``number`` calls of every run, in an order rotated from
    repeat to repeat, so that all runs see the same moments of a shared machine.
    """
    for run in runs.values():
        run()
    labels = list(runs)
    times: dict[str, list[float]] = {label: [] for label in labels}
    for k in range(repeat):
        for label in labels[k % len(labels) :] + labels[: k % len(labels)]:
            times[label].append(batch_time(runs[label], number, sync, sync_after))
    return times


def paired_ratios(
    runs: dict[str, Callable[[], Any]],
    baseline: str,
    *,
    number: int,
    repeat: int,
    sync: Callable[[], Any] | None = None,
) -> dict[str, list[float]]:
    """Time ratio of each run to ``baseline``, once per repeat (the baseline has none).

    Both times of a ratio come from the same repeat of ``interleaved_times``, measured
    within moments of each other, so slow drifts of a shared machine cancel.
    """
    times = interleaved_times(runs, number=number, repeat=repeat, sync=sync)
    base = times.pop(baseline)
    return {label: [t / b for t, b in zip(ts, base)] for label, ts in times.items()}


def _spread(values: Sequence[float]) -> str:
    return f"{statistics.median(values):.3f} [{min(values):.2f}-{max(values):.2f}]"


def worst_operation(rows: dict[str, dict[str, list[float]]], label: str) -> tuple[str, list[float]]:
    """The operation with the highest median ratio for ``label``, and its per-repeat ratios."""
    name = max(rows, key=lambda n: statistics.median(rows[n][label]))
    return name, rows[name][label]


def ratio_table(
    title: str, rows: dict[str, dict[str, list[float]]], labels: Sequence[str]
) -> tuple[str, dict[str, list[float]]]:
    """A table of per-operation ratios (median [min-max] over repeats) and its summary.

    Returns the text and, per label, the median over operations computed for each repeat
    (the figure whose spread is the noise of the summary). The summary lines sit under a
    rule, in brackets, so that none reads like an operation.
    """
    width = 24
    lines = [title, f"{'operation':<18}" + "".join(f"{label:>{width}}" for label in labels)]
    for name, row in rows.items():
        lines.append(f"{name:<18}" + "".join(f"{_spread(row[label]):>{width}}" for label in labels))
    repeats = min(len(row[label]) for row in rows.values() for label in labels)
    per_repeat = {
        label: [statistics.median(row[label][r] for row in rows.values()) for r in range(repeats)]
        for label in labels
    }
    lines.append("-" * (18 + width * len(labels)))
    lines.append(
        f"{f'[median of {len(rows)}]':<18}"
        + "".join(f"{_spread(per_repeat[label]):>{width}}" for label in labels)
    )
    worst = [worst_operation(rows, label) for label in labels]
    lines.append(
        f"{'[worst operation]':<18}"
        + "".join(f"{f'{n} {statistics.median(v):.3f}':>{width}}" for n, v in worst)
    )
    return "\n".join(lines), per_repeat


def results_table(results: Sequence[tuple[str, Any]], *, checked: bool = True) -> str:
    """The summary: one row per figure (benchmark, figure, median, spread, bound, verdict).

    ``results`` pairs a benchmark's name with a ``Check``, or with anything that has
    ``name``, ``verdict`` and ``reason`` (``Skipped``, the runner's errors). Without
    ``checked`` (a plain run), a bound is reported as "within" or "outside", not judged.
    """
    header = f"{'benchmark':<16}{'figure':<56}{'ratio':>8}  {'min-max':<13}{'bound':<9}result"
    lines = [header, "-" * len(header)]
    for bench, result in results:
        if isinstance(result, Check):
            lines.append(
                f"{bench:<16}{result.name:<56}{result.median:>8.3f}  {result.spread_text:<13}"
                f"{result.bound_text:<9}{result.shown_verdict(checked)}"
            )
        else:
            blank = f"{'':>8}  {'':<13}{'':<9}"
            lines.append(f"{bench:<16}{result.name:<56}{blank}{result.verdict}: {result.reason}")
    return "\n".join(lines)


def to_json(results: Sequence[Result]) -> list[dict[str, Any]]:
    return [{"kind": type(r).__name__, **asdict(r)} for r in results]


def from_json(items: Sequence[dict[str, Any]]) -> list[Result]:
    results: list[Result] = []
    for item in items:
        kind = item.pop("kind")
        if kind == "Check":
            item["samples"] = tuple(item["samples"])
            results.append(Check(**item))
        else:
            results.append(Skipped(**item))
    return results


def gpu_unusable_reason() -> str | None:
    """``None`` when CuPy can run on a GPU here, else why not (CuPy's reason)."""
    import cunumpy

    if cunumpy.cupy_available():
        return None
    return f"no usable GPU: {cunumpy.cupy_unavailable_reason()}"


def unmet_need(needs: Sequence[str]) -> str | None:
    """Why a benchmark with ``needs`` cannot run here (short), or ``None``.

    ``mpi`` here only asks for mpi4py; the runner also looks for ``mpiexec``.
    """
    import importlib.util

    from cunumpy._settings._distributions import install_hint

    if "numba" in needs and importlib.util.find_spec("numba") is None:
        return f"Numba is not installed ({install_hint('kernels')})"
    if "dask" in needs and importlib.util.find_spec("dask") is None:
        return f"Dask is not installed ({install_hint('dask')})"
    if "mpi" in needs and importlib.util.find_spec("mpi4py") is None:
        return f"mpi4py is not installed ({install_hint('mpi')})"
    if "gpu" in needs:
        return gpu_unusable_reason()
    return None


def main(
    run: Callable[[Mode, Progress], list[Result] | None],
    title: str,
    needs: Sequence[str] = (),
    argv: Sequence[str] | None = None,
) -> int:
    """Run one benchmark from the command line.

    Exit status: 0 (figures reported; with ``--check``, every bound kept), 1 (with
    ``--check``, a bound missed) or 2 (skipped: a need unmet, such as a GPU).
    ``--json PATH`` also writes the results for ``python -m benchmarks``.
    """
    name = Path(sys.argv[0]).stem.removeprefix("bench_")
    parser = argparse.ArgumentParser(description=title, epilog=LEGEND,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)  # fmt: skip
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--quick", dest="mode", action="store_const", const="quick",
                       help="fewer repetitions, for a first look (the default)")  # fmt: skip
    group.add_argument("--full", dest="mode", action="store_const", const="full",
                       help="more repetitions, for figures you quote")  # fmt: skip
    parser.add_argument("--check", action="store_true",
                        help="apply the bounds: exit status 1 when a median misses one")  # fmt: skip
    parser.add_argument("--json", type=Path, help="also write the results to this file")
    args = parser.parse_args(argv)
    mode: Mode = args.mode or "quick"
    results: list[Result]
    if (reason := unmet_need(needs)) is not None:
        print(f"{name}: {reason}", flush=True)
        results = [Skipped("the whole benchmark", reason)]
        status = 2
    else:
        measured = run(mode, Progress())
        if measured is None:  # an MPI rank other than the one that reports
            return 0
        results = measured
        missed = any(r.verdict == "FAIL" for r in results)
        status = 1 if args.check and missed else 0
        print()
        print(results_table([(name, r) for r in results], checked=args.check))
        print(LEGEND, flush=True)
    if args.json is not None:
        args.json.write_text(json.dumps(to_json(results)))
    return status
