"""Tests of ``cunumpy.profiling.trace``: the timeline of regions, copies, waits and ranks.

Host regions, copies, the files (Chrome trace JSON checked against the format, the HTML
timeline loaded in headless Chromium), the whole-program recording (``CUNUMPY_TRACE``,
``python -m cunumpy trace``) and a two-rank MPI run merged into one file. The CuPy path
(device intervals, copies, kernels) runs under the fake CuPy, in
``tests/fake_cupy/test_trace_fake_cupy.py``.
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from mpi_run import ROOT, run_mpi, skip_reason
from trace_format import check_trace_document

from cunumpy import profiling
from cunumpy._placement._transfer_log import note_transfer
from cunumpy._trace import _recorder

HEAT = ROOT / "examples" / "heat2d.py"


@pytest.fixture(autouse=True)
def _no_recording_left() -> Iterator[None]:
    yield
    assert _recorder.RECORDER is None, "a test left a recording running"


def _load(path: Path) -> list[dict[str, Any]]:
    return check_trace_document(json.loads(path.read_text(encoding="utf-8")))


def _named(events: list[dict[str, Any]], name: str, ph: str = "X") -> list[dict[str, Any]]:
    return [e for e in events if e.get("name") == name and e["ph"] == ph]


def _thread_names(events: list[dict[str, Any]]) -> dict[tuple[int, int], str]:
    return {
        (e["pid"], e["tid"]): e["args"]["name"]
        for e in events
        if e["ph"] == "M" and e["name"] == "thread_name"
    }


# --- host regions ---------------------------------------------------------------------
def test_regions_nest_with_times_in_microseconds(tmp_path: Path) -> None:
    out = io.StringIO()
    with profiling.trace(tmp_path / "run.json", summary=out) as recording, profiling.timed_region("outer"):  # fmt: skip
        for _ in range(2):
            with profiling.timed_region("inner"):
                time.sleep(0.02)
        with profiling.nvtx_range("marked"):
            time.sleep(0.005)
    assert recording.files == [tmp_path / "run.json", tmp_path / "run.html"]
    events = _load(tmp_path / "run.json")
    (outer,) = _named(events, "outer")
    inner = _named(events, "inner")
    (marked,) = _named(events, "marked")
    assert len(inner) == 2
    assert outer["cat"] == "region" and marked["cat"] == "nvtx"
    for e in inner:  # 20 ms sleeps: 20,000 µs, not 0.02 (s) nor 2e7 (ns)
        assert 15_000 <= e["dur"] <= 1_000_000, e
        assert outer["ts"] <= e["ts"] and e["ts"] + e["dur"] <= outer["ts"] + outer["dur"]
        assert (e["pid"], e["tid"]) == (outer["pid"], outer["tid"])  # one host track
    assert inner[0]["ts"] + inner[0]["dur"] <= inner[1]["ts"]
    assert outer["ts"] + outer["dur"] >= marked["ts"] + marked["dur"]
    assert _thread_names(events)[(outer["pid"], outer["tid"])].startswith("host ")
    text = out.getvalue()
    assert re.search(r"inner\s+2\s", text) and re.search(r"outer\s+1\s", text)
    assert f"wrote {tmp_path / 'run.json'}, {tmp_path / 'run.html'}" in text
    assert recording.summary is not None and recording.summary in text


def test_threads_get_their_own_tracks(tmp_path: Path) -> None:
    import threading

    def work() -> None:
        with profiling.timed_region("in thread"):
            time.sleep(0.005)

    with profiling.trace(tmp_path / "t.json", summary=False, html=False) as recording:
        thread = threading.Thread(target=work, name="worker-7")
        thread.start()
        thread.join()
        work()
    assert recording.files == [tmp_path / "t.json"]
    events = _load(tmp_path / "t.json")
    tracks = {_thread_names(events)[(e["pid"], e["tid"])] for e in _named(events, "in thread")}
    assert tracks == {"host worker-7", "host MainThread"}


def test_decorator_records_each_call(tmp_path: Path) -> None:
    recording = profiling.trace(tmp_path / "deco", summary=False)

    @recording
    def solve(n: int) -> int:
        with profiling.timed_region("solve step"):
            return n + 1

    assert solve(1) == 2
    assert recording.path == tmp_path / "deco.json"  # .json appended
    assert len(_named(_load(tmp_path / "deco.json"), "solve step")) == 1
    assert solve(2) == 3  # a second call records anew
    assert len(_named(_load(tmp_path / "deco.json"), "solve step")) == 1


def test_copies_with_call_site_bytes_and_duration(tmp_path: Path) -> None:
    with profiling.trace(tmp_path / "c.json", summary=False):
        started = _recorder.clock()
        time.sleep(0.01)
        note_transfer("to_host", "to_numpy(shape=(1000,))", nbytes=8000, started=started, pinned=False)  # fmt: skip
        note_transfer("to_device", "asarray(list)", nbytes=24, pinned=True)
    events = _load(tmp_path / "c.json")
    copies = [e for e in events if e.get("cat") == "copy"]
    assert [c["name"] for c in copies] == ["to_host", "to_device"]
    to_host, to_device = copies
    line = f"{__file__}:"
    assert to_host["args"]["call site"].startswith(line)
    assert to_host["args"]["bytes"] == 8000 and to_host["args"]["memory"] == "pageable"
    assert to_device["args"]["memory"] == "pinned"
    assert to_host["dur"] >= 9_000  # from `started`, in µs
    (wait,) = [e for e in events if e.get("cat") == "wait"]  # a copy to the host waits
    assert wait["dur"] == to_host["dur"]
    html = (tmp_path / "c.html").read_text(encoding="utf-8")
    # by call site in the summary: 8 kB in >= 10 ms is below 1 MB/s
    assert re.search(r"<td>8.00 kB</td><td>[^<]+</td><td>0\.\d\d MB/s</td>", html), html[-3000:]


def test_a_full_buffer_keeps_the_first_events_and_counts_the_rest(tmp_path: Path) -> None:
    with profiling.trace(tmp_path / "full.json", capacity=5, summary=False) as recording:
        for _ in range(20):
            with profiling.timed_region("tick"):
                pass
    document = json.loads((tmp_path / "full.json").read_text())
    events = check_trace_document(document)
    assert len(_named(events, "tick")) == 5
    (full,) = [e for e in events if e["ph"] == "i"]
    assert full["name"] == "trace buffer full: 15 later events dropped"
    assert document["otherData"]["dropped events"] == {"0": 15}
    assert recording.summary is not None
    assert re.search(r"tick\s+20\s", recording.summary)  # the totals count every region
    assert "Buffer full" in recording.summary


def test_argument_errors() -> None:
    with pytest.raises(TypeError, match=r"trace: `path` must be a str or os.PathLike"):
        profiling.trace(3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"trace: `path` must name a file, not ''"):
        profiling.trace("")
    with pytest.raises(TypeError, match=r"`capacity` must be an int .* not 1.5"):
        profiling.trace("x.json", capacity=1.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"`capacity` must be >= 1, not 0"):
        profiling.trace("x.json", capacity=0)
    with pytest.raises(TypeError, match=r"`html` must be a bool"):
        profiling.trace("x.json", html="yes")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"`summary` must be a bool or a writable text file"):
        profiling.trace("x.json", summary="stderr")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"trace: can only decorate a callable, not 3"):
        profiling.trace("x.json")(3)  # type: ignore[arg-type]


def test_a_recording_inside_another_records_alongside_it(tmp_path: Path) -> None:
    outer = profiling.trace(tmp_path / "outer.json", summary=False)
    with outer:
        with profiling.timed_region("before"):
            pass
        with profiling.trace(tmp_path / "inner.json", summary=False) as inner:
            with pytest.raises(RuntimeError, match=r"recording for '.*inner.json' is already running"):  # fmt: skip
                inner.start()
            with profiling.timed_region("inside"), profiling.nvtx_range("deeper"):
                note_transfer("to_host", "to_numpy(x)", nbytes=8, started=_recorder.clock())
        with profiling.timed_region("after"):
            pass
    names = lambda path: [e["name"] for e in _load(path) if e["ph"] == "X"]  # noqa: E731
    assert names(tmp_path / "inner.json") == [
        "inside",
        "deeper",
        "to_host",
        "to_numpy: copy to the host",
    ]
    assert names(tmp_path / "outer.json") == ["before", *names(tmp_path / "inner.json"), "after"]
    assert inner.summary is not None and outer.summary is not None
    assert "before" not in inner.summary and "before" in outer.summary
    with pytest.raises(RuntimeError, match=r"is not running; start it first"):
        profiling.trace(tmp_path / "c.json").stop()


def test_off_nothing_is_recorded() -> None:
    assert _recorder.RECORDER is None
    with profiling.timed_region("untraced"):
        pass
    assert _recorder.clock() == 0
    assert _recorder.launching("k") is _recorder._OFF
    assert _recorder.waiting("w") is _recorder._OFF


# --- whole programs ---------------------------------------------------------------------
PROGRAM = textwrap.dedent(
    """
    import sys, time
    import cunumpy
    from cunumpy import profiling
    with profiling.timed_region("main work"):
        time.sleep(0.01)
    print("ARGS", sys.argv[1:])
    sys.exit(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
    """
)


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "CUNUMPY_TRACE"}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    env.update(extra)
    return env


def test_cunumpy_trace_records_an_unchanged_program(tmp_path: Path) -> None:
    script = tmp_path / "app.py"
    script.write_text(PROGRAM)
    target = tmp_path / "out" / "app-trace.json"
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=120,
        env=_env(CUNUMPY_TRACE=str(target)), cwd=tmp_path, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "ARGS []" in done.stdout
    assert f"cunumpy trace: wrote {target}, {target.with_suffix('.html')}" in done.stderr
    assert re.search(r"main work\s+1\s", done.stderr)  # the terminal summary
    (region,) = _named(_load(target), "main work")
    assert region["dur"] >= 9_000


def test_import_reads_cunumpy_trace_without_importing_the_recorder() -> None:
    code = (
        "import sys, numpy; before = set(sys.modules)\n"
        "import cunumpy\n"
        "new = set(sys.modules) - before\n"
        "print(sorted(m for m in new if 'profiling' in m or m.endswith('_buffer')))\n"
        "print(sorted(m for m in new if m in ('threading', 'dataclasses', 'json', 'socket')))\n"
    )
    plain = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
        env=_env(), check=True,
    )  # fmt: skip
    assert plain.stdout.split("\n")[:2] == ["[]", "[]"], plain.stdout


def test_python_m_cunumpy_trace_runs_the_script(tmp_path: Path) -> None:
    script = tmp_path / "app.py"
    script.write_text(PROGRAM)
    target = tmp_path / "m.json"
    done = subprocess.run(
        [sys.executable, "-m", "cunumpy", "trace", "-o", str(target), str(script), "3", "x"],
        capture_output=True, text=True, timeout=120, env=_env(), cwd=tmp_path, check=False,
    )  # fmt: skip
    assert done.returncode == 3, done.stderr  # the program's exit status
    assert "ARGS ['3', 'x']" in done.stdout
    assert f"cunumpy trace: wrote {target}, {target.with_suffix('.html')}" in done.stderr
    assert len(_named(_load(target), "main work")) == 1


def test_python_m_cunumpy_trace_runs_a_module(tmp_path: Path) -> None:
    (tmp_path / "tracedapp.py").write_text(PROGRAM)
    done = subprocess.run(
        [sys.executable, "-m", "cunumpy", "trace", "--no-html", "-o", "mod.json", "-m", "tracedapp", "0", "y"],
        capture_output=True, text=True, timeout=120, env=_env(), cwd=tmp_path, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "ARGS ['0', 'y']" in done.stdout
    assert sorted(p.name for p in tmp_path.glob("mod.*")) == ["mod.json"]
    assert len(_named(_load(tmp_path / "mod.json"), "main work")) == 1


def test_python_m_cunumpy_trace_needs_a_program() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "cunumpy", "trace"], capture_output=True, text=True,
        timeout=120, env=_env(), check=False,
    )  # fmt: skip
    assert done.returncode == 2
    assert "python -m cunumpy trace: error: give a script to run, or -m and a module" in done.stderr


# --- MPI ---------------------------------------------------------------------------------
@pytest.mark.mpi
def test_two_ranks_give_one_merged_file(tmp_path: Path) -> None:
    if skip_reason() is not None:  # asked (and cached) before CUNUMPY_TRACE is set
        pytest.skip(skip_reason())
    target = tmp_path / "heat.json"
    os.environ["CUNUMPY_TRACE"] = str(target)  # run_mpi passes os.environ on
    try:
        done = run_mpi(2, HEAT, "--ny", "16", "--nx", "8", "--steps", "20")
    finally:
        del os.environ["CUNUMPY_TRACE"]
    assert done.returncode == 0, done.stderr
    assert done.stderr.count("cunumpy trace: wrote") == 1  # rank 0 writes, once
    assert sorted(p.name for p in tmp_path.iterdir()) == ["heat.html", "heat.json"]
    events = _load(target)
    processes = {e["pid"]: e["args"]["name"] for e in events if e["name"] == "process_name"}
    assert sorted(processes) == [0, 1]
    assert processes[0].startswith("rank 0 ") and processes[1].startswith("rank 1 ")
    for rank in (0, 1):
        mine = [e for e in events if e["pid"] == rank and e["ph"] == "X"]
        assert len([e for e in mine if e["name"] == "mpi.sendrecv"]) == 40
        assert len([e for e in mine if e["name"] == "step"]) == 20
        assert [e["name"] for e in mine if e["name"] in ("mpi.allreduce", "mpi.gather")] == [
            "mpi.allreduce", "mpi.gather",
        ]  # fmt: skip
        tracks = {_thread_names(events)[(rank, e["tid"])] for e in mine if e["cat"] == "mpi"}
        assert tracks == {"MPI"}
    # Aligned clocks: the two ranks leave the allreduce together (within 50 ms).
    ends = [e["ts"] + e["dur"] for e in _named(events, "mpi.allreduce")]
    assert abs(ends[0] - ends[1]) < 50_000, ends
    assert re.search(r"^\s+1\s+MPI\s+mpi\.sendrecv", done.stderr, re.M)  # per-rank waits


# --- the HTML timeline in a browser ---------------------------------------------------------
CHROMIUM_FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
)  # fmt: skip


def chromium() -> str:
    """Debian's Chromium; skips without it, fails where CUNUMPY_BROWSER_REQUIRED=1 (CI)."""
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        reason = "no chromium on PATH (Debian: apt-get install chromium)"
        if os.environ.get("CUNUMPY_BROWSER_REQUIRED") == "1":
            pytest.fail(f"CUNUMPY_BROWSER_REQUIRED=1 but {reason}")
        pytest.skip(reason)
    return found


def test_the_html_timeline_opens_offline_with_its_tracks_and_summary(tmp_path: Path) -> None:
    browser = chromium()
    with profiling.trace(tmp_path / "page.json", summary=False):
        with profiling.timed_region("outer"), profiling.timed_region("inner"):
            time.sleep(0.005)
        note_transfer("to_host", "to_numpy(shape=(8,))", nbytes=64, started=_recorder.clock())
    page = tmp_path / "page.html"
    text = page.read_text(encoding="utf-8")
    assert not re.search(r"(src|href)=\"?https?:", text)  # nothing fetched: offline
    profile = tempfile.mkdtemp(prefix="cunumpy-chromium-")
    try:
        done = subprocess.run(
            [browser, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "--dump-dom", page.as_uri()],
            capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    dom = done.stdout
    assert done.returncode == 0, done.stderr[-2000:]
    assert 'data-rendered="1"' in dom  # the script ran and drew its one track
    assert re.search(r'class="track" data-rank="0" data-track="host MainThread"', dom)
    assert re.search(r'data-track="host MainThread" data-events="4"', dom)  # 2 regions, copy, wait
    assert "<h2>Summary</h2>" in dom
    for title in ("Regions by name", "Copies between host and device, by call site",
                  "Idle fraction per stream", "Time waiting"):  # fmt: skip
        assert title in dom
    assert re.search(r"<td>inner</td><td>1</td>", dom)


WAITING = textwrap.dedent(
    """
    import sys, time
    import numpy as np
    from cunumpy import mpi, profiling
    comm = mpi.get_mpi().COMM_WORLD
    with profiling.trace(sys.argv[1], summary=True):
        with profiling.timed_region("late" if comm.Get_rank() == 1 else "early"):
            time.sleep(0.3 if comm.Get_rank() == 1 else 0.0)
        mpi.allreduce(np.ones(4), "sum")
    """
)


@pytest.mark.mpi
def test_the_rank_that_waits_shows_it(tmp_path: Path) -> None:
    script = tmp_path / "waiting.py"
    script.write_text(WAITING)
    target = tmp_path / "w.json"
    done = run_mpi(2, script, str(target))
    assert done.returncode == 0, done.stderr
    events = _load(target)
    by_rank = {e["pid"]: e for e in _named(events, "mpi.allreduce")}
    assert by_rank[0]["dur"] >= 200_000  # rank 0 waited for rank 1, in the allreduce
    assert by_rank[1]["dur"] < by_rank[0]["dur"] - 150_000
    (late,) = _named(events, "late")
    (early,) = _named(events, "early")
    assert abs(late["ts"] - early["ts"]) < 100_000  # aligned at the start (vs the 300 ms nap)
    ends = [e["ts"] + e["dur"] for e in by_rank.values()]
    assert abs(ends[0] - ends[1]) < 50_000, ends
    assert re.search(r"^\s+0\s+MPI\s+mpi\.allreduce \(32 B\)\s+1\s", done.stderr, re.M)


# --- on a GPU (gpu_check.sh) -------------------------------------------------------------------
@pytest.fixture
def spin() -> Any:
    """A one-thread kernel of ``cunumpy.kernels`` that spins on the GPU's global timer."""
    import numpy as np
    from gpu_kernels import SPIN, SPIN_NAME

    import cunumpy

    kernel = cunumpy.kernels.RawKernel(SPIN, SPIN_NAME)

    def launch(seconds: float, stream: Any = None) -> None:
        kernel((1,), (1,), (np.uint64(int(seconds * 1e9)),), stream=stream)

    with cunumpy.use_backend("cupy"):
        launch(1e-6)  # compiled and loaded before the recording
        cunumpy.cuda.synchronize()
        yield launch
        cunumpy.cuda.synchronize()


@pytest.mark.gpu
def test_gpu_device_intervals_lie_inside_their_host_regions(spin: Any, tmp_path: Path) -> None:
    with profiling.trace(tmp_path / "g.json", summary=False):
        for _ in range(3):
            with profiling.timed_region("spin"):
                spin(0.02)
    events = _load(tmp_path / "g.json")
    regions = sorted(_named(events, "spin"), key=lambda e: e["ts"])
    hosts = [e for e in regions if e["cat"] == "region"]
    devices = [e for e in regions if e["cat"] == "device"]
    assert len(hosts) == len(devices) == 3
    slack = 500.0  # µs: the anchor's host time is read after its event completes
    for host, device in zip(hosts, devices, strict=True):
        assert 15_000 <= device["dur"] <= host["dur"] + slack, (host, device)
        assert host["ts"] - slack <= device["ts"], (host, device)
        assert device["ts"] + device["dur"] <= host["ts"] + host["dur"] + slack, (host, device)
        assert _thread_names(events)[(0, device["tid"])].startswith("cuda:")


@pytest.mark.gpu
def test_gpu_a_copy_on_one_stream_overlaps_a_kernel_on_another(spin: Any, tmp_path: Path) -> None:
    import cupy

    import cunumpy

    x = cunumpy.ones(8_000_000)  # 64 MB
    compute, copies = cupy.cuda.Stream(non_blocking=True), cupy.cuda.Stream(non_blocking=True)
    cunumpy.cuda.synchronize()
    with profiling.trace(tmp_path / "o.json", summary=False):
        spin(0.2, stream=compute)
        host = cunumpy.to_device(x, "cpu", stream=copies)
        cunumpy.cuda.synchronize()
    assert float(host.sum()) == 8_000_000.0
    events = _load(tmp_path / "o.json")
    names = _thread_names(events)
    (kernel,) = [
        e for e in events
        if e.get("cat") == "kernel" and names[(0, e["tid"])] == f"cuda:0 stream {hex(compute.ptr)}"
    ]  # fmt: skip
    (copy,) = [
        e for e in events
        if e.get("cat") == "copy" and names[(0, e["tid"])] == f"cuda:0 stream {hex(copies.ptr)}"
    ]  # fmt: skip
    assert kernel["dur"] >= 150_000
    assert copy["ts"] < kernel["ts"] + kernel["dur"] and kernel["ts"] < copy["ts"] + copy["dur"]


FAILING = textwrap.dedent(
    """
    import sys
    import numpy as np
    from cunumpy import mpi, profiling
    comm = mpi.get_mpi().COMM_WORLD
    try:
        with profiling.trace(sys.argv[1] + "/block.json", summary=False):
            with profiling.timed_region("in the block"):
                if comm.Get_rank() == 1:
                    raise ValueError("rank 1 fails in the block")
    except ValueError as exc:
        print("CAUGHT", comm.Get_rank(), exc)
    mpi.allreduce(np.ones(2), "sum")
    with profiling.timed_region("before the end"):
        pass
    raise RuntimeError(f"rank {comm.Get_rank()} fails at the end")
    """
)


@pytest.mark.mpi
def test_failing_ranks_still_give_their_timelines(tmp_path: Path) -> None:
    if skip_reason() is not None:
        pytest.skip(skip_reason())
    script = tmp_path / "failing.py"
    script.write_text(FAILING)
    os.environ["CUNUMPY_TRACE"] = str(tmp_path / "program.json")
    try:
        done = run_mpi(2, script, str(tmp_path))
    finally:
        del os.environ["CUNUMPY_TRACE"]
    # The block: rank 1 left it by an exception, and both ranks still met in one file.
    assert "CAUGHT 1 rank 1 fails in the block" in done.stdout
    block = _load(tmp_path / "block.json")
    assert sorted(e["pid"] for e in _named(block, "in the block")) == [0, 1]
    # The program: every rank ended by an uncaught exception, so each wrote its own file.
    assert done.returncode != 0
    assert not (tmp_path / "program.json").exists()
    for rank in (0, 1):
        assert f"rank {rank} fails at the end" in done.stderr
        events = _load(tmp_path / f"program.rank{rank}.json")
        assert {e["pid"] for e in events} == {rank}
        assert len(_named(events, "before the end")) == 1
