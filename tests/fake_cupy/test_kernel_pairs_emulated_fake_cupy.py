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


GRID = r"""
#include <cunumpy/array_view.cuh>
struct GeomArgs { Array1D<double> params; Array2D<double> cx; long long* kinds; int kind; };
extern "C" __global__ void grid_push(Array4D<double> a, Array3D<double> e1, Array3D<double> e2,
                                     Array3D<double> e3, GeomArgs g, Array4D<double> out) {
    long long n1 = out.shape[0], n2 = out.shape[1], n3 = out.shape[2];
    long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (t >= n1 * n2 * n3) return;
    long long i = t / (n2 * n3), j = (t / n3) % n2, k = t % n3;
    double x = e1(i, 0, 0), y = e2(0, j, 0), z = e3(0, 0, k);
    double s = g.params(0) + g.params(1) * x + g.cx(j % g.cx.shape[0], k % g.cx.shape[1]);
    for (long long c = 0; c < out.shape[3]; ++c)
        out(i, j, k, c) = a(i, j, k, c) * s * (c + 1) + y * z * g.kind * g.kinds[c];
}"""


class HostGeom:
    __slots__ = ("cx", "kind", "kinds", "params")

    def __init__(self, params: object, cx: object, kinds: object, kind: int) -> None:
        self.params, self.cx, self.kinds, self.kind = params, cx, kinds, kind


class CudaGeom(arguments.CudaStructArguments):
    struct_name = "GeomArgs"
    fields = (
        ("params", "Array1D<double>"),
        ("cx", "Array2D<double>"),
        ("kinds", "long long*"),
        ("kind", "int"),
    )

    def __init__(self, params: object, cx: object, kinds: object, kind: int) -> None:
        self.params, self.cx, self.kinds, self.kind = params, cx, kinds, kind
        self.pack()


def _host_grid_push(a, e1, e2, e3, g, out) -> None:  # type: ignore[no-untyped-def]
    n1, n2, n3 = out.shape[:3]
    for i in range(n1):
        for j in range(n2):
            for k in range(n3):
                x, y, z = e1[i, 0, 0], e2[0, j, 0], e3[0, 0, k]
                cx = g.cx[j % g.cx.shape[0], k % g.cx.shape[1]]
                s = g.params[0] + g.params[1] * x + cx
                for c in range(out.shape[3]):
                    out[i, j, k, c] = a[i, j, k, c] * s * (c + 1) + y * z * g.kind * g.kinds[c]


def _grid_args(backend: str, seed: int) -> tuple[object, ...]:
    """Views as Struphy passes them: new axes (zero strides), offsets, a transposed and a
    Fortran-ordered array, an output that is every other column of a larger array."""
    rng = np.random.default_rng(seed)
    move = (lambda v: v) if backend == "numpy" else cupy.asarray
    eta = [move(np.linspace(0.1, 0.9, n)) for n in (5, 4, 3)]
    e1, e2, e3 = eta[0][:, None, None], eta[1][None, :, None], eta[2][None, None, :]
    a = move(np.asfortranarray(rng.random((5, 4, 3, 3))))
    params = move(rng.random(7))[2:6:2]  # an offset and a stride
    cx = move(rng.random((3, 2))).T  # transposed
    kinds = move(np.array([1, -2, 3], dtype=np.int64))
    geom = (HostGeom if backend == "numpy" else CudaGeom)(params, cx, kinds, np.int32(2))
    storage = move(np.full((5, 4, 3, 7), 17.0))
    return a, e1, e2, e3, geom, storage[..., 1::2][..., :3]


def test_a_geometry_like_evaluation_on_views_agrees_with_numpy_emulated() -> None:
    cuda = kernels.CudaKernel(GRID, "grid_push", structs=[CudaGeom.struct])
    pair = kernels.Kernel(_host_grid_push, cuda, host_options={"outputs": (5,)})
    host = kernel_testing.assert_kernels_agree(pair, _grid_args, n_threads=60, rtol=1e-14)
    assert list(host) == ["argument 5"]
    assert not np.isnan(host["argument 5"]).any() and (host["argument 5"] != 17.0).all()


def test_reading_past_a_broadcast_length_one_axis_traps_in_debug_mode_emulated() -> None:
    # Struphy's push of constant values: `a` of shape (1, 1, 1, 3) read over the whole grid
    cuda = kernels.CudaKernel(GRID, "grid_push", structs=[CudaGeom.struct], debug=True)
    a, e1, e2, e3, geom, out = _grid_args("cupy", 0)
    with pytest.raises(RuntimeError, match=r"__trap\(\) \(e\.g\. a failed bounds check\)"):
        cuda(a[:1, :1, :1], e1, e2, e3, geom, out, n_threads=60)


def test_parity_compares_the_fields_of_a_struct_value_emulated() -> None:
    def make_args(backend: str, seed: int) -> tuple[object, float]:
        state, dt = _state_args(backend, seed)
        if backend == "numpy":
            return state, dt
        return CudaState.struct(x=state.x, v=state.v, n=state.n), dt  # type: ignore[attr-defined]

    host = kernel_testing.assert_kernels_agree(_pair(), make_args, n_threads=9)
    assert sorted(host) == ["argument 0.v", "argument 0.x"]
