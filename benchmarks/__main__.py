"""``python -m benchmarks``: run every benchmark, show progress, end with one table.

Each ``benchmarks/bench_*.py`` runs in its own process (under ``mpiexec`` when it needs
MPI), so one benchmark's memory, imports and GPU state cannot disturb the next. A
benchmark whose needs are not met here (a usable GPU, Numba, MPI) is skipped with a short
reason; the runner reads ``TITLE`` and ``NEEDS`` from each file without importing it, so
a missing extra cannot break the run. The table has one row per figure: its median
ratio, the min-max spread over the repeats, the bound and where the median lies.

A plain run reports and exits 0 (1 only when a benchmark crashes). ``--check`` applies
the bounds, which only ratios measured in one run carry, and exits 1 when one is missed.
"""

from __future__ import annotations

import argparse
import ast
import functools
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque
from dataclasses import dataclass
from pathlib import Path

from ._harness import (
    KNOWN_NEEDS,
    LEGEND,
    PROGRESS_MARK,
    Result,
    Skipped,
    from_json,
    results_table,
    unmet_need,
)

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
TIMEOUT_S = {"quick": 300, "full": 3600}


@dataclass(frozen=True)
class Errored:
    """A benchmark that crashed, timed out or wrote no results."""

    name: str
    reason: str

    verdict = "ERROR"


@dataclass(frozen=True)
class Benchmark:
    name: str
    path: Path
    title: str
    needs: tuple[str, ...]


DESCRIPTION = """\
Run every benchmark of cunumpy (benchmarks/bench_*.py), each in its own process, showing
progress, and end with one table: one row per figure, its median ratio over the repeats,
their min-max spread, the bound and where the median lies. A plain run reports figures
and exits 0; --check applies the bounds and exits 1 when one is missed. Benchmarks whose
needs are not met here (a usable GPU, Numba, MPI) are skipped with the reason."""


def _literals(path: Path) -> dict[str, object]:
    """The module-level ``TITLE`` and ``NEEDS`` of ``path``, read without importing it."""
    found: dict[str, object] = {}
    for node in ast.parse(path.read_text(), filename=str(path)).body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            target, value = node.target, node.value
        else:
            continue
        if isinstance(target, ast.Name) and target.id in ("TITLE", "NEEDS"):
            try:
                found[target.id] = ast.literal_eval(value)
            except ValueError:
                found[target.id] = None
    return found


def _load(path: Path) -> Benchmark:
    """The benchmark in ``path``; ``TITLE`` and ``NEEDS`` must be literals (read without
    importing the module, whose imports may need what is missing here)."""
    found = _literals(path)
    title, needs = found.get("TITLE"), found.get("NEEDS", ())
    if not isinstance(title, str) or "def run(" not in path.read_text():
        msg = f"{path.name}: a benchmark defines TITLE (a str literal) and run(mode, progress)"
        raise TypeError(msg)
    if not isinstance(needs, tuple) or not set(needs) <= set(KNOWN_NEEDS):
        msg = f"{path.name}: NEEDS {needs!r} must be a tuple literal of names in {KNOWN_NEEDS!r}"
        raise ValueError(msg)
    return Benchmark(path.stem.removeprefix("bench_"), path, title, needs)


def discover(directory: Path = HERE) -> list[Benchmark]:
    """Every ``bench_*.py`` in ``directory`` (this one by default), by name."""
    return [_load(path) for path in sorted(directory.glob("bench_*.py"))]


def _mpiexec() -> str | None:
    search = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    return shutil.which("mpiexec", path=search)


@functools.cache
def _is_open_mpi(mpiexec: str) -> bool:
    done = subprocess.run(
        [mpiexec, "--version"], capture_output=True, text=True, timeout=30, check=False
    )
    text = done.stdout + done.stderr
    return "Open MPI" in text or "OpenRTE" in text or "prterun" in text.lower()


def _skip_reason(bench: Benchmark) -> str | None:
    if (reason := unmet_need(bench.needs)) is not None:
        return reason
    if "mpi" in bench.needs and _mpiexec() is None:
        return "no mpiexec on PATH or next to the Python executable"
    return None


def _command(bench: Benchmark, mode: str, out: Path, ranks: int) -> list[str]:
    command = [sys.executable, str(bench.path), f"--{mode}", "--json", str(out)]
    if "mpi" not in bench.needs:
        return command
    mpiexec = _mpiexec()
    assert mpiexec is not None
    launcher = [mpiexec, "-n", str(ranks)]
    if _is_open_mpi(mpiexec):
        launcher.append("--oversubscribe")
    return launcher + command


def _environment() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    env["PYTHONUNBUFFERED"] = "1"
    # Open MPI: allow root (containers, CI) and use shared memory only, no network probing.
    env.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
    env.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
    env.setdefault("OMPI_MCA_pml", "ob1")
    env.setdefault("OMPI_MCA_btl", "self,vader")
    return env


def run_one(
    bench: Benchmark, mode: str, *, ranks: int, verbose: bool, scratch: Path
) -> list[Result | Errored]:
    """Run one benchmark in its own process, echo its progress, and read its results."""
    if (reason := _skip_reason(bench)) is not None:
        print(f"  skipped: {reason}", flush=True)
        return [Skipped("the whole benchmark", reason)]
    out = scratch / f"{bench.name}.json"
    process = subprocess.Popen(
        _command(bench, mode, out, ranks),
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1,
        cwd=ROOT, env=_environment(),
    )  # fmt: skip
    timer = threading.Timer(TIMEOUT_S[mode], process.kill)
    timer.start()
    tail: deque[str] = deque(maxlen=20)
    try:
        assert process.stdout is not None
        for line in process.stdout:
            line = line.rstrip("\n")
            tail.append(line)
            if verbose or line.startswith(PROGRESS_MARK):
                print(f"  {line}", flush=True)
        status = process.wait()
    finally:
        timer.cancel()
    if status not in (0, 1) or not out.exists():
        why = f"killed after {TIMEOUT_S[mode]} s" if status < 0 else f"exit status {status}"
        print("\n".join(f"  | {line}" for line in tail), flush=True)
        return [Errored("the whole benchmark", f"{why}; its last lines are above")]
    return list(from_json(json.loads(out.read_text())))


def _summary(rows: list[tuple[str, Result | Errored]], seconds: float, checked: bool) -> str:
    counts: dict[str, int] = {}
    for _, result in rows:
        counts[result.verdict] = counts.get(result.verdict, 0) + 1
    if checked:
        judged = [("pass", "passed"), ("FAIL", "FAILED")]
    else:
        judged = [("pass", "within bounds"), ("FAIL", "outside bounds (--check applies them)")]
    order = [*judged, ("info", "for information"), ("skipped", "skipped"), ("ERROR", "ERRORS")]
    parts = [f"{counts[key]} {label}" for key, label in order if counts.get(key)]
    return f"{', '.join(parts)}; {seconds:.0f} s"


def print_table(entries: list[str], *, checked: bool) -> int:
    """One table of the results in the JSON files of ``entries`` (``NAME=PATH``); returns
    the exit status: 1 when a file is missing or unreadable (or, with ``checked``, a figure
    missed its bound), else 0."""
    rows: list[tuple[str, Result | Errored]] = []
    for entry in entries:
        name, _, path = entry.partition("=")
        results: list[Result | Errored]
        try:
            results = list(from_json(json.loads(Path(path).read_text())))
        except (OSError, ValueError, KeyError, TypeError) as exc:
            results = [Errored("the whole benchmark", f"no results in {path} ({exc})")]
        rows += [(name, result) for result in results]
    print(results_table(rows, checked=checked))
    print(LEGEND)
    failing = ("FAIL", "ERROR") if checked else ("ERROR",)
    return 1 if any(result.verdict in failing for _, result in rows) else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks", description=DESCRIPTION, epilog=LEGEND,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )  # fmt: skip
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--quick", dest="mode", action="store_const", const="quick",
                       help="fewer repetitions, under a minute without a GPU (the default)")  # fmt: skip
    group.add_argument("--full", dest="mode", action="store_const", const="full",
                       help="more repetitions, for figures you quote")  # fmt: skip
    parser.add_argument("--only", nargs="+", metavar="NAME", help="run only these benchmarks")
    parser.add_argument("--list", action="store_true", help="list the benchmarks and exit")
    parser.add_argument("--table", nargs="+", metavar="NAME=JSON",
                        help="print one table of the results benchmarks wrote with --json "
                             "(NAME: the benchmark; a missing file is a row saying so), "
                             "with --check applied, and exit")  # fmt: skip
    parser.add_argument("--verbose", action="store_true", help="show each benchmark's tables")
    parser.add_argument("--ranks", type=int, default=2, help="MPI ranks (default 2)")
    parser.add_argument("--check", action="store_true",
                        help="apply the bounds: exit status 1 when a median misses one")  # fmt: skip
    parser.add_argument("--071", dest="python_071", metavar="PYTHON",
                        help="the Python of a venv with CuNumpy 0.7.1: numpy_calls also "
                             "compares with it")  # fmt: skip
    args = parser.parse_args(argv)
    if args.python_071:  # read by bench_numpy_calls.py (the two share an import name)
        os.environ["CUNUMPY_BENCH_071"] = args.python_071
    mode = args.mode or "quick"
    benches = discover()
    if args.table:
        return print_table(args.table, checked=args.check)
    if args.list:
        for bench in benches:
            needs = f" (needs {', '.join(bench.needs)})" if bench.needs else ""
            print(f"{bench.name:<16}{bench.title}{needs}")
        return 0
    if args.only:
        unknown = sorted(set(args.only) - {b.name for b in benches})
        if unknown:
            parser.error(f"unknown benchmark(s) {unknown}; --list names them")
        benches = [b for b in benches if b.name in args.only]

    start = time.perf_counter()
    rows: list[tuple[str, Result | Errored]] = []
    with tempfile.TemporaryDirectory(prefix="cunumpy-benchmarks-") as scratch:
        for k, bench in enumerate(benches, 1):
            print(f"[{k}/{len(benches)}] {bench.name}: {bench.title}", flush=True)
            began = time.perf_counter()
            results = run_one(
                bench, mode, ranks=args.ranks, verbose=args.verbose, scratch=Path(scratch)
            )
            rows += [(bench.name, result) for result in results]
            print(f"  done in {time.perf_counter() - began:.1f} s", flush=True)
    check = " --check" if args.check else ""
    print(f"\npython -m benchmarks --{mode}{check}")
    print(results_table(rows, checked=args.check))
    print(LEGEND)
    print(_summary(rows, time.perf_counter() - start, args.check))
    failing = ("FAIL", "ERROR") if args.check else ("ERROR",)
    return 1 if any(result.verdict in failing for _, result in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
