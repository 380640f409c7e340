"""NumPy-style calls through ``import cunumpy as xp``, against NumPy and CuNumpy 0.7.1.

54 calls (``benchmarks/_calls_worker.py``): the standard's names called as the standard
writes them, names outside the standard (NumPy's own objects: ``xp.pad``, ``xp.einsum``,
``xp.linalg.norm``, ``xp.fft.fft2``, ``xp.random``), and NumPy's call forms of standard names
(Python scalars, lists, positional axes, NumPy dtypes, ufunc methods), at 16 and at
20,000 elements. Figures, each measured once per round and reported as the median with
the spread over the rounds. A round times every call once (the rounds of one call are
spread over the run, so a stretch of load lands on one round of many calls, not on all
rounds of one), each call's contenders back to back in a rotated order, each contender's
time the least of three timings:

- cunumpy / NumPy: each call against the direct NumPy call, timed back to back. Bounds at
  16 elements: the median over the calls <= 1.05, the worst call <= 1.3.
- cunumpy / 0.7.1, with ``--071 PYTHON`` (CuNumpy 0.7.1 installed in the venv of PYTHON:
  the two share the import name, so 0.7.1 runs in a process of that Python, and each
  round times a call here and there back to back). Bounds at 16 elements: median <= 1.0,
  worst <= 1.2. Calls 0.7.1 cannot make are left out of these figures.
- inside a ``use_backend("numpy")`` block while the default is CuPy (the fake CuPy, in a
  process of this Python): the extra time of each call of a name outside the standard,
  against the same call without a block, in us. The goal is <= 0.2 us; it is a time,
  not a ratio, so it is reported (and said whether it holds), not checked.

- the floor of a call, for information: ``Identity()(a)``, a C object that returns its
  argument and does nothing else (``benchmarks/_call_floor.c``, built here at run time), on
  a module that has a ``__getattr__`` as ``numpy`` and ``cunumpy`` do, against
  ``np.asarray(a)``. CPython 3.11 specializes calls of builtin functions such as
  ``numpy.asarray`` and of no other object, so no top level made of objects that carry their
  declaration costs less than this over NumPy; the worst call (``asarray(array)``, which the
  fast path answers with the array itself) is measured against it. Skipped where no C
  compiler is found.

Calls that raise here are listed with the error and left out of every figure.
Run: ``python benchmarks/bench_numpy_calls.py [--quick | --full] [--071 PYTHON]
[--calls LABEL,...]`` or ``python -m benchmarks --only numpy_calls [--071 PYTHON]``.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
# One BLAS thread here and in the timing processes: the calls are small, and threads that
# wait for a core on a shared machine only add noise to the ratios.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
import cunumpy  # noqa: E402
from benchmarks._calls_worker import CALLS, NON_STANDARD, timers  # noqa: E402
from benchmarks._harness import (  # noqa: E402
    Check,
    Mode,
    Progress,
    Result,
    Skipped,
    main,
    ratio_table,
)

TITLE = "NumPy-style calls: cunumpy against NumPy (and CuNumpy 0.7.1 with --071 PYTHON)"
NEEDS: tuple[str, ...] = ()

#: The environment variable ``python -m benchmarks --071 PYTHON`` passes the Python in.
ENV_071 = "CUNUMPY_BENCH_071"
#: Labels of the calls to time (comma-separated), for a quick look; all when unset.
ENV_CALLS = "CUNUMPY_BENCH_CALLS"
SIZES = (16, 20_000)
NUMPY_MEDIAN, NUMPY_WORST = 1.05, 1.3  # at 16 elements
V071_MEDIAN, V071_WORST = 1.0, 1.2  # at 16 elements
BLOCK_EXTRA_US = 0.2
#: Timings per contender and round, of which the least counts.
CHUNKS = 3


class Worker:
    """A process that times the calls on request (``_calls_worker.py``)."""

    def __init__(self, command: list[str], env: dict[str, str]) -> None:
        self._process = subprocess.Popen(
            [*command, str(HERE / "_calls_worker.py")],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1,
            cwd=tempfile.gettempdir(), env=env,
        )  # fmt: skip
        self.block = False

    def ask(self, **request: Any) -> Any:
        assert self._process.stdin is not None and self._process.stdout is not None
        self._process.stdin.write(json.dumps({**request, "block": self.block}) + "\n")
        line = self._process.stdout.readline()
        if not line:
            msg = f"the timing process {self._process.args!r} ended (status {self._process.wait()})"
            raise RuntimeError(msg)
        return json.loads(line)

    def close(self) -> None:
        assert self._process.stdin is not None
        self._process.stdin.close()
        self._process.wait(timeout=60)


def _worker_071(python: str) -> Worker:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "CUNUMPY_"))}
    # -I: neither this checkout nor PYTHONPATH, so `import cunumpy` is that venv's 0.7.1
    return Worker([python, "-I"], env)


def _worker_fake() -> Worker:
    env = {**os.environ, "CUNUMPY_FAKE_CUPY": "1", "PYTHONPATH": str(HERE.parent)}
    env.pop("CUNUMPY_BACKEND", None)
    return Worker([sys.executable], env)


def _chosen(label: str) -> bool:
    chosen = os.environ.get(ENV_CALLS)
    return not chosen or label in chosen.split(",")


def _numbers(ours: list[Any], errors: list[str | None], target: float) -> list[int]:
    numbers = []
    for timer, error, call in zip(ours, errors, CALLS):
        if error is not None or not _chosen(call[0]):
            numbers.append(0)
            continue
        once = min(timer.timeit(3) / 3 for _ in range(3))
        numbers.append(max(1, min(20_000, int(target / max(once, 1e-9)))))
    return numbers


def _rounds(
    size: int, repeat: int, target: float, worker: Worker | None, progress: Progress
) -> tuple[dict[str, dict[str, list[float]]], dict[str, str]]:
    """Call -> contender -> the ratio of each round; and the calls left out, with why.

    A round times every call once, so the rounds of one call are spread over the whole
    run: a stretch of load on the machine lands on one round of many calls, not on every
    round of one call (which made the worst call a matter of chance). In a round each
    contender of a call runs back to back with the others, in a rotated order, and its
    time is the least of ``CHUNKS`` timings: a timing that the scheduler interrupted is
    longer, never shorter.
    """
    ours, errors = timers(cunumpy, size, 1)
    direct, _ = timers(None, size, 2)
    errors_071 = worker.ask(size=size) if worker is not None else [None] * len(CALLS)
    numbers = _numbers(ours, errors, target / CHUNKS)
    left_out = {
        CALLS[k][0]: error
        for k, error in enumerate(errors)
        if error is not None and _chosen(CALLS[k][0])
    }
    runs: dict[str, dict[str, Callable[[], float]]] = {}
    for k, (label, _, _) in enumerate(CALLS):
        if errors[k] is not None or not _chosen(label):
            continue
        number = numbers[k]
        runs[label] = {
            "ours": lambda k=k, n=number: min(ours[k].repeat(CHUNKS, n)) / n,
            "numpy": lambda k=k, n=number: min(direct[k].repeat(CHUNKS, n)) / n,
        }
        if worker is not None and errors_071[k] is None:
            runs[label]["071"] = lambda k=k, n=number: float(
                worker.ask(call=k, number=n, repeat=CHUNKS)
            )
    times = {label: {name: [] for name in contenders} for label, contenders in runs.items()}
    for r in range(repeat):
        for label, contenders in runs.items():
            names = list(contenders)
            for name in names[r % len(names) :] + names[: r % len(names)]:
                times[label][name].append(contenders[name]())
    rows: dict[str, dict[str, list[float]]] = {}
    for label, timed in times.items():
        rows[label] = {"NumPy": [o / d for o, d in zip(timed["ours"], timed["numpy"])]}
        if "071" in timed:
            rows[label]["0.7.1"] = [o / v for o, v in zip(timed["ours"], timed["071"])]
    progress.step(f"{size} elements: {len(rows)} calls timed, {len(left_out)} left out")
    return rows, left_out


def _summary(
    rows: dict[str, dict[str, list[float]]], against: str, title: str, progress: Progress
) -> tuple[list[float], str, list[float]]:
    """Per-round medians over the calls, and the worst call, against ``against``."""
    chosen = {label: {against: row[against]} for label, row in rows.items() if against in row}
    text, per_round = ratio_table(title, chosen, [against])
    progress.detail(text)
    worst = max(chosen, key=lambda label: statistics.median(chosen[label][against]))
    return per_round[against], worst, chosen[worst][against]


def _block_extra(repeat: int, target: float, progress: Progress) -> dict[str, list[float]]:
    """Call -> the extra us per call inside a differing block, per round (the fake CuPy)."""
    worker = _worker_fake()
    try:
        errors = worker.ask(size=16)
        ours, _ = timers(cunumpy, 16, 1)
        numbers = _numbers(ours, errors, target)
        extra: dict[str, list[float]] = {}
        for k, (label, _, _) in enumerate(CALLS):
            if CALLS[k] not in NON_STANDARD or errors[k] is not None or not _chosen(label):
                continue
            samples = []
            for r in range(repeat):
                pair = []
                for block in (r % 2 == 0, r % 2 == 1):
                    worker.block = block
                    pair.append((block, float(worker.ask(call=k, number=numbers[k]))))
                times = dict(pair)
                samples.append((times[True] - times[False]) * 1e6)
            extra[label] = samples
    finally:
        worker.block = False
        worker.close()
    lines = ["\nextra us per call inside use_backend('numpy') with CuPy (fake) the default"]
    lines += [f"{label:<20}{statistics.median(v):8.3f}" for label, v in extra.items()]
    progress.detail("\n".join(lines))
    return extra


def _identity() -> Any:
    """A ``_call_floor.Identity()``, built from ``benchmarks/_call_floor.c``; or why not."""
    import importlib.util

    from setuptools import Distribution, Extension
    from setuptools.command.build_ext import build_ext

    build = Path(tempfile.mkdtemp(prefix="cunumpy-call-floor-"))
    extension = Extension("_call_floor", [str(HERE / "_call_floor.c")])
    command = build_ext(Distribution({"name": "call-floor", "ext_modules": [extension]}))
    command.build_lib, command.build_temp = str(build), str(build / "tmp")
    command.ensure_finalized()
    command.run()
    spec = importlib.util.spec_from_file_location(
        "_call_floor", build / command.get_ext_filename("_call_floor")
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.Identity()


def _floor(repeat: int, progress: Progress) -> list[Result]:
    """``Identity()(a)`` and ``xp.asarray(a)`` against ``np.asarray(a)``, per round."""
    import contextlib
    import io
    import timeit
    import types

    import numpy as np

    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            identity = _identity()
    except Exception as exc:  # no compiler, no headers, no setuptools
        return [Skipped("floor of a call", f"_call_floor.c not built: {type(exc).__name__}")]
    floor = types.ModuleType("floor")  # a module with a __getattr__, as numpy and cunumpy
    floor.asarray = identity  # type: ignore[attr-defined]
    floor.__getattr__ = lambda name: None  # type: ignore[method-assign]
    env = {"np": np, "xp": cunumpy, "floor": floor, "a": np.ones(16)}
    timers = {
        name: timeit.Timer(f"{name}.asarray(a)", globals=env) for name in ("np", "xp", "floor")
    }
    number = 100_000
    rounds: dict[str, list[float]] = {"floor": [], "xp": []}
    for r in range(repeat):
        names = list(timers)[r % 3 :] + list(timers)[: r % 3]
        times = {name: min(timers[name].repeat(CHUNKS, number)) for name in names}
        for name in rounds:
            rounds[name].append(times[name] / times["np"])
    progress.detail(
        f"\nfloor of a call: Identity()(a) / np.asarray(a) "
        f"{statistics.median(rounds['floor']):.3f}, xp.asarray(a) / np.asarray(a) "
        f"{statistics.median(rounds['xp']):.3f}"
    )
    return [
        Check("floor of a call: a do-nothing C callable / NumPy, asarray(array) (information)",
              tuple(rounds["floor"])),
        Check("cunumpy / the floor of a call, asarray(array) (information)",
              tuple(x / f for x, f in zip(rounds["xp"], rounds["floor"]))),
    ]  # fmt: skip


def run(mode: Mode, progress: Progress) -> list[Result]:
    repeat = 5 if mode == "quick" else 15
    target = 0.002 if mode == "quick" else 0.006
    python_071 = os.environ.get(ENV_071)
    worker = _worker_071(python_071) if python_071 else None
    results: list[Result] = []
    try:
        for size in SIZES:
            progress.step(f"{size} elements")
            rows, left_out = _rounds(size, repeat, target, worker, progress)
            where = f"{size} elements"
            bounded = size == SIZES[0]
            per_round, worst, worst_samples = _summary(
                rows, "NumPy", f"\ncunumpy / NumPy, {where}", progress
            )
            results += [
                Check(f"cunumpy / NumPy, {where}, median of calls", tuple(per_round),
                      NUMPY_MEDIAN if bounded else None),
                Check(f"cunumpy / NumPy, {where}, worst ({worst})", tuple(worst_samples),
                      NUMPY_WORST if bounded else None),
            ]  # fmt: skip
            if worker is not None:
                per_round, worst, worst_samples = _summary(
                    rows, "0.7.1", f"\ncunumpy / CuNumpy 0.7.1, {where}", progress
                )
                results += [
                    Check(f"cunumpy / 0.7.1, {where}, median of calls", tuple(per_round),
                          V071_MEDIAN if bounded else None),
                    Check(f"cunumpy / 0.7.1, {where}, worst ({worst})", tuple(worst_samples),
                          V071_WORST if bounded else None),
                ]  # fmt: skip
            if bounded:
                results += [Skipped(f"call {label}", why) for label, why in left_out.items()]
    finally:
        if worker is not None:
            worker.close()
    if worker is None:
        results.append(Skipped("cunumpy / 0.7.1", f"give --071 PYTHON (or {ENV_071})"))
    progress.step("the floor of a call")
    results += _floor(repeat, progress)
    progress.step("inside a use_backend block that differs from the default")
    extra = _block_extra(repeat, target, progress)
    worst_label = max(extra, key=lambda label: statistics.median(extra[label]))
    worst_extra = statistics.median(extra[worst_label])
    holds = "holds" if worst_extra <= BLOCK_EXTRA_US else "does NOT hold"
    progress.detail(
        f"\nworst extra in a differing block: {worst_extra:.3f} us ({worst_label}); "
        f"the goal of <= {BLOCK_EXTRA_US} us per call {holds}"
    )
    per_round = [statistics.median(v[r] for v in extra.values()) for r in range(repeat)]
    results += [
        Check("block extra us per call, median of calls (information)", tuple(per_round)),
        Check(f"block extra us per call, worst ({worst_label}) (information)",
              tuple(extra[worst_label])),
    ]  # fmt: skip
    return results


def _take_own_options() -> None:
    """Take ``--071 PYTHON`` and ``--calls LABEL,...`` out of ``sys.argv`` (for ``main``),
    into ``CUNUMPY_BENCH_071`` and ``CUNUMPY_BENCH_CALLS``."""
    argv = sys.argv
    for option, variable in (("--071", ENV_071), ("--calls", ENV_CALLS)):
        if option in argv:
            at = argv.index(option)
            if at + 1 >= len(argv):
                sys.exit(f"bench_numpy_calls.py: {option} needs a value")
            os.environ[variable] = argv[at + 1]
            del argv[at : at + 2]


if __name__ == "__main__":
    _take_own_options()
    sys.exit(main(run, TITLE, NEEDS))
