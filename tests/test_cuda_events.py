"""Tests of cunumpy.cuda's streams and events you create yourself, and set_device_for_rank.

CPU tests check the host stand-ins of the NumPy backend; tests marked ``gpu`` check the
CUDA streams and events on a real GPU.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import cunumpy
import cunumpy.cuda as cuda

# --- the NumPy backend: host stand-ins ----------------------------------------------------


def test_numpy_backend_creates_host_stand_ins() -> None:
    stream, event = cuda.create_stream(), cuda.create_event(timing=True)
    assert type(stream) is cuda.HostStream
    assert type(event) is cuda.HostEvent
    assert stream.done and event.done
    assert cuda.create_stream(non_blocking=False).done


def test_host_stream_is_reusable_and_nests() -> None:
    s = cuda.create_stream()
    with s as inner, s:
        y = cunumpy.ones(3) * 2
    with cuda.stream(s) as yielded:
        z = y + 1
    assert inner is s and yielded is s
    assert z.tolist() == [3.0, 3.0, 3.0]
    s.synchronize()
    cuda.synchronize(stream=s)  # nothing to wait for


def test_record_and_wait_order_host_work() -> None:
    producer, consumer = cuda.create_stream(), cuda.create_stream()
    event = cuda.create_event()
    with cuda.stream(producer):
        data = cunumpy.arange(4.0)
        assert cuda.record_event(event, stream=producer) is event
    cuda.wait_event(event, stream=consumer)
    with cuda.stream(consumer):
        total = cunumpy.sum(data)
    assert float(total) == 6.0
    fresh = cuda.record_event()
    assert type(fresh) is cuda.HostEvent
    assert type(cuda.record_event(stream=producer)) is cuda.HostEvent
    cuda.wait_event(fresh)
    assert producer.record().done
    producer.wait_event(fresh)


@pytest.mark.parametrize(
    ("call", "pattern"),
    [
        (lambda: cuda.record_event("e"), r"record_event: `event` must be an event"),
        (lambda: cuda.wait_event(None), r"wait_event: `event` must be an event"),
        (lambda: cuda.record_event(stream=7), r"record_event: `stream` must be a stream"),
        (lambda: cuda.wait_event(cuda.HostEvent(), stream="s"), r"`stream` must be a stream"),
        (lambda: cuda.HostEvent().record(object()), r"HostEvent\.record: a host event"),
        (lambda: cuda.HostStream().wait_event(object()), r"HostStream\.wait_event: `event`"),
        (lambda: cuda.HostStream().record(3), r"HostStream\.record: `event` must be"),
        (lambda: cuda.create_stream(non_blocking=1), r"create_stream: `non_blocking` must"),
        (lambda: cuda.create_event(timing="yes"), r"create_event: `timing` must be a bool"),
    ],
)
def test_wrong_objects_are_type_errors(call: Any, pattern: str) -> None:
    with pytest.raises(TypeError, match=pattern):
        call()


def test_the_stand_ins_do_not_import_cupy() -> None:
    code = """
        import sys
        import cunumpy.cuda as cuda
        s, e = cuda.create_stream(), cuda.create_event()
        with cuda.stream(s):
            cuda.wait_event(cuda.record_event(e, stream=s), stream=cuda.create_stream())
        assert cuda.set_device_for_rank(5, devices_per_node=2) == 1
        assert "cupy" not in sys.modules, "imported cupy"
    """
    result = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr


# --- set_device_for_rank ------------------------------------------------------------------


@pytest.mark.parametrize(("rank", "per_node", "expected"), [(0, 4, 0), (3, 4, 3), (6, 4, 2)])
def test_set_device_for_rank_is_round_robin(rank: int, per_node: int, expected: int) -> None:
    with cunumpy.use_backend("numpy"):
        assert cuda.set_device_for_rank(rank, devices_per_node=per_node) == expected


def test_set_device_for_rank_without_devices_is_zero(monkeypatch: pytest.MonkeyPatch) -> None:
    assert cuda.set_device_for_rank(5, devices_per_node=0) == 0
    monkeypatch.setattr("cunumpy.cuda._device.device_count", lambda: 0)
    assert cuda.set_device_for_rank(9) == 0


@pytest.mark.parametrize(
    ("args", "error", "pattern"),
    [
        ((1.0,), TypeError, r"`rank` must be an int >= 0, not 1\.0"),
        ((True,), TypeError, r"`rank` must be an int >= 0, not True"),
        ((-1,), ValueError, r"`rank` must be an int >= 0, not -1"),
        ((0, "4"), TypeError, r"`devices_per_node` must be an int >= 0, not '4'"),
        ((0, -2), ValueError, r"`devices_per_node` must be an int >= 0, not -2"),
    ],
)
def test_set_device_for_rank_rejects_bad_arguments(
    args: tuple[Any, ...], error: type[Exception], pattern: str
) -> None:
    with pytest.raises(error, match=rf"^set_device_for_rank: {pattern}"):
        cuda.set_device_for_rank(*args)


# --- the CuPy backend ---------------------------------------------------------------------


@pytest.fixture
def on_cupy() -> Iterator[Any]:
    import cupy

    previous = cupy.cuda.runtime.getDevice()
    with cunumpy.use_backend("cupy"):
        yield cupy
    cupy.cuda.runtime.setDevice(previous)


@pytest.mark.gpu
def test_gpu_create_gives_cuda_stream_and_event(on_cupy: Any) -> None:
    stream = cuda.create_stream()
    event = cuda.create_event()
    assert isinstance(stream, on_cupy.cuda.Stream)
    assert isinstance(event, on_cupy.cuda.Event)
    assert stream.device_id == on_cupy.cuda.runtime.getDevice()
    timed = cuda.create_event(timing=True)
    start = cuda.record_event(timed, stream=stream)
    end = cuda.record_event(cuda.create_event(timing=True), stream=stream)
    end.synchronize()
    assert on_cupy.cuda.get_elapsed_time(start, end) >= 0.0
    with pytest.raises(ValueError, match="host stand-in"), cuda.stream(cuda.HostStream()):
        pass
    with pytest.raises(TypeError, match="cannot mix a HostEvent with a Stream"):
        cuda.wait_event(cuda.HostEvent(), stream=stream)


@pytest.mark.gpu
def test_gpu_wait_event_orders_a_consumer_after_a_producer(on_cupy: Any) -> None:
    from gpu_kernels import SPIN, SPIN_NAME

    spin = on_cupy.RawKernel(SPIN, SPIN_NAME)
    producer, consumer = cuda.create_stream(), cuda.create_stream()
    data = on_cupy.zeros(1)
    with cuda.stream(producer):
        spin((1,), (1,), (np.uint64(50_000_000),))  # 50 ms of work before the write
        data += 1.0
        event = cuda.record_event(stream=producer)
    cuda.wait_event(event, stream=consumer)
    with cuda.stream(consumer):
        result = data * 2.0
    consumer.synchronize()
    assert float(result[0]) == 2.0  # the consumer saw the producer's write
    assert event.done


@pytest.mark.gpu
def test_gpu_set_device_for_rank_selects_the_gpu(on_cupy: Any) -> None:
    count = on_cupy.cuda.runtime.getDeviceCount()
    index = cuda.set_device_for_rank(count + count - 1)
    assert index == count - 1
    assert on_cupy.cuda.runtime.getDevice() == index
