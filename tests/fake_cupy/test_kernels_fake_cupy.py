"""Host kernels, kernel pairs, catalogs and the CUDA C wrappers on device data, on the fake
CuPy (CUDA C emulated on the CPU; not a GPU check: see tests/test_kernels_gpu.py)."""

from __future__ import annotations

import cupy
import numpy as np
import pytest

import cunumpy as xp
from cunumpy import kernel_testing, kernels
from cunumpy._placement._transfer_log import listening

SCALE = r"""extern "C" __global__ void scale(const double* x, double a, double* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = a * x[i];
}"""


def _scale(x, a, out, n):
    out[:n] = a * x[:n]


class Particles:
    """An argument object whose attributes hold arrays."""

    def __init__(self, x: object, v: object) -> None:
        self.x = x
        self.v = v


def _events() -> tuple[list[tuple], object]:
    log: list[tuple] = []
    return log, listening(lambda kind, text, nbytes, blocking, implicit: log.append((kind, nbytes)))


def test_a_host_kernel_runs_on_cupy_data_through_counted_copies() -> None:
    kernel = kernels.PyccelKernel(_scale, outputs=(2,))
    x, out = cupy.arange(4.0), cupy.zeros(4)
    log, listen = _events()
    with listen:
        kernel(x, 2.0, out, 4)
    np.testing.assert_array_equal(out.get(), [0.0, 2.0, 4.0, 6.0])
    assert log == [("to_host", 32), ("to_host", 32), ("kernel_conversion", None), ("to_device", 32)]


def test_only_declared_outputs_are_copied_back() -> None:
    def scribble(x, out):
        x[:] = -1.0  # not an output: the device array keeps its values
        out[:] = 1.0

    x, out = cupy.zeros(2), cupy.zeros(2)
    kernels.PyccelKernel(scribble, outputs=("out",))(x, out)
    np.testing.assert_array_equal(x.get(), [0.0, 0.0])
    np.testing.assert_array_equal(out.get(), [1.0, 1.0])


def test_arrays_nested_in_containers_and_objects_are_found_and_returned_arrays_move() -> None:
    def push(state, table, dt):
        state.x += dt * state.v
        table["energy"][0] = float((state.v**2).sum())
        return [state.x.copy()]

    state = Particles(cupy.zeros(3), cupy.ones(3))
    table = {"energy": cupy.zeros(1)}
    kernel = kernels.PyccelKernel(push, object_modules=(Particles.__module__,))
    result = kernel(state, table, 0.5)
    assert isinstance(state.x, cupy.ndarray)  # the caller's object keeps its device arrays
    np.testing.assert_array_equal(state.x.get(), [0.5] * 3)
    assert float(table["energy"][0]) == 3.0
    assert isinstance(result, list) and isinstance(result[0], cupy.ndarray)


def test_a_device_array_passed_twice_is_copied_once() -> None:
    def both(a, b):
        assert a is b

    x = cupy.ones(2)
    log, listen = _events()
    with listen:
        kernels.PyccelKernel(both)(x, x)
    assert [kind for kind, _ in log].count("to_host") == 1


def test_a_pair_runs_the_cuda_kernel_on_device_data_emulated() -> None:
    pair = kernels.Kernel(_scale, kernels.CudaKernel(SCALE, "scale"))
    x, out = cupy.arange(5.0), cupy.zeros(5)
    log, listen = _events()
    with listen:
        pair(x, 3.0, out, 5, n_threads=5)
    np.testing.assert_array_equal(out.get(), 3.0 * np.arange(5.0))
    assert log == []  # no copies: the (emulated) CUDA kernel ran on the device arrays
    with xp.use_backend("cupy"):
        assert pair.selected(device=True) == "cuda"


def test_without_a_cuda_port_a_pair_raises_or_falls_back_with_counted_copies() -> None:
    pair = kernels.Kernel(_scale, cuda_path="scale/scale_cuda.cu")
    x, out = cupy.arange(3.0), cupy.zeros(3)
    with pytest.raises(
        NotImplementedError, match=r"'_scale' has no CUDA version \(expected at scale"
    ):
        pair(x, 2.0, out, 3)
    fallback = kernels.Kernel(_scale, missing_cuda="fallback", host_options={"outputs": (2,)})
    log, listen = _events()
    with listen, pytest.warns(RuntimeWarning, match="copies its arrays to the host"):
        fallback(x, 2.0, out, 3)
    np.testing.assert_array_equal(out.get(), [0.0, 2.0, 4.0])
    assert [kind for kind, _ in log] == [
        "fallback",
        "to_host",
        "to_host",
        "kernel_conversion",
        "to_device",
    ]
    with (
        kernels.use_device_kernel_implementation("cuda"),
        pytest.raises(LookupError, match="'cuda'"),
    ):
        fallback(x, 2.0, out, 3)


def test_a_pair_refuses_mixed_numpy_and_cupy_arrays() -> None:
    pair = kernels.Kernel(_scale, kernels.CudaKernel(SCALE, "scale"))
    with pytest.raises(TypeError, match="mix NumPy"):
        pair(cupy.zeros(2), 1.0, np.zeros(2), 2, n_threads=2)


def test_the_raw_kernel_wrapper_launches_emulated_and_refuses_numpy_arrays() -> None:
    raw = kernels.RawKernel(SCALE, "scale")
    x, out = cupy.arange(3.0), cupy.zeros(3)
    raw((1,), (32,), (x, np.float64(2), out, np.int32(3)))
    np.testing.assert_array_equal(out.get(), [0.0, 2.0, 4.0])
    with pytest.raises(TypeError, match="mix NumPy"):
        raw((1,), (32,), (x, np.float64(2), np.zeros(3), np.int32(3)))


def test_a_wrong_port_fails_the_parity_check_with_a_report() -> None:
    wrong = SCALE.replace("a * x[i]", "a * x[i] + (i == 7)")
    pair = kernels.Kernel(
        _scale, kernels.CudaKernel(wrong, "scale"), host_options={"outputs": (2,)}
    )

    def make_args(backend, seed):
        x = xp.asarray(
            np.random.default_rng(seed).random(50), device="cpu" if backend == "numpy" else "cuda"
        )
        return (x, 2.0, xp.zeros_like(x), 50)

    with pytest.raises(
        AssertionError, match=r"argument 2 differs .* \(run emulated on the fake CuPy\)"
    ):
        kernel_testing.assert_kernels_agree(pair, make_args, n_threads=50)


CATALOG = kernels.KernelCatalog.from_package("tests.kernel_pkgs.demo", outputs="annotations")


@pytest.mark.parametrize("kernel", kernel_testing.parity_cases(CATALOG))
def test_the_catalog_ports_agree_with_their_host_kernels_emulated(kernel: kernels.Kernel) -> None:
    host = kernel_testing.check_parity(kernel)
    assert host  # arrays were compared


def test_compile_all_builds_every_port() -> None:
    assert CATALOG.compile_all() == ["count", "scale"]


def test_the_backend_fixture_and_markers_exist_on_the_fake() -> None:
    assert kernel_testing.BACKENDS[0] == "numpy"
    assert kernel_testing.device_backend_available()
    assert not kernel_testing.warp_shuffle_available()  # the emulation cannot run them
    with kernel_testing.fake_cupy_session():
        assert xp.get_backend() == "cupy"


def test_parity_refuses_host_arrays_in_the_cupy_run() -> None:
    pair = kernels.Kernel(_scale, kernels.CudaKernel(SCALE, "scale"))

    def host_only(backend, seed):
        x = np.ones(4)  # NumPy on both runs: the CUDA kernel would never run
        return (x, 2.0, np.zeros(4), 4)

    with pytest.raises(ValueError, match="make_args must build NumPy arrays for 'numpy' and CuPy"):
        kernel_testing.assert_kernels_agree(pair, host_only, n_threads=4)


def test_emulated_launches_take_compiler_options() -> None:
    fma = kernels.RawKernel(
        r"""extern "C" __global__ void fma3(const double* x, double* y) {
        #ifdef FACTOR
            y[threadIdx.x] = FACTOR * x[threadIdx.x];
        #endif
        }""",
        "fma3",
    )
    x, y = cupy.arange(3.0), cupy.zeros(3)
    with kernel_testing.emulated_launches(options=("-ffp-contract=off",)):
        fma((1,), (3,), (x, y))  # without FACTOR the kernel writes nothing
    np.testing.assert_array_equal(y.get(), [0.0, 0.0, 0.0])
    with kernel_testing.emulated_launches(options=("-DFACTOR=3.0",)):
        kernels.RawKernel(fma.code, "fma3")((1,), (3,), (x, y))
    np.testing.assert_array_equal(y.get(), [0.0, 3.0, 6.0])
