"""CUDA C kernels (ElementwiseKernel, ReductionKernel, RawKernel): CPU fallbacks, GPU runs,
and every CUDA C source of the docs, examples, docstrings and these tests compiled for sm_90.

The compile tests use ``tests/cuda_compile.py`` (NVRTC or nvcc, CuPy's own generated
translation units), so a typo in a kernel fails CI rather than the first GPU run. The GPU tests (marked ``gpu``) check values against NumPy and the
order of work on a stream, with the slow fill of ``gpu_kernels``.
"""

from __future__ import annotations

import doctest
import itertools
import re
import runpy
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from cuda_compile import compile_cuda, compiler_or_skip, elementwise_source, reduction_source
from gpu_kernels import slow_fill

import cunumpy
from cunumpy import kernels
from cunumpy.kernels._cuda_c._cupy_kernels import CudaCKernel

ROOT = Path(__file__).resolve().parent.parent

squared_diff = kernels.ElementwiseKernel(
    "float64 x, float64 y", "float64 z", "z = (x - y) * (x - y)", "cunumpy_test_squared_diff",
    cpu=lambda x, y: (x - y) ** 2,
)  # fmt: skip
generic_axpy = kernels.ElementwiseKernel(
    "T a, T x, T y", "T z", "z = a * x + y", "cunumpy_test_axpy"
)  # no cpu=
l2norm = kernels.ReductionKernel(
    "T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "cunumpy_test_l2norm",
    cpu=lambda x, axis=None, keepdims=False: np.sqrt((x * x).sum(axis=axis, keepdims=keepdims)),
)  # fmt: skip
ADD_SOURCE = r"""
extern "C" __global__ void cunumpy_test_add(const double* x, const double* y, double* out, long long n) {
    long long i = (long long)blockDim.x * blockIdx.x + threadIdx.x;
    if (i < n) out[i] = x[i] + y[i];
}
"""


def _add_cpu(x: np.ndarray, y: np.ndarray, out: np.ndarray, n: Any) -> None:
    out[: int(n)] = x[: int(n)] + y[: int(n)]


raw_add = kernels.RawKernel(ADD_SOURCE, "cunumpy_test_add", cpu=_add_cpu)


# --- on NumPy arrays: cpu= or a RuntimeError -------------------------------------------------


def test_elementwise_kernel_runs_its_cpu_implementation() -> None:
    np.testing.assert_array_equal(squared_diff(np.arange(4.0), 1.0), [1.0, 0.0, 1.0, 4.0])
    received = []

    def record(*args: Any, **kwargs: Any) -> str:
        received.append((args, kwargs))
        return "done"

    sized = kernels.ElementwiseKernel("T x", "T y", "y = x", "copy_it", cpu=record)
    x = np.ones(2)
    assert sized(x, size=2, block_size=64) == "done"
    assert received[0][0][0] is x and received[0][1] == {"size": 2}  # block_size: GPU only


def test_a_portable_kernel_can_be_the_cpu_implementation() -> None:
    pytest.importorskip("numba")

    @kernels.elementwise(["float64(float64, float64)"])
    def diff2(x, y):
        return (x - y) * (x - y)

    both = kernels.ElementwiseKernel(
        "float64 x, float64 y", "float64 z", "z = (x - y) * (x - y)", "diff2", cpu=diff2
    )
    np.testing.assert_array_equal(both(np.arange(3.0), 1.0), [1.0, 0.0, 1.0])


def test_reduction_kernel_forwards_the_keywords_given() -> None:
    x = np.array([[3.0, 4.0], [6.0, 8.0]])
    assert float(l2norm(np.array([3.0, 4.0]))) == 5.0
    np.testing.assert_array_equal(l2norm(x, axis=1), [5.0, 10.0])
    assert l2norm(x, axis=1, keepdims=True).shape == (2, 1)


def test_raw_kernel_runs_its_cpu_implementation() -> None:
    x, y, out = np.arange(5.0), np.ones(5), np.zeros(5)
    assert raw_add((1,), (32,), (x, y, out, np.int64(5))) is None
    np.testing.assert_array_equal(out, x + 1)


def test_without_cpu_numpy_arrays_raise_naming_the_kernel() -> None:
    with pytest.raises(RuntimeError, match="cunumpy_test_axpy: this ElementwiseKernel has no CPU"):
        generic_axpy(2.0, np.ones(3), np.ones(3))
    no_cpu = kernels.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "plain_sum")
    with pytest.raises(RuntimeError, match="plain_sum: this ReductionKernel has no CPU"):
        no_cpu(np.ones(3))
    raw = kernels.RawKernel(ADD_SOURCE, "cunumpy_test_add")
    with pytest.raises(RuntimeError, match="cunumpy_test_add: this RawKernel has no CPU"):
        raw((1,), (1,), (np.ones(1), np.ones(1), np.ones(1), np.int64(1)))


def test_only_scalars_run_where_the_current_backend_says() -> None:
    assert cunumpy.get_backend() == "numpy"
    np.testing.assert_array_equal(squared_diff(3.0, 1.0), 4.0)


def test_call_errors() -> None:
    with pytest.raises(
        ValueError, match="cunumpy_test_squared_diff: `stream` 7 cannot be honoured"
    ):
        squared_diff(np.ones(2), 1.0, stream=7)
    with pytest.raises(ValueError, match="cannot be honoured"):
        l2norm(np.ones(2), stream=7)
    with pytest.raises(TypeError, match=r"`args` must be a tuple \(or list\) of kernel arguments"):
        raw_add((1,), (1,), np.ones(3))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"argument 1 is a list"):
        squared_diff(np.ones(2), [1.0, 2.0])


def test_constructor_errors() -> None:
    with pytest.raises(TypeError, match="`operation` must be a str"):
        kernels.ElementwiseKernel("T x", "T y", None, "bad")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="`cpu` must be a callable or None"):
        kernels.ElementwiseKernel("T x", "T y", "y = x", "bad", cpu=3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="`name` must be a non-empty str"):
        kernels.RawKernel(ADD_SOURCE, "")
    with pytest.raises(ValueError, match="`backend` must be 'nvrtc' or 'nvcc', not 'clang'"):
        kernels.RawKernel(ADD_SOURCE, "cunumpy_test_add", backend="clang")
    with pytest.raises(TypeError, match="`map_expr` must be a str"):
        kernels.ReductionKernel("T x", "T y", 1, "a + b", "y = a", "0")  # type: ignore[arg-type]


def test_the_cupy_kernel_is_made_on_first_use() -> None:
    cupy = pytest.importorskip("cupy")
    late = kernels.ElementwiseKernel("T x", "T y", "y = x", "made_late")
    assert late._cupy_kernel is None
    made = late.kernel()
    assert late.kernel() is made
    assert isinstance(made, cupy.ElementwiseKernel) and made.name == "made_late"
    assert isinstance(l2norm.kernel(), cupy.ReductionKernel)
    assert isinstance(raw_add.kernel(), cupy.RawKernel)
    assert repr(raw_add) == "<RawKernel 'cunumpy_test_add', with a CPU implementation>"


# --- on a GPU -----------------------------------------------------------------------------


@pytest.mark.gpu
def test_cuda_c_kernels_on_cupy_arrays_match_numpy() -> None:
    cupy = pytest.importorskip("cupy")
    x = np.linspace(0.0, 1.0, 1000)
    np.testing.assert_allclose(cupy.asnumpy(squared_diff(cupy.asarray(x), 0.5)), (x - 0.5) ** 2)
    z = generic_axpy(
        np.float32(2.0), cupy.ones(3, dtype=np.float32), cupy.ones(3, dtype=np.float32)
    )
    assert z.dtype == np.float32 and cupy.asnumpy(z).tolist() == [3.0, 3.0, 3.0]
    m = np.arange(12.0).reshape(3, 4)
    np.testing.assert_allclose(
        cupy.asnumpy(l2norm(cupy.asarray(m), axis=1)), np.sqrt((m * m).sum(1))
    )
    out = cupy.zeros(1000)
    raw_add((4,), (256,), (cupy.asarray(x), cupy.asarray(x), out, np.int64(1000)))
    np.testing.assert_allclose(cupy.asnumpy(out), 2 * x)


@pytest.mark.gpu
def test_cuda_c_kernels_are_ordered_on_their_stream() -> None:
    cupy = pytest.importorskip("cupy")
    n = 1 << 18
    x = cupy.zeros(n)
    # compiled first: a kernel compiled inside the call would start after the fill anyway
    l2norm(squared_diff(x, 1.0))
    raw_add(((n + 255) // 256,), (256,), (x, x, cupy.zeros(n), np.int64(n)))
    cupy.cuda.Device().synchronize()
    stream = cupy.cuda.Stream(non_blocking=True)
    with stream:
        slow_fill(x, 3.0)
    diff = squared_diff(x, 1.0, stream=stream)  # after the fill
    norm = l2norm(diff, stream=stream.ptr)  # after the elementwise kernel (a raw handle)
    total = cupy.zeros(n)
    raw_add(((n + 255) // 256,), (256,), (x, diff, total, np.int64(n)), stream=stream)
    with stream:
        twice = total * 2  # CuPy work after the raw kernel, on the same stream
    stream.synchronize()
    assert float(cupy.abs(diff - 4.0).max()) == 0.0
    assert float(norm) == pytest.approx(np.sqrt(n * 16.0))
    assert float(cupy.abs(twice - 14.0).max()) == 0.0


@pytest.mark.gpu
def test_cuda_c_kernel_on_another_stream_waits_for_the_current_stream() -> None:
    cupy = pytest.importorskip("cupy")
    x = cupy.zeros(1 << 18)
    squared_diff(x, 1.0)  # compiled first
    cupy.cuda.Device().synchronize()
    slow_fill(x, 3.0)  # on the current stream
    stream = cupy.cuda.Stream(non_blocking=True)
    diff = squared_diff(x, 1.0, stream=stream)
    stream.synchronize()
    assert float(cupy.abs(diff - 4.0).max()) == 0.0


@pytest.mark.gpu
def test_cuda_c_kernels_check_devices() -> None:
    cupy = pytest.importorskip("cupy")
    with pytest.raises(TypeError, match="mix NumPy"):
        squared_diff(cupy.ones(2), np.ones(2))
    if cupy.cuda.runtime.getDeviceCount() < 2:
        pytest.skip("the two-GPU checks need two GPUs")
    with cupy.cuda.Device(0):
        a = cupy.ones(2)
    with cupy.cuda.Device(1):
        b = cupy.ones(2)
        other = cupy.cuda.Stream(non_blocking=True)
    with pytest.raises(ValueError, match=r"live on GPUs \[0, 1\]"):
        squared_diff(a, b)
    with pytest.raises(ValueError, match="belongs to GPU 1, but the work runs on GPU 0"):
        l2norm(a, stream=other)
    with pytest.raises(ValueError, match="belongs to GPU 1"):
        raw_add((1,), (2,), (a, a, cupy.empty(2), np.int64(2)), stream=other)
    np.testing.assert_array_equal(cupy.asnumpy(squared_diff(b, 0.0)), [1.0, 1.0])  # runs on GPU 1


# --- every shipped CUDA C source compiles for sm_90 ------------------------------------------


def _kernels_in(namespace: dict[str, Any]) -> list[CudaCKernel]:
    return [v for v in namespace.values() if isinstance(v, CudaCKernel)]


_CUDA_C_CLASSES = re.compile(r"\b(ElementwiseKernel|ReductionKernel|RawKernel)\b")


def _shipped_kernels() -> dict[str, CudaCKernel]:
    """The CUDA C kernels of docs/kernels.md, examples/, cunumpy.kernels' docstrings and here."""
    found: dict[str, CudaCKernel] = {}
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    finder = doctest.DocTestFinder()
    tests = [
        test
        for name in kernels.__all__
        for test in finder.find(getattr(kernels, name), f"cunumpy.kernels.{name}", globs={})
    ]
    page = (ROOT / "docs" / "kernels.md").read_text()
    tests.append(doctest.DocTestParser().get_doctest(page, {}, "kernels.md", "kernels.md", 0))
    for test in tests:
        runner.run(test, out=lambda _: None, clear_globs=False)
        for k in _kernels_in(test.globs):
            found[f"{test.name}:{k.name}"] = k
    for path in sorted((ROOT / "examples").glob("*.py")):
        if not _CUDA_C_CLASSES.search(path.read_text()):
            continue  # run only the examples with CUDA C kernels (heat2d.py needs MPI)
        for k in _kernels_in(runpy.run_path(str(path), run_name="cunumpy_kernels_scan")):
            found[f"{path.name}:{k.name}"] = k
    for k in _kernels_in(globals()):
        found[f"tests:{k.name}"] = k
    return found


_TYPE_PARAMETER = re.compile(r"^[A-Z]\w*$")


def _instantiations(params: str) -> list[tuple[Any, ...]]:
    """Input dtypes to compile with: each type parameter as float64, then float32."""
    types = [p.split()[-2] for p in params.split(",") if p.strip()]
    choices = [
        (np.float64, np.float32) if _TYPE_PARAMETER.match(t) else (np.dtype(t).type,) for t in types
    ]
    combos = list(itertools.product(*choices))
    # a type parameter names one type in every position it appears in
    return [c for c in combos if _consistent(types, c)]


def _consistent(types: list[str], combo: tuple[Any, ...]) -> bool:
    bound: dict[str, Any] = {}
    return all(
        bound.setdefault(t, c) is c for t, c in zip(types, combo) if _TYPE_PARAMETER.match(t)
    )


def test_the_scan_finds_the_kernels_of_docs_examples_and_docstrings() -> None:
    pytest.importorskip("numba")
    found = _shipped_kernels()
    names = {key.split(":", 1)[0] for key in found}
    assert {"kernels.md", "tests"} <= names, names
    for kind in ("ElementwiseKernel", "ReductionKernel", "RawKernel"):
        assert f"cunumpy.kernels.{kind}" in names, names  # each class's docstring example
    assert len(found) >= 10


def test_every_cuda_c_source_compiles_for_sm90() -> None:
    pytest.importorskip("cupy")
    pytest.importorskip("numba")
    compiler_or_skip()
    compiled = 0
    for label, k in sorted(_shipped_kernels().items()):
        if isinstance(k, kernels.RawKernel):
            sources = [k.code]
        elif isinstance(k, kernels.ElementwiseKernel):
            sources = [
                elementwise_source(k.kernel(), dtypes, **form)
                for dtypes in _instantiations(k.in_params)
                for form in ({}, {"ndim": 2, "c_contiguous": False})
            ]
        else:
            sources = [
                reduction_source(k.kernel(), dtypes, **form)
                for dtypes in _instantiations(k.in_params)
                for form in ({}, {"in_ndim": 2, "out_ndim": 1})
            ]
        for source in sources:
            assert f"{k.name}(" in source, label
            compile_cuda(source, name=label)
            compiled += 1
    assert compiled >= 10


def test_a_broken_cuda_c_kernel_fails_the_compile_check() -> None:
    """The check can fail: a typo in a kernel's operation is an AssertionError with the log."""
    pytest.importorskip("cupy")
    compiler_or_skip()
    broken = kernels.ElementwiseKernel("T x", "T y", "y = x +* 2", "cunumpy_kernels_broken")
    source = elementwise_source(broken.kernel(), (np.float64,))
    with pytest.raises(AssertionError, match="cunumpy_kernels_broken does not compile"):
        compile_cuda(source, name="cunumpy_kernels_broken")
