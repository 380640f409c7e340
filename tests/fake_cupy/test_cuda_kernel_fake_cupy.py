"""CudaKernel on the fake CuPy: 0.7.1's README examples and the shipped headers, emulated on
the CPU (fake CuPy: never a GPU check; the GPU runs are tests/test_cuda_kernel_gpu.py)."""

from __future__ import annotations

from pathlib import Path

import cupy
import numpy as np
import pytest

import cunumpy as xp


def test_the_struct_example_of_the_071_readme() -> None:
    Vec = xp.arguments.CudaStruct("Vec", [("data", "double*"), ("n", "int")])
    scale = xp.kernels.CudaKernel(
        Vec.declaration
        + r"""
        extern "C" __global__ void scale(Vec v, double a) {
            int i = blockDim.x * blockIdx.x + threadIdx.x;
            if (i < v.n) v.data[i] *= a;
        }""",
        "scale",
        structs=[Vec],
    )
    with xp.use_backend("cupy"):
        y = xp.arange(10, dtype=xp.float64)
    scale(Vec(data=y, n=y.size), 0.5, n_threads=y.size)
    np.testing.assert_array_equal(y.get(), 0.5 * np.arange(10.0))


def test_the_marker_example_of_the_071_readme(tmp_path: Path) -> None:
    class MarkerArguments:
        def __init__(self, markers: float[:, :], n_markers: int, valid: bool[:]): ...

    MarkerArgs = xp.arguments.CudaStruct.from_signature(MarkerArguments.__init__, "MarkerArgs")
    MarkerArgs.to_header(tmp_path / "marker_args.cuh")
    push = xp.kernels.CudaKernel(
        r"""
        #include "marker_args.cuh"
        #include <cunumpy/index.cuh>
        extern "C" __global__ void push(MarkerArgs m, double dt) {
            CUNUMPY_THREAD_1D(ip, m.n_markers);
            if (m.valid(ip)) m.markers(ip, 0) += dt * m.markers(ip, 3);
        }""",
        "push",
        structs=[MarkerArgs],
        include_dirs=[tmp_path],
    )
    host = np.arange(40.0).reshape(5, 8)
    whole = cupy.asarray(host)
    markers = whole[:, ::2]  # strided: columns 0, 2, 4, 6
    valid = cupy.asarray([True, False, True, True, False])
    push(MarkerArgs(markers=markers, n_markers=5, valid=valid), 0.1, n_threads=5)
    expected = host.copy()
    expected[[0, 2, 3], 0] += 0.1 * host[[0, 2, 3], 6]
    np.testing.assert_allclose(whole.get(), expected)


def test_a_template_a_2d_view_and_atomics() -> None:
    source = r"""
    #include <cunumpy/array_view.cuh>
    #include <cunumpy/atomic.cuh>
    #include <cunumpy/index.cuh>
    template <typename T>
    __global__ void label(Array2D<T> a, T* total) {
        CUNUMPY_THREAD_2D(i, j, a.shape[0], a.shape[1]);
        a(i, j) = (T)(100 * i + j);
        cunumpy_atomic_add(total, (T)1);
    }"""
    label = xp.kernels.CudaKernel(source, "label", template_args=[np.float64], block_size=(8, 4))
    whole, total = cupy.zeros((12, 10)), cupy.zeros(1)
    label(whole[2:, 1::3], total)  # n_threads inferred from the view: (10, 3)
    i, j = np.indices((10, 3))
    expected = np.zeros((12, 10))
    expected[2:, 1::3] = 100 * i + j
    np.testing.assert_array_equal(whole.get(), expected)
    assert float(total.get()[0]) == 30.0


def test_random_and_morton_headers() -> None:
    source = r"""
    #include <cunumpy/random.cuh>
    #include <cunumpy/morton.cuh>
    extern "C" __global__ void draw(double* u, unsigned long long* keys, long long n) {
        long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
        if (i >= n) return;
        u[i] = cunumpy_uniform(7ull, (unsigned long long)i, 3ull);
        keys[i] = cunumpy_morton_encode2((unsigned long long)i, 3ull);
    }"""
    u, keys = cupy.zeros(64), cupy.zeros(64, dtype=np.uint64)
    xp.kernels.CudaKernel(source, "draw")(u, keys, 64)
    values = u.get()
    assert ((values >= 0) & (values < 1)).all() and len(set(values.tolist())) == 64
    assert keys.get()[5] == 0b011011  # x = 0b101, y = 0b011 interleaved


def test_numpy_arrays_are_refused_before_any_launch() -> None:
    axpy = xp.kernels.CudaKernel(
        'extern "C" __global__ void axpy(double a, const double* x, double* y, int n) {}', "axpy"
    )
    y = cupy.zeros(3)
    with pytest.raises(TypeError, match=r"CudaKernel axpy: the arguments mix NumPy .* and CuPy"):
        axpy(1.0, np.zeros(3), y, 3)
    with pytest.raises(
        TypeError, match=r"parameter 1 \(double\* x\) takes a CuPy array, not numpy"
    ):
        axpy(1.0, np.zeros(3), np.zeros(3), 3)
