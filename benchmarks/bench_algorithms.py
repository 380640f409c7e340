"""cunumpy.algorithms against plain NumPy (and CuPy) on 10**6 elements: sums per key, sorts.

Figures, each a ratio of two times measured in the same repeat (medians over repeats):

- ``segment_sum`` (checks, sorts and sums: deterministic) / ``numpy.add.at`` into zeros;
- ``SegmentPlan.sum`` (the plan made once, reused) / ``numpy.add.at``;
- ``SegmentPlan.sum`` / ``numpy.bincount`` with weights (NumPy's fastest sum per key);
- ``sort_by_key(keys, values)`` / ``numpy.argsort(keys, kind="stable")`` plus the two
  gathers (``keys[order]``, ``values[order]``).

The keys are 10**6 random cells among 4096 (about 244 rows per cell), the values float64.
On a GPU the same figures are measured against CuPy (``cupyx.scatter_add`` and
``cupy.argsort``). All figures are informational (no bound): the deterministic sums pay
for their fixed order with a sort, and the report says by how much.

Run: ``python benchmarks/bench_algorithms.py [--quick | --full]`` (or ``python -m benchmarks``).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
import numpy as np

import cunumpy
from benchmarks._harness import Check, Mode, Progress, Result, Skipped, main, paired_ratios
from cunumpy import algorithms

TITLE = "cunumpy.algorithms against NumPy/CuPy on 10**6 elements: segment_sum, sort_by_key"
NEEDS: tuple[str, ...] = ()

N = 10**6
N_CELLS = 4096


def _runs(
    lib: Any, keys: Any, values: Any, scatter_add: Callable[..., Any]
) -> dict[str, Callable[[], Any]]:
    plan = algorithms.SegmentPlan(keys, N_CELLS)

    def add_at() -> Any:
        out = lib.zeros(N_CELLS)
        scatter_add(out, keys, values)
        return out

    def argsort_and_gather() -> Any:
        order = lib.argsort(keys, kind="stable") if lib is np else lib.argsort(keys)
        return keys[order], order, values[order]

    return {
        "add.at": add_at,
        "bincount": lambda: lib.bincount(keys, weights=values, minlength=N_CELLS),
        "segment_sum": lambda: algorithms.segment_sum(values, keys, N_CELLS),
        "SegmentPlan.sum": lambda: plan.sum(values),
        "argsort": argsort_and_gather,
        "sort_by_key": lambda: algorithms.sort_by_key(keys, values),
    }


def _checks(
    label: str, runs: dict[str, Callable[[], Any]], repeat: int, number: int, sync: Any
) -> list[Result]:
    sums = paired_ratios(
        {k: runs[k] for k in ("add.at", "segment_sum", "SegmentPlan.sum")},
        "add.at",
        number=1,
        repeat=repeat,
        sync=sync,
    )
    fastest = paired_ratios(
        {k: runs[k] for k in ("bincount", "SegmentPlan.sum")},
        "bincount",
        number=1,
        repeat=repeat,
        sync=sync,
    )
    sorts = paired_ratios(
        {k: runs[k] for k in ("argsort", "sort_by_key")},
        "argsort",
        number=1,
        repeat=repeat,
        sync=sync,
    )
    return [
        Check(f"{label} segment_sum / add.at, 10**6", tuple(sums["segment_sum"])),
        Check(f"{label} SegmentPlan.sum / add.at, 10**6", tuple(sums["SegmentPlan.sum"])),
        Check(f"{label} SegmentPlan.sum / bincount, 10**6", tuple(fastest["SegmentPlan.sum"])),
        Check(
            f"{label} sort_by_key / stable argsort + gathers, 10**6", tuple(sorts["sort_by_key"])
        ),
    ]


def run(mode: Mode, progress: Progress) -> list[Result]:
    """Measure; "quick" takes 5 repeats of 2 calls per sum, "full" 15 of 5."""
    repeat, number = (5, 2) if mode == "quick" else (15, 5)
    generator = np.random.default_rng(0)
    keys = generator.integers(0, N_CELLS, N)
    values = generator.random(N)
    progress.step("NumPy: segment_sum, SegmentPlan.sum, sort_by_key against NumPy")
    results = _checks("NumPy", _runs(np, keys, values, np.add.at), repeat, number, None)
    if not cunumpy.cupy_available():
        reason = f"no usable GPU: {cunumpy.cupy_unavailable_reason()}"
        return [*results, Skipped("CuPy: segment_sum, sort_by_key against CuPy", reason)]
    import cupy
    import cupyx

    progress.step("CuPy: segment_sum, SegmentPlan.sum, sort_by_key against CuPy")
    gpu_runs = _runs(cupy, cupy.asarray(keys), cupy.asarray(values), cupyx.scatter_add)
    sync = cupy.cuda.get_current_stream().synchronize
    return [*results, *_checks("CuPy", gpu_runs, repeat, number, sync)]


if __name__ == "__main__":
    sys.exit(main(run, TITLE, NEEDS))
