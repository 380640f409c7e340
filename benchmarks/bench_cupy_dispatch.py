"""Dispatch overhead of cunumpy's CuPy namespace against direct CuPy calls, on a GPU.

For tiny arrays (10 elements, where dispatch dominates) and for 10**7 elements (where the
GPU work dominates), the time ratio of each of 22 operations called through

- ``array_namespace(x)`` (cunumpy's CuPy namespace),
- the top-level ``cunumpy`` namespace on the CuPy backend,
- ``array_api_compat.cupy`` (the rival, when installed),

to the same operation called on CuPy directly, with the bounds cunumpy promises for
``array_namespace(x)``: median over the operations 1.05 and worst operation 1.5 on tiny
arrays, median 1.02 on 10**7 elements.

Each timing is a batch of calls followed by a device synchronization, so the GPU work the
calls queue is counted, not only the launches. Every repeat times all contenders back to
back in a rotated order, so each ratio is measured once per repeat and shown as its median
with the min-max spread over the repeats.

Run on a machine with a usable GPU: ``python benchmarks/bench_cupy_dispatch.py [--quick |
--full]`` (or ``python -m benchmarks``). Without one it prints the reason and exits with
status 2.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import Any

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

TITLE = "Dispatch overhead on CuPy: cunumpy's namespaces against direct CuPy calls"
NEEDS: tuple[str, ...] = ("gpu",)

BOUNDS = {"tiny median": 1.05, "tiny worst": 1.5, "large median": 1.02}

Op = Callable[[Any, Any, Any], Any]


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


def _rows(
    cp: Any,
    contenders: dict[str, Any],
    what: str,
    sizes: tuple[int, int, int],
    progress: Progress,
) -> dict[str, dict[str, list[float]]]:
    """Operation -> contender -> the ratio to CuPy of each repeat; sizes: (n, number, repeat)."""
    size, number, repeat = sizes
    a = cp.linspace(-1.0, 1.0, size)
    i = cp.arange(0, size, 3)
    sync = cp.cuda.Device().synchronize
    operations = _operations(cp)
    side = int(size**0.5)
    rows: dict[str, dict[str, list[float]]] = {}
    for k, (name, (call, direct)) in enumerate(operations.items()):
        a2 = a[: side * side].reshape(side, side) if name == "matmul" and size > 1 else a
        runs: dict[str, Callable[[], Any]] = {
            "cupy": lambda a2=a2, direct=direct: direct(a2, i, None),
            **{
                label: (lambda module=module, a2=a2, call=call: call(module, a2, i))
                for label, module in contenders.items()
            },
        }
        rows[name] = paired_ratios(runs, "cupy", number=number, repeat=repeat, sync=sync)
        if k % 6 == 5:
            progress.step(f"{what}: {k + 1} of {len(operations)} operations timed")
    return rows


def run(mode: Mode, progress: Progress) -> list[Result]:
    import cupy as cp

    cunumpy.set_backend("cupy")
    contenders: dict[str, Any] = {
        "array_namespace": cunumpy.array_namespace(cp.zeros(1)),
        "cunumpy": cunumpy,
    }
    try:
        import array_api_compat.cupy as compat_cupy
    except ImportError:
        progress.detail("array-api-compat is not installed: no comparison with it")
    else:
        contenders["compat"] = compat_cupy
    labels = list(contenders)
    quick = mode == "quick"
    repeat = 7 if quick else 15
    props = cp.cuda.runtime.getDeviceProperties(cp.cuda.runtime.getDevice())
    progress.detail(f"GPU: {props['name']!r}, CuPy {cp.__version__}")
    progress.detail("Time ratio to the direct CuPy call (1.000 = no overhead): median [min-max]")

    progress.step("tiny arrays (10 elements)")
    tiny = _rows(cp, contenders, "10 elements", (10, 200 if quick else 1000, repeat), progress)
    text, tiny_summary = ratio_table("\ntiny arrays (10 elements)", tiny, labels)
    progress.detail(text)

    progress.step("10**7 elements")
    large = _rows(cp, contenders, "10**7 elements", (10**7, 3 if quick else 10, repeat), progress)
    text, large_summary = ratio_table("\n10**7 elements", large, labels)
    progress.detail(text)

    worst_name, worst = worst_operation(tiny, "array_namespace")
    results: list[Result] = [
        Check(
            "array_namespace / CuPy, 10 elements, median of ops",
            tuple(tiny_summary["array_namespace"]),
            BOUNDS["tiny median"],
        ),
        Check(
            f"array_namespace / CuPy, 10 elements, worst ({worst_name})",
            tuple(worst),
            BOUNDS["tiny worst"],
        ),
        Check(
            "array_namespace / CuPy, 10**7 elements, median of ops",
            tuple(large_summary["array_namespace"]),
            BOUNDS["large median"],
        ),
        Check("cunumpy.<name> / CuPy, 10 elements, median of ops", tuple(tiny_summary["cunumpy"])),
    ]
    if "compat" in contenders:
        results.append(
            Check("compat.cupy / CuPy, 10 elements, median of ops", tuple(tiny_summary["compat"]))
        )
    return results


if __name__ == "__main__":
    sys.exit(main(run, TITLE, NEEDS))
