"""Tests for transfer counting in cunumpy.profiling, and for nvtx_range.

CPU tests drive the hook (``cunumpy._placement._transfer_log.note_transfer``) directly, as the
instrumented copies do; the GPU tests check that cunumpy's own copies are counted.
"""

from __future__ import annotations

import asyncio
import sys
import threading
from typing import Any

import numpy as np
import pytest

import cunumpy
from cunumpy import profiling
from cunumpy._placement._transfer_log import note_transfer
from cunumpy.profiling import _nvtx

HERE = __file__


def _copy(kind: str = "to_host", nbytes: int | None = 8, **flags: bool) -> int:
    """Note one copy as cunumpy does; return the line it was noted from (its call site)."""
    note_transfer(kind, f"{kind} copy", nbytes=nbytes, **flags)
    return sys._getframe().f_lineno - 1


# --- count_transfers ----------------------------------------------------------------------


def test_numpy_calls_make_no_transfer() -> None:
    x = np.arange(4.0)
    with profiling.count_transfers() as counter:
        assert cunumpy.to_numpy(x) is x
        assert cunumpy.to_device(x, "cpu") is x
        cunumpy.asarray(x, device="cpu")
        # "cpu": a bare synchronize() waits for the current GPU (and counts a sync) wherever
        # CuPy is loaded and usable, as on a GPU machine, whatever the backend
        cunumpy.cuda.synchronize("cpu")
    assert counter.events == []
    assert (counter.total, counter.syncs, counter.bytes_to_host) == (0, 0, 0)


def test_an_event_names_its_call_site_outside_cunumpy() -> None:
    with profiling.count_transfers() as counter:
        line = _copy("to_host", 24)
    (event,) = counter.events
    assert event == profiling.TransferEvent("to_host", "to_host copy", f"{HERE}:{line}", 24)
    assert str(event) == f"{HERE}:{line}: to_host: to_host copy"


def test_the_counter_counts_each_kind_and_its_bytes() -> None:
    with profiling.count_transfers() as counter:
        _copy("to_host", 8)
        _copy("to_host", 16)
        _copy("to_device", 100)
        _copy("kernel_conversion", None)
        _copy("fallback", None)
        _copy("device_copy", 40)
        _copy("sync", None)
    assert (counter.to_host, counter.to_device, counter.syncs) == (2, 1, 1)
    assert (counter.kernel_conversions, counter.fallbacks, counter.device_copies) == (1, 1, 1)
    assert counter.total == 6  # every event but the sync
    assert (counter.bytes_to_host, counter.bytes_to_device) == (24, 100)
    assert counter.bytes("device_copy") == 40
    assert counter.count("sync") == 1
    assert [e.kind for e in counter.kernel_conversion_calls] == ["kernel_conversion"]
    assert repr(counter) == (
        "TransferCounter(to_host=2, to_device=1, kernel_conversion=1, fallback=1, "
        "device_copy=1, sync=1)"
    )


def test_the_report_groups_by_call_site() -> None:
    with profiling.count_transfers() as counter:
        for _ in range(3):
            line = _copy("to_host", 8)
        _copy("to_device", 4, blocking=False)
    lines = counter.report().splitlines()
    assert lines[0].startswith("4 transfer(s) through cunumpy: 3 to_host, 1 to_device, 0 ")
    assert "  to_host (3, 24 bytes):" in lines
    assert f"    {HERE}:{line}: to_host copy (x3)" in lines
    assert any(entry.endswith("to_device copy [async]") for entry in lines)


@pytest.mark.parametrize(("kind", "error"), [("to_gpu", ValueError), (3, TypeError)])
def test_unknown_kinds_are_rejected(kind: Any, error: type[Exception]) -> None:
    counter = profiling.TransferCounter()
    with pytest.raises(error, match=r"TransferCounter\.count: .*kind"):
        counter.count(kind)
    with pytest.raises(error, match=r"TransferCounter\.bytes: .*kind"):
        counter.bytes(kind)


def test_the_hook_rejects_an_unknown_kind_while_counting() -> None:
    with profiling.count_transfers(), pytest.raises(ValueError, match="'to_gpu' is not one of"):
        note_transfer("to_gpu", "x")


def test_nested_counters_each_see_the_inner_copies() -> None:
    with profiling.count_transfers() as outer:
        _copy()
        with profiling.count_transfers() as inner:
            _copy()
    assert (outer.total, inner.total) == (2, 1)


def test_into_accumulates_and_counts_once_when_reused_inside_itself() -> None:
    totals = profiling.TransferCounter()
    with profiling.count_transfers(into=totals) as counter:
        assert counter is totals
        _copy()
        with profiling.count_transfers(into=totals):
            _copy()
    with profiling.count_transfers(into=totals):
        _copy()
    assert totals.to_host == 3


def test_as_a_decorator_each_call_counts_into_the_counter() -> None:
    totals = profiling.TransferCounter()

    @profiling.count_transfers(into=totals)
    def step(n: int) -> int:
        for _ in range(n):
            _copy()
        return n

    assert step(2) + step(3) == 5
    assert totals.to_host == 5
    _copy()  # outside: not counted
    assert totals.to_host == 5
    assert step.__name__ == "step"


def test_count_transfers_rejects_a_wrong_into() -> None:
    with pytest.raises(TypeError, match=r"count_transfers: `into` must be a TransferCounter"):
        profiling.count_transfers(into=[])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="can only decorate a callable"):
        profiling.count_transfers()(3)  # type: ignore[arg-type]


def test_counters_are_local_to_their_thread() -> None:
    ready, noted = threading.Event(), threading.Event()

    def other() -> None:
        ready.wait()
        _copy()
        noted.set()

    thread = threading.Thread(target=other)
    thread.start()
    with profiling.count_transfers() as counter:
        ready.set()
        noted.wait()
    thread.join()
    assert counter.total == 0


def test_counters_are_local_to_their_asyncio_task() -> None:
    async def copying() -> None:
        _copy()

    async def main() -> tuple[int, int]:
        with profiling.count_transfers() as mine:
            with profiling.count_transfers() as inner:
                pass
            task = asyncio.get_running_loop().create_task(copying())  # inherits this context
            await task
        return mine.total, inner.total

    assert asyncio.run(main()) == (1, 0)


# --- assert_no_transfers ------------------------------------------------------------------


def test_assert_no_transfers_passes_device_copies_and_syncs() -> None:
    with profiling.assert_no_transfers() as counter:
        _copy("device_copy", 8)
        _copy("sync", None)
    assert (counter.device_copies, counter.syncs) == (1, 1)


@pytest.mark.parametrize("kind", ["to_host", "to_device", "kernel_conversion", "fallback"])
def test_assert_no_transfers_fails_with_the_report(kind: str) -> None:
    block = profiling.assert_no_transfers()
    with pytest.raises(AssertionError, match=rf"copied between host and device.*\n.*{kind}"), block:
        _copy(kind)


def test_assert_no_transfers_with_syncs_rejects_waits() -> None:
    with pytest.raises(AssertionError, match="sync"), profiling.assert_no_transfers(syncs=True):
        _copy("sync", None)
    with pytest.raises(TypeError, match=r"`syncs` must be a bool"):
        profiling.assert_no_transfers(syncs=1)  # type: ignore[arg-type]


def test_assert_no_transfers_lets_an_exception_through_unchecked() -> None:
    def copy_then_fail() -> None:
        _copy()
        raise KeyError("inside")

    with pytest.raises(KeyError, match="inside"), profiling.assert_no_transfers():
        copy_then_fail()


def test_assert_no_transfers_as_a_decorator() -> None:
    @profiling.assert_no_transfers()
    def clean(x: np.ndarray) -> np.ndarray:
        return x * 2

    @profiling.assert_no_transfers()
    def dirty() -> None:
        _copy()

    assert clean(np.ones(2)).tolist() == [2.0, 2.0]
    with pytest.raises(AssertionError, match="to_host"):
        dirty()


# --- TransferBudget -----------------------------------------------------------------------


def test_a_budget_counts_each_phase_and_its_calls() -> None:
    budget = profiling.TransferBudget()
    for _ in range(3):
        with budget.phase("step"):
            _copy("device_copy", 8)
    with budget.phase("output") as output:
        _copy("to_host", 800)
    assert budget.calls == {"step": 3, "output": 1}
    assert output is budget["output"]
    assert (budget["step"].device_copies, budget["output"].bytes_to_host) == (3, 800)
    assert budget["never"].total == 0
    budget.require("step", calls=3)
    budget.require("output", allow={"to_host": {"max_total_bytes": 800, "max_count": 1}})
    budget.check()
    assert budget.violations() == []


def test_a_budget_reports_each_broken_rule() -> None:
    budget = profiling.TransferBudget()
    with budget.phase("step"):
        line = _copy("to_host", 16)
        _copy("to_device", 8)
        _copy("to_host", None, blocking=False)
    budget.require("step", allow={"to_host": {"max_nbytes": 8, "blocking": True}}, calls=2)
    site = f"{HERE}:{line}"
    assert budget.violations() == [
        "step: 1 call(s), expected 2",
        f"step: 16 bytes > max_nbytes=8: {site}: to_host: to_host copy",
        f"step: not allowed: {site}: to_device: to_device copy",
        f"step: None bytes > max_nbytes=8: {site}: to_host: to_host copy [async]",
        f"step: blocking=False not allowed: {site}: to_host: to_host copy [async]",
    ]
    with pytest.raises(AssertionError, match=r"(?s)transfer budget is exceeded.*broken rules"):
        budget.check()


def test_nested_phases_count_in_the_innermost_and_recursion_once() -> None:
    budget = profiling.TransferBudget()

    @budget.count("solve")
    def solve(depth: int) -> None:
        _copy("to_host")
        if depth:
            solve(depth - 1)

    with budget.phase("step"):
        _copy("to_device")
        solve(2)
        _copy("to_device")
    assert budget.calls == {"step": 1, "solve": 1}
    assert (budget["step"].total, budget["solve"].total) == (2, 3)
    assert budget["step"].to_host == 0


def test_a_stopped_budget_counts_nothing_until_started() -> None:
    budget = profiling.TransferBudget(started=False)
    with budget.phase("warmup"):
        _copy()
    budget.start()
    with budget.phase("step"):
        _copy()
    budget.stop()
    with budget.phase("step"):
        _copy()
    assert budget.calls == {"step": 1}
    assert (budget["warmup"].total, budget["step"].total) == (0, 1)


@pytest.mark.parametrize(
    ("kwargs", "error", "pattern"),
    [
        ({"allow": {"to_gpu": None}}, ValueError, "unknown transfer kind 'to_gpu'"),
        ({"allow": {"to_host": {"max_bytes": 1}}}, ValueError, r"unknown limits \['max_bytes'\]"),
        ({"allow": {"to_host": {"max_count": -1}}}, ValueError, "must be an int >= 0, not -1"),
        ({"allow": {"to_host": {"max_count": 1.5}}}, TypeError, "must be an int >= 0, not 1.5"),
        ({"allow": {"to_host": {"blocking": 1}}}, TypeError, "must be a bool, not 1"),
        ({"allow": ["to_host"]}, TypeError, "`allow` must be a mapping"),
        ({"ignore": "sync"}, TypeError, "`ignore` must be a sequence of kinds"),
        ({"ignore": ["later"]}, ValueError, "unknown transfer kind 'later'"),
        ({"calls": True}, TypeError, "`calls` must be an int or None"),
    ],
)
def test_require_rejects_bad_rules(kwargs: Any, error: type[Exception], pattern: str) -> None:
    with pytest.raises(error, match=rf"TransferBudget\.require: .*{pattern}"):
        profiling.TransferBudget().require("step", **kwargs)


def test_ignored_kinds_are_not_checked_unless_allowed() -> None:
    budget = profiling.TransferBudget()
    with budget.phase("step"):
        _copy("sync", None)
        _copy("device_copy", 8)
    budget.require("step")
    assert budget.violations() == []
    budget.require("step", ignore=())
    assert len(budget.violations()) == 2
    budget.require("step", allow={"sync": {"max_count": 0}})
    assert budget.violations() == ["step: 1 sync > max_count=0"]


def test_the_budget_report_lists_the_phases() -> None:
    budget = profiling.TransferBudget()
    with budget.phase("output"):
        _copy("to_host", 8)
    report = budget.report().splitlines()
    assert report[0] == "output (1 call(s)):"
    assert report[1].startswith("  1 transfer(s) through cunumpy")


# --- nvtx_range ---------------------------------------------------------------------------


@pytest.fixture
def nvtx_calls(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, ...]]:
    """Record pushes and pops through stand-in NVTX hooks on the NumPy path."""
    calls: list[tuple[Any, ...]] = []

    def push(message: str, color: int | None = None) -> None:
        calls.append(("push", message, color))

    def pop() -> None:
        calls.append(("pop",))

    monkeypatch.setitem(_nvtx._nvtx_hooks, False, (push, pop))
    return calls


def test_nvtx_range_pushes_and_pops_around_a_block(nvtx_calls: list[tuple[Any, ...]]) -> None:
    with pytest.raises(ZeroDivisionError), profiling.nvtx_range("step", color=3):
        _ = 1 / 0
    assert nvtx_calls == [("push", "step", 3), ("pop",)]


def test_nvtx_range_decorates_and_nests(nvtx_calls: list[tuple[Any, ...]]) -> None:
    marker = profiling.nvtx_range("recurse")

    @marker
    def depth(n: int) -> int:
        return 0 if n == 0 else 1 + depth(n - 1)

    assert depth(2) == 2
    with marker, marker:
        pass
    pushes = [c for c in nvtx_calls if c[0] == "push"]
    assert len(pushes) == 5
    assert len(nvtx_calls) == 10
    assert nvtx_calls[:3] == [("push", "recurse", None)] * 3
    assert depth.__name__ == "depth"


def test_nvtx_range_is_a_no_op_without_nvtx(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(_nvtx._nvtx_hooks, False, None)
    with profiling.nvtx_range("quiet") as marker:
        pass
    assert profiling.nvtx_range("step")(lambda: 7)() == 7
    assert repr(marker) == "nvtx_range('quiet', color=None)"


@pytest.mark.parametrize(
    ("args", "error", "pattern"),
    [
        ((3,), TypeError, "`name` must be a str, not 3"),
        (("",), ValueError, "`name` must be a non-empty str"),
        (("a", "red"), TypeError, "`color` must be an int"),
        (("a", True), TypeError, "`color` must be an int"),
        (("a", -1), ValueError, "`color` must be an int >= 0"),
    ],
)
def test_nvtx_range_rejects_bad_arguments(
    args: tuple[Any, ...], error: type[Exception], pattern: str
) -> None:
    with pytest.raises(error, match=rf"^nvtx_range: {pattern}"):
        profiling.nvtx_range(*args)


def test_nvtx_range_as_a_bare_decorator_gets_a_hint() -> None:
    with pytest.raises(TypeError, match=r"decorate with @nvtx_range\('name'\)"):
        profiling.nvtx_range(print)  # type: ignore[arg-type]


# --- the copies cunumpy makes, on a GPU -------------------------------------------------


@pytest.mark.gpu
def test_gpu_conversions_are_counted_with_bytes_and_call_site() -> None:
    import cupy

    host = np.arange(1000.0)
    with profiling.count_transfers() as counter:
        device = cunumpy.to_cupy(host)
        back = cunumpy.to_numpy(device)
        moved = cunumpy.to_device(host, 0)
        again = cunumpy.to_device(moved, "cpu")
        created = cunumpy.asarray(host, device="cuda:0")
        cunumpy.to_numpy(np.ones(3))  # no copy
        scalar = cunumpy.asarray(2.5, device="cuda:0")  # a kernel argument, not a copy
    assert isinstance(device, cupy.ndarray) and np.array_equal(back, host)
    assert np.array_equal(again, host) and isinstance(created, cupy.ndarray)
    assert float(scalar) == 2.5
    assert (counter.to_device, counter.to_host) == (3, 2)
    assert (counter.bytes_to_device, counter.bytes_to_host) == (3 * 8000, 2 * 8000)
    functions = [e.description.partition("(")[0] for e in counter.events]
    assert functions == ["to_cupy", "to_numpy", "to_device", "to_device", "asarray"]
    assert all(e.where.startswith(f"{HERE}:") for e in counter.events)


@pytest.mark.gpu
def test_gpu_numpy_array_moved_by_asarray_is_counted_as_asarray() -> None:
    device = cunumpy.to_cupy(np.ones(4))
    with profiling.count_transfers() as counter:
        host = cunumpy.asarray(device, device="cpu")
    assert isinstance(host, np.ndarray)
    (event,) = counter.events
    assert (event.kind, event.nbytes) == ("to_host", 32)
    assert event.description.startswith("asarray(shape=(4,), dtype=float64)")


@pytest.mark.gpu
def test_gpu_time_step_without_copies_passes_and_sync_is_counted() -> None:
    x = cunumpy.to_cupy(np.ones(8))
    with profiling.assert_no_transfers() as counter:
        y = 2.0 * x + 1.0
        cunumpy.cuda.synchronize()
    assert counter.syncs == 1
    with pytest.raises(AssertionError, match="to_numpy"), profiling.assert_no_transfers():
        cunumpy.to_numpy(y)


@pytest.mark.gpu
def test_gpu_pinned_copy_and_dtype_conversion_are_counted() -> None:
    import cupy

    device = cupy.arange(10, dtype=cupy.float32)
    with profiling.count_transfers() as counter:
        pinned = cunumpy.cuda.pin_memory(device)
        with cunumpy.use_backend("cupy", strict=True):  # creation follows the backend
            cunumpy.asarray(device, dtype=cupy.float64)  # converted on the GPU
            cunumpy.asarray(device)  # no copy
        stays = cunumpy.asarray(device)  # on the NumPy backend too: stays on its GPU (issue 50)
    assert stays is device
    assert pinned.tolist() == list(range(10))
    assert [(e.kind, e.nbytes) for e in counter.events] == [
        ("to_host", 40),
        ("device_copy", 80),
    ]


@pytest.mark.gpu
def test_gpu_mpi_staging_is_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    import cupy

    from cunumpy import mpi
    from cunumpy.mpi._buffers import Staging

    monkeypatch.setenv(mpi.CUDA_AWARE_ENV_VAR, "0")  # stage through pinned host memory
    x = cupy.arange(16, dtype=cupy.float64)
    out = cupy.zeros(16)
    with profiling.count_transfers() as counter:
        staging = Staging.for_array(x, "allreduce")
        host = staging.send_buffer(x)
        staging.finish(host, out)
    assert not staging.direct
    assert np.array_equal(cunumpy.to_numpy(out), np.arange(16.0))
    assert [(e.kind, e.nbytes) for e in counter.events] == [
        ("sync", None),
        ("to_host", 128),
        ("to_device", 128),
    ]
    assert counter.events[1].description.startswith("mpi.allreduce(shape=(16,), dtype=float64)")


def test_moves_between_host_devices_of_another_library_are_not_transfers() -> None:
    strict = pytest.importorskip("array_api_strict")
    x = strict.asarray([1.0, 2.0])
    other = strict.Device("device1")
    with profiling.count_transfers() as counter:
        moved = cunumpy.to_device(x, other)
    assert moved.device == other
    assert counter.events == []  # both devices are host memory
