"""Dispatch overhead of cunumpy's namespaces against direct NumPy calls, in one run.

Prints, for tiny arrays (where dispatch dominates) and for 10**6 elements, the median time
ratio of each operation called through

- ``array_namespace(x)`` (cunumpy's NumPy namespace),
- the top-level ``cunumpy`` namespace,
- ``array_api_compat.numpy`` (the rival),

against the same operation called on NumPy directly, then ``array_namespace(x)`` against
``array_api_compat.array_namespace(x)``, the cost of sorted ``unique_*`` against NumPy's
own (hash-ordered since NumPy 2.3), the cost of a name outside the standard
(``xp.nanmax``), and the import time of cunumpy over NumPy's. The targets of issue 11
are checked at the end. The machine is shared and noisy, so only medians and ratios are
printed.

Run: ``python benchmarks/bench_dispatch.py [--quick]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import timeit
from collections.abc import Callable
from types import ModuleType
from typing import Any

import array_api_compat
import array_api_compat.numpy as compat_numpy
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
import cunumpy

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
        lambda a, i, _: a.astype(np.float32),  # the fast path (np.astype checks, then calls it)
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


def _median_time(func: Callable[[], Any], number: int, repeat: int) -> float:
    return statistics.median(timeit.repeat(func, number=number, repeat=repeat)) / number


def _ratios(size: int, number: int, repeat: int) -> dict[str, dict[str, float]]:
    a = np.linspace(-1.0, 1.0, size)
    i = np.arange(0, size, 3)
    via_namespace: ModuleType = cunumpy.array_namespace(a)
    rivals: dict[str, Any] = {
        "array_namespace": via_namespace,
        "cunumpy": cunumpy,
        "compat": compat_numpy,
    }
    rows: dict[str, dict[str, float]] = {}
    for name, (call, direct) in OPERATIONS.items():
        if size > 1 and name == "matmul":
            a2 = a[: int(size**0.5) ** 2].reshape(int(size**0.5), -1)
        else:
            a2 = a
        base = _median_time(lambda a2=a2, direct=direct: direct(a2, i, None), number, repeat)
        row = {"numpy_s": base}
        for label, module in rivals.items():
            t = _median_time(
                lambda module=module, a2=a2, call=call: call(module, a2, i), number, repeat
            )
            row[label] = t / base
        rows[name] = row
    return rows


def _print_table(title: str, rows: dict[str, dict[str, float]]) -> dict[str, float]:
    print(f"\n{title}")
    print(f"{'operation':<16}{'array_namespace':>16}{'cunumpy':>10}{'compat':>10}")
    for name, row in rows.items():
        print(
            f"{name:<16}{row['array_namespace']:>16.3f}{row['cunumpy']:>10.3f}{row['compat']:>10.3f}"
        )
    medians = {
        label: statistics.median(r[label] for r in rows.values())
        for label in ("array_namespace", "cunumpy", "compat")
    }
    worst = {label: max(r[label] for r in rows.values()) for label in medians}
    print(
        f"{'median':<16}{medians['array_namespace']:>16.3f}{medians['cunumpy']:>10.3f}"
        f"{medians['compat']:>10.3f}"
    )
    print(
        f"{'max':<16}{worst['array_namespace']:>16.3f}{worst['cunumpy']:>10.3f}{worst['compat']:>10.3f}"
    )
    return medians


UNIQUE_FUNCTIONS = ("unique_values", "unique_counts", "unique_inverse", "unique_all")


def _unique_cost(number: int, repeat: int) -> None:
    """Sorted unique_* (cunumpy's NumPy namespace) over NumPy's own functions."""
    rng = np.random.default_rng(0)
    namespace: Any = cunumpy.array_namespace(np.ones(1))
    print("\nsorted unique_* / NumPy's own (NumPy >= 2.3: unique_values in hash order)")
    print(f"{'data':<28}" + "".join(f"{name:>16}" for name in UNIQUE_FUNCTIONS))
    for size in (10, 10**4, 10**6):
        cases = {
            f"int64, {size} (1/4 distinct)": rng.integers(0, max(size // 4, 2), size),
            f"float64, {size} (distinct)": rng.standard_normal(size),
        }
        runs = max(number // size, 3)
        for label, x in cases.items():
            ratios = []
            for name in UNIQUE_FUNCTIONS:
                ours = _median_time(
                    lambda name=name, x=x: getattr(namespace, name)(x), runs, repeat
                )
                theirs = _median_time(lambda name=name, x=x: getattr(np, name)(x), runs, repeat)
                ratios.append(ours / theirs)
            print(f"{label:<28}" + "".join(f"{r:>16.3f}" for r in ratios))


def _fall_through_cost(number: int, repeat: int) -> float:
    """A name outside the standard (NumPy's own nanmax) through array_namespace(x)."""
    a = np.linspace(-1.0, 1.0, 10)
    namespace: Any = cunumpy.array_namespace(a)
    ours = _median_time(lambda: namespace.nanmax(a), number, repeat)
    theirs = _median_time(lambda: np.nanmax(a), number, repeat)
    return ours / theirs


def _check_targets(
    tables: list[dict[str, dict[str, float]]], tiny_medians: dict[str, float], lookup: float
) -> None:
    worst = max(row["array_namespace"] for rows in tables for row in rows.values())
    checks = [
        ("worst op through array_namespace(x)", worst, 1.3),
        ("top-level median, tiny arrays", tiny_medians["cunumpy"], 1.10),
        ("array_namespace(x) / compat's", lookup, 0.3),
    ]
    print("\ntargets (issue 11)")
    for name, value, bound in checks:
        print(f"{name:<40}{value:>8.3f}  <= {bound:<5} {'pass' if value <= bound else 'FAIL'}")


def _import_time(module: str, runs: int) -> float:
    code = f"import time; t = time.perf_counter(); import {module}; print(time.perf_counter() - t)"
    env = {
        **os.environ,
        "PYTHONPATH": os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir),
    }
    times = [
        float(
            subprocess.run(
                [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
            ).stdout
        )
        for _ in range(runs)
    ]
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    args = parser.parse_args()
    repeat = 5 if args.quick else 9
    print("Median time ratio against the direct NumPy call (1.000 = no overhead)")
    tiny = _ratios(10, 2000 if args.quick else 10000, repeat)
    tiny_medians = _print_table("tiny arrays (10 elements)", tiny)
    large = _ratios(10**6, 3 if args.quick else 10, repeat)
    _print_table("10**6 elements", large)

    x = np.ones(3)
    ours = _median_time(lambda: cunumpy.array_namespace(x), 20000, repeat)
    theirs = _median_time(lambda: array_api_compat.array_namespace(x), 20000, repeat)
    lookup = ours / theirs
    print(f"\narray_namespace(x) / array_api_compat.array_namespace(x): {lookup:.3f}")
    fall_through = _fall_through_cost(2000 if args.quick else 10000, repeat)
    print(
        f"xp.nanmax(a) through array_namespace(x) / np.nanmax(a), 10 elements: {fall_through:.3f}"
    )
    _unique_cost(2000 if args.quick else 20000, repeat)

    runs = 5 if args.quick else 10
    numpy_import = _import_time("numpy", runs)
    cunumpy_import = _import_time("cunumpy", runs)
    print(
        f"\nimport cunumpy - import numpy (median of {runs} fresh processes): "
        f"{(cunumpy_import - numpy_import) * 1e3:.1f} ms"
    )
    _check_targets([tiny, large], tiny_medians, lookup)


if __name__ == "__main__":
    main()
