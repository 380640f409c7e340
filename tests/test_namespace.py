"""array_namespace, is_numpy_array / is_cupy_array, and the namespace's name list."""

from __future__ import annotations

import numpy as np
import pytest

import cunumpy
from cunumpy._backends import numpy as numpy_namespace

array_api_strict = pytest.importorskip("array_api_strict")  # the suite collects without it


def test_numpy_arrays_give_the_numpy_namespace() -> None:
    assert cunumpy.array_namespace(np.zeros(2)) is numpy_namespace
    assert cunumpy.array_namespace(np.float64(1.0)) is numpy_namespace


def test_scalars_and_none_are_ignored() -> None:
    assert cunumpy.array_namespace(1, 2.5, None, np.ones(1), True, 1j) is numpy_namespace


def test_no_arrays_gives_the_current_backend() -> None:
    assert cunumpy.array_namespace() is numpy_namespace
    assert cunumpy.array_namespace(1.0, None) is numpy_namespace


def test_array_api_strict_gives_itself() -> None:
    x = array_api_strict.asarray([1.0, 2.0])
    assert cunumpy.array_namespace(x) is array_api_strict


def test_mixed_libraries_raise_type_error_naming_both() -> None:
    x = array_api_strict.asarray([1.0])
    with pytest.raises(TypeError, match=r"numpy\.ndarray.*array_api_strict\.Array"):
        cunumpy.array_namespace(np.ones(1), x)


@pytest.mark.parametrize("bad", [[1.0, 2.0], (1,), "abc", object()])
def test_non_arrays_raise_type_error_naming_the_type(bad: object) -> None:
    with pytest.raises(TypeError, match=type(bad).__qualname__):
        cunumpy.array_namespace(bad)


def test_api_version() -> None:
    x = np.ones(1)
    for version in ("2021.12", "2023.12", "2025.12"):
        assert cunumpy.array_namespace(x, api_version=version) is numpy_namespace
    with pytest.raises(ValueError, match=r"array_namespace: unsupported `api_version` '2030\.12'"):
        cunumpy.array_namespace(x, api_version="2030.12")


def test_is_numpy_and_is_cupy_array() -> None:
    assert cunumpy.is_numpy_array(np.zeros(1))
    assert not cunumpy.is_numpy_array([0.0])
    assert not cunumpy.is_cupy_array(np.zeros(1))
    assert not cunumpy.is_cupy_array(array_api_strict.asarray([1.0]))


def _public_names(module: object) -> set[str]:
    return {n for n in dir(module) if not n.startswith("_")}


# array-api-strict 2.6 implements 2025.12; these are its own helpers, not the standard's.
_STRICT_EXTRAS = {
    "ArrayAPIStrictFlags",
    "Device",
    "ModuleType",
    "get_array_api_strict_flags",
    "reset_array_api_strict_flags",
    "set_array_api_strict_flags",
}


@pytest.mark.parametrize("namespace", [cunumpy, numpy_namespace], ids=["cunumpy", "numpy-ns"])
def test_every_standard_name_is_present(namespace: object) -> None:
    expected = _public_names(array_api_strict) - _STRICT_EXTRAS
    missing = sorted(n for n in expected if not hasattr(namespace, n))
    assert missing == []
    assert namespace.__array_api_version__ == "2025.12"  # type: ignore[attr-defined]
    assert callable(namespace.__array_namespace_info__)  # type: ignore[attr-defined]


_LINALG = {
    "cholesky",
    "cross",
    "det",
    "diagonal",
    "eig",
    "eigh",
    "eigvals",
    "eigvalsh",
    "inv",
    "matmul",
    "matrix_norm",
    "matrix_power",
    "matrix_rank",
    "matrix_transpose",
    "outer",
    "pinv",
    "qr",
    "slogdet",
    "solve",
    "svd",
    "svdvals",
    "tensordot",
    "trace",
    "vecdot",
    "vector_norm",
}
_FFT = {
    "fft",
    "fftfreq",
    "fftn",
    "fftshift",
    "hfft",
    "ifft",
    "ifftn",
    "ifftshift",
    "ihfft",
    "irfft",
    "irfftn",
    "rfft",
    "rfftfreq",
    "rfftn",
}


@pytest.mark.parametrize("namespace", [cunumpy, numpy_namespace], ids=["cunumpy", "numpy-ns"])
def test_extension_names(namespace: object) -> None:
    linalg = namespace.linalg  # type: ignore[attr-defined]
    fft = namespace.fft  # type: ignore[attr-defined]
    assert sorted(_LINALG - _public_names(linalg)) == []
    assert sorted(_FFT - _public_names(fft)) == []


def test_all_lists_only_existing_names() -> None:
    assert sorted(n for n in cunumpy.__all__ if not hasattr(cunumpy, n)) == []
    assert len(cunumpy.__all__) == len(set(cunumpy.__all__))
