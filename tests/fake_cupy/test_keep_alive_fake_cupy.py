"""Issue 50, "nothing freed under a running stream" (fake CuPy, poisoned pool).

The fake CuPy's pool (``cunumpy._emulation._fake._pool``) reuses a block freed while
another stream has used it and not finished at once, poisoned (NaN for floats): a missing
keep-alive gives wrong values here for certain, where a GPU gives them sometimes. Each
test checks the right values with cunumpy's keep-alive, and the detector itself by
switching the keep-alive off and seeing the poison. Fake CuPy, never a GPU.
"""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator
from typing import Any

import cupy
import numpy as np
import pytest

import cunumpy as xp
import cunumpy.cuda as cuda
from cunumpy._emulation._fake import _pool
from cunumpy._placement import _keep_alive


@pytest.fixture(autouse=True)
def clean_pool() -> Iterator[None]:
    cuda.synchronize()
    _pool.reset()
    yield
    cuda.synchronize()
    _pool.reset()


@pytest.fixture
def no_keep_alive(monkeypatch: Any) -> None:
    """The keep-alive of stream blocks removed: the block's arrays are dropped at its end."""

    close_block = _keep_alive.close_block

    def close_without_keeping(seen: dict[int, Any], stream: Any, device_index: int) -> None:
        seen.clear()
        close_block(seen, stream, device_index)

    monkeypatch.setattr("cunumpy.cuda._streams.close_block", close_without_keeping)


def _read_in_a_branch_and_drop() -> Any:
    """An array of the outer stream, read in a stream() block, dropped right after it."""
    field = xp.asarray(np.arange(4.0), device=0)
    with cuda.stream():
        total = xp.sum(xp.multiply(field, 2))
    del field
    gc.collect()
    xp.asarray(np.ones(4), device=0)  # the next allocation reuses the freed block
    return total


def test_an_array_read_in_a_stream_block_lives_until_the_block_has_run_fake_cupy() -> None:
    total = _read_in_a_branch_and_drop()
    assert float(total) == 12.0
    assert not _pool.poisoned


def test_the_poisoned_pool_catches_a_removed_keep_alive_fake_cupy(no_keep_alive: None) -> None:
    total = _read_in_a_branch_and_drop()
    assert np.isnan(float(total))
    assert [kind for _, kind in _pool.poisoned] == ["read"]


def _double_buffering() -> list[float]:
    """The docs' double buffering, with arrays on the GPU made on any backend."""
    batches = [np.full(4, float(i)) for i in range(4)]
    current = xp.asarray(batches[0], device=0)
    totals = []
    for following in [*batches[1:], None]:
        with cuda.streams(2) as (compute, copy):
            with cuda.stream(compute):
                totals.append(xp.sum(xp.multiply(current, 2)))
            if following is not None:
                with cuda.stream(copy):
                    current = xp.asarray(following, device=0)
    return [float(t) for t in totals]


def test_double_buffering_with_streams_is_right_fake_cupy() -> None:
    assert _double_buffering() == [0.0, 8.0, 16.0, 24.0]
    assert not _pool.poisoned


def test_double_buffering_without_the_keep_alive_reads_freed_memory_fake_cupy(
    no_keep_alive: None,
) -> None:
    totals = _double_buffering()
    assert any(np.isnan(t) for t in totals)
    assert _pool.poisoned


def test_what_cunumpy_does_not_see_is_not_kept_fake_cupy() -> None:
    """CuPy's own operators bypass cunumpy: documented, and the fake shows it."""
    field = xp.asarray(np.arange(4.0), device=0)
    with cuda.stream():
        total = (field * 2).sum()  # CuPy's methods: cunumpy never sees `field`
    del field
    gc.collect()
    assert np.isnan(float(total))


def test_the_arrays_of_a_block_are_released_once_its_stream_has_run_fake_cupy() -> None:
    field = xp.asarray(np.arange(4.0), device=0)
    alive = weakref.ref(field)
    with cuda.stream():
        xp.sum(field)
    del field
    gc.collect()
    assert alive() is not None and _keep_alive.retained_arrays() >= 1
    cuda.synchronize()
    gc.collect()
    assert alive() is None and _keep_alive.retained_arrays() == 0


def test_a_dropped_host_copy_keeps_its_buffers_until_the_copy_has_run_fake_cupy() -> None:
    x = xp.asarray(np.arange(5.0), device=0)
    pending = xp.to_host_async(x)
    snapshot, host = weakref.ref(pending._source), weakref.ref(pending._host)
    del pending
    gc.collect()
    assert snapshot() is not None and host() is not None  # the copy is still in flight
    cuda.synchronize()
    gc.collect()
    assert snapshot() is None and host() is None


def test_kernel_inputs_are_released_when_their_stream_passes_the_launch_fake_cupy() -> None:
    from cunumpy.kernels._call_device import on_gpu

    side = cupy.cuda.Stream(non_blocking=True)
    x = xp.asarray(np.arange(3.0), device=0)
    alive = weakref.ref(x)
    with on_gpu(0, side, "test", (x,)):
        pass  # the launch would be queued here
    del x
    gc.collect()
    assert alive() is not None  # the kernel may still run on `side`
    cuda.synchronize(stream=side)  # the host knows `side` has passed the launch
    gc.collect()
    assert alive() is None  # released then, not at the next launch


def test_the_fake_stream_model_fake_cupy() -> None:
    """The fake's events complete when the host waits for their stream, not before."""
    side = cupy.cuda.Stream(non_blocking=True)
    with side:
        y = cupy.arange(3.0) + 1
    event = side.record()
    assert not event.done and not side.done
    event.synchronize()
    assert event.done and side.done
    assert y.get().tolist() == [1.0, 2.0, 3.0]


def test_numpys_keywords_such_as_out_are_kept_too_fake_cupy() -> None:
    """NumPy's call through cunumpy (``out=``): the written array lives until the block has run."""
    field = xp.asarray(np.arange(4.0), device=0)
    out = xp.asarray(np.zeros(4), device=0)
    written = weakref.ref(out)
    with cuda.stream():
        xp.multiply(field, 2, out=out)
    del out
    gc.collect()
    assert written() is not None
    cuda.synchronize()
    gc.collect()
    assert written() is None
