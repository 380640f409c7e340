"""The stream-ordering model of docs/devices.md, rule by rule.

Each GPU test queues a long kernel (``gpu_kernels.slow_fill``: it spins for 0.2 s, then
writes a value) on a non-blocking stream and then proves that the dependent copy or read
sees that value, not the array's earlier contents. Without the rule under test the
dependent work runs while the kernel still spins and sees the old contents. Everything
runs inside an outer non-blocking stream, so no ordering comes from the legacy default
stream. The tests without the ``gpu`` marker check the NumPy-backend behaviour and the
argument checks, which need no GPU.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest
from gpu_kernels import slow_fill

import cunumpy
from cunumpy import cuda

N = 2**20  # float64 elements: 8 MiB
OLD, NEW = 0.0, 7.0


# --- without a GPU -----------------------------------------------------------------------


def test_streams_on_numpy_backend_yields_nones_and_stream_none_is_a_no_op() -> None:
    with cuda.streams(2) as branches:
        assert branches == (None, None)
        with cuda.stream(branches[0]) as s:
            assert s is None
            assert cuda.current_stream() is None


@pytest.mark.parametrize("bad", [1.0, "2", None, True])
def test_streams_rejects_a_non_int_count_with_a_type_error(bad: Any) -> None:
    with pytest.raises(TypeError, match=r"^streams: `n` must be an int"), cuda.streams(bad):
        pass


@pytest.mark.parametrize("bad", [0, -1])
def test_streams_rejects_a_count_below_one_with_a_value_error(bad: int) -> None:
    with (
        pytest.raises(ValueError, match=rf"^streams: `n` must be at least 1, not {bad}"),
        cuda.streams(bad),
    ):
        pass


# --- on a GPU ----------------------------------------------------------------------------


@pytest.fixture
def outer(cupy: Any) -> Iterator[Any]:
    """The CuPy backend, with a non-blocking stream of GPU 0 current for the test."""
    cupy.cuda.Device(0).use()
    stream = cupy.cuda.Stream(non_blocking=True)
    with cunumpy.use_backend("cupy"), stream:
        yield stream
    stream.synchronize()


@pytest.fixture
def cupy() -> Iterator[Any]:
    import cupy as cp

    previous = cp.cuda.runtime.getDevice()
    yield cp
    cp.cuda.runtime.setDevice(previous)


def _old(cupy: Any, n: int = N) -> Any:
    """A float64 array of ``OLD`` values whose writes are complete."""
    x = cupy.full(n, OLD)
    cupy.cuda.get_current_stream().synchronize()
    return x


def _cupy_namespace() -> Any:
    import cunumpy._backends.cupy as namespace

    return namespace


def _all(host: Any, value: float) -> bool:
    host = np.asarray(host)
    return bool(host.size) and bool((host == value).all())


# Rule: a copy waits for the work that produces its input (finding 1).


@pytest.mark.gpu
@pytest.mark.parametrize("form", ["Stream", "handle"])
def test_copy_to_host_on_another_stream_waits_for_the_producer(outer: Any, form: str) -> None:
    import cupy

    x = _old(cupy)
    slow_fill(x, NEW)  # queued on the outer stream
    other = cupy.cuda.Stream(non_blocking=True)
    host = cunumpy.to_device(x, "cpu", stream=other if form == "Stream" else other.ptr)
    assert isinstance(host, np.ndarray)
    assert _all(host, NEW)


@pytest.mark.gpu
def test_same_gpu_to_device_with_a_stream_makes_the_result_ready_on_it(outer: Any) -> None:
    import cupy

    x = _old(cupy)
    slow_fill(x, NEW)
    other = cupy.cuda.Stream(non_blocking=True)
    assert cunumpy.to_device(x, 0, stream=other) is x
    with other:  # work on `other` after the call sees x complete
        doubled = x * 2
    other.synchronize()
    assert _all(doubled.get(stream=other), 2 * NEW)


# Rule: a stream() block is joined into the outer stream when it ends (finding 2).

_READERS: dict[str, Callable[[Any], Any]] = {
    "to_numpy": cunumpy.to_numpy,
    "to_device(cpu)": lambda x: cunumpy.to_device(x, "cpu"),
    "cupy get()": lambda x: x.get(),
    "a kernel on the outer stream": lambda x: cunumpy.to_numpy(x + 0.0),
    "float() of a reduction": lambda x: np.full(1, float(cunumpy.max(x))),
}


@pytest.mark.gpu
@pytest.mark.parametrize("reader", list(_READERS))
def test_work_after_a_stream_block_sees_its_results(outer: Any, reader: str) -> None:
    import cupy

    x = _old(cupy)
    with cuda.stream() as branch:
        assert branch is not outer
        slow_fill(x, NEW)  # queued on the block's stream
    assert cupy.cuda.get_current_stream() is outer
    assert _all(_READERS[reader](x), NEW)


@pytest.mark.gpu
def test_a_stream_block_waits_for_the_work_queued_before_it(outer: Any) -> None:
    import cupy

    x = _old(cupy)
    slow_fill(x, NEW)  # on the outer stream
    with cuda.stream():
        y = x + 1.0  # on the block's stream: must see NEW
    assert _all(y.get(), NEW + 1.0)


@pytest.mark.gpu
def test_a_stream_block_that_raises_is_joined_too(outer: Any) -> None:
    import cupy

    x = _old(cupy)

    def fill_then_fail() -> None:
        with cuda.stream():
            slow_fill(x, NEW)
            _ = 1 / 0

    with pytest.raises(ZeroDivisionError):
        fill_then_fail()
    assert _all(cunumpy.to_numpy(x), NEW)


@pytest.mark.gpu
def test_branches_of_streams_are_joined_and_each_sees_earlier_work(outer: Any) -> None:
    import cupy

    first, second, earlier = _old(cupy), _old(cupy), _old(cupy)
    slow_fill(earlier, NEW)  # on the outer stream, before the fork
    with cuda.streams(2) as (a, b):
        assert len({a.ptr, b.ptr, outer.ptr}) == 3
        assert cupy.cuda.get_current_stream() is outer
        with cuda.stream(a):
            slow_fill(first, 1.0)
        with cuda.stream(b):
            slow_fill(second, 2.0)
            from_earlier = earlier + 0.0  # a branch starts after the fork point
    assert _all(cunumpy.to_numpy(first), 1.0)
    assert _all(cunumpy.to_numpy(second), 2.0)
    assert _all(cunumpy.to_numpy(from_earlier), NEW)


@pytest.mark.gpu
def test_timed_region_covers_a_stream_block_inside_it(outer: Any) -> None:
    import cupy

    from cunumpy import profiling

    x = _old(cupy)
    with profiling.timed_region() as region, cuda.stream():
        slow_fill(x, NEW, delay_s=0.2)
    assert region.device_time is not None
    assert region.device_time >= 0.15  # the block's 0.2 s kernel, as the GPU measured it


# Rule: the memory of a copy's source may be released when the copy returns (finding 3).


@pytest.mark.gpu
@pytest.mark.parametrize("strided", [False, True])
def test_released_source_of_a_copy_between_gpus_is_not_reused_early(
    cupy: Any, strided: bool
) -> None:
    """The source GPU's current stream waits for the copy, so a block released right after
    the call (``x``, or the contiguous temporary of a strided ``x``) is reused only then."""
    if cupy.cuda.runtime.getDeviceCount() < 2:
        pytest.skip("needs two GPUs")
    with cupy.cuda.Device(1):
        delay = cupy.cuda.Stream(non_blocking=True)
    with cupy.cuda.Device(0):
        source_stream = cupy.cuda.Stream(non_blocking=True)
    with cunumpy.use_backend("cupy"), cupy.cuda.Device(0), source_stream:
        base = cupy.full(2 * N if strided else N, NEW)
        x = base[::2] if strided else base
        source_stream.synchronize()
        pointer = base.data.ptr
        with cupy.cuda.Device(1), delay:  # GPU 0's current stream stays source_stream
            slow_fill(_old(cupy), 1.0)  # delays the copy queued next on GPU 1
            copied = cunumpy.to_device(x, 1)
        del x, base
        reuse = cupy.full(N, -1.0)  # on source_stream: gets a released block at once
        if not strided:
            assert reuse.data.ptr == pointer, "the pool did not reuse the released block"
    with cupy.cuda.Device(1):
        assert _all(copied.get(stream=delay), NEW)


# Rule: a copy from host memory returns when the buffer may be refilled (finding 4).

_UPLOADS: dict[str, Callable[[Any], Any]] = {
    "to_device": lambda host: cunumpy.to_device(host, 0),
    "to_cupy": cunumpy.to_cupy,
    "asarray(device=0)": lambda host: cunumpy.asarray(host, device=0),
    "the CuPy namespace's asarray": lambda host: _cupy_namespace().asarray(host),
    "from_dlpack(device=0)": lambda host: cunumpy.from_dlpack(host, device=0),
}


@pytest.mark.gpu
@pytest.mark.parametrize("upload", list(_UPLOADS))
@pytest.mark.parametrize("memory", ["pinned", "pageable"])
def test_refilling_the_host_buffer_after_an_upload_does_not_change_the_copy(
    outer: Any, upload: str, memory: str
) -> None:
    import cupy

    host = np.full(N, NEW)
    if memory == "pinned":
        host = cuda.pin_memory(host)
    slow_fill(_old(cupy), 0.0)  # the copy is queued behind 0.2 s of work on this stream
    on_gpu = _UPLOADS[upload](host)
    host[...] = -1.0  # refill, as double buffering does
    assert isinstance(on_gpu, cupy.ndarray)
    assert _all(on_gpu.get(), NEW)


@pytest.mark.gpu
def test_refilling_a_pinned_buffer_after_an_upload_on_a_given_stream(outer: Any) -> None:
    import cupy

    host = cuda.pin_memory(np.full(N, NEW))
    other = cupy.cuda.Stream(non_blocking=True)
    with other:
        slow_fill(_old(cupy), 0.0)
    on_gpu = cunumpy.to_device(host, 0, stream=other)
    host[...] = -1.0
    other.synchronize()
    assert _all(on_gpu.get(stream=other), NEW)


# Rule: stream() blocks take their streams from a per-thread pool (finding 6).


@pytest.mark.gpu
def test_stream_blocks_reuse_one_stream_and_its_cached_memory(outer: Any) -> None:
    import cupy

    nbytes = 4 * 2**20
    with cuda.stream():  # the pool's stream and its cache exist from here on
        warm = cupy.empty(nbytes, dtype=cupy.uint8)
        del warm
    held = cuda.memory_stats().held_bytes
    seen = []
    for _ in range(20):
        with cuda.stream() as s:
            seen.append(s)  # kept alive: a new stream each time would be a new object
            block = cupy.ones(nbytes, dtype=cupy.uint8)
            del block
    assert all(s is seen[0] for s in seen)
    assert seen[0] is not outer
    assert cuda.memory_stats().held_bytes - held <= nbytes  # not 20 times the block
    with cuda.stream() as s1, cuda.stream() as s2:
        assert s1 is not s2  # an open block's stream is not handed out again
    with cuda.streams(3) as branches:
        assert len({id(b) for b in branches}) == 3
        assert all(b.ptr != outer.ptr for b in branches)


@pytest.mark.gpu
def test_each_thread_has_its_own_stream_pool(outer: Any) -> None:
    import cupy

    with cuda.stream() as mine:
        pass
    found: list[Any] = []

    def work() -> None:
        cupy.cuda.Device(0).use()
        with cunumpy.use_backend("cupy"), cuda.stream() as theirs:
            found.append(theirs)

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    assert len(found) == 1
    assert found[0] is not mine
    with cuda.stream() as again:
        assert again is mine


# Rule 7: an array used inside a stream block stays alive until the block's stream has
# run (issue 50). CuPy's pool hands a freed block to the next allocation on the stream
# that allocated it at once; here that stream (the outer one) is not ordered after `side`.


@pytest.mark.gpu
def test_an_array_read_in_a_block_on_a_user_stream_is_not_reused_under_it(outer: Any) -> None:
    import cupy

    x = _old(cupy)  # OLD everywhere, allocated on the outer stream
    busy = cupy.empty(N)
    side = cupy.cuda.Stream(non_blocking=True)
    with cuda.stream(side):  # a stream of your own: nothing orders it with the outer one
        slow_fill(busy, NEW)  # `side` is busy for 0.2 s
        total = cunumpy.sum(x)  # queued after it: reads x 0.2 s from now
    del x
    reused = cupy.full(N, NEW)  # on the outer stream: x's memory, if it was let go
    side.synchronize()
    assert float(total.get(stream=side)) == OLD * N
    assert _all(reused, NEW)
