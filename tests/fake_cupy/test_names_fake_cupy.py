"""The top level's names outside cunumpy's own on the fake CuPy: the library's objects as
globals on one backend, stand-ins that follow use_backend blocks, threads and tasks
(fake CuPy, not a GPU check; tests/test_superset.py has the GPU test)."""

from __future__ import annotations

import asyncio
import gc
import threading

import cupy
import numpy as np
import pytest

import cunumpy as xp
from cunumpy._backend_choice import _landscape


def test_set_backend_rebinds_the_names_to_cupys_objects() -> None:
    gc.collect()  # no cupy block left alive by an earlier test
    assert vars(xp)["pad"] is np.pad
    xp.set_backend("cupy")
    assert vars(xp)["pad"] is cupy.pad and vars(xp)["ndarray"] is cupy.ndarray
    assert vars(xp.linalg)["norm"] is cupy.linalg.norm and xp.fft.fft2 is cupy.fft.fft2
    assert xp.cupy_backend is True
    assert isinstance(xp.pad(xp.ones(2), 1), cupy.ndarray)
    xp.set_backend("numpy")
    assert vars(xp)["pad"] is np.pad and vars(xp)["ndarray"] is np.ndarray


def test_a_cupy_block_follows_its_context_and_ends_on_numpys_objects() -> None:
    with xp.use_backend("cupy"):
        assert isinstance(xp.pad(xp.ones(2), 1), cupy.ndarray)
        assert isinstance(xp.einsum("i,i->", xp.ones(2), xp.ones(2)), cupy.ndarray)
        assert xp.ndarray is cupy.ndarray and xp.float16 is np.float16
        assert isinstance(xp.random.rand(2), cupy.ndarray)
        assert isinstance(xp.linalg.norm(xp.ones(3)), cupy.ndarray)
        assert isinstance(xp.fft.fft2(xp.ones((2, 2))), cupy.ndarray)
        with xp.use_backend("numpy"):
            assert isinstance(xp.pad(np.ones(2), 1), np.ndarray)
            assert xp.ndarray is np.ndarray
    assert xp.pad is np.pad and xp.linalg.norm is np.linalg.norm


def test_a_numpy_block_inside_a_cupy_default() -> None:
    xp.set_backend("cupy")
    with xp.use_backend("numpy"):
        assert isinstance(xp.pad(np.ones(2), 1), np.ndarray)
        assert isinstance(xp.fmax.reduce(np.ones(3)), np.floating)
    assert xp.pad is cupy.pad


def test_a_thread_sees_numpy_while_the_main_thread_is_in_a_cupy_block() -> None:
    seen: list[object] = []
    with xp.use_backend("cupy"):
        thread = threading.Thread(target=lambda: seen.append(xp.pad(np.ones(1), 1)))
        thread.start()
        thread.join(30)
        assert isinstance(xp.pad(xp.ones(1), 1), cupy.ndarray)
    assert isinstance(seen[0], np.ndarray)


def test_a_task_outliving_its_cupy_block_stays_on_cupy() -> None:
    async def late() -> object:
        await asyncio.sleep(0.01)
        return xp.pad(xp.ones(1), 1)

    async def main() -> tuple[object, object]:
        with xp.use_backend("cupy"):
            task = asyncio.create_task(late())
        return xp.pad(np.ones(1), 1), await task

    outside, inside = asyncio.run(main())
    assert isinstance(outside, np.ndarray) and isinstance(inside, cupy.ndarray)
    gc.collect()
    assert _landscape.others() == frozenset() and xp.pad is np.pad


def test_a_name_cupy_lacks_names_cupy_on_its_backend_and_cupys_kept_names_resolve() -> None:
    with xp.use_backend("cupy"):
        with pytest.raises(AttributeError) as info:
            xp.byte_bounds
        assert str(info.value) == (
            "module 'cunumpy' has no attribute 'byte_bounds': it is neither cunumpy's nor "
            "cupy's (the current backend's)"
        )
        assert np.isnan(xp.NaN)  # CuPy 14 keeps it; NumPy 2 removed it
        x = xp.zeros(5)
        x[xp.r_[0, 2]] = 1.0  # CuPy's r_ makes a device array, which indexing takes
        assert isinstance(x, cupy.ndarray) and float(xp.sum(x)) == 2.0
