"""Kernel pairs with struct arguments, geometry-like evaluations on views and kernels that
trap, emulated on the fake CuPy (issue 35: Struphy's GPU path on a CPU; never a GPU check)."""

from __future__ import annotations

import cupy
import numpy as np
import pytest

from cunumpy import arguments, kernel_testing, kernels

PUSH = r"""
#include <cunumpy/array_view.cuh>
struct StateArgs { Array2D<double> x; double* v; int n; };
extern "C" __global__ void push(StateArgs s, double dt) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < s.n) s.x(0, i) += dt * s.v[i];
}"""


class HostState:
    """A host argument class as Pyccel compiles it: fields declared on the class, no ``__dict__``."""

    __slots__ = ("n", "v", "x")

    def __init__(self, x: np.ndarray, v: np.ndarray) -> None:
        self.x, self.v, self.n = x, v, x.shape[1]


class CudaState(arguments.CudaStructArguments):
    """Its CUDA class: the same fields, one of them (``v``) a property."""

    struct_name = "StateArgs"
    fields = (("x", "Array2D<double>"), ("v", "double*"), ("n", "int"))

    def __init__(self, x: object, v: object) -> None:
        self.x, self._v, self.n = x, v, x.shape[1]  # type: ignore[attr-defined]
        self.pack()

    @property
    def v(self) -> object:
        return self._v


def _host_push(state: HostState, dt: float) -> None:
    state.x[0, : state.n] += dt * state.v[: state.n]


def _state_args(backend: str, seed: int) -> tuple[object, float]:
    rng = np.random.default_rng(seed)
    x, v = rng.random((2, 9)), rng.random(9)
    if backend == "numpy":
        return HostState(x, v), 0.5
    return CudaState(cupy.asarray(x), cupy.asarray(v)), 0.5


def _pair(source: str = PUSH) -> kernels.Kernel:
    cuda = kernels.CudaKernel(source, "push", structs=[CudaState.struct])
    return kernels.Kernel(_host_push, cuda, host_options={"outputs": (0,)})


def test_parity_compares_the_fields_of_struct_arguments_emulated() -> None:
    host = kernel_testing.assert_kernels_agree(_pair(), _state_args, n_threads=9)
    assert sorted(host) == ["argument 0.v", "argument 0.x"]
    start = _state_args("numpy", 0)[0]
    expected = start.x.copy()
    expected[0] += 0.5 * start.v
    np.testing.assert_allclose(host["argument 0.x"], expected)


def test_parity_of_struct_arguments_finds_a_wrong_port_emulated() -> None:
    wrong = _pair(PUSH.replace("dt * s.v[i]", "dt * s.v[i] * (i != 4)"))
    with pytest.raises(AssertionError, match=r"argument 0\.x differs"):
        kernel_testing.assert_kernels_agree(wrong, _state_args, n_threads=9)


def test_parity_compares_one_field_of_a_struct_argument_emulated() -> None:
    host = kernel_testing.assert_kernels_agree(_pair(), _state_args, n_threads=9, outputs=["0.x"])
    assert list(host) == ["argument 0.x"]


DIVIDE = r"""extern "C" __global__ void divide(const long long* a, const long long* b, long long* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = a[i] / b[i];
}"""


def test_an_integer_division_by_zero_raises_naming_the_kernel_and_thread_emulated() -> None:
    divide = kernels.CudaKernel(DIVIDE, "divide", block_size=4)
    a, out = cupy.arange(8, dtype=np.int64), cupy.zeros(8, dtype=np.int64)
    b = cupy.asarray([1, 1, 1, 1, 1, 1, 0, 1], dtype=np.int64)
    with pytest.raises(
        ZeroDivisionError,
        match=r"kernel 'divide': an integer division by zero .* in block \(1, 0, 0\), thread \(2, 0, 0\)",
    ):
        divide(a, b, out, 8, n_threads=8)
    assert out.get()[:6].tolist() == [0, 1, 2, 3, 4, 5]  # the threads before it ran
    divide(a, cupy.ones(8, dtype=np.int64), out, 8, n_threads=8)  # the next launch runs
    assert out.get().tolist() == list(range(8))


def test_the_most_negative_integer_divided_by_minus_one_raises_emulated() -> None:
    divide = kernels.CudaKernel(DIVIDE, "divide")
    a = cupy.asarray([np.iinfo(np.int64).min], dtype=np.int64)
    b = cupy.asarray([-1], dtype=np.int64)
    with pytest.raises(ZeroDivisionError, match=r"or of the most negative integer by -1"):
        divide(a, b, cupy.zeros(1, dtype=np.int64), 1, n_threads=1)


def test_a_division_by_zero_after_a_barrier_raises_emulated() -> None:
    source = r"""extern "C" __global__ void divide(const int* b, int* out) {
        __shared__ int seen[4];
        seen[threadIdx.x] = b[threadIdx.x];
        __syncthreads();
        out[threadIdx.x] = 12 / seen[3 - threadIdx.x];
    }"""
    divide = kernels.CudaKernel(source, "divide", block_size=4)
    out = cupy.zeros(4, dtype=np.int32)
    with pytest.raises(ZeroDivisionError, match=r"thread \(3, 0, 0\)"):
        divide(cupy.asarray([0, 1, 2, 3], dtype=np.int32), out, n_threads=4)
