"""NumPy's calls on the CuPy backend (fake CuPy, not a GPU check): the fake CuPy's answer.

Each idiom of ``tests/numpy_idioms.py`` runs with ``cunumpy`` inside
``use_backend("cupy")`` and with the fake ``cupy`` module itself: the same type, dtype,
shape and value, or the same class of error. Creation follows the backend: host data and
NumPy arrays given to ``asarray`` land on the (fake) GPU, and the copy is counted.
"""

from __future__ import annotations

import cupy
import numpy as np
import pytest
from numpy_idioms import (
    IDIOMS,
    NOT_ON_CUPY,
    NUMPY_ON_CUPY,
    assert_same_error,
    compare,
    outcome,
    public_class,
)

import cunumpy as xp
from cunumpy import profiling


@pytest.mark.parametrize("name", [name for name in IDIOMS if name not in NOT_ON_CUPY])
def test_numpy_idiom_gives_the_fake_cupys_answer(name: str) -> None:
    idiom = IDIOMS[name]
    kind, reference = outcome(idiom, np if name in NUMPY_ON_CUPY else cupy)
    with xp.use_backend("cupy"):
        if kind == "value":
            compare(idiom(xp), reference)
            return
        with pytest.raises(public_class(reference)) as info:
            idiom(xp)
    assert_same_error(name, info.value, reference)


def test_asarray_of_a_host_array_lands_on_the_current_backend_fake_cupy() -> None:
    host = np.arange(4.0)
    with xp.use_backend("cupy"), profiling.count_transfers() as counter:
        signal = xp.asarray(host)
        listed = xp.asarray([1.0, 2.0])
    assert isinstance(signal, cupy.ndarray)
    assert isinstance(listed, cupy.ndarray)
    np.testing.assert_array_equal(xp.to_numpy(signal), host)
    assert counter.to_device == 2
    assert isinstance(xp.asarray(host), np.ndarray)  # back on NumPy: nothing moves
    assert xp.asarray(host) is host


def test_asarray_of_a_cupy_array_on_the_numpy_backend_stays_on_the_gpu_fake_cupy() -> None:
    # the standard's rule (issue 50): without device=, an array stays where it lives
    device_array = xp.to_cupy(np.arange(3.0))
    with profiling.count_transfers() as counter:
        same = xp.asarray(device_array)
        copied = xp.asarray(device_array, copy=True)
    assert same is device_array
    assert type(copied) is cupy.ndarray and copied is not device_array
    assert counter.to_host == 0
    assert type(xp.asarray(device_array, device="cpu")) is np.ndarray  # asked for: moved
    with xp.use_backend("cupy"):
        assert xp.asarray(device_array) is device_array


def test_asarray_copy_false_across_backends_is_a_value_error_fake_cupy() -> None:
    with xp.use_backend("cupy"), pytest.raises(ValueError, match="asarray: copy=False"):
        xp.asarray(np.arange(3.0), copy=False)


def test_device_still_decides_where_asarray_creates_fake_cupy() -> None:
    with xp.use_backend("cupy"):
        assert type(xp.asarray(np.arange(3.0), device="cpu")) is np.ndarray
        assert type(xp.asarray([1, 2], dtype=np.float16, device="cpu")) is np.ndarray


def test_numpy_calls_compute_where_the_arrays_live_fake_cupy() -> None:
    device_array = xp.to_cupy(np.arange(6.0).reshape(2, 3))
    assert isinstance(xp.mean(device_array, 1), cupy.ndarray)  # on the NumPy backend
    with xp.use_backend("cupy"):
        assert type(xp.mean(np.ones((2, 3)), 1)) is np.ndarray
        with profiling.count_transfers() as counter:
            result = xp.maximum([1, 5], 3)  # the list is copied to the device, counted
    assert isinstance(result, cupy.ndarray)
    assert counter.to_device == 1


@pytest.mark.parametrize("name", ["array", "asanyarray", "ascontiguousarray"])
def test_numpys_conversions_create_on_the_current_backend_counted_fake_cupy(name: str) -> None:
    host = np.arange(4.0)
    convert = getattr(xp, name)
    with xp.use_backend("cupy"), profiling.count_transfers() as counter:
        from_host = convert(host)
        from_list = convert([1.0, 2.0], dtype=np.float32)
    assert isinstance(from_host, cupy.ndarray)
    assert isinstance(from_list, cupy.ndarray)
    assert from_list.dtype == np.float32
    assert counter.to_device == 2
    with profiling.count_transfers() as counter:
        stays = convert(from_host)  # a GPU array stays where it lives (issue 50)
    assert type(stays) is cupy.ndarray
    np.testing.assert_array_equal(xp.to_numpy(stays), host)
    assert counter.to_host == 0


def test_numpys_call_of_asarray_creates_on_the_current_backend_fake_cupy() -> None:
    with xp.use_backend("cupy"), profiling.count_transfers() as counter:
        result = xp.asarray(np.arange(3), dtype="float32")  # NumPy's dtype spelling
    assert isinstance(result, cupy.ndarray)
    assert result.dtype == np.float32
    assert counter.to_device == 1
