"""Tests for cunumpy.profiling: timed regions, the per-name record, benchmark, NVTX."""

from __future__ import annotations

import io
import re
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from gpu_kernels import SPIN, SPIN_NAME

import cunumpy
from cunumpy import profiling
from cunumpy.profiling import _nvtx

NAP = 0.05  # seconds; timing asserts accept 45 ms to 500 ms
LOW, HIGH = 0.045, 0.5


@pytest.fixture(autouse=True)
def _empty_record() -> Iterator[None]:
    profiling.reset()
    yield
    profiling.reset()


@pytest.fixture(autouse=True)
def _no_cupy_work(monkeypatch: pytest.MonkeyPatch) -> None:
    """The NumPy-backend tests here expect no GPU work: on the NumPy backend, regions and
    benchmark() act on the GPU once CuPy has a CUDA context there (another test, or the
    fake CuPy, may have made one; tests/fake_cupy/test_trace_fake_cupy.py tests that). The
    CuPy-backend tests are not affected: the backend alone decides for them."""
    from cunumpy.profiling import _regions

    monkeypatch.setattr(_regions, "_loaded_cupy", lambda: None)


def test_all_names_exist() -> None:
    assert sorted(profiling.__all__) == sorted(set(profiling.__all__))
    for name in profiling.__all__:
        assert hasattr(profiling, name), name


# --- timed_region on the NumPy backend ----------------------------------------------


def test_region_measures_a_sleep() -> None:
    with profiling.timed_region("nap") as region:
        time.sleep(NAP)
    assert isinstance(region, profiling.TimedRegion)
    assert LOW <= region.elapsed <= HIGH
    assert region.host_time == region.elapsed
    assert region.device_time is None


def test_region_without_name_is_not_recorded() -> None:
    with profiling.timed_region() as region:
        time.sleep(0.001)
    assert region.elapsed > 0
    assert profiling.report(file=io.StringIO()) == {}


def test_elapsed_is_none_until_the_block_ends() -> None:
    """As CuNumpy 0.7.1's ``Timing`` documents: ``None`` until the block exits."""
    region = profiling.timed_region("early")
    assert region.elapsed is None
    with region:
        assert region.elapsed is None
        assert region.synced is False
    assert isinstance(region.elapsed, float)
    assert region.elapsed >= 0.0


def test_the_region_yields_a_timing_not_synced_on_numpy() -> None:
    with profiling.timed_region("solve") as timing:
        time.sleep(0.001)
    assert isinstance(timing, profiling.Timing)
    assert timing.name == "solve"
    assert timing.synced is False  # nothing to wait for on NumPy
    assert timing.elapsed >= 0.001


def test_a_timing_made_directly_holds_its_values() -> None:
    timing = profiling.Timing("io", elapsed=0.25, synced=True)
    assert (timing.name, timing.elapsed, timing.synced) == ("io", 0.25, True)
    assert timing.device_time is None
    assert repr(timing) == "<Timing 'io': host 250.000 ms>"
    assert profiling.Timing("later").elapsed is None
    assert profiling.Timing(None, elapsed=1).elapsed == 1.0


@pytest.mark.parametrize(
    ("args", "pattern"),
    [((3,), "`name` must be a str or None"), (("a", "1s"), "`elapsed` must be a number"),
     (("a", None, 1), "`synced` must be a bool")],
)  # fmt: skip
def test_a_timing_checks_its_arguments(args: tuple[Any, ...], pattern: str) -> None:
    with pytest.raises(TypeError, match=rf"^Timing: {pattern}"):
        profiling.Timing(*args)


def test_an_open_region_cannot_be_entered_again() -> None:
    region = profiling.timed_region("twice")
    with region, pytest.raises(RuntimeError, match="already open"), region:
        pass


def test_regions_nest() -> None:
    with profiling.timed_region("outer") as outer:
        with profiling.timed_region("inner") as first:
            time.sleep(NAP)
        with profiling.timed_region("inner") as second:
            time.sleep(NAP)
    assert LOW <= first.elapsed <= HIGH
    assert LOW <= second.elapsed <= HIGH
    assert outer.elapsed >= first.elapsed + second.elapsed
    stats = profiling.report(file=io.StringIO())
    assert stats["inner"].count == 2
    assert stats["outer"].count == 1
    assert list(stats) == ["outer", "inner"]  # largest total first


def test_exception_is_reraised_and_region_recorded() -> None:
    region = profiling.timed_region("fails")

    def fail() -> None:
        with region:
            time.sleep(NAP)
            raise KeyError("boom")

    with pytest.raises(KeyError, match="boom"):
        fail()
    assert LOW <= region.elapsed <= HIGH
    assert profiling.report(file=io.StringIO())["fails"].count == 1
    with profiling.timed_region("fails"):  # the region machinery still works
        pass
    assert profiling.report(file=io.StringIO())["fails"].count == 2


def test_decorator_with_name() -> None:
    @profiling.timed_region("work")
    def work(x: int, *, y: int = 1) -> int:
        time.sleep(0.001)
        return x + y

    assert work(1, y=2) == 3
    assert work(4) == 5
    assert work.__name__ == "work"
    stats = profiling.report(file=io.StringIO())
    assert stats["work"].count == 2
    assert stats["work"].min >= 0.001


def test_decorator_without_name_uses_qualname() -> None:
    @profiling.timed_region()
    def helper() -> str:
        return "done"

    assert helper() == "done"
    stats = profiling.report(file=io.StringIO())
    assert list(stats) == [helper.__qualname__]
    assert "test_decorator_without_name_uses_qualname" in helper.__qualname__


def test_decorator_records_when_the_function_raises() -> None:
    @profiling.timed_region("bad")
    def bad() -> None:
        raise ValueError("no")

    with pytest.raises(ValueError, match="no"):
        bad()
    assert profiling.report(file=io.StringIO())["bad"].count == 1


def test_decorator_rejects_non_callables() -> None:
    with pytest.raises(TypeError, match=r"timed_region: can only decorate a callable, not 3"):
        profiling.timed_region("x")(3)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", [3, b"bytes", ["a"]])
def test_name_must_be_str(name: Any) -> None:
    expected = re.escape(f"timed_region: `name` must be a str or None, not {name!r}.")
    with pytest.raises(TypeError, match=expected):
        profiling.timed_region(name)


def test_bare_decorator_gets_a_hint() -> None:
    with pytest.raises(TypeError, match=r"with parentheses"):
        profiling.timed_region(print)  # type: ignore[arg-type]


def test_empty_name_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="timed_region: `name` must be a non-empty str"):
        profiling.timed_region("")


@pytest.mark.parametrize("sync", [1, "yes", None])
def test_sync_must_be_bool(sync: Any) -> None:
    with pytest.raises(TypeError, match=rf"timed_region: `sync` must be a bool .*not {sync!r}"):
        profiling.timed_region("x", sync=sync)


def test_repr_shows_the_state() -> None:
    region = profiling.timed_region("shown")
    assert repr(region) == "<TimedRegion 'shown': not run>"
    with region:
        assert "open" in repr(region)
    assert repr(region).startswith("<TimedRegion 'shown': host ")


# --- the per-name record --------------------------------------------------------------


def test_record_statistics() -> None:
    durations = [0.01, 0.03, 0.02]
    regions = []
    for seconds in durations:
        with profiling.timed_region("step") as region:
            time.sleep(seconds)
        regions.append(region.elapsed)
    stats = profiling.report(file=io.StringIO())["step"]
    assert isinstance(stats, profiling.RegionStats)
    assert stats.name == "step"
    assert stats.count == 3
    assert stats.total == pytest.approx(sum(regions))
    assert stats.mean == pytest.approx(sum(regions) / 3)
    assert stats.min == min(regions)
    assert stats.max == max(regions)
    assert stats.min < stats.mean < stats.max


def test_a_region_is_recorded_with_its_device_time_when_it_has_one() -> None:
    # what a synchronized GPU region holds when it closes, set by hand on NumPy
    with profiling.timed_region("resolved") as region:
        region._device_time = 123.0
    assert region.host_time is not None and region.host_time < 1.0
    assert profiling.report(file=io.StringIO())["resolved"].total == 123.0


def test_report_prints_a_table() -> None:
    for _ in range(2):
        with profiling.timed_region("alpha"):
            time.sleep(0.002)
    with profiling.timed_region("beta"):
        pass
    out = io.StringIO()
    profiling.report(file=out)
    lines = out.getvalue().splitlines()
    assert lines[0].split() == ["region", "count", "total", "mean", "min", "max"]
    assert lines[1].split()[:2] == ["alpha", "2"]
    assert lines[2].split()[:2] == ["beta", "1"]
    assert len(lines) == 3


def test_report_prints_to_stdout_by_default(capsys: pytest.CaptureFixture[str]) -> None:
    profiling.report()
    assert capsys.readouterr().out == "no timed regions recorded\n"
    with profiling.timed_region("shown"):
        pass
    profiling.report()
    assert "shown" in capsys.readouterr().out


def test_reset_clears_the_record() -> None:
    with profiling.timed_region("gone"):
        pass
    assert "gone" in profiling.report(file=io.StringIO())
    profiling.reset()
    assert profiling.report(file=io.StringIO()) == {}


def test_record_is_thread_safe() -> None:
    n_threads, n_regions = 8, 2000  # 32000 regions: the queue is folded while threads append
    barrier = threading.Barrier(n_threads)
    errors: list[BaseException] = []

    def worker(index: int) -> None:
        try:
            barrier.wait()
            for _ in range(n_regions):
                with profiling.timed_region("shared"), profiling.timed_region(f"own-{index}"):
                    pass
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(n_threads)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    stats = profiling.report(file=io.StringIO())
    assert stats["shared"].count == n_threads * n_regions
    for i in range(n_threads):
        assert stats[f"own-{i}"].count == n_regions


def test_regions_in_threads_time_their_own_work() -> None:
    results: dict[int, float] = {}

    def worker(index: int) -> None:
        with profiling.timed_region("threaded") as region:
            time.sleep(NAP * (index + 1))
        results[index] = region.elapsed

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for index, elapsed in results.items():
        assert NAP * (index + 1) * 0.9 <= elapsed <= NAP * (index + 1) + HIGH
    assert profiling.report(file=io.StringIO())["threaded"].count == 3


# --- benchmark ------------------------------------------------------------------------


def test_benchmark_runs_warmup_then_repeats() -> None:
    calls: list[tuple[int, int]] = []

    def fn(a: int, *, b: int) -> None:
        calls.append((a, b))

    result = profiling.benchmark(fn, 1, n_repeat=7, n_warmup=3, kwargs={"b": 2})
    assert calls == [(1, 2)] * 10
    assert isinstance(result, profiling.BenchmarkResult)
    assert result.n_repeat == 7
    assert result.host_times.shape == (7,)
    assert result.host_times.dtype == np.float64
    assert result.device_times is None
    assert result.name == "fn"


def test_benchmark_statistics_and_line() -> None:
    result = profiling.benchmark(time.sleep, 0.002, n_repeat=5, n_warmup=0, name="nap")
    times = result.host_times
    assert np.all(times >= 0.002)
    assert result.times is times
    assert result.mean == pytest.approx(float(np.mean(times)))
    assert result.median == pytest.approx(float(np.median(times)))
    assert result.std == pytest.approx(float(np.std(times)))
    assert (result.min, result.max) == (float(times.min()), float(times.max()))
    line = str(result)
    assert "\n" not in line
    assert line.startswith("nap: host ")
    assert line.endswith("5 runs")
    assert " ms median" in line
    assert repr(result) == line


def test_benchmark_stops_at_max_duration() -> None:
    result = profiling.benchmark(time.sleep, 0.01, n_repeat=1000, n_warmup=0, max_duration=0.05)
    assert 1 <= result.n_repeat < 20


def test_benchmark_always_runs_once() -> None:
    result = profiling.benchmark(time.sleep, 0.01, n_repeat=5, n_warmup=0, max_duration=1e-9)
    assert result.n_repeat == 1


@pytest.mark.parametrize(
    ("kwargs", "error", "pattern"),
    [
        ({"n_repeat": 0}, ValueError, r"`n_repeat` must be an int >= 1, not 0"),
        ({"n_repeat": 2.0}, TypeError, r"`n_repeat` must be an int >= 1, not 2.0"),
        ({"n_repeat": True}, TypeError, r"`n_repeat` must be an int >= 1, not True"),
        ({"n_warmup": -1}, ValueError, r"`n_warmup` must be an int >= 0, not -1"),
        ({"n_warmup": "3"}, TypeError, r"`n_warmup` must be an int >= 0, not '3'"),
        ({"max_duration": 0}, ValueError, r"`max_duration` must be .* > 0, not 0"),
        ({"max_duration": float("nan")}, ValueError, r"`max_duration` must be .* not nan"),
        ({"max_duration": "1"}, TypeError, r"`max_duration` must be .* not '1'"),
        ({"name": 5}, TypeError, r"`name` must be a str or None, not 5"),
        ({"kwargs": [("a", 1)]}, TypeError, r"`kwargs` must be a mapping or None"),
    ],
)
def test_benchmark_rejects_bad_arguments(
    kwargs: dict[str, Any], error: type[Exception], pattern: str
) -> None:
    with pytest.raises(error, match=rf"^benchmark: {pattern}"):
        profiling.benchmark(print, **kwargs)


def test_benchmark_rejects_non_callables() -> None:
    with pytest.raises(TypeError, match=r"benchmark: `fn` must be callable, not 'sort'"):
        profiling.benchmark("sort")  # type: ignore[arg-type]


# --- NVTX and imports -----------------------------------------------------------------


def test_nvtx_is_resolved_once_and_optional() -> None:
    with profiling.timed_region("first"):
        pass
    hooks = _nvtx._nvtx_hooks[False]
    try:
        import nvtx  # noqa: F401
    except ImportError:
        assert hooks is None
    else:  # pragma: no cover - only where the nvtx package is installed
        assert hooks is not None
    with profiling.timed_region("second"):
        pass
    assert _nvtx._nvtx_hooks[False] is hooks


def test_numpy_path_never_imports_cupy() -> None:
    code = textwrap.dedent(
        """
        import sys, time
        import cunumpy.profiling as profiling
        with profiling.timed_region("region") as region:
            time.sleep(0.001)
        profiling.timed_region("decorated")(time.sleep)(0.001)
        profiling.benchmark(time.sleep, 0.0, n_repeat=3)
        profiling.report()
        assert region.device_time is None
        assert "cupy" not in sys.modules, sorted(m for m in sys.modules if "cupy" in m)
        print("ok")
        """
    )
    env = {"CUNUMPY_BACKEND": "numpy", "PATH": "", "PYTHONPATH": ":".join(sys.path)}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "ok"


# --- GPU ------------------------------------------------------------------------------


@pytest.fixture
def spin() -> Iterator[Any]:
    """Launch a one-thread kernel that runs for at least ``seconds`` on the GPU."""
    import cupy

    kernel = cupy.RawKernel(SPIN, SPIN_NAME)  # waits on the global timer: any clock speed

    def launch(seconds: float) -> None:
        kernel((1,), (1,), (np.uint64(int(seconds * 1e9)),))

    launch(1e-6)  # compile and load before any timing
    cupy.cuda.Device().synchronize()
    with cunumpy.use_backend("cupy"):
        yield launch
    cupy.cuda.Device().synchronize()


@pytest.mark.gpu
def test_gpu_region_measures_the_kernel_not_the_launch(spin: Any) -> None:
    t0 = time.perf_counter()
    spin(NAP)
    naive = time.perf_counter() - t0  # only the launch: the kernel is still running
    with profiling.timed_region("kernel") as region:
        spin(NAP)
    assert naive < 0.01
    assert region.device_time is not None
    assert LOW <= region.device_time <= HIGH
    assert LOW <= region.host_time <= HIGH  # type: ignore[operator]
    assert region.elapsed == region.device_time
    assert region.synced is True  # sync=True: the host waited for the kernel
    recorded = profiling.report(file=io.StringIO())["kernel"]
    assert recorded.count == 1
    assert recorded.total == region.device_time  # the GPU's time, not the host's


@pytest.mark.gpu
def test_gpu_region_closes_on_its_own_gpu_when_the_block_switches(spin: Any) -> None:
    cupy = pytest.importorskip("cupy")
    if (count := cupy.cuda.runtime.getDeviceCount()) < 2:
        pytest.skip(f"needs two GPUs; {count} visible")
    first = cupy.cuda.runtime.getDevice()
    with profiling.timed_region("switch") as region:
        spin(NAP)
        cupy.cuda.Device(1 if first == 0 else 0).use()  # leaves another GPU current
    cupy.cuda.Device(first).use()
    assert region.device_time is not None
    assert LOW <= region.device_time <= HIGH


@pytest.mark.gpu
def test_gpu_region_without_sync_resolves_when_read(spin: Any) -> None:
    with profiling.timed_region("async", sync=False) as region:
        spin(NAP)
    assert region.host_time is not None
    assert region.host_time < 0.01  # nothing waited
    assert region.synced is False
    assert LOW <= region.elapsed <= HIGH
    assert LOW <= profiling.report(file=io.StringIO())["async"].total <= HIGH


@pytest.mark.gpu
def test_gpu_region_times_the_current_non_default_stream(spin: Any) -> None:
    import cupy

    other = cupy.cuda.Stream(non_blocking=True)
    with other:
        spin(6 * NAP)  # long work elsewhere, which the region must not count
    with cupy.cuda.Stream(non_blocking=True), profiling.timed_region("on-stream") as region:
        spin(NAP)
    assert LOW <= region.elapsed < 4 * NAP
    assert LOW <= region.host_time < 4 * NAP  # type: ignore[operator]
    other.synchronize()


@pytest.mark.gpu
def test_gpu_benchmark_reports_device_times(spin: Any) -> None:
    result = profiling.benchmark(spin, 0.005, n_repeat=5, n_warmup=1)
    assert result.device_times is not None
    assert result.device_times.shape == (5,)
    assert np.all(result.device_times >= 0.0045)
    assert np.all(result.host_times < 0.004)  # launches only
    assert result.times is result.device_times
    assert " | device " in str(result)
