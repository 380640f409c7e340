"""CuNumpy 0.7.1's programs on a real GPU (issue 31): random numbers, host calls, CuPy's
elementwise and reduction kernels, emulated launches, programs fed by ``xp.asarray(host)``
and the view features. The fake-CuPy side is tests/fake_cupy/test_programs_071_fake_cupy.py.

Marked ``gpu``: skipped, with CuPy's reason, without a usable GPU. Expected values come from
NumPy or from the known answers of the docstrings.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import cunumpy as xp
from cunumpy import kernel_testing

cupy = pytest.importorskip("cupy")
pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(
        not xp.cupy_available() or kernel_testing.fake_cupy_active(),
        reason=f"needs a real GPU: {xp.cupy_unavailable_reason() or 'the fake CuPy is active'}",
    ),
]


def _on_gpu(value: object) -> bool:
    return isinstance(value, cupy.ndarray)


def test_random_numbers_on_the_cupy_backend_are_made_on_the_gpu_reproducibly() -> None:
    with xp.use_backend("cupy"):
        first = xp.rng.get_rng(7).random(2)
        samples = xp.rng.get_rng(seed=42).normal(size=1000)
        xp.rng.random_streams.seed(42, rank=1)
        streamed = xp.rng.random_streams.random(3)
        xp.rng.random_streams.seed(42, rank=1)
        again = xp.rng.random_streams.random(3)
        philox = xp.rng.philox_uniform(42, 1, 0)
    assert all(_on_gpu(a) for a in (first, samples, streamed, philox))
    with xp.use_backend("cupy"):
        np.testing.assert_array_equal(xp.rng.get_rng(7).random(2).get(), first.get())
    np.testing.assert_array_equal(streamed.get(), again.get())
    assert float(philox) == pytest.approx(0.01005884, abs=1e-8)  # Philox's known answer


def test_host_call_and_evaluate_on_host_return_gpu_arrays() -> None:
    out = xp.host_call(np.cumsum, cupy.asarray([1, 2, 3]))

    class Profile:
        @xp.evaluate_on_host
        def cumulative(self, x):
            return np.cumsum(x)

    result = Profile().cumulative(cupy.asarray([1, 2, 3]))
    assert _on_gpu(out) and _on_gpu(result)
    np.testing.assert_array_equal(out.get(), [1, 3, 6])
    np.testing.assert_array_equal(result.get(), [1, 3, 6])


def test_segment_sums_and_cupy_kernels_on_the_gpu_equal_numpy() -> None:
    keys, values = cupy.asarray([0, 1, 0, -1]), cupy.asarray([1.0, 2.0, 3.0, 4.0])
    np.testing.assert_array_equal(xp.algorithms.segment_sum(values, keys, 2).get(), [4.0, 2.0])
    plan = xp.algorithms.SegmentPlan(keys, 2)
    np.testing.assert_array_equal(plan.sum(values).get(), [4.0, 2.0])
    axpb = cupy.ElementwiseKernel("T x, T y, float64 a", "T z", "z = a * x + y", "axpb")
    out = axpb(cupy.arange(3.0), cupy.asarray([[1.0], [2.0]]), 2.0)
    np.testing.assert_array_equal(out.get(), [[1.0, 3.0, 5.0], [2.0, 4.0, 6.0]])
    largest = cupy.ReductionKernel("T x", "T y", "x", "max(a, b)", "y = a", None, "largest")
    np.testing.assert_array_equal(largest(cupy.asarray([[3, -4], [1, 7]]), axis=0).get(), [3, 7])


@pytest.mark.skipif(
    kernel_testing.emulation_compiler() is None, reason="the emulation needs a C++ compiler"
)
def test_emulated_launches_run_on_numpy_arrays_on_a_gpu_machine() -> None:
    axpy = xp.kernels.CudaKernel(
        'extern "C" __global__ void axpy(double a, const double* x, double* y, int n) {'
        " int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] += a * x[i]; }",
        "axpy",
    )
    y = np.zeros(3)
    with kernel_testing.emulated_launches():
        axpy(2.0, np.arange(3.0), y, 3, n_threads=3)  # the CPU emulator, not the GPU
        device_y = cupy.zeros(3)
        axpy(2.0, cupy.arange(3.0), device_y, 3, n_threads=3)  # CuPy arrays: the GPU
    np.testing.assert_array_equal(y, [0.0, 2.0, 4.0])
    np.testing.assert_array_equal(device_y.get(), [0.0, 2.0, 4.0])


def test_programs_fed_by_asarray_of_host_data_run_on_the_gpu() -> None:
    with xp.use_backend("cupy"):
        positions = xp.asarray(np.array([[0.1, 0.1], [0.9, 0.1], [0.9, 0.9]]))
        keys = xp.algorithms.morton_keys(positions, [0.0, 0.0], [1.0, 1.0], levels=2)
        total = xp.algorithms.segment_sum(
            xp.asarray(np.array([1.0, 2.0, 3.0, 4.0])), xp.asarray(np.array([0, 1, 0, -1])), 2
        )
        roots = xp.optimize.newton(lambda x: x**2 - 2.0, xp.asarray(np.array([1.0, 3.0])))
    assert _on_gpu(keys) and _on_gpu(total) and _on_gpu(roots)
    np.testing.assert_array_equal(keys.get(), [0, 5, 15])
    np.testing.assert_array_equal(total.get(), [4.0, 2.0])
    np.testing.assert_allclose(roots.get(), [2**0.5, 2**0.5])


def test_view_features_reported_available_work_on_the_gpu() -> None:
    if not kernel_testing.high_dim_cuda_views_available():
        pytest.skip("a HIP/ROCm build: the 5-D views are reported unavailable")
    assert kernel_testing.bounds_check_views_available()
    five = xp.kernels.CudaKernel(
        "#include <cunumpy/array_view.cuh>\n"
        'extern "C" __global__ void mark(Array5D<double> a) { a(0, 1, 0, 1, 0) = 7.0; }',
        "mark",
    )
    a = cupy.zeros((2, 2, 2, 2, 2))
    five(a, n_threads=1)
    assert float(a[0, 1, 0, 1, 0]) == 7.0 and float(a.sum()) == 7.0
    # a failed bounds check traps, which leaves the CUDA context unusable: its own process
    code = textwrap.dedent(
        """
        import cupy, cunumpy as xp
        k = xp.kernels.CudaKernel(
            "#include <cunumpy/array_view.cuh>\\n"
            'extern "C" __global__ void past(Array1D<double> a) { a(5) = 7.0; }',
            "past", options=("-DCUNUMPY_BOUNDS_CHECK",))
        k(cupy.zeros(3), n_threads=1)
        cupy.cuda.runtime.deviceSynchronize()
        """
    )
    root = Path(__file__).resolve().parents[1]  # this checkout's cunumpy comes first
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=root,
        check=False,
    )
    assert done.returncode != 0
    assert "out of range" in done.stdout + done.stderr
