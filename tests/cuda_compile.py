"""Compile CUDA C++ for a GPU architecture on a machine without a GPU, as CuPy would.

A syntax or type error in a kernel that cunumpy ships then fails CI instead of the first
GPU run. The contract, shared with every test that compiles CUDA sources:

- ``compile_cuda(source, *, name, arch="sm_90")`` compiles one translation unit to a
  cubin and raises ``AssertionError`` with the compiler's log when it does not compile.
  It skips the calling test, with the reason, only where no compiler is found, and fails
  instead when ``CUNUMPY_CUDA_COMPILE_REQUIRED=1`` (as CI sets it).
- ``elementwise_source(kernel, in_dtypes, ...)`` and ``reduction_source(kernel,
  in_dtypes, ...)`` give the translation unit CuPy generates for a ``cupy.ElementwiseKernel``
  or ``cupy.ReductionKernel`` called with given argument types (CuPy's own code generator,
  with CuPy's header list prepended), ready for ``compile_cuda``.

The compiler is NVRTC, which CuPy itself uses, loaded from the ``nvidia-cuda-nvrtc*``
wheels or a CUDA toolkit, with CuPy's options: its bundled CCCL and ``cupy/_core/include``
from the CuPy wheel, C++17, ``-ftz=true`` and ``--device-as-default-execution-space``.
Without NVRTC, ``nvcc`` is used with the same include directories (it has no
``--device-as-default-execution-space``: functions of a preamble need ``__device__``).
``CUNUMPY_CUDA_COMPILER=nvrtc`` or ``nvcc`` picks one.

A test in ``tests/`` imports it as ``from cuda_compile import compile_cuda`` (pytest puts
``tests/`` on ``sys.path``). A ``RawKernel`` or ``RawModule`` source is compiled as it is:
CuPy prepends no header to those.
"""

from __future__ import annotations

import ctypes
import functools
import glob
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

__all__ = [
    "Compiler",
    "compile_cuda",
    "compiler_or_skip",
    "cupy_include_options",
    "elementwise_source",
    "find_compiler",
    "reduction_source",
]

_ARG_NDARRAY, _ARG_INDEXER, _ARG_SCALAR = 1, 2, 3  # CuPy's _ArgKind (cupy/_core/_kernel.pxd)
_DEFAULT_REDUCTION_BLOCK = 512  # CuPy's _default_block_size on CUDA (cupy/_core/_reduction.pyx)


@dataclass(frozen=True)
class Compiler:
    """A CUDA compiler found on this machine."""

    kind: str  # "nvrtc" or "nvcc"
    path: str  # the libnvrtc shared library, or the nvcc executable
    version: str

    def __str__(self) -> str:
        return f"{self.kind} {self.version} ({self.path})"


def _nvrtc_library() -> str | None:
    """The path of a loadable libnvrtc: cuda-pathfinder's choice (CuPy 14's), else a search."""
    try:
        from cuda.pathfinder import load_nvidia_dynamic_lib

        return str(load_nvidia_dynamic_lib("nvrtc").abs_path)
    except Exception:  # not installed, or no libnvrtc anywhere it looks
        pass
    patterns = [
        os.path.join(base, "nvidia", sub, "lib", "libnvrtc.so*")
        for base in sys.path
        if os.path.isdir(os.path.join(base, "nvidia"))
        for sub in ("cuda_nvrtc", "cu13")
    ]
    cuda_path = os.environ.get("CUDA_PATH") or "/usr/local/cuda"
    patterns.append(os.path.join(cuda_path, "lib64", "libnvrtc.so*"))
    for pattern in patterns:
        for found in sorted(glob.glob(pattern)):
            if "builtins" not in found and "alt" not in os.path.basename(found):
                return found
    return None


def _nvcc() -> str | None:
    cuda_path = os.environ.get("CUDA_PATH")
    if cuda_path and os.access(os.path.join(cuda_path, "bin", "nvcc"), os.X_OK):
        return os.path.join(cuda_path, "bin", "nvcc")
    return shutil.which("nvcc") or (
        "/usr/local/cuda/bin/nvcc" if os.access("/usr/local/cuda/bin/nvcc", os.X_OK) else None
    )


@functools.cache
def find_compiler() -> Compiler | str:
    """The compiler ``compile_cuda`` uses, or the reason there is none (a str)."""
    wanted = os.environ.get("CUNUMPY_CUDA_COMPILER", "")
    if wanted not in ("", "nvrtc", "nvcc"):
        msg = f"CUNUMPY_CUDA_COMPILER must be 'nvrtc', 'nvcc' or unset, not {wanted!r}."
        raise ValueError(msg)
    if wanted in ("", "nvrtc") and (library := _nvrtc_library()) is not None:
        major, minor = ctypes.c_int(), ctypes.c_int()
        ctypes.CDLL(library).nvrtcVersion(ctypes.byref(major), ctypes.byref(minor))
        return Compiler("nvrtc", library, f"{major.value}.{minor.value}")
    if wanted in ("", "nvcc") and (nvcc := _nvcc()) is not None:
        out = subprocess.run([nvcc, "--version"], capture_output=True, text=True, check=True)
        release = out.stdout.rsplit("release ", 1)[-1].split(",")[0].strip()
        return Compiler("nvcc", nvcc, release)
    return (
        f"no CUDA compiler found (CUNUMPY_CUDA_COMPILER={wanted!r}): install the NVRTC wheel "
        "(pip install nvidia-cuda-nvrtc-cu12 nvidia-cuda-runtime-cu12) or a CUDA toolkit (nvcc)"
    )


def compiler_or_skip() -> Compiler:
    """The compiler; skips the test without one (fails it if CUNUMPY_CUDA_COMPILE_REQUIRED=1)."""
    found = find_compiler()
    if isinstance(found, Compiler):
        return found
    if os.environ.get("CUNUMPY_CUDA_COMPILE_REQUIRED") == "1":
        pytest.fail(f"CUNUMPY_CUDA_COMPILE_REQUIRED=1 but {found}")
    pytest.skip(found)


def _cuda_include_dir() -> str | None:
    try:
        from cuda.pathfinder import find_nvidia_header_directory

        found = find_nvidia_header_directory("cudart")
        if found:
            return str(found)
    except Exception:
        pass
    for base in (os.environ.get("CUDA_PATH"), "/usr/local/cuda"):
        if base and os.path.isfile(os.path.join(base, "include", "cuda_runtime.h")):
            return os.path.join(base, "include")
    return None


def cupy_include_options(cuda_headers: bool = True) -> tuple[str, ...]:
    """CuPy's include and language options (``assemble_cupy_compiler_options``), from its wheel.

    ``cuda_headers=False`` leaves out the CUDA runtime headers (nvcc brings its own, and
    they must match it).
    """
    from cupy._core import core

    include = core._get_header_dir_path()
    cccl = tuple(f"-I{include}/cupy/_cccl/{part}" for part in ("cub", "thrust", "libcudacxx"))
    cuda = _cuda_include_dir() if cuda_headers else None
    return (*cccl, "--std=c++17", f"-I{include}", *((f"-I{cuda}",) if cuda else ()))


def _nvrtc_compile(library: str, source: str, name: str, options: Sequence[str]) -> str | None:
    """Compile with NVRTC; the log when compilation fails, else None."""
    nvrtc = ctypes.CDLL(library)
    nvrtc.nvrtcGetErrorString.restype = ctypes.c_char_p
    program = ctypes.c_void_p()
    result = nvrtc.nvrtcCreateProgram(
        ctypes.byref(program), source.encode(), f"{name}.cu".encode(), 0, None, None
    )
    assert result == 0, nvrtc.nvrtcGetErrorString(result).decode()
    try:
        encoded = [option.encode() for option in options]
        array = (ctypes.c_char_p * len(encoded))(*encoded)
        result = nvrtc.nvrtcCompileProgram(program, len(encoded), array)
        size = ctypes.c_size_t()
        nvrtc.nvrtcGetProgramLogSize(program, ctypes.byref(size))
        log = ctypes.create_string_buffer(size.value)
        nvrtc.nvrtcGetProgramLog(program, log)
        if result != 0:
            status = nvrtc.nvrtcGetErrorString(result).decode()
            return f"{status}\n{log.value.decode(errors='replace')}"
        return None
    finally:
        nvrtc.nvrtcDestroyProgram(ctypes.byref(program))


def _nvcc_compile(
    nvcc: str, source: str, name: str, arch: str, options: Sequence[str]
) -> str | None:
    with tempfile.TemporaryDirectory(prefix="cunumpy-nvcc-") as folder:
        path = os.path.join(folder, f"{name}.cu")
        with open(path, "w") as file:
            file.write(source)
        command = [nvcc, "-cubin", f"-arch={arch}", *options, "-o", path + ".cubin", path]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        return f"{' '.join(command)}\n{done.stdout}{done.stderr}"
    return None


def compile_cuda(
    source: str, *, name: str, arch: str = "sm_90", options: Sequence[str] = ()
) -> None:
    """Compile the translation unit ``source`` for ``arch`` with CuPy's options.

    ``options`` are added after CuPy's (e.g. ``-I`` for cunumpy's shipped headers, ``-D...``).
    Raises ``AssertionError`` naming ``name``, the compiler and its log on failure.
    """
    compiler = compiler_or_skip()
    options = (*cupy_include_options(cuda_headers=compiler.kind == "nvrtc"), "-ftz=true", *options)
    if compiler.kind == "nvrtc":
        flags = (*options, f"-arch={arch}", "--device-as-default-execution-space")
        log = _nvrtc_compile(compiler.path, source, name, flags)
    else:
        log = _nvcc_compile(compiler.path, source, name, arch, options)
    if log is not None:
        numbered = "\n".join(f"{i:4} {line}" for i, line in enumerate(source.splitlines(), 1))
        msg = f"{name} does not compile for {arch} with {compiler}:\n{log}\n--- source ---\n{numbered}"
        raise AssertionError(msg)


def _with_cupy_headers(code: str) -> str:
    from cupy._core import core

    return "".join(f"#include <{header}>\n" for header in core._cupy_header_list) + code


def _ndarray(dtype: Any, ndim: int, c_contiguous: bool, index_32_bits: bool) -> Any:
    import cupy
    from cupy._core import _kernel

    return _kernel._ArgInfo(_ARG_NDARRAY, cupy.ndarray, np.dtype(dtype), ndim, c_contiguous, index_32_bits)  # fmt: skip


def _indexer(ndim: int, index_32_bits: bool) -> Any:
    from cupy._core import _carray, _kernel

    return _kernel._ArgInfo(_ARG_INDEXER, _carray.Indexer, None, ndim, True, index_32_bits)


def _scalar(dtype: Any) -> Any:
    from cupy._core import _kernel, _scalar

    return _kernel._ArgInfo(_ARG_SCALAR, _scalar.CScalar, np.dtype(dtype), 0, True, True)


def elementwise_source(
    kernel: Any,
    in_dtypes: Sequence[Any],
    *,
    scalars: Sequence[int] = (),
    ndim: int = 1,
    c_contiguous: bool = True,
    index_32_bits: bool = True,
) -> str:
    """The translation unit CuPy compiles when ``kernel`` (a ``cupy.ElementwiseKernel``) is called.

    ``in_dtypes`` gives the dtype of each input; the positions in ``scalars`` are Python
    or NumPy scalars (passed by value, their type fixed by the type parameters). The
    inputs have ``ndim`` dimensions (CuPy reduces contiguous arrays to 1) and are
    ``c_contiguous`` or not; outputs are allocated by CuPy (contiguous). Indices are 32-
    or 64-bit (``index_32_bits=False`` for arrays of 2**31 elements or more).
    """
    from cupy._core import _kernel

    array_types = tuple(None if i in scalars else np.dtype(t) for i, t in enumerate(in_dtypes))
    in_types, out_types, type_map = _kernel._decide_params_type(
        kernel.in_params, kernel.out_params, array_types, ()
    )
    arginfos = tuple(
        _scalar(in_types[i]) if i in scalars else _ndarray(t, ndim, c_contiguous, index_32_bits)
        for i, t in enumerate(in_types)
    ) + tuple(_ndarray(t, ndim, True, index_32_bits) for t in out_types)
    arginfos += (_indexer(ndim, index_32_bits),)
    code = _kernel._get_elementwise_kernel_code(
        arginfos, type_map, kernel.params, kernel.operation, kernel.name, kernel.preamble,
        **kernel.kwargs,
    )  # fmt: skip
    return _with_cupy_headers(code)


def reduction_source(
    kernel: Any,
    in_dtypes: Sequence[Any],
    *,
    in_ndim: int = 1,
    out_ndim: int = 0,
    c_contiguous: bool = True,
    index_32_bits: bool = True,
    block_size: int = _DEFAULT_REDUCTION_BLOCK,
) -> str:
    """The translation unit CuPy compiles when ``kernel`` (a ``cupy.ReductionKernel``) is called.

    ``in_dtypes`` gives the dtype of each input array, with ``in_ndim`` dimensions; the
    outputs have ``out_ndim`` (0 for a full reduction). ``index_32_bits=False`` is the
    instantiation for more than 2**31 - 1 elements per output element.
    """
    from cupy._core import _kernel, _reduction

    in_types, out_types, type_map = _reduction._decide_params_type(
        kernel.in_params, kernel.out_params, tuple(np.dtype(t).type for t in in_dtypes), ()
    )
    index_type = ("IndexT", np.dtype(np.int32 if index_32_bits else np.int64))
    type_map = _kernel._TypeMap((*type_map._pairs, index_type))
    arginfos = (
        *(_ndarray(t, in_ndim, c_contiguous, index_32_bits) for t in in_types),
        *(_ndarray(t, out_ndim, True, index_32_bits) for t in out_types),
        _indexer(in_ndim, index_32_bits),
        _indexer(out_ndim, index_32_bits),
        _scalar(np.int32),  # _block_stride
    )
    code = _reduction._ReductionKernel_get_cached_function_code(
        kernel.nin, kernel.nout, kernel._params, arginfos, type_map, kernel.name, block_size,
        kernel.reduce_type, kernel.identity, kernel.map_expr, kernel.reduce_expr,
        kernel.post_map_expr, kernel.preamble, kernel.options,
    )  # fmt: skip
    return _with_cupy_headers(code)
