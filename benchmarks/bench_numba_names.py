"""Numba after the switch: a jitted function calling ``np.`` through cunumpy against NumPy.

The same program body is compiled twice by ``numba.njit``, once with ``np`` bound to
``cunumpy`` and once to ``numpy``: a loop of scalar ufuncs (``np.sqrt``, ``np.exp``,
``np.abs``) over an array, then array functions (``np.sum``, ``np.empty_like``,
``np.arange``, ``np.linalg.norm``). Numba compiles cunumpy's names with NumPy's typing
templates and implementations (``cunumpy/_numba_names.py``), so both should generate the
same machine code.

- **Run time**: cunumpy's compiled function / NumPy's, per call on 100,000 float64
  elements, interleaved (bound: 1.05).
- **Compile time**: a fresh dispatcher compiled for the same argument types, cunumpy's /
  NumPy's, alternating (bound: 1.25; each compilation takes a few hundred milliseconds
  and varies with the machine's load, so the spread is wide).

Run: ``python benchmarks/bench_numba_names.py [--quick | --full]`` (or ``python -m
benchmarks --only numba_names``).
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
from benchmarks._harness import Check, Mode, Progress, Result, main, paired_ratios

TITLE = "Numba after the switch: np. through cunumpy in @njit against NumPy's names"
NEEDS: tuple[str, ...] = ("numba",)

SIZE = 100_000

# One body, compiled with `np` bound to each module (a global of the compiled function).
BODY = """
def program(x):
    acc = 0.0
    for i in range(x.shape[0]):
        acc += np.sqrt(np.abs(x[i])) * np.exp(-x[i])
    out = np.empty_like(x)
    out[:] = x * 2.0
    return acc + np.sum(out) + np.linalg.norm(x) + np.sum(np.arange(4.0)) + np.pi
"""


def compiled(module: Any) -> Callable[..., Any]:
    """A new ``numba.njit`` dispatcher of ``BODY`` with ``np`` bound to ``module``."""
    import numba

    namespace: dict[str, Any] = {"np": module}
    exec(BODY, namespace)
    return numba.njit(namespace["program"])  # type: ignore[no-any-return]


def compile_seconds(module: Any, x: numpy.ndarray) -> float:
    dispatcher = compiled(module)
    started = time.perf_counter()
    dispatcher.compile((numba_type(x),))
    return time.perf_counter() - started


def numba_type(x: numpy.ndarray) -> Any:
    import numba

    return numba.typeof(x)


def run(mode: Mode, progress: Progress) -> list[Result]:
    import cunumpy

    repeat = 7 if mode == "quick" else 21
    compiles = 3 if mode == "quick" else 9
    x = numpy.linspace(-2.0, 2.0, SIZE)
    progress.step("compiling the program with np = cunumpy and np = numpy")
    ours, theirs = compiled(cunumpy), compiled(numpy)
    if ours(x) != theirs(x):
        msg = f"the two compiled programs disagree: {ours(x)!r} and {theirs(x)!r}"
        raise AssertionError(msg)
    compiled(numpy)(x)  # Numba's first compilation in a process loads its implementations
    progress.step(f"run time: {repeat} interleaved rounds over {SIZE} elements")
    ratios = paired_ratios(
        {"numpy": lambda: theirs(x), "cunumpy": lambda: ours(x)},
        "numpy",
        number=50,
        repeat=repeat,
    )["cunumpy"]
    progress.step(f"compile time: {compiles} fresh compilations of each, alternating")
    compile_ratios, mine, numpys = [], [], []
    for k in range(compiles):
        order = [cunumpy, numpy] if k % 2 else [numpy, cunumpy]
        seconds = {id(module): compile_seconds(module, x) for module in order}
        mine.append(seconds[id(cunumpy)])
        numpys.append(seconds[id(numpy)])
        compile_ratios.append(mine[-1] / numpys[-1])
    progress.detail(
        "compile time, median: "
        f"cunumpy {statistics.median(mine) * 1e3:.0f} ms, numpy {statistics.median(numpys) * 1e3:.0f} ms"
    )
    return [
        Check("jitted run time, cunumpy / numpy", tuple(ratios), bound=1.05),
        Check("compile time, cunumpy / numpy", tuple(compile_ratios), bound=1.25),
    ]


if __name__ == "__main__":
    sys.exit(main(run, TITLE, NEEDS))
