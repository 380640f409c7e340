"""CuNumpy 0.7.1's programs on the CuPy backend of the fake CuPy (issue 31): random numbers,
host calls, CuPy's elementwise and reduction kernels, emulated launches, printed arrays and
programs fed by ``xp.asarray(host)`` stay on the device. Fake CuPy (CUDA C emulated on the
CPU), never a GPU check: the GPU side is tests/test_device_programs_gpu.py."""

from __future__ import annotations

import cupy
import numpy as np
import pytest

import cunumpy as xp
from cunumpy import kernel_testing, kernels

AXPY = (
    'extern "C" __global__ void axpy(double a, const double* x, double* y, int n) {'
    " int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] += a * x[i]; }"
)


def _on_device(value: object) -> bool:
    return type(value) is cupy.ndarray


@pytest.fixture(autouse=True)
def _cupy_backend():
    with xp.use_backend("cupy"):
        yield


# 1. random numbers are made on the device, reproducibly


def test_fake_cupy_generators_draw_device_arrays_reproducibly() -> None:
    first = xp.rng.get_rng(7).random(2)
    assert _on_device(first)
    # the fake's numbers are NumPy's for the same seed: reproducible
    np.testing.assert_array_equal(first.get(), np.random.default_rng(7).random(2))
    np.testing.assert_array_equal(xp.rng.get_rng(7).random(2).get(), first.get())
    samples = xp.rng.get_rng(seed=42).normal(size=1000)
    assert _on_device(samples) and samples.shape == (1000,)
    assert _on_device(xp.rng.get_rng(1).integers(10, size=3))


def test_fake_cupy_random_streams_draw_on_the_device_and_repeat_after_a_seed() -> None:
    xp.rng.random_streams.seed(42, rank=1)
    first = xp.rng.random_streams.random(3)
    xp.rng.random_streams.seed(42, rank=1)
    again = xp.rng.random_streams.random(3)
    assert _on_device(first) and _on_device(again)
    np.testing.assert_array_equal(first.get(), again.get())
    streams = xp.rng.RandomStreams()
    assert _on_device(streams.normal(size=4)) and _on_device(streams.uniform(size=2))
    assert _on_device(streams.make_generator(3).integers(10, size=3))


def test_fake_cupy_philox_without_arrays_computes_on_the_current_backend() -> None:
    value = xp.rng.philox_uniform(42, 1, 0)
    assert _on_device(value)
    # Philox's known answer (the NumPy backend's docstring: stream 1 of seed 42)
    assert float(value) == pytest.approx(0.01005884, abs=1e-8)
    assert _on_device(xp.rng.philox_normal(1, 2, 3))
    assert _on_device(xp.rng.philox4x32_10([0, 0, 0, 0], 0, 0))
    # a NumPy array still says where to run
    assert isinstance(xp.rng.philox_uniform(42, np.arange(3, dtype=np.uint64), 0), np.ndarray)


# 2. host calls with device data


def test_fake_cupy_host_call_and_evaluate_on_host_take_device_arrays() -> None:
    out = xp.host_call(np.cumsum, xp.asarray([1, 2, 3]))
    assert _on_device(out)
    np.testing.assert_array_equal(out.get(), [1, 3, 6])

    class Profile:
        @xp.evaluate_on_host
        def cumulative(self, x):
            assert isinstance(x, np.ndarray)
            return np.cumsum(x)

    result = Profile().cumulative(xp.asarray([1, 2, 3]))
    assert _on_device(result)
    np.testing.assert_array_equal(result.get(), [1, 3, 6])
    keyword = xp.host_call(np.cumsum, a=xp.asarray([2, 2]))
    np.testing.assert_array_equal(keyword.get(), [2, 4])


# 3. CuPy's ElementwiseKernel and ReductionKernel run emulated


def test_fake_cupy_segment_sums_run_their_elementwise_kernel() -> None:
    keys = cupy.asarray([0, 1, 0, -1])
    values = cupy.asarray([1.0, 2.0, 3.0, 4.0])
    total = xp.algorithms.segment_sum(values, keys, 2)
    assert _on_device(total)
    np.testing.assert_array_equal(total.get(), [4.0, 2.0])
    plan = xp.algorithms.SegmentPlan(keys, 2)
    rows = cupy.asarray([[1.0, 10.0], [2.0, 20.0], [3.0, 30.0], [4.0, 40.0]])
    np.testing.assert_array_equal(plan.sum(rows).get(), [[4.0, 40.0], [2.0, 20.0]])


def test_fake_cupy_elementwise_kernel_broadcasts_binds_types_and_takes_raw_arrays() -> None:
    axpb = cupy.ElementwiseKernel("T x, T y, float64 a", "T z", "z = a * x + y", "axpb")
    out = axpb(cupy.arange(3.0), cupy.asarray([[1.0], [2.0]]), 2.0)
    assert _on_device(out) and out.shape == (2, 3)
    np.testing.assert_array_equal(out.get(), [[1.0, 3.0, 5.0], [2.0, 4.0, 6.0]])
    reverse = cupy.ElementwiseKernel(
        "raw T x", "T y", "y = x[_ind.size() - 1 - i]", "reverse", loop_prep="int unused = 0;"
    )
    np.testing.assert_array_equal(reverse(cupy.arange(4), size=4).get(), [3, 2, 1, 0])
    given = cupy.zeros(3, dtype=cupy.float32)
    result = cupy.ElementwiseKernel("float32 x", "float32 y", "y = x + 1", "inc")(
        cupy.asarray([1.0, 2.0, 3.0], dtype=cupy.float32), given
    )
    assert result is given
    np.testing.assert_array_equal(given.get(), [2.0, 3.0, 4.0])
    two = cupy.ElementwiseKernel("T x", "T lo, T hi", "lo = x - 1; hi = x + 1", "both")
    lo, hi = two(cupy.asarray([5]))
    assert (lo.get().tolist(), hi.get().tolist()) == ([4], [6])


def test_fake_cupy_elementwise_kernel_refuses_numpy_arrays_and_an_undecided_size() -> None:
    square = cupy.ElementwiseKernel("T x", "T y", "y = x * x", "square")
    with pytest.raises(TypeError, match=r"numpy\.ndarray"):
        square(np.arange(3.0))
    fill = cupy.ElementwiseKernel("raw T x", "T y", "y = 1", "fill")
    with pytest.raises(ValueError, match="Loop size is undecided"):
        fill(cupy.arange(3.0))


def test_fake_cupy_reduction_kernel_reduces_axes_with_and_without_identity() -> None:
    l2norm = cupy.ReductionKernel("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm")
    assert float(l2norm(cupy.asarray([3.0, 4.0]))) == 5.0
    rows = cupy.asarray([[3.0, 4.0, 0.0], [0.0, 0.0, 2.0]])
    np.testing.assert_array_equal(l2norm(rows, axis=1).get(), [5.0, 2.0])
    assert l2norm(rows, axis=1, keepdims=True).shape == (2, 1)
    largest = cupy.ReductionKernel("T x", "T y", "x", "max(a, b)", "y = a", None, "largest")
    np.testing.assert_array_equal(largest(cupy.asarray([[3, -4], [1, 7]]), axis=0).get(), [3, 7])
    wrapped = kernels.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "total")
    assert float(wrapped(cupy.arange(5.0))) == 10.0


# 4. emulated launches take NumPy arrays


def test_fake_cupy_emulated_launches_run_a_cuda_kernel_on_numpy_arrays() -> None:
    axpy = xp.kernels.CudaKernel(AXPY, "axpy")
    y = np.zeros(3)
    with kernel_testing.emulated_launches():
        axpy(2.0, np.arange(3.0), y, 3, n_threads=3)
    np.testing.assert_array_equal(y, [0.0, 2.0, 4.0])
    with pytest.raises(TypeError, match=r"parameter 1 \(double\* x\) takes a CuPy array"):
        axpy(2.0, np.arange(3.0), y, 3, n_threads=3)  # outside the block: as on a GPU


# 5. a device array prints as one


def test_fake_cupy_arrays_print_as_fakecupy_arrays() -> None:
    values = cupy.asarray([1.0, 2.0])
    assert repr(values) == "fakecupy.array([1., 2.])"
    assert str(values) == "[1. 2.]"
    assert repr(xp.sum(values)) == "fakecupy.array(3.)"


# 6. programs fed by xp.asarray(host) run on the device


def test_fake_cupy_morton_keys_of_asarray_host_data_are_device_arrays() -> None:
    positions = xp.asarray(np.array([[0.1, 0.1], [0.9, 0.1], [0.9, 0.9]]))
    keys = xp.algorithms.morton_keys(positions, [0.0, 0.0], [1.0, 1.0], levels=2)
    assert _on_device(keys)
    np.testing.assert_array_equal(keys.get(), [0, 5, 15])


def test_fake_cupy_sort_by_key_and_segments_of_asarray_host_data_stay_on_the_device() -> None:
    keys = xp.asarray(np.array([2, 0, 1, 0]))
    sorted_keys, order, values = xp.algorithms.sort_by_key(
        keys, xp.asarray(np.array([10.0, 11.0, 12.0, 13.0]))
    )
    assert all(_on_device(a) for a in (sorted_keys, order, values))
    np.testing.assert_array_equal(values.get(), [11.0, 13.0, 12.0, 10.0])
    total = xp.algorithms.segment_sum(
        xp.asarray(np.array([1.0, 2.0, 3.0, 4.0])), xp.asarray(np.array([0, 1, 0, -1])), 2
    )
    assert _on_device(total)
    np.testing.assert_array_equal(total.get(), [4.0, 2.0])


def test_fake_cupy_solvers_of_asarray_host_data_return_device_arrays() -> None:
    roots = xp.optimize.newton(lambda x: x**2 - 2.0, xp.asarray(np.array([1.0, 3.0])))
    assert _on_device(roots)
    np.testing.assert_allclose(roots.get(), [2**0.5, 2**0.5])


def test_fake_cupy_to_cunumpy_of_host_data_is_a_device_array() -> None:
    moved = xp.to_cunumpy(np.arange(3))
    assert _on_device(moved)
    np.testing.assert_array_equal(moved.get(), [0, 1, 2])


# 7. the view features answer True only where they work


def test_fake_cupy_bounds_checked_and_five_d_views_work_where_reported() -> None:
    assert kernel_testing.bounds_check_views_available()
    assert kernel_testing.high_dim_cuda_views_available()
    five = xp.kernels.CudaKernel(
        "#include <cunumpy/array_view.cuh>\n"
        'extern "C" __global__ void mark(Array5D<double> a) { a(0, 1, 0, 1, 0) = 7.0; }',
        "mark",
    )
    a = cupy.zeros((2, 2, 2, 2, 2))
    five(a, n_threads=1)
    assert float(a[0, 1, 0, 1, 0]) == 7.0 and float(a.sum()) == 7.0
    checked = xp.kernels.CudaKernel(
        "#include <cunumpy/array_view.cuh>\n"
        'extern "C" __global__ void past(Array1D<double> a) { a(5) = 7.0; }',
        "past",
        options=("-DCUNUMPY_BOUNDS_CHECK",),
    )
    b = cupy.zeros(3)
    with pytest.raises(RuntimeError, match="__trap"):
        checked(b, n_threads=1)  # the emulated launch traps; the process goes on
    np.testing.assert_array_equal(b.get(), [0.0, 0.0, 0.0])


def test_fake_cupy_kernel_parameters_are_parsed_as_cupy_parses_them() -> None:
    with pytest.raises(ValueError, match="Wrong type double"):
        cupy.ElementwiseKernel("double x", "double y", "y = x", "wrong")
    mean = cupy.ReductionKernel(
        "T x", "float64 y", "x", "a + b", "y = a / _in_count", "0", "mean", reduce_type="double",
        preamble="#define _in_count 4.0",
    )  # fmt: skip
    assert float(mean(cupy.asarray([1, 2, 3, 6]))) == 3.0
