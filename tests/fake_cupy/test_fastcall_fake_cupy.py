"""The compiled fast path under a CuPy backend (fake CuPy, not a GPU check): creation and
scalar calls that C answers on NumPy go to the Python function where a context's backend
is CuPy, in ``use_backend`` blocks, threads and asyncio tasks that outlive their block."""

from __future__ import annotations

import asyncio
import gc
import threading

import cupy
import numpy as np
from fast_path import require_fast_path

import cunumpy as xp
from cunumpy._calls import _fast_path

require_fast_path()


def test_the_c_path_is_in_use() -> None:
    # ones: a creation record on every supported NumPy (zeros runs in Python before 2.4)
    assert type(xp.ones).__name__ == "FastCall" and type(xp.sqrt).__name__ == "FastCall"


def test_creation_and_scalars_follow_the_block_and_arrays_follow_their_data() -> None:
    host = np.arange(3.0)
    with xp.use_backend("cupy"):
        assert _fast_path._NUMPY_EVERYWHERE == [False]
        assert isinstance(xp.zeros(3), cupy.ndarray)
        assert isinstance(xp.arange(3), cupy.ndarray)
        assert isinstance(xp.linspace(0.0, 1.0, 3), cupy.ndarray)
        moved = xp.asarray(host)
        assert isinstance(moved, cupy.ndarray) and moved is not host
        assert type(xp.sqrt(2.0)) is type(xp.sqrt.__wrapped__(2.0))
        assert not isinstance(xp.sqrt(2.0), np.generic)  # CuPy's answer, not NumPy's
        assert isinstance(xp.sqrt(host), np.ndarray)  # compute follows data
        for python_data in (xp.sum([1.0, 2.0]), xp.maximum([1.0, 5.0], 3), xp.asarray([1.0])):
            assert isinstance(python_data, cupy.ndarray)  # the block's backend computes
        assert isinstance(xp.maximum(host, 3), np.ndarray)
    del moved
    gc.collect()
    assert _fast_path._NUMPY_EVERYWHERE == [True]
    assert isinstance(xp.zeros(3), np.ndarray) and xp.asarray(host) is host
    assert isinstance(xp.sum([1.0, 2.0]), np.float64)


def test_a_thread_outside_the_block_creates_on_numpy() -> None:
    seen: list[object] = []
    with xp.use_backend("cupy"):
        worker = threading.Thread(target=lambda: seen.append(xp.zeros(2)))
        worker.start()
        worker.join()
        assert isinstance(xp.zeros(2), cupy.ndarray)
    assert isinstance(seen[0], np.ndarray)


def test_a_task_that_outlives_its_block_keeps_creating_on_cupy() -> None:
    async def main() -> tuple[object, object]:
        gate = asyncio.Event()

        async def late() -> object:
            await gate.wait()
            return xp.zeros(2)

        with xp.use_backend("cupy"):
            task = asyncio.ensure_future(late())
        outside = xp.zeros(2)
        gate.set()
        return await task, outside

    inside, outside = asyncio.run(main())
    assert isinstance(inside, cupy.ndarray)
    assert isinstance(outside, np.ndarray)
