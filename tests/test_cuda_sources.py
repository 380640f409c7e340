"""Every CUDA source cunumpy ships compiles for sm_90, here, without a GPU (see cuda_compile.py).

That includes CudaKernel's headers (cunumpy/cuda/include/cunumpy/*.cuh), each on its own and
in use, plain and in debug mode, and the struct headers CudaStruct generates, whose layout
is asserted against the packed dtype's offsets.

The CuPy backend's kernels are found by scanning its modules, so a new kernel fails this
file until its type instantiations are listed in ``_INSTANTIATIONS``. Each is compiled
in every form CuPy instantiates it for those types: arrays or scalars in each operand
position, contiguous 1-D (what CuPy reduces contiguous arrays to) and strided 2-D
operands, and 64-bit indices. The kernels the GPU tests launch are compiled too.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import shutil
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from cuda_compile import (
    compile_cuda,
    compiler_or_skip,
    elementwise_source,
    find_compiler,
    reduction_source,
)
from gpu_kernels import SLOW_FILL, SLOW_FILL_NAME, SPIN, SPIN_NAME

from cunumpy import cuda as cunumpy_cuda

cupy = pytest.importorskip("cupy")
cupy_backend = pytest.importorskip("cunumpy._backends.cupy")

# (module, attribute) of each kernel -> the input dtypes cunumpy calls it with.
_INSTANTIATIONS: dict[tuple[str, str], list[tuple[Any, ...]]] = {
    # _binary_float_kernel: both operands cast to float32 or float64 (_KERNEL_FLOATS)
    ("cunumpy._backends.cupy._elementwise", "_remainder_kernel"): [
        (np.float32, np.float32),
        (np.float64, np.float64),
    ],
    ("cunumpy._backends.cupy._elementwise", "_nextafter_kernel"): [
        (np.float32, np.float32),
        (np.float64, np.float64),
    ],
    # clip: x and both bounds cast to x's float32 or float64 (_KERNEL_FLOATS)
    ("cunumpy._backends.cupy._elementwise", "_clip_kernel"): [
        (np.float32, np.float32, np.float32),
        (np.float64, np.float64, np.float64),
    ],
}

_KERNEL_TYPES = (cupy.ElementwiseKernel, cupy.ReductionKernel, cupy.RawKernel, cupy.RawModule)


def _shipped_kernels() -> dict[tuple[str, str], Any]:
    """Every CuPy kernel object defined at module level in the CuPy backend's modules."""
    found = {}
    for info in pkgutil.walk_packages(cupy_backend.__path__, cupy_backend.__name__ + "."):
        module = importlib.import_module(info.name)
        for attribute, value in vars(module).items():
            if isinstance(value, _KERNEL_TYPES):
                found[(info.name, attribute)] = value
    return found


def _binary_forms(dtypes: tuple[Any, ...]) -> list[dict[str, Any]]:
    arity = len(dtypes)
    forms: list[dict[str, Any]] = [
        {},
        {"ndim": 2, "c_contiguous": False},
        {"ndim": 2, "c_contiguous": False, "index_32_bits": False},
    ]
    forms += [{"scalars": (position,)} for position in range(arity)]
    return forms


def _cases() -> list[Any]:
    cases = []
    for key, instantiations in sorted(_INSTANTIATIONS.items()):
        for dtypes in instantiations:
            for form in _binary_forms(dtypes):
                names = "-".join(np.dtype(t).name for t in dtypes)
                label = ",".join(f"{k}={v}" for k, v in sorted(form.items())) or "arrays"
                cases.append(pytest.param(key, dtypes, form, id=f"{key[1]}[{names}][{label}]"))
    return cases


def test_a_compiler_is_found_or_the_reason_is_given() -> None:
    found = find_compiler()
    assert isinstance(found, str) or found.kind in ("nvrtc", "nvcc")


def test_every_shipped_kernel_has_its_instantiations_listed() -> None:
    shipped = _shipped_kernels()
    assert shipped, "no kernel found: the scan of the CuPy backend is broken"
    missing = sorted(set(shipped) - set(_INSTANTIATIONS))
    assert not missing, (
        f"list the dtypes these kernels are called with in _INSTANTIATIONS: {missing}"
    )
    stale = sorted(set(_INSTANTIATIONS) - set(shipped))
    assert not stale, f"these kernels no longer exist: {stale}"


@pytest.mark.parametrize(("key", "dtypes", "form"), _cases())
def test_cupy_backend_kernel_compiles_for_sm90(
    key: tuple[str, str], dtypes: tuple[Any, ...], form: dict[str, Any]
) -> None:
    compiler_or_skip()
    kernel = getattr(importlib.import_module(key[0]), key[1])
    if isinstance(kernel, cupy.ReductionKernel):
        source = reduction_source(kernel, dtypes, **form)
    else:
        source = elementwise_source(kernel, dtypes, **form)
    assert f'extern "C" __global__ void {kernel.name}(' in source
    compile_cuda(source, name=kernel.name)


@pytest.mark.parametrize(("source", "name"), [(SLOW_FILL, SLOW_FILL_NAME), (SPIN, SPIN_NAME)])
def test_the_gpu_tests_kernels_compile_for_sm90(source: str, name: str) -> None:
    compile_cuda(source, name=name)


def test_a_broken_kernel_fails_with_the_compilers_log() -> None:
    """The check can fail: an undefined function is an AssertionError that shows the log."""
    compiler_or_skip()
    broken = cupy.ElementwiseKernel("T x", "T y", "y = no_such_function(x)", "cunumpy_broken")
    source = elementwise_source(broken, (np.float64,))
    with pytest.raises(
        AssertionError, match=r"(?s)cunumpy_broken does not compile.*no_such_function"
    ):
        compile_cuda(source, name="cunumpy_broken")


def test_a_reduction_kernel_source_compiles() -> None:
    """The reduction helper of the shared contract (for kernels shipped later): a norm."""
    compiler_or_skip()
    norm = cupy.ReductionKernel(
        "T x", "float64 y", "abs(x) * abs(x)", "a + b", "y = sqrt(a)", "0", "cunumpy_test_norm"
    )
    for dtypes, form in [((np.float64,), {}), ((np.complex128,), {"in_ndim": 2, "out_ndim": 1})]:
        source = reduction_source(norm, dtypes, **form)
        assert "#define REDUCE(a, b) (a + b)" in source
        compile_cuda(source, name="cunumpy_test_norm")


# --- CudaKernel's shipped headers and generated structs (cunumpy/cuda/include) ------------

_SHIPPED_HEADERS = sorted(
    path.name for path in (Path(cunumpy_cuda.cuda_include_dir()) / "cunumpy").glob("*.cuh")
)

_HEADER_USE = r"""
#include <cunumpy/array_view.cuh>
#include <cunumpy/atomic.cuh>
#include <cunumpy/index.cuh>
extern "C" __global__ void use_headers(Array2D<double> a, CArray3D<float> b, Array5D<int> c,
                                       double* rho, long long* count, long long n) {
    CUNUMPY_THREAD_1D(i, n);
    a(i, 0) += b(0, i, 1);
    Array3D<float> strided = b;
    c(0, 0, 0, 0, i) = (int)strided.size();
    cunumpy_atomic_add_2d(rho, 4, i, 1, 1);
    cunumpy_atomic_add_3d(rho, 4, 2, i, 1, 0, 2.0);
    cunumpy_atomic_add(count, 1LL);
    CUNUMPY_GRID_STRIDE_1D(k, n) { rho[k] += 1.0; }
}
"""


def _header_options(debug: bool) -> tuple[str, ...]:
    debug_options = cunumpy_cuda.DEBUG_OPTIONS if debug else ()
    return (f"-I{cunumpy_cuda.cuda_include_dir()}", *debug_options)


def test_the_three_documented_headers_are_shipped() -> None:
    assert {"array_view.cuh", "atomic.cuh", "index.cuh"} <= set(_SHIPPED_HEADERS)


@pytest.mark.parametrize("debug", [False, True], ids=["plain", "debug"])
@pytest.mark.parametrize("header", _SHIPPED_HEADERS)
def test_each_shipped_header_compiles_on_its_own(header: str, debug: bool) -> None:
    source = f'#include <cunumpy/{header}>\n#include <cunumpy/{header}>\nextern "C" __global__ void k() {{}}\n'
    compile_cuda(source, name=f"include_{header.split('.')[0]}", options=_header_options(debug))


@pytest.mark.parametrize("debug", [False, True], ids=["plain", "debug"])
def test_the_headers_api_compiles_in_a_kernel(debug: bool) -> None:
    compile_cuda(_HEADER_USE, name="use_headers", options=_header_options(debug))


def test_a_view_with_the_wrong_number_of_indices_does_not_compile() -> None:
    """The check can fail: a(i) on a 2-D view is a compile error (static_assert)."""
    compiler_or_skip()
    source = '#include <cunumpy/array_view.cuh>\nextern "C" __global__ void k(Array2D<double> a) { a(0) = 1; }'
    with pytest.raises(AssertionError, match=r"(?s)does not compile.*N indices"):
        compile_cuda(source, name="wrong_indices", options=_header_options(False))


_HOST_CXX = shutil.which("g++") or shutil.which("clang++")
_AS_HOST_CXX = ("-x", "c++", "-std=c++17", "-fsyntax-only", "-D__device__=", "-D__host__=",
                "-D__forceinline__=inline", "-D__global__=")  # fmt: skip


def _host_cxx_or_skip() -> str:
    if _HOST_CXX is None:
        if os.environ.get("CUNUMPY_CUDA_COMPILE_REQUIRED") == "1":
            pytest.fail("CUNUMPY_CUDA_COMPILE_REQUIRED=1 but no g++ or clang++ is found")
        pytest.skip("no host C++ compiler (g++ or clang++) found")
    return _HOST_CXX


def _compile_host_cxx(source: str) -> subprocess.CompletedProcess[str]:
    command = [_host_cxx_or_skip(), *_AS_HOST_CXX, f"-I{cunumpy_cuda.cuda_include_dir()}", "-"]
    return subprocess.run(command, input=source, capture_output=True, text=True, check=False)


def _layout_asserts(struct: Any) -> str:
    lines = [
        f'static_assert(offsetof({struct.name}, {name}) == {offset}, "offset of {name}");'
        for name, (_, offset) in struct.dtype.fields.items()
    ]
    lines.append(f'static_assert(sizeof({struct.name}) == {struct.dtype.itemsize}, "size");')
    return "#include <cstddef>\n" + "\n".join(lines) + "\n"


_MIXED_FIELDS = [("flag", "bool"), ("x", "double"), ("n", "int"), ("a", "Array2D<float>"),
                 ("small", "short"), ("c", "CArray3D<double>"), ("p", "long long*"),
                 ("z", "unsigned char"), ("w", "Array16D<int>")]  # fmt: skip


def test_generated_struct_headers_compile_for_the_gpu() -> None:
    from cunumpy import arguments

    struct = arguments.CudaStruct("Mixed", _MIXED_FIELDS)
    source = struct.to_header() + 'extern "C" __global__ void take(Mixed m) { m.a(0, 0) = m.x; }\n'
    compile_cuda(source, name="mixed_struct", options=_header_options(False))


def test_the_packed_struct_layout_is_the_c_layout() -> None:
    """CudaStruct's packing equals the C compiler's layout, field by field (checked with the
    host C++ compiler: CUDA lays out structs as the host ABI does, LP64 here)."""
    from cunumpy import arguments

    struct = arguments.CudaStruct("Mixed", _MIXED_FIELDS)
    done = _compile_host_cxx(struct.to_header() + _layout_asserts(struct))
    assert done.returncode == 0, done.stderr


def test_a_layout_that_differs_from_the_dtype_fails_the_check() -> None:
    """The check can fail: a C side changed alone is caught."""
    from cunumpy import arguments

    struct = arguments.CudaStruct("Two", [("a", "short"), ("b", "short"), ("x", "double")])
    wrong = struct.declaration.replace("short a", "int a")
    done = _compile_host_cxx(wrong + _layout_asserts(struct))
    assert done.returncode != 0 and "offset of b" in done.stderr


@pytest.mark.emulated  # CUDA C headers run as host C++ on the CPU, not a GPU
@pytest.mark.parametrize("header", ["array_view.cuh", "index.cuh"])
def test_the_view_and_index_headers_compile_as_host_cxx_emulated(header: str) -> None:
    done = _compile_host_cxx(f"#include <cunumpy/{header}>\n")
    assert done.returncode == 0, done.stderr


def _run_host_cxx(source: str, tmp_path: Path) -> str:
    """Compile ``source`` as host C++ (the emulator's way) and run it; its output."""
    binary = tmp_path / "host_check"
    flags = [f for f in _AS_HOST_CXX if f != "-fsyntax-only"]
    command = [
        _host_cxx_or_skip(),
        *flags,
        f"-I{cunumpy_cuda.cuda_include_dir()}",
        "-",
        "-o",
        str(binary),
    ]
    done = subprocess.run(command, input=source, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return subprocess.run([str(binary)], capture_output=True, text=True, check=True).stdout


# Philox4x32-10 known answers (Random123's kat_vectors): counter, key -> output words.
_PHILOX_KAT = [
    ((0, 0, 0, 0), (0, 0), (0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8)),
    ((0xFFFFFFFF,) * 4, (0xFFFFFFFF, 0xFFFFFFFF), (0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD)),
    ((0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344), (0xA4093822, 0x299F31D0),
     (0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1)),
]  # fmt: skip


@pytest.mark.emulated  # CUDA C headers run as host C++ on the CPU, not a GPU
def test_the_random_header_run_as_host_cxx_gives_philox_known_answers_emulated(
    tmp_path: Path,
) -> None:
    lines = []
    for counter, key, _ in _PHILOX_KAT:
        c = ", ".join(f"{w}u" for w in counter)
        lines.append(
            f"  {{ cunumpy_u32x4 c = {{{{{c}}}}}; cunumpy_u32x4 r = cunumpy_philox4x32_10(c, {key[0]}u, {key[1]}u);"
            ' std::printf("%u %u %u %u\\n", r.v[0], r.v[1], r.v[2], r.v[3]); }'
        )
    seed, stream, counter = 0x0123456789ABCDEF, 42, 7
    lines.append(
        f"  {{ double u0, u1; cunumpy_uniform2({seed}ull, {stream}ull, {counter}ull, &u0, &u1);"
        f" cunumpy_u32x4 r = cunumpy_random_bits({seed}ull, {stream}ull, {counter}ull);"
        ' std::printf("%.17g %.17g %u %u %u %u\\n", u0, u1, r.v[0], r.v[1], r.v[2], r.v[3]); }'
    )
    source = (
        "#include <cstdio>\n#include <cunumpy/random.cuh>\nint main() {\n"
        + "\n".join(lines)
        + "\n}\n"
    )
    out = _run_host_cxx(source, tmp_path).splitlines()
    for line, (_, _, expected) in zip(out, _PHILOX_KAT):
        assert tuple(int(w) for w in line.split()) == expected
    *uniforms, w0, w1, w2, w3 = out[-1].split()
    words = [int(w) for w in (w0, w1, w2, w3)]
    expected_u = [
        ((words[0] << 32 | words[1]) >> 11) * 2.0**-53,
        ((words[2] << 32 | words[3]) >> 11) * 2.0**-53,
    ]
    assert [float(u) for u in uniforms] == expected_u
    # the same bits as the cipher on (counter low, counter high, stream low, stream high)
    direct = _run_host_cxx(
        "#include <cstdio>\n#include <cunumpy/random.cuh>\nint main() { cunumpy_u32x4 c = {{7u, 0u, 42u, 0u}};"
        f" cunumpy_u32x4 r = cunumpy_philox4x32_10(c, {seed & 0xFFFFFFFF}u, {seed >> 32}u);"
        ' std::printf("%u %u %u %u", r.v[0], r.v[1], r.v[2], r.v[3]); }\n',
        tmp_path,
    )
    assert [int(w) for w in direct.split()] == words


def _interleave(cells: tuple[int, ...], bits: int) -> int:
    key = 0
    for b in range(bits):
        for axis, cell in enumerate(cells):
            key |= ((cell >> b) & 1) << (len(cells) * b + axis)
    return key


@pytest.mark.emulated  # CUDA C headers run as host C++ on the CPU, not a GPU
def test_the_morton_header_run_as_host_cxx_interleaves_bits_emulated(tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    cells2 = rng.integers(0, 2**32, (20, 2), dtype=np.uint64).tolist()
    cells3 = rng.integers(0, 2**21, (20, 3), dtype=np.uint64).tolist()
    calls = [f"cunumpy_morton_encode2({x}ull, {y}ull)" for x, y in cells2]
    calls += [f"cunumpy_morton_encode3({x}ull, {y}ull, {z}ull)" for x, y, z in cells3]
    calls += [
        f"cunumpy_morton_compact2(cunumpy_morton_encode2({x}ull, {y}ull) >> 1)" for x, y in cells2
    ]
    calls += [
        "cunumpy_morton_key2(0.3, -1.0, 0.0, 0.0, 4.0, 4.0, 2)",  # cells (1, clipped 0)
        "cunumpy_morton_key3(9.0, 0.5, 0.26, 0.0, 0.0, 0.0, 4.0, 4.0, 4.0, 2)",  # (3 clipped, 2, 1)
    ]
    body = "\n".join(f'  std::printf("%llu\\n", (unsigned long long)({c}));' for c in calls)
    out = _run_host_cxx(
        f"#include <cstdio>\n#include <cunumpy/morton.cuh>\nint main() {{\n{body}\n}}\n", tmp_path
    )
    expected = [_interleave(tuple(c), 32) for c in cells2] + [
        _interleave(tuple(c), 21) for c in cells3
    ]
    expected += [y for _, y in cells2]
    expected += [_interleave((1, 0), 2), _interleave((3, 2, 1), 2)]
    assert [int(v) for v in out.split()] == expected


@pytest.mark.emulated  # CUDA C headers run as host C++ on the CPU, not a GPU
def test_the_random_header_run_as_host_cxx_gives_the_host_numbers_emulated(tmp_path: Path) -> None:
    """cunumpy/random.cuh and cunumpy.rng's philox functions: the same uniforms bit for bit,
    and normals equal to the last bits of the math library."""
    from cunumpy import rng

    seed = 0x0123456789ABCDEF
    calls = [
        (seed, stream, counter) for stream in (0, 1, 42, 2**40 + 3) for counter in (0, 7, 2**33)
    ]
    body = "\n".join(
        f"  {{ double a, b, c, d; cunumpy_uniform2({s}ull, {t}ull, {c}ull, &a, &b);"
        f" cunumpy_normal2({s}ull, {t}ull, {c}ull, &c, &d);"
        ' std::printf("%.17g %.17g %.17g %.17g\\n", a, b, c, d); }'
        for s, t, c in calls
    )
    out = _run_host_cxx(
        f"#include <cstdio>\n#include <cunumpy/random.cuh>\nint main() {{\n{body}\n}}\n", tmp_path
    )
    for line, (s, t, c) in zip(out.splitlines(), calls, strict=True):
        u0, u1, z0, z1 = (float(v) for v in line.split())
        args = (np.uint64(s), np.uint64(t), np.uint64(c))
        assert [u0, u1] == [float(v) for v in rng.philox_uniform2(*args)]
        np.testing.assert_allclose(
            [z0, z1], [float(v) for v in rng.philox_normal2(*args)], rtol=1e-14
        )


@pytest.mark.emulated  # CUDA C headers run as host C++ on the CPU, not a GPU
def test_the_morton_header_run_as_host_cxx_gives_the_host_keys_emulated(tmp_path: Path) -> None:
    """cunumpy/morton.cuh's keys of points equal cunumpy.algorithms.morton_keys."""
    from cunumpy import algorithms

    points = np.random.default_rng(4).uniform(-0.5, 2.5, (40, 3))  # some outside the box
    lower, upper, levels = (0.0, 0.0, 0.0), (2.0, 1.0, 1.5), 10
    scales = [float(v) for v in algorithms.morton_scales(lower, upper, levels)]
    body = "\n".join(
        f'  std::printf("%llu %llu\\n", cunumpy_morton_key3({x!r}, {y!r}, {z!r}, 0.0, 0.0, 0.0,'
        f" {scales[0]!r}, {scales[1]!r}, {scales[2]!r}, {levels}),"
        f" cunumpy_morton_key2({x!r}, {y!r}, 0.0, 0.0, {scales[0]!r}, {scales[1]!r}, {levels}));"
        for x, y, z in points.tolist()
    )
    out = _run_host_cxx(
        f"#include <cstdio>\n#include <cunumpy/morton.cuh>\nint main() {{\n{body}\n}}\n", tmp_path
    )
    keys3, keys2 = zip(*((int(a), int(b)) for a, b in (line.split() for line in out.splitlines())))
    assert list(keys3) == [int(k) for k in algorithms.morton_keys(points, lower, upper, levels)]
    expected2 = algorithms.morton_keys(points[:, :2], lower[:2], upper[:2], levels)
    assert list(keys2) == [int(k) for k in expected2]
