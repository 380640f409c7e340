"""Other libraries' devices in to_device and device=, and arrays cunumpy does not own."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import cunumpy

array_api_strict = pytest.importorskip("array_api_strict")  # the suite collects without it

CPU = array_api_strict.Device("CPU_DEVICE")
DEVICE1 = array_api_strict.Device("device1")


def _strict(values: Any, device: Any = CPU) -> Any:
    return array_api_strict.asarray(values, device=device)


def test_to_device_of_a_strict_array_to_its_own_device() -> None:
    x = _strict([1.0, 2.0])
    moved = cunumpy.to_device(x, x.device)
    assert isinstance(moved, array_api_strict._array_object.Array)
    assert moved.device == CPU
    assert bool(array_api_strict.all(moved == x))


def test_to_device_of_a_strict_array_to_another_of_its_devices() -> None:
    moved = cunumpy.to_device(_strict([1, 2]), DEVICE1)
    assert moved.device == DEVICE1
    back = cunumpy.to_device(moved, CPU)
    assert back.device == CPU


@pytest.mark.parametrize("cpu", ["cpu", "CPU", " cpu "])
def test_cpu_means_the_libraries_own_cpu_device(cpu: str) -> None:
    moved = cunumpy.to_device(_strict([1.0], DEVICE1), cpu)
    assert isinstance(moved, array_api_strict._array_object.Array)
    assert moved.device == CPU


def test_a_gpu_request_for_a_library_without_one_names_its_devices() -> None:
    with pytest.raises(
        ValueError,
        match=r"to_device: 'cuda:0' matches no device of array_api_strict, whose devices are \[array_api_strict\.Device\('CPU_DEVICE'\)",
    ):
        cunumpy.to_device(_strict([1.0]), "cuda:0")


def test_errors_of_the_library_name_cunumpys_function() -> None:
    # array-api-strict's own message is kept after ours, with the same exception type.
    with pytest.raises(
        ValueError,
        match=r"to_device: array_api_strict\.Array could not move the array to 'cpu': The stream argument",
    ):
        cunumpy.to_device(_strict([1.0]), "cpu", stream=1)


def test_numpy_arrays_accept_another_librarys_cpu_device() -> None:
    x = np.arange(3)
    assert cunumpy.to_device(x, CPU) is x
    assert cunumpy.to_device(x, _strict([1]).device) is x


def test_another_librarys_non_cpu_device_is_refused_for_numpy_arrays() -> None:
    with pytest.raises(
        ValueError,
        match=r"to_device: array_api_strict\.Device\('device1'\) is neither a CPU nor a CUDA GPU",
    ):
        cunumpy.to_device(np.ones(1), DEVICE1)


@pytest.mark.parametrize(
    "create",
    [
        lambda d: cunumpy.zeros(2, device=d),
        lambda d: cunumpy.ones((1, 2), device=d),
        lambda d: cunumpy.full(2, 7.0, device=d),
        lambda d: cunumpy.arange(3, device=d),
        lambda d: cunumpy.eye(2, device=d),
        lambda d: cunumpy.linspace(0.0, 1.0, 3, device=d),
        lambda d: cunumpy.asarray([1, 2], device=d),
        lambda d: cunumpy.empty_like(np.ones(2), device=d),
        lambda d: cunumpy.astype(np.ones(2), cunumpy.int8, device=d),
    ],
)
def test_creation_on_another_librarys_cpu_device_gives_numpy(create: Any) -> None:
    made = create(_strict([1.0]).device)
    assert type(made) is np.ndarray


def test_asarray_of_a_strict_array_on_the_cpu_gives_numpy() -> None:
    made = cunumpy.asarray(_strict([1.0, 2.0], DEVICE1), device="cpu")
    assert type(made) is np.ndarray
    np.testing.assert_array_equal(made, [1.0, 2.0])


def test_device_of_foreign_arrays_is_their_own() -> None:
    assert cunumpy.device(_strict([1.0], DEVICE1)) == DEVICE1
    assert cunumpy.device(np.ones(1)) == "cpu"


@pytest.mark.parametrize("bad", [None, [1.0], 3.0])
def test_device_and_to_device_refuse_non_arrays(bad: object) -> None:
    with pytest.raises(TypeError, match=r"^device: "):
        cunumpy.device(bad)
    with pytest.raises(TypeError, match=r"^to_device: "):
        cunumpy.to_device(bad, "cpu")


@pytest.mark.parametrize("device", ["cuda:\u00b2", "gpu:\u0661"])
def test_non_ascii_digits_are_not_gpu_indices(device: str) -> None:
    with pytest.raises(ValueError, match=r"to_device: unknown device"):
        cunumpy.to_device(np.ones(1), device)


def test_torch_devices() -> None:
    torch = pytest.importorskip("torch")
    x = np.arange(3)
    assert cunumpy.to_device(x, torch.device("cpu")) is x
    with pytest.raises(ValueError, match=r"neither a CPU nor a CUDA GPU"):
        cunumpy.to_device(x, torch.device("meta"))
    t = torch.arange(3)
    assert cunumpy.to_device(t, "cpu").device == torch.device("cpu")
    assert cunumpy.to_device(t, torch.device("meta")).device == torch.device("meta")


def test_jax_devices() -> None:
    jax = pytest.importorskip("jax")
    cpu = jax.devices("cpu")[0]
    x = np.arange(3)
    assert cunumpy.to_device(x, cpu) is x
    assert type(cunumpy.zeros(2, device=cpu)) is np.ndarray
    moved = cunumpy.to_device(jax.numpy.arange(3), "cpu")
    assert cunumpy.device(moved) == cpu


@pytest.mark.gpu
def test_a_strict_cpu_device_moves_cupy_arrays_to_numpy() -> None:
    import cupy

    x = cupy.arange(3)
    moved = cunumpy.to_device(x, CPU)
    assert type(moved) is np.ndarray
    np.testing.assert_array_equal(moved, [0, 1, 2])
    with pytest.raises(ValueError, match=r"matches no device of array_api_strict"):
        cunumpy.to_device(_strict([1.0]), x.device)
