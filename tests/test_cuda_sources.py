"""Every CUDA source cunumpy ships compiles for sm_90, here, without a GPU (see cuda_compile.py).

The CuPy backend's kernels are found by scanning its modules, so a new kernel fails this
file until its type instantiations are listed in ``_INSTANTIATIONS``. Each is compiled
in every form CuPy instantiates it for those types: arrays or scalars in each operand
position, contiguous 1-D (what CuPy reduces contiguous arrays to) and strided 2-D
operands, and 64-bit indices. The kernels the GPU tests launch are compiled too.
"""

from __future__ import annotations

import importlib
import pkgutil
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
