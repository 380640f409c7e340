"""CudaKernel launches on a real GPU, CuNumpy 0.7.1's README examples included.

Marked ``gpu``: skipped, with CuPy's reason, without a usable GPU. Expected values come
from NumPy on the host. A kernel that traps (bounds checks) runs in its own process,
since a trap leaves the CUDA context unusable.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from gpu_kernels import slow_fill

import cunumpy as xp
from cunumpy import arguments, cuda, kernels
from cunumpy._placement._transfer_log import listening

cupy = pytest.importorskip("cupy")
pytestmark = pytest.mark.gpu

AXPY = r"""
extern "C" __global__
void axpy(double a, const double* x, double* y, int n) {
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i < n) y[i] += a * x[i];
}
"""


def test_readme_axpy_infers_n_threads_from_the_first_array() -> None:
    axpy = xp.kernels.CudaKernel(AXPY, "axpy")
    with xp.use_backend("cupy"):
        x = xp.arange(1000, dtype=xp.float64)
        y = xp.zeros(1000)
        axpy(2.0, x, y, 1000)
    np.testing.assert_array_equal(cupy.asnumpy(y), 2.0 * np.arange(1000))


def test_readme_struct_example_scales_through_a_struct_by_value() -> None:
    vec = xp.arguments.CudaStruct("Vec", [("data", "double*"), ("n", "int")])
    scale = xp.kernels.CudaKernel(
        vec.declaration
        + r"""
        extern "C" __global__ void scale(Vec v, double a) {
            int i = blockDim.x * blockIdx.x + threadIdx.x;
            if (i < v.n) v.data[i] *= a;
        }""",
        "scale",
        structs=[vec],
    )
    y = cupy.arange(10, dtype=np.float64)
    scale(vec(data=y, n=y.size), 0.5, n_threads=y.size)
    np.testing.assert_array_equal(cupy.asnumpy(y), 0.5 * np.arange(10))


def test_readme_marker_push_uses_a_generated_header_and_strided_views(tmp_path: Path) -> None:
    class MarkerArguments:
        def __init__(self, markers: float[:, :], n_markers: int, valid: bool[:]): ...

    marker_args = xp.arguments.CudaStruct.from_signature(MarkerArguments.__init__, "MarkerArgs")
    marker_args.to_header(tmp_path / "marker_args.cuh")
    push = xp.kernels.CudaKernel(
        r"""
        #include "marker_args.cuh"
        #include <cunumpy/index.cuh>
        extern "C" __global__ void push(MarkerArgs m, double dt) {
            CUNUMPY_THREAD_1D(ip, m.n_markers);
            if (m.valid(ip)) m.markers(ip, 0) += dt * m.markers(ip, 3);
        }""",
        "push",
        structs=[marker_args],
        include_dirs=[tmp_path],
    )
    host = np.arange(40.0).reshape(5, 8)
    whole = cupy.asarray(host)
    markers = whole[:, ::2]  # strided: columns 0, 2, 4, 6
    valid = cupy.asarray([True, False, True, True, False])
    push(marker_args(markers=markers, n_markers=5, valid=valid), 0.1, n_threads=5)
    expected = host.copy()
    rows = np.array([0, 2, 3])
    expected[rows, 0] += 0.1 * host[rows, 6]
    np.testing.assert_allclose(cupy.asnumpy(whole), expected)


def test_a_template_kernel_runs_with_its_template_args() -> None:
    source = r"""
    template <typename T>
    __global__ void fill(T* x, T value, int n) {
        int i = blockDim.x * blockIdx.x + threadIdx.x;
        if (i < n) x[i] = value;
    }"""
    fill = kernels.CudaKernel(source, "fill", template_args=[np.float32])
    x = cupy.zeros(300, dtype=np.float32)
    fill(x, 1.5, 300)
    assert cupy.asnumpy(x).tolist() == [1.5] * 300


def test_a_2d_launch_indexes_a_strided_view() -> None:
    source = r"""
    #include <cunumpy/array_view.cuh>
    #include <cunumpy/index.cuh>
    extern "C" __global__ void label(Array2D<long long> a) {
        CUNUMPY_THREAD_2D(i, j, a.shape[0], a.shape[1]);
        a(i, j) = 1000 * i + j;
    }"""
    label = kernels.CudaKernel(source, "label", block_size=(16, 16))
    whole = cupy.zeros((70, 90), dtype=np.int64)
    label(whole[5:, 1::3])  # n_threads inferred: the view's shape
    expected = np.zeros((70, 90), dtype=np.int64)
    i, j = np.indices((65, 30))
    expected[5:, 1::3] = 1000 * i + j
    np.testing.assert_array_equal(cupy.asnumpy(whole), expected)


def test_atomic_adds_build_a_histogram() -> None:
    source = r"""
    #include <cunumpy/atomic.cuh>
    extern "C" __global__ void deposit(const long long* cell, const double* w,
                                       double* rho, int* count, long long n) {
        long long p = blockIdx.x * (long long)blockDim.x + threadIdx.x;
        if (p < n) { cunumpy_atomic_add_2d(rho, 4, cell[p] / 4, cell[p] % 4, w[p]);
                     cunumpy_atomic_add(count + cell[p], 1); }
    }"""
    rng = np.random.default_rng(0)
    cells, weights = rng.integers(0, 16, 5000), rng.random(5000)
    rho, count = cupy.zeros((4, 4)), cupy.zeros(16, dtype=np.int32)
    deposit = kernels.CudaKernel(source, "deposit")
    deposit(cupy.asarray(cells), cupy.asarray(weights), rho, count, 5000)
    np.testing.assert_allclose(cupy.asnumpy(rho).ravel(), np.bincount(cells, weights, 16))
    np.testing.assert_array_equal(cupy.asnumpy(count), np.bincount(cells, minlength=16))


def test_dynamic_shared_memory_and_an_explicit_grid() -> None:
    source = r"""
    extern "C" __global__ void reverse_blocks(const double* x, double* y) {
        extern __shared__ double tile[];
        int t = threadIdx.x, base = blockIdx.x * blockDim.x;
        tile[t] = x[base + t];
        __syncthreads();
        y[base + t] = tile[blockDim.x - 1 - t];
    }"""
    reverse = kernels.CudaKernel(source, "reverse_blocks", block_size=64)
    x = cupy.arange(256, dtype=np.float64)
    y = cupy.empty_like(x)
    reverse(x, y, grid=4, shared_mem=64 * 8)
    expected = np.arange(256.0).reshape(4, 64)[:, ::-1].ravel()
    np.testing.assert_array_equal(cupy.asnumpy(y), expected)


def test_a_launch_on_a_stream_is_ordered_after_the_work_on_that_stream() -> None:
    axpy = kernels.CudaKernel(AXPY, "axpy")
    axpy.compile()  # compiling now, so that the fill below is still running at the launch
    n = 1 << 20
    x, y = cupy.zeros(n), cupy.zeros(n)
    stream = cupy.cuda.Stream(non_blocking=True)
    with stream:
        slow_fill(x, 1.0)
    axpy(1.0, x, y, n, stream=stream)
    stream.synchronize()
    assert float(y.min()) == 1.0


def test_a_launch_on_another_stream_waits_for_the_current_stream() -> None:
    axpy = kernels.CudaKernel(AXPY, "axpy")
    axpy.compile()
    n = 1 << 20
    x, y = cupy.zeros(n), cupy.zeros(n)
    slow_fill(x, 1.0)  # on the current stream: still producing x
    stream = cupy.cuda.Stream(non_blocking=True)
    axpy(1.0, x, y, n, stream=stream)
    stream.synchronize()
    assert float(y.min()) == 1.0


def test_a_launch_in_a_stream_block_uses_the_blocks_stream() -> None:
    axpy = kernels.CudaKernel(AXPY, "axpy")
    axpy.compile()
    n = 1 << 20
    x, y = cupy.zeros(n), cupy.zeros(n)
    with xp.use_backend("cupy"), cuda.stream() as stream:
        slow_fill(x, 1.0)
        axpy(1.0, x, y, n)
    stream.synchronize()
    assert float(y.min()) == 1.0


def test_debug_mode_synchronizes_and_notes_the_synchronization() -> None:
    axpy = kernels.CudaKernel(AXPY, "axpy", debug=True)
    seen: list[Any] = []
    x = cupy.ones(10)
    with listening(lambda *args, **kwargs: seen.append(args)):
        axpy(1.0, x, x, 10)
    assert [event[:2] for event in seen] == [
        ("sync", "debug synchronization after CudaKernel axpy")
    ]
    assert cupy.asnumpy(x).tolist() == [2.0] * 10


def test_check_finite_names_the_array_with_nan() -> None:
    source = 'extern "C" __global__ void poison(double* x) { x[threadIdx.x] = 0.0 / 0.0; }'
    poison = kernels.CudaKernel(source, "poison", check_finite=True)
    with pytest.raises(RuntimeError, match=r"CudaKernel poison left NaN or inf in argument 0"):
        poison(cupy.zeros(4), n_threads=4)


def test_an_out_of_bounds_index_in_debug_mode_is_a_runtime_error_naming_the_launch() -> None:
    code = textwrap.dedent(
        r"""
        import cupy
        from cunumpy import cuda, kernels
        source = '''#include <cunumpy/array_view.cuh>
        extern "C" __global__ void overrun(Array1D<double> a) { a(threadIdx.x + 1) = 1.0; }'''
        overrun = kernels.CudaKernel(source, "overrun")
        with cuda.cuda_debug():
            try:
                overrun(cupy.zeros(32), n_threads=32)
            except RuntimeError as error:
                print("RAISED", error)
        """
    )
    root = Path(__file__).resolve().parents[1]  # this checkout's cunumpy comes first
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=root
    )
    assert (
        "RAISED CudaKernel overrun failed, launched with grid (1,) and block (128,)" in done.stdout
    ), done.stdout + done.stderr
    assert "out of range [0, 32) on axis 0" in done.stdout + done.stderr


def test_block_and_warp_reductions_of_partial_and_2d_blocks() -> None:
    source = r"""
    #include <cunumpy/reduce.cuh>
    extern "C" __global__ void reduce(const double* x, double* sums, double* mins, double* maxs,
                                      double* total, double* warp_sums, long long n) {
        long long t = cunumpy_block_thread();
        long long i = blockIdx.x * (long long)cunumpy_block_threads() + t;
        double v = i < n ? x[i] : 0.0;
        double w = i < n ? x[i] : x[0];  // a value of the range for min/max
        double s = cunumpy_block_sum(v);
        double lo = cunumpy_block_min(w), hi = cunumpy_block_max(w);
        double again = cunumpy_block_sum(v);  // a second call in the same kernel
        if (t == 0) { sums[blockIdx.x] = s + 0.0 * again; mins[blockIdx.x] = lo; maxs[blockIdx.x] = hi; }
        cunumpy_block_sum_to(total, v);
        double ws = cunumpy_warp_sum(v, cunumpy_block_warp_mask());
        if (i < n) warp_sums[i] = ws;
    }"""
    rng = np.random.default_rng(1)
    n, per_block = 1000, 100  # 10 x 10 threads: three warps and a partial one of 4 lanes
    host = rng.integers(-50, 50, n).astype(np.float64)  # integers: every sum is exact
    blocks = -(-n // per_block)
    sums, mins, maxs = (cupy.zeros(blocks) for _ in range(3))
    total, warp_sums = cupy.zeros(1), cupy.zeros(n)
    kernel = kernels.CudaKernel(source, "reduce", block_size=(10, 10))
    kernel(cupy.asarray(host), sums, mins, maxs, total, warp_sums, n, grid=blocks)
    padded = np.concatenate([host, np.zeros(blocks * per_block - n)]).reshape(blocks, per_block)
    np.testing.assert_array_equal(cupy.asnumpy(sums), padded.sum(axis=1))
    ranged = np.concatenate([host, np.full(blocks * per_block - n, host[0])])
    ranged = ranged.reshape(blocks, per_block)
    np.testing.assert_array_equal(cupy.asnumpy(mins), ranged.min(axis=1))
    np.testing.assert_array_equal(cupy.asnumpy(maxs), ranged.max(axis=1))
    assert float(total[0]) == host.sum()
    expected = np.empty(blocks * per_block)
    for b in range(blocks):
        for start in range(0, per_block, 32):
            lanes = slice(b * per_block + start, b * per_block + min(start + 32, per_block))
            expected[lanes] = padded.ravel()[lanes].sum()
    np.testing.assert_array_equal(cupy.asnumpy(warp_sums), expected[:n])


def test_block_scans_give_numpys_cumulative_sums() -> None:
    source = r"""
    #include <cunumpy/scan.cuh>
    extern "C" __global__ void scan(const int* x, int* inclusive, int* exclusive, int* sparse) {
        int t = threadIdx.x;
        inclusive[t] = cunumpy_block_inclusive_sum(x[t]);
        exclusive[t] = cunumpy_block_exclusive_sum(x[t]);
        unsigned odd = 0xaaaaaaaau & cunumpy_block_warp_mask();  // the odd lanes only
        if ((t % 32) % 2 == 1 && odd != 0u) sparse[t] = cunumpy_warp_exclusive_sum(x[t], odd);
    }"""
    host = np.random.default_rng(2).integers(0, 10, 200).astype(np.int32)
    x = cupy.asarray(host)
    inclusive, exclusive, sparse = (cupy.zeros(200, dtype=np.int32) for _ in range(3))
    kernels.CudaKernel(source, "scan", block_size=200)(x, inclusive, exclusive, sparse)
    np.testing.assert_array_equal(cupy.asnumpy(inclusive), np.cumsum(host))
    np.testing.assert_array_equal(cupy.asnumpy(exclusive), np.cumsum(host) - host)
    for start in range(0, 200, 32):
        lanes = np.arange(start + 1, min(start + 32, 200), 2)
        expected = np.cumsum(host[lanes]) - host[lanes]
        np.testing.assert_array_equal(cupy.asnumpy(sparse)[lanes], expected)


def test_verify_layout_measures_the_compilers_layout() -> None:
    struct = arguments.CudaStruct(
        "Mixed", [("flag", "bool"), ("x", "double"), ("n", "int"), ("a", "Array2D<float>"),
                  ("small", "short"), ("c", "CArray3D<double>"), ("z", "unsigned char")],
    )  # fmt: skip
    layout = struct.verify_layout()
    assert layout["sizeof"] == struct.dtype.itemsize
    assert [layout[name] for name in ("flag", "x", "n", "a")] == [0, 8, 16, 24]


def test_random_and_morton_headers_on_the_gpu_give_the_known_answers() -> None:
    source = r"""
    #include <cunumpy/random.cuh>
    #include <cunumpy/morton.cuh>
    extern "C" __global__ void check(unsigned int* words, double* u, unsigned long long* keys) {
        cunumpy_u32x4 zero = {{0u, 0u, 0u, 0u}};
        cunumpy_u32x4 r = cunumpy_philox4x32_10(zero, 0u, 0u);
        for (int k = 0; k < 4; ++k) words[k] = r.v[k];
        cunumpy_uniform2(5ull, 0ull, 0ull, &u[0], &u[1]);
        cunumpy_u32x4 b = cunumpy_random_bits(5ull, 0ull, 0ull);
        for (int k = 0; k < 4; ++k) words[4 + k] = b.v[k];
        keys[0] = cunumpy_morton_encode2(5ull, 3ull);
        keys[1] = cunumpy_morton_key3(9.0, 0.5, 0.26, 0.0, 0.0, 0.0, 4.0, 4.0, 4.0, 2);
    }"""
    words = cupy.zeros(8, dtype=np.uint32)
    u, keys = cupy.zeros(2), cupy.zeros(2, dtype=np.uint64)
    kernels.CudaKernel(source, "check", block_size=1)(words, u, keys, n_threads=1)
    got = cupy.asnumpy(words).tolist()
    assert got[:4] == [0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8]  # Random123's answer
    w = got[4:]
    expected = [((w[0] << 32 | w[1]) >> 11) * 2.0**-53, ((w[2] << 32 | w[3]) >> 11) * 2.0**-53]
    assert cupy.asnumpy(u).tolist() == expected
    # x = 0b101, y = 0b011 -> bits x0 y0 x1 y1 x2 y2 = 1 1 0 1 1 0; cells (3, 2, 1) at 2 levels
    assert cupy.asnumpy(keys).tolist() == [0b011011, 0b011101]
