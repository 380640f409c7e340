"""Dispatch overhead of cunumpy's namespaces on NumPy, against direct NumPy calls.

For tiny arrays (10 elements, where dispatch dominates) and for 10**6 elements, the time
ratio of each of 22 operations called through

- ``array_namespace(x)`` (cunumpy's NumPy namespace),
- the top-level ``cunumpy`` namespace,
- ``array_api_compat.numpy`` (the rival),

to the same operation called on NumPy directly; then ``array_namespace(x)`` against
``array_api_compat.array_namespace(x)``, the cost of sorted ``unique_*`` against NumPy's
own functions (``unique_values`` is in hash order since NumPy 2.3), the cost of a name
outside the standard (``xp.nanmax``, NumPy's own object), and the import time of cunumpy
against NumPy's.
Every repeat times all contenders back to back, so each ratio is measured once per repeat
and shown as its median with the min-max spread over the repeats.

Run: ``python benchmarks/bench_dispatch.py [--quick | --full]`` (or ``python -m benchmarks``).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import array_api_compat
import array_api_compat.numpy as compat_numpy
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
import cunumpy
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

TITLE = "Dispatch overhead on NumPy: cunumpy's namespaces against direct NumPy calls"
NEEDS: tuple[str, ...] = ()

# Bounds on the median over the 22 operations of each repeat (and on the worst operation).
TINY_NAMESPACE_MEDIAN = 1.05
NAMESPACE_WORST = 1.3  # no operation through array_namespace(x) above 1.3x NumPy
TINY_TOP_LEVEL_MEDIAN = 1.10
LARGE_NAMESPACE_MEDIAN = 1.05
NAMESPACE_LOOKUP_VS_COMPAT = 0.3

Op = Callable[[Any, Any, Any], Any]

# name -> (call on a namespace `m` with arrays a (float) and i (int indices),
#          the same operation written directly with NumPy)
OPERATIONS: dict[str, tuple[Op, Op]] = {
    "asarray": (lambda m, a, i: m.asarray(a), lambda a, i, _: np.asarray(a)),
    "zeros": (lambda m, a, i: m.zeros(a.shape), lambda a, i, _: np.zeros(a.shape)),
    "arange": (lambda m, a, i: m.arange(a.shape[0]), lambda a, i, _: np.arange(a.shape[0])),
    "add": (lambda m, a, i: m.add(a, a), lambda a, i, _: np.add(a, a)),
    "multiply": (lambda m, a, i: m.multiply(a, 2.0), lambda a, i, _: np.multiply(a, 2.0)),
    "where": (lambda m, a, i: m.where(a > 0, a, 0.0), lambda a, i, _: np.where(a > 0, a, 0.0)),
    "sum": (lambda m, a, i: m.sum(a), lambda a, i, _: np.sum(a)),
    "mean": (lambda m, a, i: m.mean(a), lambda a, i, _: np.mean(a)),
    "reshape": (lambda m, a, i: m.reshape(a, (-1, 2)), lambda a, i, _: np.reshape(a, (-1, 2))),
    "concat": (lambda m, a, i: m.concat([a, a]), lambda a, i, _: np.concatenate([a, a])),
    "stack": (lambda m, a, i: m.stack([a, a]), lambda a, i, _: np.stack([a, a])),
    "matmul": (lambda m, a, i: m.matmul(a, a), lambda a, i, _: np.matmul(a, a)),
    "take": (lambda m, a, i: m.take(a, i), lambda a, i, _: np.take(a, i)),
    "sort": (lambda m, a, i: m.sort(a), lambda a, i, _: np.sort(a, kind="stable")),
    "unique_values": (lambda m, a, i: m.unique_values(a), lambda a, i, _: np.unique_values(a)),
    "astype": (
        lambda m, a, i: m.astype(a, m.float32),
        lambda a, i, _: a.astype(np.float32),  # the fast path (numpy.astype checks, then calls it)
    ),
    "clip": (lambda m, a, i: m.clip(a, min=0.0, max=1.0), lambda a, i, _: np.clip(a, 0.0, 1.0)),
    "cumulative_sum": (
        lambda m, a, i: m.cumulative_sum(a),
        lambda a, i, _: np.cumulative_sum(a),
    ),
    "vector_norm": (
        lambda m, a, i: m.linalg.vector_norm(a),
        lambda a, i, _: np.linalg.vector_norm(a),
    ),
    "fft": (lambda m, a, i: m.fft.fft(a), lambda a, i, _: np.fft.fft(a)),
    "exp": (lambda m, a, i: m.exp(a), lambda a, i, _: np.exp(a)),
    "max": (lambda m, a, i: m.max(a), lambda a, i, _: np.max(a)),
}


def _rows(
    what: str, size: int, number: int, repeat: int, progress: Progress
) -> dict[str, dict[str, list[float]]]:
    """Operation -> contender -> the ratio to NumPy of each repeat."""
    a = np.linspace(-1.0, 1.0, size)
    i = np.arange(0, size, 3)
    contenders: dict[str, Any] = {
        "array_namespace": cunumpy.array_namespace(a),
        "cunumpy": cunumpy,
        "compat": compat_numpy,
    }
    side = int(size**0.5)
    rows: dict[str, dict[str, list[float]]] = {}
    for k, (name, (call, direct)) in enumerate(OPERATIONS.items()):
        a2 = a[: side * side].reshape(side, side) if name == "matmul" and size > 1 else a
        runs: dict[str, Callable[[], Any]] = {
            "numpy": lambda a2=a2, direct=direct: direct(a2, i, None),
            **{
                label: (lambda module=module, a2=a2, call=call: call(module, a2, i))
                for label, module in contenders.items()
            },
        }
        rows[name] = paired_ratios(runs, "numpy", number=number, repeat=repeat)
        if k % 6 == 5:
            progress.step(f"{what}: {k + 1} of {len(OPERATIONS)} operations timed")
    return rows


UNIQUE_FUNCTIONS = ("unique_values", "unique_counts", "unique_inverse", "unique_all")


def _unique_cost(mode: Mode, repeat: int, progress: Progress) -> dict[str, dict[str, list[float]]]:
    """Data -> function -> sorted unique_* (cunumpy's NumPy namespace) over NumPy's own."""
    rng = np.random.default_rng(0)
    namespace: Any = cunumpy.array_namespace(np.ones(1))
    rows: dict[str, dict[str, list[float]]] = {}
    sizes = (10, 10**4) if mode == "quick" else (10, 10**4, 10**6)  # 10**6 alone takes 25 s
    for size in sizes:
        number = max((2000 if mode == "quick" else 20000) // size, 2)
        exponent = len(str(size)) - 1
        cases = {  # int64 with 1/4 of the values distinct; float64 all distinct
            f"int 1e{exponent} (1/4)": rng.integers(0, max(size // 4, 2), size),
            f"float 1e{exponent}": rng.standard_normal(size),
        }
        for label, x in cases.items():
            row: dict[str, list[float]] = {}
            for name in UNIQUE_FUNCTIONS:
                row[name] = paired_ratios(
                    {"numpy": lambda name=name, x=x: getattr(np, name)(x),
                     "ours": lambda name=name, x=x: getattr(namespace, name)(x)},
                    "numpy", number=number, repeat=repeat,
                )["ours"]  # fmt: skip
            rows[label] = row
        progress.step(f"sorted unique_*: {size} elements timed")
    return rows


def _fall_through_cost(number: int, repeat: int) -> list[float]:
    """``xp.nanmax(a)`` (NumPy's own object, through array_namespace(x)) over ``np.nanmax(a)``."""
    a = np.linspace(-1.0, 1.0, 10)
    namespace: Any = cunumpy.array_namespace(a)
    return paired_ratios(
        {"numpy": lambda: np.nanmax(a), "ours": lambda: namespace.nanmax(a)},
        "numpy", number=number, repeat=repeat,
    )["ours"]  # fmt: skip


def _import_ratios(runs: int) -> list[float]:
    """``import cunumpy`` over ``import numpy`` time, each measured in a fresh process."""
    code = "import time; t = time.perf_counter(); import {}; print(time.perf_counter() - t)"
    env = {
        **os.environ,
        "PYTHONPATH": os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir),
    }

    def seconds(module: str) -> float:
        done = subprocess.run(
            [sys.executable, "-c", code.format(module)],
            capture_output=True, text=True, check=True, env=env,
        )  # fmt: skip
        return float(done.stdout)

    return [seconds("cunumpy") / seconds("numpy") for _ in range(runs)]


def run(mode: Mode, progress: Progress) -> list[Result]:
    repeat = 5 if mode == "quick" else 15
    labels = ["array_namespace", "cunumpy", "compat"]
    progress.detail("Time ratio to the direct NumPy call (1.000 = no overhead): median [min-max]")

    progress.step("tiny arrays (10 elements)")
    tiny = _rows("10 elements", 10, 2000 if mode == "quick" else 10000, repeat, progress)
    text, tiny_summary = ratio_table("\ntiny arrays (10 elements)", tiny, labels)
    progress.detail(text)

    progress.step("10**6 elements")
    large = _rows("10**6 elements", 10**6, 3 if mode == "quick" else 10, repeat, progress)
    text, large_summary = ratio_table("\n10**6 elements", large, labels)
    progress.detail(text)

    progress.step("array_namespace(x) against array_api_compat.array_namespace(x)")
    x = np.ones(3)
    lookup = paired_ratios(
        {"compat": lambda: array_api_compat.array_namespace(x),
         "ours": lambda: cunumpy.array_namespace(x)},
        "compat", number=20000, repeat=repeat,
    )["ours"]  # fmt: skip

    progress.step("a name outside the standard, and sorted unique_*")
    fall_through = _fall_through_cost(2000 if mode == "quick" else 10000, repeat)
    unique = _unique_cost(mode, repeat, progress)
    text, _ = ratio_table(
        "\nsorted unique_* / NumPy's own (NumPy >= 2.3 gives unique_values in hash order);"
        "\nint64 data with 1/4 of the values distinct, float64 data all distinct",
        unique, list(UNIQUE_FUNCTIONS),
    )  # fmt: skip
    progress.detail(text)

    progress.step("import time, in fresh processes")
    imports = _import_ratios(5 if mode == "quick" else 15)
    progress.detail(
        f"\nimport cunumpy / import numpy (median of {len(imports)} fresh processes): "
        f"{statistics.median(imports):.2f}"
    )

    worst_name, worst = worst_operation(tiny, "array_namespace")
    large_worst_name, large_worst = worst_operation(large, "array_namespace")
    unique_worst_data, unique_worst = max(
        (
            (f"{data}, {name}", samples)
            for data, row in unique.items()
            for name, samples in row.items()
        ),
        key=lambda item: statistics.median(item[1]),
    )
    return [
        Check(
            "array_namespace / NumPy, 10 elements, median of ops",
            tuple(tiny_summary["array_namespace"]),
            TINY_NAMESPACE_MEDIAN,
        ),
        Check(
            f"array_namespace / NumPy, 10 elements, worst ({worst_name})",
            tuple(worst),
            NAMESPACE_WORST,
        ),
        Check(
            "cunumpy.<name> / NumPy, 10 elements, median of ops",
            tuple(tiny_summary["cunumpy"]),
            TINY_TOP_LEVEL_MEDIAN,
        ),
        Check(
            "array_namespace / NumPy, 10**6 elements, median of ops",
            tuple(large_summary["array_namespace"]),
            LARGE_NAMESPACE_MEDIAN,
        ),
        Check(
            f"array_namespace / NumPy, 10**6 elements, worst ({large_worst_name})",
            tuple(large_worst),
            NAMESPACE_WORST,
        ),
        Check("xp.nanmax (NumPy's, through array_namespace) / np.nanmax", tuple(fall_through)),
        Check(f"sorted unique_* / NumPy's, worst ({unique_worst_data})", tuple(unique_worst)),
        Check("compat.numpy / NumPy, 10 elements, median of ops", tuple(tiny_summary["compat"])),
        Check("array_namespace(x) / array_api_compat's", tuple(lookup), NAMESPACE_LOOKUP_VS_COMPAT),
        Check("import cunumpy / import numpy", tuple(imports)),
    ]


if __name__ == "__main__":
    sys.exit(main(run, TITLE, NEEDS))
