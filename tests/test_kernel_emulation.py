"""The CPU emulator of CUDA C (cunumpy.kernel_testing): emulated launches on NumPy arrays.

Every test here is marked ``emulated``: the CUDA C runs as C++ on the CPU (g++), which
checks a port's arithmetic and indexing, never a GPU.
"""

from __future__ import annotations

import numpy as np
import pytest

from cunumpy.kernel_testing import (
    compile_for_emulation,
    device_function_kernel,
    emulate_cuda_kernel,
    emulation_compiler,
)
from cunumpy.kernels import RawKernel

pytestmark = [
    pytest.mark.emulated,
    pytest.mark.skipif(emulation_compiler() is None, reason="the emulation needs a C++ compiler"),
]

AXPY = RawKernel(
    r"""extern "C" __global__ void axpy(float a, const float* x, float* y, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) y[i] += a * x[i];
    }""",
    "axpy",
)


def test_emulated_axpy_covers_every_thread_of_the_grid() -> None:
    x = np.arange(1000, dtype=np.float32)
    y = np.ones(1000, dtype=np.float32)
    emulate_cuda_kernel(AXPY, 2.0, x, y, 1000, n_threads=1000)
    np.testing.assert_array_equal(y, 1 + 2 * np.arange(1000, dtype=np.float32))


def test_emulated_syncthreads_and_shared_memory_reverse_a_block() -> None:
    reverse = RawKernel(
        r"""extern "C" __global__ void reverse(const double* x, double* y) {
            __shared__ double tile[64];
            int t = threadIdx.x, base = blockIdx.x * blockDim.x;
            tile[t] = x[base + t];
            __syncthreads();  // every thread has written before any reads
            y[base + t] = tile[blockDim.x - 1 - t];
        }""",
        "reverse",
    )
    x = np.arange(128.0)
    y = np.zeros(128)
    emulate_cuda_kernel(reverse, x, y, grid=2, block=64)
    np.testing.assert_array_equal(y, np.concatenate([x[63::-1], x[:63:-1]]))


def test_emulated_dynamic_shared_memory_and_a_tree_reduction() -> None:
    block_sum = RawKernel(
        r"""extern "C" __global__ void block_sum(const float* x, float* sums) {
            extern __shared__ float part[];
            unsigned int t = threadIdx.x;
            part[t] = x[blockIdx.x * blockDim.x + t];
            __syncthreads();
            for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
                if (t < s) part[t] += part[t + s];
                __syncthreads();
            }
            if (t == 0) sums[blockIdx.x] = part[0];
        }""",
        "block_sum",
    )
    x = np.arange(256, dtype=np.float32)
    sums = np.zeros(4, dtype=np.float32)
    emulate_cuda_kernel(block_sum, x, sums, grid=4, block=64, shared_mem=64 * 4)
    np.testing.assert_array_equal(sums, x.reshape(4, 64).sum(axis=1))


def test_emulated_atomics_and_2d_grids() -> None:
    count = RawKernel(
        r"""extern "C" __global__ void count(const int* cells, int* hist, int nx, int ny) {
            int i = blockIdx.x * blockDim.x + threadIdx.x;
            int j = blockIdx.y * blockDim.y + threadIdx.y;
            if (i < nx && j < ny) atomicAdd(&hist[cells[j * nx + i]], 1);
        }""",
        "count",
    )
    cells = np.random.default_rng(0).integers(0, 5, (30, 20)).astype(np.int32)
    hist = np.zeros(5, dtype=np.int32)
    emulate_cuda_kernel(count, cells, hist, 20, 30, grid=(3, 4), block=(8, 8))
    np.testing.assert_array_equal(hist, np.bincount(cells.ravel(), minlength=5))


def test_a_trap_is_a_runtime_error_naming_the_kernel() -> None:
    trap = RawKernel(
        'extern "C" __global__ void checked(int n) { if (threadIdx.x == 3) __trap(); }', "checked"
    )
    with pytest.raises(RuntimeError, match="'checked' called __trap"):
        emulate_cuda_kernel(trap, 1, grid=1, block=8)


def test_warp_intrinsics_cannot_be_emulated() -> None:
    shuffle = RawKernel(
        'extern "C" __global__ void sh(float* x) { x[0] = __shfl_down_sync(0xffffffff, x[0], 1); }',
        "sh",
    )
    with pytest.raises(NotImplementedError, match="warp shuffles"):
        compile_for_emulation(shuffle)


def test_a_compile_error_carries_the_compiler_output() -> None:
    broken = RawKernel(
        'extern "C" __global__ void broken(int* x) { x[0] = undefined_name; }', "broken"
    )
    with pytest.raises(RuntimeError, match="undefined_name"):
        compile_for_emulation(broken)


def test_arguments_are_checked_against_the_c_parameters() -> None:
    x = np.zeros(4, dtype=np.float32)
    with pytest.raises(TypeError, match="takes 4 arguments"):
        emulate_cuda_kernel(AXPY, 2.0, x, x, n_threads=4)
    with pytest.raises(TypeError, match="pointer parameter"):
        emulate_cuda_kernel(AXPY, 2.0, 1.0, x, 4, n_threads=4)
    with pytest.raises(OverflowError, match="does not fit"):
        emulate_cuda_kernel(AXPY, 2.0, x, x, 2**40, n_threads=4)


def test_a_device_function_runs_elementwise() -> None:
    bspline = device_function_kernel(
        "__device__ double hat(double t, double w) { double a = fabs(t) / w; return a < 1 ? 1 - a : 0; }",
        "double hat(double t, double w)",
    )
    assert [p.name for p in bspline.signature] == ["t", "w", "out", "n"]
    t = np.linspace(-2, 2, 9)
    w = np.full(9, 1.5)
    out = np.zeros(9)
    emulate_cuda_kernel(bspline, t, w, out, 9, n_threads=9)
    np.testing.assert_allclose(out, np.maximum(0, 1 - np.abs(t) / 1.5))
    with pytest.raises(ValueError, match="clashes"):
        device_function_kernel("", "double f(double out)")


def test_emulated_vector_types_and_a_3d_block() -> None:
    norm = RawKernel(
        r"""extern "C" __global__ void norm(const double* x, double* out) {
            int i = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
            double3 v = make_double3(x[3 * i], x[3 * i + 1], x[3 * i + 2]);
            out[i] = sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
        }""",
        "norm",
    )
    x = np.random.default_rng(1).random((24, 3))
    out = np.zeros(24)
    emulate_cuda_kernel(norm, x, out, grid=1, block=(2, 3, 4))
    np.testing.assert_allclose(out, np.linalg.norm(x, axis=1), rtol=1e-15)


def test_emulated_launches_run_a_cuda_kernel_on_numpy_arrays_without_the_fake() -> None:
    """CuNumpy 0.7.1's example of ``emulated_launches`` (issue 26.7), emulated on the CPU."""
    from cunumpy import kernels
    from cunumpy.kernel_testing import emulated_launches

    axpy = kernels.CudaKernel(
        'extern "C" __global__ void axpy(double a, const double* x, double* y, int n) {'
        " int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] += a * x[i]; }",
        "axpy",
    )
    y = np.zeros(3)
    with emulated_launches():
        axpy(2.0, np.arange(3.0), y, 3, n_threads=3)
        with pytest.raises(TypeError, match=r"parameter 2 \(double\* y\) takes dtype float64"):
            axpy(2.0, np.arange(3.0), np.zeros(3, dtype=np.float32), 3, n_threads=3)
    np.testing.assert_array_equal(y, [0.0, 2.0, 4.0])
    readonly = np.arange(3.0)
    readonly.flags.writeable = False
    with emulated_launches():
        axpy(1.0, readonly, y, 3)  # n_threads from the first array; read-only input copied
    np.testing.assert_array_equal(y, [0.0, 3.0, 6.0])
    with pytest.raises(TypeError, match="takes a CuPy array"):
        axpy(2.0, np.arange(3.0), y, 3, n_threads=3)  # outside the block: as on a GPU
