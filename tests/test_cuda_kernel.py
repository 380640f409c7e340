"""CudaKernel on the CPU: parsing, argument checks and packing, launch shapes, options, debug mode.

The checks of CuPy arrays use a minimal stand-in for ``cupy.ndarray`` (``fake_cupy``
marker, "fake_cupy" in the test names): it proves what the checks accept and reject,
not that a kernel runs; the launches are in tests/test_cuda_kernel_gpu.py (GPU).
"""

from __future__ import annotations

import os
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cunumpy import arguments, cuda, kernels

ROOT = Path(__file__).resolve().parents[1]  # this checkout's cunumpy first

AXPY = r"""
extern "C" __global__
void axpy(double a, const double* x, double* y, int n) {
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i < n) y[i] += a * x[i];
}
"""


class FakeDeviceArray:
    """What the checks read of a CuPy array, over a NumPy array (the address is NumPy's)."""

    def __init__(self, host: np.ndarray) -> None:
        self.host = host
        self.dtype, self.shape, self.ndim = host.dtype, host.shape, host.ndim
        self.strides, self.flags, self.size = host.strides, host.flags, host.size
        self.data = types.SimpleNamespace(ptr=host.ctypes.data)
        self.device = types.SimpleNamespace(id=0)


@pytest.fixture
def fake_cupy(monkeypatch: pytest.MonkeyPatch) -> Any:
    module = types.ModuleType("cupy")
    module.ndarray = FakeDeviceArray  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "cupy", module)
    return FakeDeviceArray


# --- parsing --------------------------------------------------------------------------


def test_the_signature_gives_each_parameters_c_type_and_dtype() -> None:
    params = kernels.CudaKernel(AXPY, "axpy").signature
    assert params is not None
    assert [(p.name, p.ctype, p.pointer) for p in params] == [
        ("a", "double", False), ("x", "double", True), ("y", "double", True), ("n", "int", False),
    ]  # fmt: skip
    assert [p.dtype for p in params] == [np.float64, np.float64, np.float64, np.int32]


def test_qualifiers_views_complex_and_lp64_types_are_read() -> None:
    source = """extern "C" __global__ void f(const double* __restrict__ x, Array2D< const float > v,
        CArray3D<double> w, unsigned long long n, long m, thrust::complex<double> z, void* raw) {}"""
    p = cuda.parse_cuda_signature(source, "f")
    assert (p[1].ctype, p[1].view_ndim, p[1].contiguous, p[1].dtype) == (
        "Array2D<float>", 2, False, np.float32,
    )  # fmt: skip
    assert (p[2].ctype, p[2].view_ndim, p[2].contiguous) == ("CArray3D<double>", 3, True)
    assert [p[3].dtype, p[4].dtype, p[5].dtype] == [np.uint64, np.int64, np.complex128]
    assert (p[6].pointer, p[6].dtype) == (True, None)


def test_a_template_is_instantiated_with_its_template_args() -> None:
    source = "template <typename T, int D> __global__ void scale(T* x, T a, int n) {}"
    kernel = kernels.CudaKernel(source, "scale", template_args=(np.float32, 3))
    assert kernel.expression == "scale<float, 3>"
    assert kernel.signature is not None
    assert [p.dtype for p in kernel.signature] == [np.float32, np.float32, np.int32]
    with pytest.raises(ValueError, match=r"template with 2 parameter.*template_args"):
        kernels.CudaKernel(source, "scale")


@pytest.mark.parametrize(
    ("source", "match"),
    [
        ('extern "C" __global__ void g(double* x) {}', r"no __global__ function 'f'.*\['g'\]"),
        ('extern "C" __global__ void f(double** x) {}', r"double\*\*.*cannot be checked"),
        ('extern "C" __global__ void f(Vec v) {}', r"'Vec'.*cannot be checked"),
        ('extern "C" __global__ void f(ARGS) {}', r"cannot read the parameter 'ARGS'"),
    ],
)
def test_an_unreadable_signature_is_a_value_error(source: str, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        kernels.CudaKernel(source, "f")


def test_check_signature_false_takes_any_source_and_passes_arguments_on() -> None:
    kernel = kernels.CudaKernel('extern "C" __global__ void f(ARGS) {}', "f", check_signature=False)
    assert kernel.signature is None
    assert kernel.prepare_args(1, "x") == (1, "x")


def test_kernel_names_skip_comments() -> None:
    source = AXPY + "\n// __global__ void old(int* x) {}\n/* __global__ void gone() */"
    assert cuda.cuda_kernel_names(source) == ["axpy"]


@pytest.mark.parametrize(
    ("dtype", "ctype"),
    [(np.bool_, "bool"), (np.int8, "signed char"), (np.uint16, "unsigned short"),
     (np.int64, "long long"), (np.float32, "float"), (np.complex64, "complex<float>")],
)  # fmt: skip
def test_ctype_of_round_trips_through_the_parser(dtype: Any, ctype: str) -> None:
    assert cuda.ctype_of(dtype) == ctype
    (param,) = cuda.parse_cuda_signature(f'extern "C" __global__ void f({ctype} v) {{}}', "f")
    assert param.dtype == np.dtype(dtype)


def test_ctype_of_a_dtype_without_c_type_is_a_value_error() -> None:
    with pytest.raises(ValueError, match=r"ctype_of: the dtype .*<U3.* has no C type"):
        cuda.ctype_of("<U3")


# --- scalar checks (no arrays: no CuPy needed) -------------------------------------------


def test_scalars_are_cast_to_the_declared_c_types() -> None:
    values = kernels.CudaKernel(AXPY, "axpy", check_signature=True)._checkers
    assert values is not None
    a, n = values[0](2), values[3](np.int64(7))
    assert (type(a), a) == (np.float64, 2.0)
    assert (type(n), n) == (np.int32, 7)


def test_an_integer_out_of_range_is_an_overflow_error_naming_kernel_parameter_and_value() -> None:
    kernel = kernels.CudaKernel(AXPY, "axpy")
    with pytest.raises(
        OverflowError, match=r"CudaKernel axpy: parameter 3 \(int n\): 2147483648 is out"
    ):
        kernel._checkers[3](2**31)  # type: ignore[index]


@pytest.mark.parametrize(
    ("index", "value", "match"),
    [
        (0, "2.0", r"parameter 0 \(double a\) takes a double .*'2.0'.* of type str"),
        (0, 1j, r"parameter 0 \(double a\) takes a double .*1j"),
        (3, 1.5, r"parameter 3 \(int n\) takes an int .*1.5"),
    ],
)
def test_a_scalar_that_does_not_convert_is_a_type_error(index: int, value: Any, match: str) -> None:
    kernel = kernels.CudaKernel(AXPY, "axpy")
    with pytest.raises(TypeError, match=match):
        kernel._checkers[index](value)  # type: ignore[index]


def test_a_float32_parameter_refuses_a_float64_numpy_scalar_but_takes_a_python_float() -> None:
    (check,) = kernels.CudaKernel('extern "C" __global__ void f(float a) {}', "f")._checkers  # type: ignore[misc]
    assert type(check(0.5)) is np.float32
    with pytest.raises(TypeError, match=r"takes a float \(float32\), not np.float64"):
        check(np.float64(0.5))


def test_the_argument_count_is_checked_after_flattening_argument_objects() -> None:
    kernel = kernels.CudaKernel('extern "C" __global__ void f(double a, int n) {}', "f")
    assert kernel.prepare_args(arguments.CudaArguments(1.0, 2)) == (1.0, 2)
    with pytest.raises(TypeError, match=r"CudaKernel f takes 2 arguments .* not 3"):
        kernel.prepare_args(arguments.CudaArguments(1.0, 2), 3)


# --- array checks (fake CuPy arrays) ------------------------------------------------------


def test_numpy_arrays_are_a_type_error_naming_the_kernel_and_parameter() -> None:
    kernel = kernels.CudaKernel(AXPY, "axpy")
    x = np.zeros(4)
    with pytest.raises(
        TypeError,
        match=r"CudaKernel axpy: parameter 1 \(double\* x\) takes a CuPy array, not numpy.ndarray.*never copy host data",
    ):
        kernel(2.0, x, x, 4)


@pytest.mark.fake_cupy
def test_fake_cupy_arrays_pass_unchanged_and_wrong_dtype_or_layout_raise(fake_cupy: Any) -> None:
    kernel = kernels.CudaKernel(AXPY, "axpy")
    x = fake_cupy(np.zeros(8))
    assert kernel.prepare_args(2.0, x, x, 8)[1] is x
    with pytest.raises(
        TypeError, match=r"parameter 2 \(double\* y\) takes dtype float64, not .*float32"
    ):
        kernel.prepare_args(2.0, x, fake_cupy(np.zeros(8, np.float32)), 8)
    with pytest.raises(TypeError, match=r"parameter 1 \(double\* x\) reads a flat buffer.*\(16,\)"):
        kernel.prepare_args(2.0, fake_cupy(np.zeros(16)[::2]), x, 8)


@pytest.mark.fake_cupy
def test_fake_cupy_view_parameters_are_packed_with_strides_in_elements(fake_cupy: Any) -> None:
    kernel = kernels.CudaKernel(
        'extern "C" __global__ void f(Array2D<double> a, CArray1D<int> b) {}', "f"
    )
    host = np.zeros((6, 10))
    a = fake_cupy(host[::2, 1:5])
    packed_a, packed_b = kernel.prepare_args(a, fake_cupy(np.arange(3, dtype=np.int32)))
    assert int(packed_a["data"]) == host.ctypes.data + 8
    assert packed_a["shape"].tolist() == [3, 4]
    assert packed_a["strides"].tolist() == [20, 1]
    assert packed_a.dtype.itemsize == 8 * 5 and packed_b.dtype.itemsize == 8 * 2
    with pytest.raises(TypeError, match=r"parameter 0 \(Array2D<double> a\) takes a 2-D array"):
        kernel.prepare_args(fake_cupy(np.zeros(3)), fake_cupy(np.zeros(3, np.int32)))
    with pytest.raises(TypeError, match=r"parameter 1 \(CArray1D<int> b\) takes a C-contiguous"):
        kernel.prepare_args(a, fake_cupy(np.zeros(6, np.int32)[::2]))


@pytest.mark.fake_cupy
def test_fake_cupy_struct_parameters_take_values_of_their_struct_only(fake_cupy: Any) -> None:
    vec = arguments.CudaStruct("Vec", [("data", "double*"), ("n", "int")])
    other = arguments.CudaStruct("Other", [("data", "double*"), ("n", "int")])
    source = vec.declaration + 'extern "C" __global__ void scale(Vec v, double a) {}'
    kernel = kernels.CudaKernel(source, "scale", structs=[vec])
    host = np.zeros(5)
    (packed, a) = kernel.prepare_args(vec(data=fake_cupy(host), n=5), 2)
    assert (int(packed["data"]), int(packed["n"]), a) == (host.ctypes.data, 5, 2.0)
    with pytest.raises(
        TypeError, match=r"parameter 0 \(Vec v\) does not take a value of struct Other"
    ):
        kernel.prepare_args(other(data=fake_cupy(host), n=5), 2)


def test_a_struct_definition_that_differs_from_its_cuda_struct_is_a_value_error() -> None:
    vec = arguments.CudaStruct("Vec", [("data", "double*"), ("n", "int")])
    source = 'struct Vec { double* data; long n; };\nextern "C" __global__ void f(Vec v) {}'
    with pytest.raises(ValueError, match=r"defines the fields \[double\* data, long n\].*int n"):
        kernels.CudaKernel(source, "f", structs=[vec])


# --- launch shape -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("block_size", "n_threads", "expected"),
    [(128, 1000, ((8,), (128,))), (128, 0, ((0,), (128,))), ((16, 16), (100, 50), ((7, 4), (16, 16))),
     (32, (64, 3), ((2, 3), (32, 1))), ((4, 4, 4), (9, 8, 1), ((3, 2, 1), (4, 4, 4)))],
)  # fmt: skip
def test_the_grid_covers_n_threads_with_whole_blocks(
    block_size: Any, n_threads: Any, expected: Any
) -> None:
    kernel = kernels.CudaKernel(AXPY, "axpy", block_size=block_size)
    assert kernel.launch_shape(n_threads) == expected


def test_n_threads_is_inferred_from_the_first_array_or_a_rule() -> None:
    kernel = kernels.CudaKernel(AXPY, "axpy", block_size=(8, 8))
    assert kernel.launch_shape(args=(1.0, np.zeros((20, 9)))) == ((3, 2), (8, 8))
    kernel = kernels.CudaKernel(AXPY, "axpy", block_size=8, n_threads_from="last_axis")
    assert kernel.launch_shape(args=(1.0, np.zeros((20, 9)))) == ((2,), (8,))
    kernel.n_threads_from = "first_array"
    assert kernel.launch_shape(args=(1.0, np.zeros((20, 9)))) == ((3,), (8,))
    kernel.n_threads_from = lambda args: args[0]
    assert kernel.launch_shape(args=(17, 2)) == ((3,), (8,))
    kernel.n_threads_from = None
    with pytest.raises(TypeError, match=r"exactly one of `n_threads` and `grid`"):
        kernel.launch_shape(args=(np.zeros(3),))


def test_an_explicit_grid_and_a_bad_block_are_checked() -> None:
    kernel = kernels.CudaKernel(AXPY, "axpy")
    assert kernel.launch_shape(grid=(4, 2), block=(32, 4)) == ((4, 2), (32, 4))
    with pytest.raises(ValueError, match=r"block of \(64, 32\) is not launchable"):
        kernel.launch_shape(10, block=(64, 32))
    with pytest.raises(ValueError, match=r"block of \(1, 1, 128\) is not launchable"):
        kernel.launch_shape(10, block=(1, 1, 128))
    with pytest.raises(ValueError, match=r"grid of \(1, 65536\) blocks exceeds"):
        kernel.launch_shape(grid=(1, 65536))
    with pytest.raises(ValueError, match=r"grid of \(1, 65536\) blocks exceeds"):
        kernel.launch_shape((1, 65536), block=(1, 1))
    with pytest.raises(ValueError, match=r"block_size.*1 to 3 non-negative ints"):
        kernels.CudaKernel(AXPY, "axpy", block_size=(1, 1, 1, 1))
    with pytest.raises(TypeError, match=r"exactly one of `n_threads` and `grid`"):
        kernel.launch_shape(10, grid=1)


# --- compile options, headers, debug mode ------------------------------------------------


def test_compile_options_include_the_shipped_headers_and_their_hash(tmp_path: Any) -> None:
    header = tmp_path / "mine.cuh"
    header.write_text("#define SCALE 2\n")
    source = '#include "mine.cuh"\n#include <cunumpy/index.cuh>\n' + AXPY
    kernel = kernels.CudaKernel(source, "axpy", include_dirs=[tmp_path])
    assert [p.name for p in kernel.included_headers] == ["mine.cuh", "index.cuh"]
    first = kernel.compile_options()
    assert f"-I{tmp_path}" in first and f"-I{cuda.cuda_include_dir()}" in first
    header.write_text("#define SCALE 3\n")
    second = kernel.compile_options()
    assert [o for o in first if "HASH" in o] != [o for o in second if "HASH" in o]


def test_debug_mode_adds_the_debug_options_per_kernel_or_globally() -> None:
    plain = kernels.CudaKernel(AXPY, "axpy")
    assert not set(cuda.DEBUG_OPTIONS) & set(plain.compile_options())
    assert set(cuda.DEBUG_OPTIONS) <= set(
        kernels.CudaKernel(AXPY, "axpy", debug=True).compile_options()
    )
    with cuda.cuda_debug():
        assert plain.debug_active()
        assert set(cuda.DEBUG_OPTIONS) <= set(plain.compile_options())
        assert not kernels.CudaKernel(AXPY, "axpy", debug=False).debug_active()
    assert not plain.debug_active()
    cuda.set_cuda_debug(True)
    try:
        assert plain.debug_active()
    finally:
        cuda.set_cuda_debug(False)
    with pytest.raises(TypeError, match=r"set_cuda_debug: `enabled` must be True or False, not 1"):
        cuda.set_cuda_debug(1)  # type: ignore[arg-type]


@pytest.mark.parametrize(("value", "expected"), [("1", "True"), ("off", "False")])
def test_the_environment_variable_sets_debug_mode_at_import(value: str, expected: str) -> None:
    code = "from cunumpy import cuda; print(cuda.get_cuda_debug())"
    env = {**os.environ, "CUNUMPY_CUDA_DEBUG": value}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert out.stdout.strip() == expected


def test_a_bad_environment_value_is_an_error_naming_the_variable() -> None:
    env = {**os.environ, "CUNUMPY_CUDA_DEBUG": "maybe"}
    out = subprocess.run(
        [sys.executable, "-c", "import cunumpy.cuda"],
        env=env,
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert out.returncode != 0
    assert "CUNUMPY_CUDA_DEBUG='maybe' is not a switch" in out.stderr


def test_without_a_gpu_launching_or_compiling_raises_runtime_error_with_the_reason() -> None:
    if cuda.cupy_available():
        pytest.skip("a usable GPU is present: this checks the error without one")
    kernel = kernels.CudaKernel('extern "C" __global__ void f(int n) {}', "f")
    with pytest.raises(
        RuntimeError, match=r"CudaKernel f runs on a GPU, but its call has no CuPy array"
    ):
        kernel(3, n_threads=3)
    with pytest.raises(RuntimeError, match=r"CudaKernel f: the CuPy backend is not usable"):
        kernel.compile()


def test_variants_are_made_once_per_key_and_checked() -> None:
    calls = []

    def make(dtype: Any) -> Any:
        calls.append(dtype)
        ctype = cuda.ctype_of(dtype)
        return kernels.CudaKernel(f'extern "C" __global__ void s({ctype}* x) {{}}', "s")

    variants = kernels.CudaKernelVariants(make)
    assert variants.get(np.float32) is variants.get(np.float32)
    variants.get(np.int64)
    assert calls == [np.float32, np.int64] and variants.keys() == [(np.float32,), (np.int64,)]
    with pytest.raises(TypeError, match=r"factory returned 'no' for \('x',\), not a CudaKernel"):
        kernels.CudaKernelVariants(lambda key: "no").get("x")


def test_from_file_names_the_kernel_after_the_file(tmp_path: Any) -> None:
    path = tmp_path / "axpy_cuda.cu"
    path.write_text(AXPY)
    kernel = kernels.CudaKernel.from_file(path)
    assert (kernel.name, kernel.source_dir, kernel.include_dirs[0]) == ("axpy", tmp_path, tmp_path)
    with pytest.raises(ValueError, match=r"does not end with '_cuda.cu'"):
        kernels.CudaKernel.from_file(tmp_path / "other.cu")


def test_all_from_file_makes_one_kernel_per_global_function(tmp_path: Any) -> None:
    path = tmp_path / "small.cu"
    path.write_text(AXPY + '\nextern "C" __global__ void zero(float* x, long long n) {}\n')
    found = kernels.CudaKernel.all_from_file(path, block_size=64)
    assert list(found) == ["axpy", "zero"]
    assert found["zero"].signature is not None and found["zero"].block_size == 64
    assert [p.ctype for p in found["zero"].signature] == ["float", "long long"]
    (tmp_path / "empty.cu").write_text("// nothing\n")
    with pytest.raises(ValueError, match=r"defines no __global__ function"):
        kernels.CudaKernel.all_from_file(tmp_path / "empty.cu")
    assert not found["axpy"].is_compiled


# CuNumpy 0.7.1's public names of this layer (its cunumpy/arguments.py `__all__`, the
# kernel names of its cunumpy/cuda/__init__.py, and its CUDA C kernel classes).
_NAMES_071 = {
    "arguments": ["CudaArguments", "CudaStruct", "CudaStructArguments", "CudaStructValue",
                  "write_cuda_header"],
    "cuda": ["CudaParameter", "parse_cuda_signature", "ctype_of", "cuda_kernel_names",
             "cuda_include_dir", "resolve_includes", "include_hash", "DEBUG_OPTIONS",
             "set_cuda_debug", "get_cuda_debug", "cuda_debug", "DEFAULT_SHARED_MEMORY_PER_BLOCK",
             "max_shared_memory_per_block", "is_hip"],
    "kernels": ["CudaKernel", "CudaKernelVariants"],
}  # fmt: skip


@pytest.mark.parametrize("module", sorted(_NAMES_071))
def test_every_071_name_exists_at_its_path_and_has_a_migration_row(module: str) -> None:
    import importlib

    imported = importlib.import_module(f"cunumpy.{module}")
    text = (Path(__file__).resolve().parent.parent / "docs" / "migrating.md").read_text()
    for name in _NAMES_071[module]:
        assert name in imported.__all__, name
        assert f"| `{name}` | `cunumpy.{module}.{name}` |" in text, name


def test_defining_kernels_and_structs_imports_no_gpu_library() -> None:
    code = (
        "import sys\n"
        "from cunumpy import arguments, kernels\n"
        "vec = arguments.CudaStruct('Vec', [('data', 'double*'), ('n', 'int')])\n"
        "k = kernels.CudaKernel(vec.declaration + 'extern \"C\" __global__ void f(Vec v) {}',"
        " 'f', structs=[vec])\n"
        "print(sorted(m for m in ('cupy', 'numba', 'mpi4py', 'scipy') if m in sys.modules))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert out.stdout.strip() == "[]"


# --- the launch path on a recording fake CuPy (no kernel runs) ----------------------------


class _Stream:
    def __init__(self, fail: bool = False) -> None:
        self.ptr, self.fail, self.synchronized = 0, fail, 0

    def synchronize(self) -> None:
        self.synchronized += 1
        if self.fail:
            raise sys.modules["cupy"].cuda.runtime.CUDARuntimeError("cudaErrorIllegalAddress")


@pytest.fixture
def recording_cupy(monkeypatch: pytest.MonkeyPatch) -> Any:
    """A fake CuPy that records compilations and launches: the API CudaKernel may use."""
    from contextlib import nullcontext

    from cunumpy._settings import _cupy_probe as _cupy

    launches: list[tuple[Any, ...]] = []
    modules: list[dict[str, Any]] = []

    class Function:
        max_dynamic_shared_size_bytes = 0

        def __call__(self, grid: Any, block: Any, args: Any, *, shared_mem: int = 0) -> None:
            launches.append((grid, block, args, shared_mem))

    class RawModule:
        def __init__(self, *, code: str, options: Any, name_expressions: Any = None) -> None:
            modules.append({"code": code, "options": options, "names": name_expressions})

        def get_function(self, name: str) -> Function:
            modules[-1]["function"] = name
            return Function()

    class RuntimeErrorOfCuda(Exception):
        pass

    stream = _Stream()
    cuda_module = types.SimpleNamespace(
        Device=lambda index: nullcontext(),
        get_current_stream=lambda: stream,
        runtime=types.SimpleNamespace(getDevice=lambda: 0, CUDARuntimeError=RuntimeErrorOfCuda),
        driver=types.SimpleNamespace(CUDADriverError=RuntimeErrorOfCuda),
        Stream=type("Stream", (), {}),
        ExternalStream=type("ExternalStream", (), {}),
    )
    module = types.ModuleType("cupy")
    module.ndarray = FakeDeviceArray  # type: ignore[attr-defined]
    module.RawModule = RawModule  # type: ignore[attr-defined]
    module.cuda = cuda_module  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "cupy", module)
    monkeypatch.setattr(_cupy, "cupy_available", lambda: True)
    return types.SimpleNamespace(launches=launches, modules=modules, stream=stream)


@pytest.mark.fake_cupy
def test_fake_cupy_launch_compiles_once_and_passes_checked_values(recording_cupy: Any) -> None:
    kernel = kernels.CudaKernel(AXPY, "axpy")
    x = FakeDeviceArray(np.zeros(300))
    kernel(2, x, x, 300)
    kernel(3.0, x, x, 300, n_threads=10, shared_mem=64)
    assert len(recording_cupy.modules) == 1  # compiled once for GPU 0
    (compiled,) = recording_cupy.modules
    assert compiled["function"] == "axpy" and compiled["names"] is None
    assert f"-I{cuda.cuda_include_dir()}" in compiled["options"]
    (grid, block, args, shared), second = recording_cupy.launches
    assert (grid, block, shared) == ((3,), (128,), 0)
    assert [type(a) for a in args] == [np.float64, FakeDeviceArray, FakeDeviceArray, np.int32]
    assert second[0] == (1,) and second[3] == 64


@pytest.mark.fake_cupy
def test_fake_cupy_views_and_structs_go_as_one_element_structured_arrays(
    recording_cupy: Any,
) -> None:
    vec = arguments.CudaStruct("Vec", [("data", "double*"), ("n", "int")])
    source = (
        "#include <cunumpy/array_view.cuh>\n" + vec.declaration
        + 'template <typename T> __global__ void f(Array2D<T> a, Vec v) {}'
    )  # fmt: skip
    kernel = kernels.CudaKernel(source, "f", structs=[vec], template_args=[np.float64])
    a = FakeDeviceArray(np.zeros((4, 6))[:, ::2])
    kernel(a, vec(data=FakeDeviceArray(np.zeros(3)), n=3))
    assert recording_cupy.modules[0]["names"] == ["f<double>"]
    ((grid, _, (view, struct), _),) = recording_cupy.launches
    assert grid == (1,)  # 4 rows: the first array's first axis
    assert isinstance(view, np.ndarray) and view.shape == (1,) and view.dtype.itemsize == 40
    assert view["strides"].tolist() == [[6, 2]] and int(struct["n"][0]) == 3


@pytest.mark.fake_cupy
def test_fake_cupy_debug_mode_synchronizes_and_names_the_launch(recording_cupy: Any) -> None:
    kernel = kernels.CudaKernel(AXPY, "axpy", debug=True)
    x = FakeDeviceArray(np.zeros(8))
    kernel(1.0, x, x, 8)
    assert recording_cupy.stream.synchronized == 1
    assert set(cuda.DEBUG_OPTIONS) <= set(recording_cupy.modules[0]["options"])
    recording_cupy.stream.fail = True
    with pytest.raises(
        RuntimeError,
        match=r"CudaKernel axpy failed, launched with grid \(1,\) and block \(128,\): .*IllegalAddress",
    ):
        kernel(1.0, x, x, 8)
    recording_cupy.stream.fail = False
    kernels.CudaKernel(AXPY, "axpy")(1.0, x, x, 8)  # not in debug mode: no synchronization
    assert recording_cupy.stream.synchronized == 2


class _PushArguments(arguments.CudaStructArguments):
    struct_name = "PushArgs"
    fields = (("markers", "Array2D<double>"), ("n", "int"))

    def __init__(self, markers: Any) -> None:
        self.markers = markers
        self.n = markers.shape[0]
        self.pack()


@pytest.mark.fake_cupy
def test_fake_cupy_struct_arguments_are_packed_and_size_the_launch(fake_cupy: Any) -> None:
    source = (
        "#include <cunumpy/array_view.cuh>\n" + _PushArguments.struct.declaration
        + 'extern "C" __global__ void push(PushArgs m, double dt) {}'
    )  # fmt: skip
    kernel = kernels.CudaKernel(source, "push", structs=[_PushArguments.struct])
    args = _PushArguments(fake_cupy(np.zeros((300, 4))))
    packed, dt = kernel.prepare_args(args, 0.1)
    assert (int(packed["n"]), packed["markers"]["shape"].tolist(), dt) == (300, [300, 4], 0.1)
    assert kernel.launch_shape(args=(args, 0.1)) == ((3,), (128,))  # the field's first axis
