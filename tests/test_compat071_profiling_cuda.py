"""Programs written against CuNumpy 0.7.1's documented `profiling` and `cuda` API.

Each program follows 0.7.1's README, its guide for coding assistants or its docstring
examples, written with ``import cunumpy as xp``, and asserts the results 0.7.1 documents.
They run on the NumPy backend (CPU CI). The same programs printed identical results under
cunumpy and under CuNumpy 0.7.1 in two virtual environments (see the issue's note).
"""

from __future__ import annotations

import numpy as np
import pytest

import cunumpy as xp
from cunumpy.cuda._memory import loaded_cupy


@pytest.fixture(autouse=True)
def _numpy_backend(monkeypatch: pytest.MonkeyPatch) -> None:
    """The NumPy backend, with no GPU work: timed regions act on the GPU whenever CuPy has
    a CUDA context on the current GPU (issue 50), which another test or the fake CuPy may
    have made."""
    from cunumpy.profiling import _regions

    xp.set_backend("numpy")
    monkeypatch.setattr(_regions, "_loaded_cupy", lambda: None)


def test_readme_counting_a_propagator_finds_no_transfer() -> None:
    state = {"x": xp.asarray(np.linspace(0.0, 1.0, 5))}

    def propagator(dt: float) -> None:
        state["x"] = state["x"] + dt * 2.0

    with xp.profiling.count_transfers() as counter:
        propagator(0.1)
    assert counter.to_host == counter.to_device == 0, counter.report()
    assert (counter.bytes_to_host, counter.bytes_to_device, counter.total) == (0, 0, 0)
    assert np.allclose(state["x"], np.linspace(0.2, 1.2, 5))


def test_readme_timed_region_and_nvtx_range() -> None:
    device = xp.asarray(np.ones(8))
    with xp.profiling.timed_region("fft") as timing:
        transformed = xp.fft.fft(device)
    assert timing.name == "fft"
    assert timing.elapsed >= 0.0
    assert timing.synced is False  # NumPy: nothing to wait for
    assert float(transformed[0].real) == 8.0

    @xp.profiling.nvtx_range("step")
    def step(dt: float) -> float:
        return 2.0 * dt

    assert step(0.5) == 1.0
    with xp.profiling.nvtx_range("push markers"):
        x = xp.ones(3) * 2.0
    assert x.tolist() == [2.0, 2.0, 2.0]


def test_docstrings_transfer_event_and_counter() -> None:
    event = xp.profiling.TransferEvent("to_host", "x", "step.py:12", nbytes=8)
    assert str(event) == "step.py:12: to_host: x"
    counter = xp.profiling.TransferCounter()
    counter.events.append(event)
    assert (counter.to_host, counter.bytes_to_host, counter.total) == (1, 8, 1)
    assert (counter.syncs, counter.bytes("to_host")) == (0, 8)
    with xp.profiling.count_transfers() as numpy_only:
        y = xp.to_numpy(xp.ones(3))
    assert numpy_only.total == 0 and y.tolist() == [1.0, 1.0, 1.0]
    with xp.profiling.assert_no_transfers():
        y = 2.0 * xp.ones(3)
    assert y.tolist() == [2.0, 2.0, 2.0]


def test_guide_transfer_budget_per_phase() -> None:
    budget = xp.profiling.TransferBudget()
    for _ in range(3):
        with budget.phase("step"):
            x = 2.0 * xp.ones(4)
    budget.require("step", allow={"to_host": {"max_nbytes": 8}}, calls=3)
    budget.check()
    assert budget.violations() == [] and budget.calls == {"step": 3}
    assert x.tolist() == [2.0] * 4

    b = xp.profiling.TransferBudget()
    integrate = b.count("integrate")(lambda v: v + 1)
    assert integrate(1) + integrate(2) == 5
    with b.phase("output"):
        pass
    b.require("integrate", calls=2)
    assert b.violations() == []
    assert b.calls == {"integrate": 2, "output": 1}
    assert sorted(b.phases) == ["integrate", "output"]
    b.require("integrate", calls=3)
    assert b.violations() == ["integrate: 2 call(s), expected 3"]
    with pytest.raises(AssertionError):
        b.check()

    later = xp.profiling.TransferBudget(started=False)
    with later.phase("warm"):
        pass
    later.start()
    with later.phase("run"):
        pass
    assert later.calls == {"run": 1} and later.started


def test_docstring_timing() -> None:
    with xp.profiling.timed_region("solve") as timing:
        pass
    assert (timing.name, timing.synced) == ("solve", False)
    assert isinstance(timing, xp.profiling.Timing)


def test_guide_reusable_streams_and_events() -> None:
    producer, consumer = xp.cuda.create_stream(), xp.cuda.create_stream()
    event = xp.cuda.create_event()  # CPU: an already completed HostEvent
    assert isinstance(producer, xp.cuda.HostStream) and isinstance(event, xp.cuda.HostEvent)
    assert event.done and producer.done
    with xp.cuda.stream(producer):
        data = xp.ones(3) * 4
        assert xp.cuda.record_event(event, stream=producer) is event
    xp.cuda.wait_event(event, stream=consumer)
    assert data.tolist() == [4.0, 4.0, 4.0]
    fresh = xp.cuda.record_event(stream=producer)
    xp.cuda.wait_event(fresh)
    assert isinstance(fresh, xp.cuda.HostEvent) and producer.record().done
    s = xp.cuda.create_stream()
    with xp.cuda.stream(s) as selected:
        y = xp.ones(3) * 2
    s.synchronize()
    assert selected is s and y.tolist() == [2.0, 2.0, 2.0]
    with pytest.raises(TypeError):
        xp.cuda.HostEvent().record(object())
    with pytest.raises(TypeError):
        xp.cuda.HostStream().wait_event(object())


def test_readme_device_helpers_on_numpy() -> None:
    assert xp.cuda.set_device_for_rank(3, devices_per_node=4) == 3
    assert xp.cuda.set_device_for_rank(9, devices_per_node=4) == 1
    assert xp.cuda.set_device_for_rank(5, devices_per_node=0) == 0
    assert xp.cuda.device_count() >= 0
    assert xp.cuda.free_memory() is None
    assert xp.cuda.set_device(0) is None  # a no-op on the NumPy backend, GPU or not
    if loaded_cupy() is not None:  # CuPy holds work: the helpers act on the GPU (issue 50)
        assert isinstance(xp.cuda.memory_info(), tuple)
        return
    assert xp.cuda.memory_info() is None  # the seed's table, where no GPU array exists
    assert xp.cuda.current_device() == "cpu"
    with xp.cuda.stream() as s:
        pass
    assert s is None
