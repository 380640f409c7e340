"""Graph building on Dask: ``cunumpy.dask`` calls against the bare ``dask.array`` calls.

For each of 12 operations on a Dask array of 8 x 8 chunks (NumPy chunks), the time to
build the graph through ``cunumpy.dask`` (what ``array_namespace(x)`` returns) divided by
the time to build it with the bare ``dask.array`` call that gives the same graph. Nothing
is computed: this is the cost a namespace adds in front of Dask. The same calls build
graphs with the same number of tasks (checked here and in tests/test_dask_namespace.py).

Bound: the median over the operations at most 1.2x, per repeat; the worst operation is
reported for information.

Run: ``python benchmarks/bench_dask.py [--quick | --full]`` (or ``python -m benchmarks --only dask``).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
from benchmarks._harness import (
    Check,
    Mode,
    Progress,
    Result,
    main,
    paired_ratios,
    ratio_table,
    worst_operation,
)

TITLE = "Graph building on Dask: cunumpy.dask against bare dask.array calls"
NEEDS: tuple[str, ...] = ("dask",)

GRAPH_BUILDING_MEDIAN = 1.2

Op = Callable[[Any], Any]


def operations(xp: Any, da: Any, np: Any) -> dict[str, tuple[Op, Op]]:
    """name -> (the call through the namespace ``xp``, the bare ``dask.array`` call)."""
    return {
        "add": (lambda x: xp.add(x, x), lambda x: da.add(x, x)),
        "floor_divide": (lambda x: xp.floor_divide(x, 3.0), lambda x: da.floor_divide(x, 3.0)),
        "expm1": (lambda x: xp.expm1(x), lambda x: da.expm1(x)),
        "clip": (lambda x: xp.clip(x, 0.0, 1.0), lambda x: da.clip(x, 0.0, 1.0)),
        "concat": (lambda x: xp.concat([x, x], axis=1), lambda x: da.concatenate([x, x], axis=1)),
        "std": (lambda x: xp.std(x, axis=0, correction=1), lambda x: da.std(x, axis=0, ddof=1)),
        "matmul": (lambda x: xp.matmul(x, x), lambda x: da.matmul(x, x)),
        "permute_dims": (lambda x: xp.permute_dims(x, (1, 0)), lambda x: da.transpose(x, (1, 0))),
        "reshape": (lambda x: xp.reshape(x, (-1,)), lambda x: da.reshape(x, (-1,))),
        "cumulative_sum": (lambda x: xp.cumulative_sum(x, axis=0), lambda x: da.cumsum(x, axis=0)),
        "unique_values": (lambda x: xp.unique_values(x), lambda x: da.unique(da.ravel(x))),
        "astype": (lambda x: xp.astype(x, np.float32), lambda x: x.astype(np.float32)),
    }


def run(mode: Mode, progress: Progress) -> list[Result]:
    """Time the graph building of each operation, both ways, back to back."""
    import dask.array as da
    import numpy as np

    import cunumpy

    x = da.random.default_rng(0).random((64, 64), chunks=(8, 8))
    xp = cunumpy.array_namespace(x)
    number, repeat = (20, 7) if mode == "quick" else (100, 21)
    rows: dict[str, dict[str, list[float]]] = {}
    for name, (ours, bare) in operations(xp, da, np).items():
        progress.step(f"graph building: {name}")
        tasks = (len(dict(ours(x).__dask_graph__())), len(dict(bare(x).__dask_graph__())))
        if tasks[0] != tasks[1]:
            msg = f"{name}: cunumpy.dask builds {tasks[0]} tasks, dask.array {tasks[1]}"
            raise AssertionError(msg)
        ratios = paired_ratios(
            {"cunumpy.dask": lambda f=ours: f(x), "dask.array": lambda f=bare: f(x)},
            "dask.array", number=number, repeat=repeat,
        )  # fmt: skip
        rows[name] = {"cunumpy.dask / dask.array": ratios["cunumpy.dask"]}
    label = "cunumpy.dask / dask.array"
    text, per_repeat = ratio_table("Graph building time, 8 x 8 chunks", rows, [label])
    progress.detail(text)
    worst, worst_ratios = worst_operation(rows, label)
    return [
        Check(
            f"cunumpy.dask / dask.array, graph building, median of {len(rows)}",
            tuple(per_repeat[label]),
            bound=GRAPH_BUILDING_MEDIAN,
        ),
        Check(f"cunumpy.dask / dask.array, graph building, worst ({worst})", tuple(worst_ratios)),
    ]


if __name__ == "__main__":
    sys.exit(main(run, TITLE, NEEDS))
