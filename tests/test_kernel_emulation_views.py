"""The CPU emulator runs what real clients' kernels contain (Struphy 3.5.0's, feectools 0.9.0's).

Array-view parameters (``Array2D<double>``, also from a client's own header), structs that
hold views, and inline PTX. Every test is marked ``emulated``: the CUDA C runs as C++ on
the CPU (g++), never a GPU check.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from cunumpy import arguments
from cunumpy.kernel_testing import emulate_cuda_kernel, emulation_compiler
from cunumpy.kernels import CudaKernel

pytestmark = [
    pytest.mark.emulated,
    pytest.mark.skipif(emulation_compiler() is None, reason="the emulation needs a C++ compiler"),
]

SCALE_ROWS = r"""
extern "C" __global__ void scale_rows(Array2D<double> m, const double* factor) {
    long long i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < m.shape[0])
        for (long long j = 0; j < m.shape[1]; ++j) m(i, j) *= factor[i];
}
"""

#: A client's own view header, as Struphy's struphy/kernel_arguments/array_view.cuh.
CLIENT_VIEWS = r"""
#pragma once
template<class T> struct Array2D {
    T* data;
    long long shape[2], strides[2];
    __device__ inline T& operator()(long long i, long long j) const {
        return data[i*strides[0]+j*strides[1]];
    }
};
"""


def test_emulated_array_view_parameters_take_strided_arrays() -> None:
    kernel = CudaKernel('#include "cunumpy/array_view.cuh"\n' + SCALE_ROWS, "scale_rows")
    base = np.arange(24.0).reshape(4, 6)
    expected = base.copy()
    expected[:, 1::2] *= np.array([1.0, 2.0, 3.0, 4.0])[:, None]
    emulate_cuda_kernel(kernel, base[:, 1::2], np.array([1.0, 2.0, 3.0, 4.0]), n_threads=4)
    np.testing.assert_array_equal(base, expected)  # the other columns are untouched


def test_emulated_views_declared_in_the_clients_own_header(tmp_path: Path) -> None:
    (tmp_path / "client").mkdir()
    (tmp_path / "client" / "views.cuh").write_text(CLIENT_VIEWS)
    kernel = CudaKernel(
        '#include "client/views.cuh"\n' + SCALE_ROWS, "scale_rows", include_dirs=[tmp_path]
    )
    m = np.ones((3, 2)).T  # a transposed (Fortran-order) array: strides (1, 2)
    emulate_cuda_kernel(kernel, m, np.array([5.0, 7.0]), n_threads=2)
    np.testing.assert_array_equal(m, [[5.0, 5.0, 5.0], [7.0, 7.0, 7.0]])


def test_emulated_view_parameters_check_dimensions_and_dtype() -> None:
    kernel = CudaKernel('#include "cunumpy/array_view.cuh"\n' + SCALE_ROWS, "scale_rows")
    with pytest.raises(TypeError, match=r"'m' \(Array2D<double>\) takes a 2-D array, not 1-D"):
        emulate_cuda_kernel(kernel, np.ones(3), np.ones(3), n_threads=3)
    with pytest.raises(
        TypeError, match=r"'m' \(Array2D<double>\) takes float64 elements, not int64"
    ):
        emulate_cuda_kernel(kernel, np.ones((3, 2), dtype=np.int64), np.ones(3), n_threads=3)


MARKERS = arguments.CudaStruct(
    "MarkerArgs", [("markers", "Array2D<double>"), ("valid", "bool*"), ("n", "int")]
)
PUSH = (
    '#include "cunumpy/array_view.cuh"\n'
    + MARKERS.declaration
    + r"""
extern "C" __global__ void push(MarkerArgs args, double dt) {
    int ip = blockIdx.x * blockDim.x + threadIdx.x;
    if (ip < args.n && args.valid[ip]) args.markers(0, ip) += dt * args.markers(1, ip);
}
"""
)


@pytest.mark.parametrize("form", ["mapping", "object"])
def test_emulated_structs_that_hold_views(form: str) -> None:
    kernel = CudaKernel(PUSH, "push", structs=[MARKERS])
    markers = np.array([[0.0, 1.0, 2.0, 3.0], [10.0, 20.0, 30.0, 40.0]])
    valid = np.array([True, False, True, True])
    fields = {"markers": markers, "valid": valid, "n": 3}
    value = fields if form == "mapping" else SimpleNamespace(**fields)
    emulate_cuda_kernel(kernel, value, 0.5, n_threads=4)
    # marker 1 is not valid, marker 3 is past n
    np.testing.assert_array_equal(markers[0], [5.0, 1.0, 17.0, 3.0])


def test_emulated_struct_values_name_a_missing_field() -> None:
    kernel = CudaKernel(PUSH, "push", structs=[MARKERS])
    with pytest.raises(TypeError, match=r"struct MarkerArgs \(dict\) has no field 'valid'"):
        emulate_cuda_kernel(kernel, {"markers": np.ones((2, 3)), "n": 3}, 0.5, n_threads=3)


def _with_asm(statement: str) -> CudaKernel:
    return CudaKernel(
        'extern "C" __global__ void guarded(double* x, int kind) {\n'
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        f"    if (kind < 0) {statement};\n"
        "    x[i] = kind;\n"
        "}",
        "guarded",
    )


def test_emulated_inline_ptx_trap_stops_the_launch_when_reached() -> None:
    kernel = _with_asm('asm("trap;")')  # Struphy's mapping dispatch, for an unknown kind
    x = np.zeros(4)
    emulate_cuda_kernel(kernel, x, 3, grid=1, block=4)
    np.testing.assert_array_equal(x, 3.0)
    with pytest.raises(RuntimeError, match=r"kernel 'guarded' called __trap\(\)"):
        emulate_cuda_kernel(kernel, x, -1, grid=1, block=4)


def test_emulated_inline_ptx_fences_order_nothing() -> None:
    x = np.zeros(4)
    emulate_cuda_kernel(
        _with_asm('asm volatile("membar.gl;" ::: "memory")'), x, -2, grid=1, block=4
    )
    np.testing.assert_array_equal(x, -2.0)


def test_emulated_inline_ptx_names_an_instruction_it_cannot_run() -> None:
    kernel = _with_asm('asm volatile("mov.u32 %0, %%laneid;" : "=r"(kind))')
    with pytest.raises(NotImplementedError, match=r"kernel 'guarded'.*PTX instruction 'mov.u32'"):
        emulate_cuda_kernel(kernel, np.zeros(4), -1, grid=1, block=4)


def test_emulated_inline_ptx_in_a_header_is_named_when_reached(tmp_path: Path) -> None:
    (tmp_path / "timer.cuh").write_text(
        '__device__ inline void wait() { int t; asm("mov.u32 %0, %%clock;" : "=r"(t)); }\n'
    )
    kernel = CudaKernel(
        '#include "timer.cuh"\n'
        'extern "C" __global__ void waits(double* x, int n) {\n'
        "    if (n < 0) wait();\n"
        "    x[threadIdx.x] = n;\n"
        "}",
        "waits",
        include_dirs=[tmp_path],
    )
    x = np.zeros(2)
    emulate_cuda_kernel(kernel, x, 1, grid=1, block=2)  # not reached: runs
    np.testing.assert_array_equal(x, 1.0)
    with pytest.raises(NotImplementedError, match=r"kernel 'waits'.*PTX instruction 'mov.u32'"):
        emulate_cuda_kernel(kernel, x, -1, grid=1, block=2)


def test_emulated_cuda_kernel_launches_as_a_call_would_without_a_launch_shape() -> None:
    kernel = CudaKernel(
        'extern "C" __global__ void iota(double* x, int n) {\n'
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i < n) x[i] = i;\n"
        "}",
        "iota",
    )
    x = np.full(300, -1.0)
    emulate_cuda_kernel(kernel, x, 300)  # one thread per element of the first array
    np.testing.assert_array_equal(x, np.arange(300.0))
