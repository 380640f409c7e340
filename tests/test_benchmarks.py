"""The benchmarks' runner and harness, and the GPU benchmarks' stop without a GPU.

The GPU benchmarks start, and without a usable GPU stop with the reason (status 2); on a
GPU machine they run for real from ``gpu_check.sh`` instead, so those tests skip there.
No test here asserts a timing: only that the figures are measured and reported.
"""

from __future__ import annotations

import importlib
import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import cunumpy
from benchmarks.__main__ import discover
from benchmarks._harness import (
    KNOWN_NEEDS,
    Check,
    Skipped,
    batch_time,
    from_json,
    paired_ratios,
    ratio_table,
    to_json,
    worst_operation,
)

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    "script", ["bench_cupy_dispatch.py", "bench_transfer.py", "bench_streams.py"]
)
def test_gpu_benchmark_without_a_gpu_exits_with_the_reason(script: str) -> None:
    if cunumpy.cupy_available():
        pytest.skip("a GPU is usable: gpu_check.sh runs this benchmark for real")
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / script)],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 2, done.stdout + done.stderr
    assert "no usable GPU" in done.stdout
    reason = cunumpy.cupy_unavailable_reason()
    assert reason is not None and reason in done.stdout


# --- the runner and the interface every benchmark implements ---------------------------


def _run_benchmarks(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "benchmarks", *args],
        capture_output=True, text=True, timeout=300, check=False, cwd=ROOT,
    )  # fmt: skip


def test_every_benchmark_implements_the_interface() -> None:
    benches = discover()
    assert {b.name for b in benches} >= {
        "dispatch",
        "cupy_dispatch",
        "transfer",
        "profiling",
        "mpi",
    }
    for bench in benches:
        module = importlib.import_module(f"benchmarks.{bench.path.stem}")
        assert callable(module.run), bench.name
        assert set(module.NEEDS) <= set(KNOWN_NEEDS), bench.name
        assert "sys.exit(main(run, TITLE, NEEDS))" in bench.path.read_text(), bench.name
    assert {b.name: b.needs for b in benches}["mpi"] == ("mpi",)
    assert {b.name: b.needs for b in benches}["transfer"] == ("gpu",)


def test_importing_the_benchmarks_imports_neither_cupy_nor_mpi4py() -> None:
    code = (
        "import sys, benchmarks.__main__ as m; m.discover(); "
        "print(sorted(n for n in ('cupy', 'mpi4py') if n in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
        cwd=ROOT,
    )
    assert done.stdout.strip() == "[]"


def test_check_verdicts_compare_the_median_with_the_bound() -> None:
    assert Check("x", (0.9, 1.0, 5.0), 1.0).verdict == "pass"  # the median, not the max
    assert Check("x", (1.1, 1.2, 0.1), 1.0).verdict == "FAIL"
    assert Check("x", (0.95, 0.91, 0.99), 0.9, higher_is_better=True).verdict == "pass"
    assert Check("x", (0.85,), 0.9, higher_is_better=True).verdict == "FAIL"
    assert Check("x", (3.0,)).verdict == "info"
    check = Check("x", (1.5, 0.5, 1.0), 2.0)
    assert (check.low, check.median, check.high) == (0.5, 1.0, 1.5)
    assert check.bound_text == "<= 2" and check.spread_text == "0.500-1.500"
    with pytest.raises(ValueError, match="samples"):
        Check("x", ())


def test_results_survive_the_trip_through_json() -> None:
    results = [Check("a", (1.0, 2.0), 1.5, higher_is_better=True), Skipped("b", "no GPU")]
    assert from_json(json.loads(json.dumps(to_json(results)))) == results


def test_summary_rows_are_not_named_like_operations() -> None:
    rows = {"max": {"ours": [1.0, 1.2, 1.1]}, "sum": {"ours": [0.9, 1.0, 3.0]}}
    text, per_repeat = ratio_table("t", rows, ["ours"])
    names = [line.split()[0] for line in text.splitlines()[2:] if not line.startswith("-")]
    assert names == ["max", "sum", "[median", "[worst"]
    assert per_repeat == {"ours": [0.95, 1.1, 2.05]}
    assert worst_operation(rows, "ours") == ("max", [1.0, 1.2, 1.1])


def test_paired_ratios_gives_one_ratio_per_repeat_and_contender() -> None:
    calls: list[str] = []
    ratios = paired_ratios(
        {"base": lambda: calls.append("base"), "other": lambda: calls.append("other")},
        "base", number=3, repeat=4,
    )  # fmt: skip
    assert list(ratios) == ["other"] and len(ratios["other"]) == 4
    assert all(r > 0 for r in ratios["other"])
    assert calls.count("base") == calls.count("other") == 1 + 3 * 4  # warm-up, then batches


def test_runner_lists_the_benchmarks() -> None:
    done = _run_benchmarks("--list")
    assert done.returncode == 0, done.stderr
    assert [line.split()[0] for line in done.stdout.splitlines()] == [b.name for b in discover()]
    assert "(needs gpu)" in done.stdout and "(needs mpi)" in done.stdout


def test_runner_rejects_an_unknown_benchmark() -> None:
    done = _run_benchmarks("--only", "warp_drive")
    assert done.returncode == 2
    assert "unknown benchmark(s) ['warp_drive']" in done.stderr


def test_runner_shows_progress_and_ends_with_the_table() -> None:
    done = _run_benchmarks("--only", "profiling", "transfer", "--quick")
    assert done.returncode == 0, done.stdout + done.stderr  # a plain run reports
    out = done.stdout
    assert "[1/2] profiling:" in out and "[2/2] transfer:" in out
    assert "  » [" in out  # progress lines, as they come
    table = out.split("benchmark       figure", 1)[1]
    rows = [line for line in table.splitlines()[2:] if line.startswith(("profiling", "transfer"))]
    budget = [row for row in rows if "NumPy timed_region('name') recorded / 2 us" in row]
    assert len(budget) == 1 and budget[0].rstrip().endswith("info")  # a budget is not a bound
    for row in rows:
        assert row.rstrip().endswith(("within", "outside", "info")) or "skipped: " in row, row
    if not cunumpy.cupy_available():
        assert any(row.startswith("transfer") and "skipped: no usable GPU" in row for row in rows)
    assert "ratio: one figure divided by its baseline, both measured in this run" in out
    assert "bound: the limit a median must keep" in out
    assert re.search(r"\d+ for information", out.splitlines()[-1])


def test_a_plain_run_reports_and_check_applies_the_bounds(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from benchmarks._harness import main

    def run(mode: str, progress: object) -> list[Check]:
        return [Check("ours / theirs", (2.0, 2.1, 1.9), 1.5), Check("a / b", (0.5,), 1.0)]

    assert main(run, "t", (), argv=[]) == 0
    plain = capsys.readouterr().out
    assert re.search(r"ours / theirs .* <= 1.5 +outside", plain)
    assert re.search(r"a / b .* <= 1 +within", plain)
    assert "FAIL" not in plain.split("ratio:")[0]  # the table; the legend explains --check
    assert main(run, "t", (), argv=["--check"]) == 1
    checked = capsys.readouterr().out
    assert re.search(r"ours / theirs .* <= 1.5 +FAIL", checked)
    assert re.search(r"a / b .* <= 1 +pass", checked)


def test_a_time_against_a_fixed_budget_cannot_carry_a_bound() -> None:
    with pytest.raises(ValueError, match="fixed budget"):
        Check("NumPy timed_region per call / 2 us", (0.8,), 1.0)
    assert Check("NumPy timed_region per call / 2 us", (0.8,)).verdict == "info"
    assert Check("ours / theirs, 10**6 elements", (0.8,), 1.0).verdict == "pass"


def test_help_is_plain_text_and_says_what_ratios_and_bounds_mean() -> None:
    done = _run_benchmarks("--help")
    assert done.returncode == 0, done.stderr
    assert "``" not in done.stdout and ":func:" not in done.stdout
    assert "--check" in done.stdout and "ratio:" in done.stdout and "bound:" in done.stdout


def test_without_numba_the_runner_skips_the_kernels_benchmark_with_a_short_reason() -> None:
    code = (
        "import sys, runpy; sys.modules['numba'] = None; "
        "sys.argv = ['benchmarks', '--only', 'kernels']; "
        "runpy.run_module('benchmarks', run_name='__main__', alter_sys=True)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=300, cwd=ROOT
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "skipped: Numba is not installed (pip install numba (from a source" in done.stdout


def test_without_numba_the_kernels_benchmark_alone_exits_2_with_the_reason() -> None:
    script = ROOT / "benchmarks" / "bench_kernels.py"
    code = (
        "import sys, runpy; sys.modules['numba'] = None; "
        f"sys.argv = [{str(script)!r}]; runpy.run_path({str(script)!r}, run_name='__main__')"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=300, cwd=ROOT
    )
    assert done.returncode == 2, done.stdout + done.stderr
    assert "kernels: Numba is not installed" in done.stdout


def test_discovery_reads_title_and_needs_without_importing(tmp_path: Path) -> None:
    from benchmarks.__main__ import discover as discover_in

    (tmp_path / "bench_extra.py").write_text(
        "import a_module_that_is_not_installed\n"
        'TITLE = "An extra benchmark"\n'
        'NEEDS: tuple[str, ...] = ("numba",)\n'
        "def run(mode, progress):\n    return []\n"
    )
    (bench,) = discover_in(tmp_path)
    assert (bench.name, bench.title, bench.needs) == ("extra", "An extra benchmark", ("numba",))
    (tmp_path / "bench_bad.py").write_text('TITLE = "x"\nNEEDS = ("warp",)\ndef run(m, p): ...\n')
    with pytest.raises(ValueError, match="NEEDS"):
        discover_in(tmp_path)


def test_runner_starts_mpi_benchmarks_under_mpiexec(monkeypatch: pytest.MonkeyPatch) -> None:
    import benchmarks.__main__ as runner

    monkeypatch.setattr(runner, "_mpiexec", lambda: "/opt/mpi/bin/mpiexec")
    monkeypatch.setattr(runner, "_is_open_mpi", lambda path: True)
    mpi_bench = next(b for b in discover() if b.name == "mpi")
    command = runner._command(mpi_bench, "quick", Path("out.json"), 3)
    assert command[:4] == ["/opt/mpi/bin/mpiexec", "-n", "3", "--oversubscribe"]
    assert command[4:] == [sys.executable, str(mpi_bench.path), "--quick", "--json", "out.json"]
    dispatch = next(b for b in discover() if b.name == "dispatch")
    assert runner._command(dispatch, "full", Path("d.json"), 2)[0] == sys.executable


def test_the_gpu_check_applies_the_bounds() -> None:
    """gpu_check.sh reports a missed bound (status 1), which only --check gives."""
    script = (ROOT / "gpu_check.sh").read_text()
    body = script.split("benchmark() {", 1)[1].split("\n}\n", 1)[0]
    assert '"benchmarks/bench_$name.py" --quick --check --json' in body
    assert '[ "$rc" -eq 1 ]' in body


def test_numpy_calls_compares_with_numpy_and_with_another_cunumpy_in_its_own_process() -> None:
    """``--071 PYTHON`` runs that Python's ``cunumpy`` (0.7.1's where it is installed; here
    any), and the block figures run on the fake CuPy; two calls keep the test short."""
    python_071 = Path("/work/venv071/bin/python")
    python = str(python_071) if python_071.exists() else sys.executable
    isolated = subprocess.run(
        [python, "-I", "-c", "import cunumpy"], capture_output=True, timeout=120, check=False
    )
    if isolated.returncode != 0:  # the other cunumpy runs isolated (python -I): no PYTHONPATH
        pytest.skip(
            f"{python} -I cannot import cunumpy: it is on PYTHONPATH only, not installed "
            "(as on gpu_check.sh's machine); the comparison process runs isolated"
        )
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench_numpy_calls.py"), "--quick",
         "--071", python, "--calls", "sum,pad,sqrt(2.0)"],
        capture_output=True, text=True, timeout=300, check=False, cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    for figure in (
        "cunumpy / NumPy, 16 elements, median of calls",
        "cunumpy / 0.7.1, 16 elements, worst (",
        "cunumpy / NumPy, 20000 elements, median of calls",
        "block extra us per call, worst (pad)",
    ):
        assert figure in out, out
    floor = re.search(r"^numpy_calls +floor of a call: .*? (\d+\.\d+) ", out, re.MULTILINE)
    if floor is None:  # no C compiler here: the figure says why it is skipped
        assert "_call_floor.c not built" in out, out
    else:  # a measured ratio: its value is the benchmark's figure, not this test's (a
        # timed assertion fails on a loaded machine, as CI's two lanes make it: 0.999)
        assert float(floor.group(1)) > 0.0, out
    assert re.search(r"^pad +\d", out, re.MULTILINE)  # the per-call tables
    assert "the goal of <= 0.2 us per call" in out
    assert "nanmax" not in out  # not chosen


def test_the_numpy_calls_are_at_least_40_of_every_kind() -> None:
    from benchmarks._calls_worker import CALLS, NON_STANDARD, NUMPY_FORMS, STANDARD

    assert len(CALLS) >= 40 and len({label for label, _, _ in CALLS}) == len(CALLS)
    ours = " ".join(call for _, call, _ in CALLS)
    for part in ("xp.linalg.", "xp.fft.", "(lst", "(2.0)", "xp.random."):
        assert part in ours
    assert STANDARD and NON_STANDARD and NUMPY_FORMS
    for _, call, direct in CALLS:
        assert call.startswith("xp.") and "xp." not in direct


def test_the_heat_benchmark_runs_heat2ds_step_and_finds_071_only_where_it_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from benchmarks import bench_heat

    sys.path.insert(0, str(ROOT / "examples"))
    try:
        import heat2d
    finally:
        sys.path.pop(0)
    space = bench_heat.program()
    u = space["setup"](np, 16)
    heat = space["run"](np, u, 0.2, 5)
    field, total = heat2d.solve(16, 16, 5, 0.2, cunumpy.mpi.get_mpi().COMM_WORLD)
    np.testing.assert_allclose(u[1:-1, 1:-1], field, rtol=0, atol=0)
    assert heat == pytest.approx(total, rel=1e-12)
    monkeypatch.delenv("CUNUMPY_BENCH_071_PATH", raising=False)
    assert "is not set" in str(bench_heat.run_071("numpy", 8, 1, 1))
    monkeypatch.setenv("CUNUMPY_BENCH_071_PATH", str(tmp_path))
    assert "holds no cunumpy package" in str(bench_heat.run_071("numpy", 8, 1, 1))
    fake = tmp_path / "cunumpy"
    fake.mkdir()
    (fake / "__init__.py").write_text(
        "__version__ = '9.9'\ndef set_backend(name): pass\n"
        "zeros = __import__('numpy').zeros\nsum = __import__('numpy').sum\n"
        "float64 = __import__('numpy').float64\n"
    )
    assert "imported cunumpy 9.9" in str(bench_heat.run_071("numpy", 8, 1, 1))


def test_table_prints_the_results_of_several_benchmarks_and_checks_their_bounds(
    tmp_path: Path,
) -> None:
    kept = tmp_path / "a.json"
    kept.write_text(json.dumps(to_json([Check("x / y", (1.0, 1.1), bound=1.2)])))
    missed = tmp_path / "b.json"
    missed.write_text(json.dumps(to_json([Check("z / y", (2.0,), bound=1.5)])))
    done = _run_benchmarks("--table", f"alpha={kept}", f"beta={missed}", "--check")
    assert done.returncode == 1, done.stdout + done.stderr
    rows = [line for line in done.stdout.splitlines() if line.startswith(("alpha", "beta"))]
    assert len(rows) == 2 and rows[0].endswith("pass") and rows[1].endswith("FAIL")
    done = _run_benchmarks("--table", f"alpha={kept}", f"gone={tmp_path / 'none.json'}")
    assert done.returncode == 1
    assert any(
        line.startswith("gone") and "ERROR: no results" in line for line in done.stdout.splitlines()
    )
    assert _run_benchmarks("--table", f"alpha={kept}", "--check").returncode == 0


def test_the_gpu_check_runs_every_benchmark_with_gpu_figures_and_prints_one_table() -> None:
    script = (ROOT / "gpu_check.sh").read_text()
    listed = set()
    for array in ("BENCHMARKS", "NUMPY24_BENCHMARKS"):
        body = re.search(rf"^{array}=\((.*?)\)", script, re.MULTILINE | re.DOTALL)
        assert body is not None, array
        listed |= {entry.split(":")[0] for entry in body.group(1).split()}
    names = {b.name for b in discover()}
    assert listed <= names
    with_gpu = {
        b.name
        for b in discover()
        if re.search(r"import cupy|cupy_available|gpu_unavailable_reason", b.path.read_text())
    }
    assert with_gpu and with_gpu <= listed, with_gpu - listed
    assert '-m benchmarks --table "${BENCH_TABLE[@]}" --check' in script


def test_batch_time_without_sync_after_times_only_the_queueing() -> None:
    syncs: list[int] = []
    batch_time(lambda: None, 3, lambda: syncs.append(1))
    assert len(syncs) == 2  # before and after: the device's time
    syncs.clear()
    batch_time(lambda: None, 3, lambda: syncs.append(1), sync_after=False)
    assert len(syncs) == 1  # before only: the host's time to queue


def test_numpy_calls_rounds_spread_each_call_over_the_run_and_count_the_least_timing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A round times every call once (a call's rounds are not one stretch of the run, where
    one burst of load would move all of them), and a contender's time in a round is the
    least of its timings (an interrupted timing is longer, never shorter)."""
    import benchmarks.bench_numpy_calls as bench
    from benchmarks._calls_worker import CALLS

    order: list[tuple[int, int]] = []

    class Timer:
        def __init__(self, which: int, k: int) -> None:
            self.which, self.k = which, k

        def timeit(self, number: int) -> float:
            return 1e-6 * number

        def repeat(self, repeat: int, number: int) -> list[float]:
            order.append((self.which, self.k))
            seconds = [3.0, 1.0, 2.0][:repeat] if self.which == 1 else [4.0, 8.0, 6.0][:repeat]
            return [s * number for s in seconds]

    def timers(namespace: object, n: int, which: int) -> tuple[list[Timer], list[None]]:
        return [Timer(which, k) for k in range(len(CALLS))], [None] * len(CALLS)

    class Progress:
        def step(self, text: str) -> None:
            pass

    monkeypatch.setattr(bench, "timers", timers)
    monkeypatch.setenv(bench.ENV_CALLS, ",".join(label for label, _, _ in CALLS[:3]))
    rows, left_out = bench._rounds(16, 2, 0.003, None, Progress())  # type: ignore[arg-type]
    assert left_out == {}
    assert [k for which, k in order] == [0, 0, 1, 1, 2, 2] * 2  # round 0, then round 1
    assert [which for which, k in order[:2]] == [1, 2]  # rotated in the next round
    assert [which for which, k in order[6:8]] == [2, 1]
    assert rows[CALLS[0][0]]["NumPy"] == [0.25, 0.25]  # least of 3.0, 1.0, 2.0 over 4.0
