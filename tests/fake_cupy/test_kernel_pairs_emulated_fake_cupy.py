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
