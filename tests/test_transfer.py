"""device, to_device, to_numpy, to_cupy, and device= on creation functions (CPU side)."""

from __future__ import annotations

import numpy as np
import pytest

import cunumpy


def _strict() -> object:
    """array-api-strict, or a skip: the suite collects without it (as on the GPU machine)."""
    return pytest.importorskip("array_api_strict")


def test_device_of_numpy_array_is_cpu() -> None:
    assert cunumpy.device(np.zeros(1)) == "cpu"
    with pytest.raises(TypeError, match=r"device: `x` must be an array, not list \[1\]"):
        cunumpy.device([1])


def test_to_device_cpu_returns_the_same_array() -> None:
    x = np.arange(3)
    assert cunumpy.to_device(x, "cpu") is x
    assert cunumpy.to_device(x, x.device) is x


def test_to_device_rejects_a_stream_it_cannot_honour() -> None:
    with pytest.raises(ValueError, match=r"to_device: `stream` 7 cannot be honoured"):
        cunumpy.to_device(np.ones(1), "cpu", stream=7)


@pytest.mark.parametrize(
    ("device", "error", "pattern"),
    [
        ("tpu", ValueError, r"to_device: unknown device 'tpu'; expected 'cpu', an int GPU index"),
        (True, TypeError, r"to_device: a device cannot be a bool \(True\)"),
        (-1, ValueError, r"to_device: GPU index -1 is negative"),
        (2.5, TypeError, r"to_device: cannot use 2\.5 \(of type float\) as a device"),
    ],
)
def test_bad_devices(device: object, error: type[Exception], pattern: str) -> None:
    with pytest.raises(error, match=pattern):
        cunumpy.to_device(np.ones(1), device)


def test_to_numpy() -> None:
    x = np.ones(2)
    assert cunumpy.to_numpy(x) is x
    np.testing.assert_array_equal(cunumpy.to_numpy(3.0), np.asarray(3.0))
    strict = _strict()
    np.testing.assert_array_equal(cunumpy.to_numpy(strict.asarray([1, 2])), [1, 2])


def test_creation_on_cpu_device_gives_numpy() -> None:
    for made in (
        cunumpy.zeros(2, device="cpu"),
        cunumpy.ones((1, 2), device=np.ones(1).device),
        cunumpy.full(2, 7, device="cpu"),
        cunumpy.arange(3, device="cpu"),
        cunumpy.eye(2, device="cpu"),
        cunumpy.linspace(0, 1, 3, device="cpu"),
        cunumpy.asarray([1, 2], device="cpu"),
        cunumpy.fft.fftfreq(4, device="cpu"),
    ):
        assert type(made) is np.ndarray


def test_asarray_copy_semantics_on_numpy() -> None:
    x = np.arange(3.0)
    assert cunumpy.asarray(x) is x
    assert cunumpy.asarray(x, copy=True) is not x
    with pytest.raises(ValueError, match="copy"):
        cunumpy.asarray(x, dtype=cunumpy.float32, copy=False)


def test_like_functions_follow_their_input() -> None:
    x = np.ones((2, 3), dtype=np.float32)
    y = cunumpy.zeros_like(x)
    assert type(y) is np.ndarray and y.shape == (2, 3) and y.dtype == np.float32
    z = cunumpy.full_like(x, 2.0, device="cpu")
    np.testing.assert_array_equal(z, np.full((2, 3), 2.0, dtype=np.float32))


def test_astype_with_device() -> None:
    x = np.arange(3)
    y = cunumpy.astype(x, cunumpy.float32, device="cpu")
    assert y.dtype == np.float32 and type(y) is np.ndarray
    assert cunumpy.astype(x, x.dtype, copy=False) is x


def test_mixed_backends_in_a_function_raise() -> None:
    strict = _strict()
    with pytest.raises(
        TypeError,
        match=r"add: Multiple namespaces for array inputs: the arrays belong to different backends",
    ):
        cunumpy.add(np.ones(1), strict.ones(1))


def test_the_mixed_backends_hint_works_as_written() -> None:
    """The message names what converts between libraries, and each call does."""
    strict = _strict()
    other = strict.asarray([1.0, 2.0])
    with pytest.raises(TypeError) as info:
        cunumpy.add(np.ones(2), other)
    message = str(info.value)
    assert 'to_numpy(x) or asarray(x, device="cpu") gives a NumPy array' in message
    assert "to_cupy(x) a CuPy array" in message
    for converted in (cunumpy.to_numpy(other), cunumpy.asarray(other, device="cpu")):
        assert type(converted) is np.ndarray
        np.testing.assert_array_equal(cunumpy.add(np.ones(2), converted), [2.0, 3.0])
    # to_device keeps an array in its own library: the message says so, not "use it".
    assert type(cunumpy.to_device(other, "cpu")) is type(other)
    assert "own library only" in message


@pytest.mark.skipif(cunumpy.cupy_available(), reason="checks the path where CuPy is not usable")
@pytest.mark.parametrize(
    "call",
    [
        lambda: cunumpy.to_cupy(np.ones(2)),
        lambda: cunumpy.to_device(np.ones(2), "cuda:0"),
        lambda: cunumpy.zeros(2, device="cuda:0"),
        lambda: cunumpy.asarray([1.0], device=0),
        lambda: cunumpy.set_backend("cupy", strict=True),
    ],
    ids=["to_cupy", "to_device", "zeros", "asarray", "set_backend"],
)
def test_gpu_requests_without_usable_cupy_raise_runtime_error(call: object) -> None:
    with pytest.raises(RuntimeError, match="the CuPy backend is not usable") as info:
        call()  # type: ignore[operator]
    assert str(cunumpy.cupy_unavailable_reason()) in str(info.value)


@pytest.mark.gpu
def test_round_trip_through_the_gpu() -> None:
    import cupy

    x = np.arange(5.0)
    on_gpu = cunumpy.to_device(x, "cuda:0")
    assert isinstance(on_gpu, cupy.ndarray) and on_gpu.device.id == 0
    assert cunumpy.to_device(on_gpu, 0) is on_gpu
    np.testing.assert_array_equal(cunumpy.to_device(on_gpu, "cpu"), x)
    np.testing.assert_array_equal(cunumpy.to_numpy(cunumpy.to_cupy(x) * 2), x * 2)
    assert cunumpy.array_namespace(on_gpu) is not cunumpy.array_namespace(x)
    with pytest.raises(TypeError, match="different backends"):
        cunumpy.add(x, on_gpu)
