"""CuNumpy 0.7.1's README examples of host kernels and pairs, as they are (fake CuPy:
the CUDA kernel runs emulated on the CPU; the GPU run is tests/test_kernel_pairs.py)."""

from __future__ import annotations

import cupy
import numpy as np

import cunumpy as xp


def test_the_pyccel_kernel_example_of_the_071_readme() -> None:
    def scale_in_place(values, factor):
        values[:] *= factor
        return values

    scale = xp.kernels.PyccelKernel(scale_in_place, outputs=(0,))

    with xp.use_backend("cupy"):
        values = xp.arange(5, dtype=xp.float64)
        returned = scale(values, 3.0)
        xp.synchronize()

    assert isinstance(values, cupy.ndarray) and isinstance(returned, cupy.ndarray)
    np.testing.assert_array_equal(values.get(), [0.0, 3.0, 6.0, 9.0, 12.0])
    np.testing.assert_array_equal(returned.get(), values.get())


def test_the_kernel_pair_example_of_the_071_readme() -> None:
    AXPY = r"""
extern "C" __global__
void axpy(double a, const double* x, double* y, int n) {
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i < n) y[i] += a * x[i];
}
"""

    def axpy(a, x, y, n):  # host version, e.g. compiled with Pyccel
        for i in range(n):
            y[i] += a * x[i]

    kernel = xp.kernels.Kernel(axpy, xp.kernels.CudaKernel(AXPY, "axpy"))

    with xp.use_backend("cupy"):
        x = xp.arange(1000, dtype=xp.float64)
        y = xp.zeros(1000)
        kernel(2.0, x, y, 1000)  # infer n_threads = x.shape[0], run the CUDA kernel

    assert isinstance(y, cupy.ndarray)
    np.testing.assert_array_equal(y.get(), 2.0 * np.arange(1000.0))
