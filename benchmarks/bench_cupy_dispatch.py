"""Dispatch overhead of cunumpy's CuPy namespace against direct CuPy calls, on a GPU, in one run.

Prints, for tiny arrays (where dispatch dominates) and for 10**7 elements (where the GPU
work dominates), the median time ratio of each of 22 operations called through

- ``array_namespace(x)`` (cunumpy's CuPy namespace),
- the top-level ``cunumpy`` namespace on the CuPy backend,
- ``array_api_compat.cupy`` (the rival, when installed),

against the same operation called on CuPy directly, then the median and the worst ratio of
each column and the bounds cunumpy promises (median 1.05 and worst 1.5 on tiny arrays,
median 1.02 on 10**7 elements, for ``array_namespace(x)``).

Each timing is a batch of calls followed by a device synchronization, so the GPU work the
calls queue is counted, not only the launches. The order of the contenders is rotated for
every repetition. Only medians and ratios are printed.

Run on a machine with a usable GPU: ``python benchmarks/bench_cupy_dispatch.py [--quick]``.
Without one it prints the reason and exits with status 2.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
import cunumpy

Op = Callable[[Any, Any, Any], Any]

BOUNDS = {"tiny median": 1.05, "tiny max": 1.5, "large median": 1.02}


def _operations(cp: Any) -> dict[str, tuple[Op, Op]]:
    """name -> (the call on a namespace ``m``, the same operation written directly with CuPy)."""
    f32 = cp.float32
    # CuPy's own standard-named function where it has one (CuPy 14), else its NumPy name.
    unique_values = getattr(cp, "unique_values", cp.unique)
    cumulative_sum = getattr(cp, "cumulative_sum", cp.cumsum)
    return {
        "asarray": (lambda m, a, i: m.asarray(a), lambda a, i, _: cp.asarray(a)),
        "zeros": (lambda m, a, i: m.zeros(a.shape), lambda a, i, _: cp.zeros(a.shape)),
        "arange": (lambda m, a, i: m.arange(a.shape[0]), lambda a, i, _: cp.arange(a.shape[0])),
        "add": (lambda m, a, i: m.add(a, a), lambda a, i, _: cp.add(a, a)),
        "multiply": (lambda m, a, i: m.multiply(a, 2.0), lambda a, i, _: cp.multiply(a, 2.0)),
        "where": (
            lambda m, a, i: m.where(a > 0, a, 0.0),
            lambda a, i, _: cp.where(a > 0, a, 0.0),
        ),
        "sum": (lambda m, a, i: m.sum(a), lambda a, i, _: cp.sum(a)),
        "mean": (lambda m, a, i: m.mean(a), lambda a, i, _: cp.mean(a)),
        "reshape": (
            lambda m, a, i: m.reshape(a, (-1, 2)),
            lambda a, i, _: cp.reshape(a, (-1, 2)),
        ),
        "concat": (lambda m, a, i: m.concat([a, a]), lambda a, i, _: cp.concatenate([a, a])),
        "stack": (lambda m, a, i: m.stack([a, a]), lambda a, i, _: cp.stack([a, a])),
        "matmul": (lambda m, a, i: m.matmul(a, a), lambda a, i, _: cp.matmul(a, a)),
        "take": (lambda m, a, i: m.take(a, i), lambda a, i, _: cp.take(a, i)),
        "sort": (lambda m, a, i: m.sort(a), lambda a, i, _: cp.sort(a)),
        "unique_values": (lambda m, a, i: m.unique_values(a), lambda a, i, _: unique_values(a)),
        "astype": (lambda m, a, i: m.astype(a, m.float32), lambda a, i, _: a.astype(f32)),
        "clip": (
            lambda m, a, i: m.clip(a, min=0.0, max=1.0),
            lambda a, i, _: cp.clip(a, 0.0, 1.0),
        ),
        "cumulative_sum": (lambda m, a, i: m.cumulative_sum(a), lambda a, i, _: cumulative_sum(a)),
        "vector_norm": (
            lambda m, a, i: m.linalg.vector_norm(a),
            lambda a, i, _: cp.linalg.norm(a),
        ),
        "fft": (lambda m, a, i: m.fft.fft(a), lambda a, i, _: cp.fft.fft(a)),
        "exp": (lambda m, a, i: m.exp(a), lambda a, i, _: cp.exp(a)),
        "max": (lambda m, a, i: m.max(a), lambda a, i, _: cp.max(a)),
    }


def _batch_time(func: Callable[[], Any], number: int, sync: Callable[[], None]) -> float:
    sync()
    start = time.perf_counter()
    for _ in range(number):
        func()
    sync()
    return (time.perf_counter() - start) / number


def _ratios(
    cp: Any, contenders: dict[str, Any], size: int, number: int, repeat: int
) -> dict[str, dict[str, float]]:
    a = cp.linspace(-1.0, 1.0, size)
    i = cp.arange(0, size, 3)
    sync = cp.cuda.Device().synchronize
    rows: dict[str, dict[str, float]] = {}
    for name, (call, direct) in _operations(cp).items():
        side = int(size**0.5)
        a2 = a[: side * side].reshape(side, side) if name == "matmul" and size > 1 else a
        runs: dict[str, Callable[[], Any]] = {
            "cupy": lambda a2=a2, direct=direct: direct(a2, i, None),
            **{
                label: (lambda module=module, a2=a2, call=call: call(module, a2, i))
                for label, module in contenders.items()
            },
        }
        for run in runs.values():  # warm up: kernel compilation, plan caches, memory pool
            run()
        times: dict[str, list[float]] = {label: [] for label in runs}
        labels = list(runs)
        for k in range(repeat):
            for label in labels[k % len(labels) :] + labels[: k % len(labels)]:
                times[label].append(_batch_time(runs[label], number, sync))
        base = statistics.median(times["cupy"])
        rows[name] = {
            label: statistics.median(t) / base for label, t in times.items() if label != "cupy"
        }
    return rows


def _print_table(
    title: str, rows: dict[str, dict[str, float]], labels: list[str]
) -> dict[str, tuple[float, float]]:
    print(f"\n{title}")
    print(f"{'operation':<16}" + "".join(f"{label:>17}" for label in labels))
    for name, row in rows.items():
        print(f"{name:<16}" + "".join(f"{row[label]:>17.3f}" for label in labels))
    summary = {
        label: (
            statistics.median(r[label] for r in rows.values()),
            max(r[label] for r in rows.values()),
        )
        for label in labels
    }
    print(f"{'median':<16}" + "".join(f"{summary[label][0]:>17.3f}" for label in labels))
    print(f"{'max':<16}" + "".join(f"{summary[label][1]:>17.3f}" for label in labels))
    return summary


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    args = parser.parse_args()
    if not cunumpy.cupy_available():
        print(f"bench_cupy_dispatch: no usable GPU: {cunumpy.cupy_unavailable_reason()}")
        return 2
    import cupy as cp

    cunumpy.set_backend("cupy")
    contenders: dict[str, Any] = {
        "array_namespace": cunumpy.array_namespace(cp.zeros(1)),
        "cunumpy": cunumpy,
    }
    try:
        import array_api_compat.cupy as compat_cupy
    except ImportError:
        print("array-api-compat is not installed: no comparison with array_api_compat.cupy")
    else:
        contenders["compat"] = compat_cupy
    labels = list(contenders)
    repeat = 7 if args.quick else 15
    print(
        f"GPU: {cp.cuda.runtime.getDeviceProperties(cp.cuda.runtime.getDevice())['name']!r}, CuPy {cp.__version__}"
    )
    print("Median time ratio against the direct CuPy call (1.000 = no overhead)")
    tiny = _print_table(
        "tiny arrays (10 elements)",
        _ratios(cp, contenders, 10, 200 if args.quick else 1000, repeat),
        labels,
    )
    large = _print_table(
        "10**7 elements", _ratios(cp, contenders, 10**7, 3 if args.quick else 10, repeat), labels
    )
    checks = {
        "tiny median": tiny["array_namespace"][0],
        "tiny max": tiny["array_namespace"][1],
        "large median": large["array_namespace"][0],
    }
    print()
    for key, value in checks.items():
        verdict = "within" if value <= BOUNDS[key] else "OVER"
        print(f"array_namespace {key}: {value:.3f} ({verdict} the {BOUNDS[key]} bound)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
