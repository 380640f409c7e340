"""A subset of the CuPy backend's tests on the fake CuPy: compute follows data, explicit
copies only (fake CuPy, not a GPU check; the GPU run is tests/test_cupy_backend.py)."""

from __future__ import annotations

import cupy
import numpy as np
import pytest

import cunumpy as xp


def test_creation_follows_the_backend_and_the_device_request() -> None:
    with xp.use_backend("cupy"):
        a = xp.asarray([1.0, 2.0, 3.0])
        assert isinstance(a, cupy.ndarray)
        assert isinstance(xp.zeros(2, device="cpu"), np.ndarray)
    assert isinstance(xp.ones(2), np.ndarray)


def test_compute_follows_data_on_the_fake_cupy() -> None:
    a = xp.to_cupy(np.arange(4.0))
    assert isinstance(xp.sum(a), cupy.ndarray)
    assert float(xp.sum(a)) == 6.0
    assert isinstance(xp.sqrt(a), cupy.ndarray)
    assert isinstance(
        xp.matmul(xp.reshape(a, (2, 2)), xp.ones(2, device=xp.device(a))), cupy.ndarray
    )
    np.testing.assert_array_equal(xp.to_numpy(xp.sort(xp.flip(a))), [0.0, 1.0, 2.0, 3.0])


def test_mixing_numpy_and_cupy_arrays_raises() -> None:
    with pytest.raises(TypeError):
        xp.add(xp.to_cupy(np.ones(2)), np.ones(2))


def test_to_numpy_and_to_device_copy_explicitly() -> None:
    a = xp.to_cupy([1.0, 2.0])
    host = xp.to_numpy(a)
    assert isinstance(host, np.ndarray)
    np.testing.assert_array_equal(host, [1.0, 2.0])
    back = xp.to_device(host, xp.device(a))
    assert isinstance(back, cupy.ndarray)


def test_the_unique_functions_return_the_top_level_types_on_the_fake_cupy() -> None:
    x = xp.to_cupy(np.asarray([3, 1, 3]))
    assert type(xp.unique_all(x)) is xp.UniqueAllResult
    assert type(xp.unique_counts(x)) is xp.UniqueCountsResult
    assert type(xp.unique_inverse(x)) is xp.UniqueInverseResult
    assert xp.to_numpy(xp.unique_counts(x).counts).tolist() == [1, 2]


def test_set_device_is_a_no_op_on_numpy_and_checked_on_the_cupy_backend_fake_cupy() -> None:
    # the fake CuPy has one GPU, as a one-GPU machine
    with xp.use_backend("numpy"):
        assert xp.cuda.set_device(3) is None
    assert cupy.cuda.runtime.getDevice() == 0
    with xp.use_backend("cupy"):
        xp.cuda.set_device(0)
        assert xp.cuda.current_device() == 0
        with pytest.raises(ValueError, match=r"^set_device: GPU index 3 is out of range; 1 GPU"):
            xp.cuda.set_device(3)
        with pytest.raises(ValueError, match=r"^device: GPU index 3 is out of range"):
            xp.cuda.device(3).__enter__()
        with pytest.raises(ValueError, match=r"^zeros: GPU index 3 is out of range"):
            xp.zeros(2, device=3)


def test_copy_false_of_host_data_raises_on_the_cupy_backend_fake_cupy() -> None:
    # NumPy's answer and the standard's: the data must be copied to the GPU (CuPy 14.2
    # itself copies silently; cunumpy used to copy first and honour copy=False on the copy)
    calls = [
        ("array", lambda: xp.array([1.0, 2.0], copy=False)),
        ("array", lambda: xp.array(np.ones(2), copy=False)),
        ("asanyarray", lambda: xp.asanyarray([1, 2], copy=False)),
        ("asarray", lambda: xp.asarray([1, 2], copy=False, order="C")),
        ("asarray", lambda: xp.asarray(np.ones(2), copy=False)),
    ]
    with xp.use_backend("cupy"):
        for func, call in calls:
            with pytest.raises(ValueError, match=rf"^{func}: copy=False .*unable to avoid copy"):
                call()
        with pytest.raises(ValueError, match=r"^asarray: copy=False cannot be honoured for a list"):
            xp.asarray([1, 2], copy=False)
        on_gpu = xp.asarray([1.0, 2.0])
        assert xp.array(on_gpu, copy=False) is on_gpu  # no copy needed: allowed
        assert isinstance(xp.array([1, 2], copy=None), cupy.ndarray)
    # the other way, a GPU array on the NumPy backend, stays where it lives (issue 50)
    assert xp.array(on_gpu, copy=False) is on_gpu
