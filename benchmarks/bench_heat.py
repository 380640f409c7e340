"""One application end to end: the heat equation's time step of ``examples/heat2d.py``.

The program is ``heat2d.step`` (the five-point Laplacian and the in-place update of the
interior), run ``STEPS`` times on a square plate, then the total heat read back to the
host (which waits for the GPU), written once against a namespace ``xp``. It runs, one
step timed as the batch's time over ``STEPS``:

- on NumPy (the CPU), ``xp = numpy``;
- on the GPU through cunumpy, ``xp = cunumpy`` on the CuPy backend;
- on the GPU through CuNumpy 0.7.1 (``CUNUMPY_BENCH_071_PATH``: a folder where its wheel is
  installed, with its dependencies importable), in a process of its own, since both are
  ``cunumpy``: its figure is a ratio of medians of two processes, not of interleaved
  rounds;
- with bare CuPy, ``xp = cupy``, as one writes it by hand;
- fused into one kernel per step: a cunumpy portable kernel (``@kernels.elementwise`` over
  the five shifted views, into a second plate) against a CuPy ``ElementwiseKernel`` with the
  same body, written by hand.

Bounds (on the GPU): cunumpy at most 1.05x the time of bare CuPy; the portable kernel at
least 0.9x the speed of the ``ElementwiseKernel``. The speedup over NumPy and the ratio to
0.7.1 are information. Sizes: ``GPU_N`` squared float64 on the GPU (512 MiB a plate: every
step streams several GB, enough to fill an H100's memory system), the same on NumPy (a
step takes about a second there, so NumPy gets fewer steps). Without a GPU the program
runs at ``CPU_N`` on NumPy, through cunumpy's NumPy backend and through 0.7.1's (where it
is found), for information, and the GPU figures are skipped with the reason.

Run: ``python benchmarks/bench_heat.py [--quick | --full]`` (or ``python -m benchmarks``);
``CUNUMPY_BENCH_071_PATH=/path python benchmarks/bench_heat.py`` adds CuNumpy 0.7.1.
"""

from __future__ import annotations

import inspect
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
import numpy as np

import cunumpy
from benchmarks._harness import Check, Mode, Progress, Result, Skipped, main

TITLE = "Application: heat2d's time step on NumPy, cunumpy, CuNumpy 0.7.1 and bare CuPy"
NEEDS: tuple[str, ...] = ()

ROOT = Path(__file__).resolve().parent.parent
GPU_N = 8192
CPU_N = 1024
STEPS = {"gpu": 20, "numpy": 2}
ALPHA = 0.2
BOUND_VS_CUPY = 1.05
BOUND_FUSED = 0.9
PORTABLE = "cunumpy portable kernel, fused (GPU)"
HEAT_C = "out = c + alpha * (n + s + w + e - 4.0 * c)"


def _step_source() -> str:
    """The source of ``examples/heat2d.py``'s ``step``: the program every contender runs."""
    sys.path.insert(0, str(ROOT / "examples"))
    try:
        import heat2d
    finally:
        sys.path.pop(0)
    return inspect.getsource(heat2d.step)


PROGRAM = """
def setup(xp, n):
    u = xp.zeros((n + 2, n + 2), dtype=xp.float64)
    u[n // 4 + 1 : 3 * n // 4 + 1, n // 4 + 1 : 3 * n // 4 + 1] = 1.0
    return u


def run(xp, u, alpha, steps):
    for _ in range(steps):
        step(u, alpha)
    return float(xp.sum(u))  # the total heat, on the host: waits for the device
"""

# The child that runs the program with CuNumpy 0.7.1: argv = backend, n, steps, rounds;
# prints the version and the seconds of each round as JSON.
CHILD = """
import json, sys, time
import cunumpy
backend, n, steps, rounds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
source = sys.stdin.read()
cunumpy.set_backend(backend)
xp = cunumpy
space = {}
exec(source, space)
u = space["setup"](xp, n)
heat = space["run"](xp, u, 0.2, 1)
times = []
for _ in range(rounds):
    start = time.perf_counter()
    heat = space["run"](xp, u, 0.2, steps)
    times.append(time.perf_counter() - start)
print(json.dumps({"version": cunumpy.__version__, "file": cunumpy.__file__, "times": times}))
"""


def _source() -> str:
    """The whole program: heat2d's ``step`` (its annotations need ``Any``), then ours."""
    return "from typing import Any\n\n" + _step_source() + PROGRAM


def program() -> dict[str, Any]:
    """The program's functions (``setup``, ``run``, ``step``), made from its source."""
    space: dict[str, Any] = {}
    exec(_source(), space)
    return space


def run_071(backend: str, n: int, steps: int, rounds: int) -> dict[str, Any] | str:
    """CuNumpy 0.7.1's seconds per round in a process of its own, or why it cannot run.

    It imports from ``CUNUMPY_BENCH_071_PATH`` first; this checkout is taken off the
    child's ``PYTHONPATH`` and the child starts in an empty folder, so its ``cunumpy`` is
    0.7.1's (checked: the version it prints).
    """
    folder = os.environ.get("CUNUMPY_BENCH_071_PATH")
    if not folder:
        return "CUNUMPY_BENCH_071_PATH is not set (a folder where CuNumpy 0.7.1 is installed)"
    if not Path(folder, "cunumpy", "__init__.py").is_file():
        return f"CUNUMPY_BENCH_071_PATH={folder!r} holds no cunumpy package"
    here = {str(ROOT), str(ROOT) + os.sep, ""}
    rest = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p not in here]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([folder, *rest])}
    with tempfile.TemporaryDirectory(prefix="cunumpy-bench-071-") as empty:
        done = subprocess.run(
            [sys.executable, "-c", CHILD, backend, str(n), str(steps), str(rounds)],
            input=_source(), capture_output=True, text=True, cwd=empty,
            env=env, timeout=600, check=False,
        )  # fmt: skip
    if done.returncode != 0:
        return f"the 0.7.1 process failed: {done.stderr.strip().splitlines()[-1:]}"
    found: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    if found["version"] != "0.7.1":
        return f"the process under CUNUMPY_BENCH_071_PATH imported cunumpy {found['version']}"
    return found


def _times(runs: dict[str, Any], steps: dict[str, int], rounds: int) -> dict[str, list[float]]:
    """Seconds per step of each run, once per round, the runs interleaved."""
    for warm_up in runs.values():
        warm_up(1)  # compilation, memory pools
    labels = list(runs)
    times: dict[str, list[float]] = {label: [] for label in labels}
    for k in range(rounds):
        for label in labels[k % len(labels) :] + labels[: k % len(labels)]:
            start = time.perf_counter()
            runs[label](steps[label])
            times[label].append((time.perf_counter() - start) / steps[label])
    return times


def _ratio(times: dict[str, list[float]], numerator: str, denominator: str) -> tuple[float, ...]:
    return tuple(a / b for a, b in zip(times[numerator], times[denominator]))


def _table(title: str, times: dict[str, list[float]], n: int, extra: dict[str, float]) -> str:
    medians = {label: statistics.median(t) for label, t in times.items()} | extra
    lines = [f"{title}: one step of {n}x{n} float64, median seconds per step"]
    fastest = min(medians.values())
    for label, seconds in medians.items():
        lines.append(f"  {label:<44}{seconds * 1e3:10.2f} ms   {seconds / fastest:7.2f}x")
    return "\n".join(lines)


def measure_cpu(rounds: int, progress: Progress) -> list[Result]:
    """Without a GPU: the program at ``CPU_N`` on NumPy, cunumpy's NumPy backend and 0.7.1's."""
    progress.step(f"CPU: the program at {CPU_N}x{CPU_N}, NumPy and cunumpy, {rounds} rounds")
    space = program()
    setup, advance = space["setup"], space["run"]
    plates = {"numpy": setup(np, CPU_N), "cunumpy": setup(cunumpy, CPU_N)}
    runs = {
        "numpy": lambda steps: advance(np, plates["numpy"], ALPHA, steps),
        "cunumpy": lambda steps: advance(cunumpy, plates["cunumpy"], ALPHA, steps),
    }
    times = _times(runs, {"numpy": 5, "cunumpy": 5}, rounds)
    results: list[Result] = [
        Check("cunumpy / NumPy, heat step time (CPU)", _ratio(times, "cunumpy", "numpy"))
    ]
    found = run_071("numpy", CPU_N, 5, rounds)
    extra = {}
    if isinstance(found, str):
        results.append(Skipped("CuNumpy 0.7.1 / NumPy, heat step time (CPU)", found))
    else:
        per_step = statistics.median(found["times"]) / 5
        extra["CuNumpy 0.7.1 (own process)"] = per_step
        ratio = per_step / statistics.median(times["numpy"])
        results.append(Check("CuNumpy 0.7.1 / NumPy, heat step (CPU, 2 processes)", (ratio,)))
    progress.detail(_table("CPU", times, CPU_N, extra))
    return results


def measure_gpu(rounds: int, progress: Progress) -> list[Result]:
    if not cunumpy.cupy_available():
        return [Skipped("GPU figures", f"no usable GPU: {cunumpy.cupy_unavailable_reason()}")]
    import cupy

    from cunumpy import kernels

    progress.step(f"GPU: the program at {GPU_N}x{GPU_N}, {rounds} rounds")
    no_portable = kernels.gpu_unavailable_reason()  # numba-cuda cannot compile with NumPy 2.5
    space = program()
    setup, advance = space["setup"], space["run"]

    @kernels.elementwise(["float64(float64, float64, float64, float64, float64, float64)"])
    def heat_point(c, n, s, w, e, alpha):  # type: ignore[no-untyped-def]
        return c + alpha * (n + s + w + e - 4.0 * c)

    by_hand = cupy.ElementwiseKernel(
        "float64 c, float64 n, float64 s, float64 w, float64 e, float64 alpha", "float64 out",
        HEAT_C, "cunumpy_bench_heat_point",
    )  # fmt: skip

    def fused(kernel: Any, plates: list[Any]) -> Any:
        def steps(count: int) -> float:
            for _ in range(count):
                u, v = plates
                kernel(u[1:-1, 1:-1], u[:-2, 1:-1], u[2:, 1:-1], u[1:-1, :-2], u[1:-1, 2:],
                       ALPHA, v[1:-1, 1:-1])  # fmt: skip
                plates.reverse()
            return float(cupy.sum(plates[0]))

        return steps

    with cunumpy.use_backend("cupy"):
        plates = {
            "numpy": setup(np, GPU_N),
            "cunumpy": setup(cunumpy, GPU_N),
            "cupy": setup(cupy, GPU_N),
        }
        assert isinstance(plates["cunumpy"], cupy.ndarray)
        hand = [setup(cupy, GPU_N), setup(cupy, GPU_N)]
        runs: dict[str, Any] = {
            "NumPy (CPU)": lambda steps: advance(np, plates["numpy"], ALPHA, steps),
            "cunumpy (GPU)": lambda steps: advance(cunumpy, plates["cunumpy"], ALPHA, steps),
            "bare CuPy (GPU)": lambda steps: advance(cupy, plates["cupy"], ALPHA, steps),
            "CuPy ElementwiseKernel, fused (GPU)": fused(by_hand, hand),
        }
        if no_portable is None:
            portable = [setup(cupy, GPU_N), setup(cupy, GPU_N)]
            runs[PORTABLE] = fused(lambda *a: heat_point(*a[:-1], out=a[-1]), portable)
        steps = {label: STEPS["numpy" if "NumPy" in label else "gpu"] for label in runs}
        times = _times(runs, steps, rounds)
        heats = [float(cupy.sum(plates[k])) for k in ("cunumpy", "cupy")]
    name = cupy.cuda.runtime.getDeviceProperties(cupy.cuda.Device().id)["name"].decode()
    results: list[Result] = [
        Check(
            "cunumpy / bare CuPy, heat step time (GPU)",
            _ratio(times, "cunumpy (GPU)", "bare CuPy (GPU)"),
            BOUND_VS_CUPY,
        ),
        Check(
            "ElementwiseKernel / portable kernel, fused heat step",
            _ratio(times, "CuPy ElementwiseKernel, fused (GPU)", PORTABLE),
            BOUND_FUSED,
            higher_is_better=True,
        )
        if no_portable is None
        else Skipped("ElementwiseKernel / portable kernel, fused heat step", str(no_portable)),
        Check(
            "NumPy (CPU) / cunumpy (GPU), heat step time",
            _ratio(times, "NumPy (CPU)", "cunumpy (GPU)"),
        ),
    ]
    extra = {}
    progress.step("GPU: the program with CuNumpy 0.7.1, in its own process")
    found = run_071("cupy", GPU_N, STEPS["gpu"], rounds)
    if isinstance(found, str):
        results.append(Skipped("CuNumpy 0.7.1 / cunumpy, heat step time (GPU)", found))
    else:
        per_step = statistics.median(found["times"]) / STEPS["gpu"]
        extra["CuNumpy 0.7.1 (GPU, own process)"] = per_step
        ratio = per_step / statistics.median(times["cunumpy (GPU)"])
        results.append(Check("CuNumpy 0.7.1 / cunumpy, heat step (GPU, 2 processes)", (ratio,)))
    progress.detail(
        f"GPU: {name}, CuPy {cupy.__version__}, NumPy {np.__version__}, cunumpy "
        f"{cunumpy.__version__}; the same heat after equal steps: {heats[0] == heats[1]}\n"
        + _table("GPU", times, GPU_N, extra)
    )
    if heats[0] != heats[1]:
        msg = f"bench_heat: cunumpy and bare CuPy end with different heats {heats}"
        raise RuntimeError(msg)
    return results


def run(mode: Mode, progress: Progress) -> list[Result]:
    rounds = 5 if mode == "quick" else 15
    if not cunumpy.cupy_available():
        return [*measure_cpu(rounds, progress), *measure_gpu(rounds, progress)]
    return measure_gpu(rounds, progress)


if __name__ == "__main__":
    sys.exit(main(run, TITLE, NEEDS))
