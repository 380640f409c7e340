"""array_namespace / get_namespace, the is_* predicates, and the namespace's name list."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import array_api_tests._spec_signatures as spec_signatures
import cunumpy
from cunumpy._backends import _standard_names as standard_names
from cunumpy._backends import numpy as numpy_namespace

array_api_strict = pytest.importorskip("array_api_strict")  # the suite collects without it


def test_numpy_arrays_give_the_numpy_namespace() -> None:
    assert cunumpy.array_namespace(np.zeros(2)) is numpy_namespace
    assert cunumpy.array_namespace(np.float64(1.0)) is numpy_namespace
    assert cunumpy.get_namespace(np.zeros(2)) is numpy_namespace


def test_scalars_and_none_beside_an_array_are_skipped() -> None:
    assert cunumpy.array_namespace(1, 2.5, None, np.ones(1), True, 1j) is numpy_namespace


class _MyInt(int):
    pass


@pytest.mark.parametrize(
    "args", [(), (1.0,), (None,), (1, 2.5, None, True, 1j), (_MyInt(3),)], ids=repr
)
def test_no_array_at_all_is_a_type_error(args: tuple[object, ...]) -> None:
    with pytest.raises(
        TypeError, match=r"array_namespace requires at least one non-scalar array input; got "
    ):
        cunumpy.array_namespace(*args)
    with pytest.raises(
        TypeError, match=r"array_namespace requires at least one non-scalar array input"
    ):
        cunumpy.array_namespace(*args, use_compat=True)


def test_top_level_functions_still_take_python_scalars() -> None:
    assert cunumpy.add(np.ones(1), 2.0)[0] == 3.0
    assert cunumpy.asarray(3.0).shape == ()
    assert cunumpy.maximum(np.zeros(2), 1)[1] == 1.0


def test_array_namespace_counts_numpy_scalars_as_numpy_arrays_as_compat_does() -> None:
    # array_namespace is array-api-compat's drop-in: a NumPy scalar is NumPy's, so beside
    # another library's array it is a second namespace (tests/test_compat_parity.py
    # checks a table of mixes against compat itself). The top level's functions take it
    # as a scalar instead (tests/fake_cupy/test_numpy_scalars_fake_cupy.py).
    x = array_api_strict.asarray([1.0, 2.0])
    with pytest.raises(
        TypeError, match=r"Multiple namespaces.*numpy\.float64 and array_api_strict"
    ):
        cunumpy.array_namespace(np.float64(1.0), x)
    with pytest.raises(TypeError, match="Multiple namespaces"):
        cunumpy.array_namespace(x, np.int64(2))
    with pytest.raises(TypeError, match="Multiple namespaces"):
        cunumpy.array_namespace(np.bool_(True), x, use_compat=False)
    assert cunumpy.array_namespace(np.float64(1.0), np.int64(2)) is numpy_namespace
    assert cunumpy.array_namespace(np.float64(1.0), np.ones(1)) is numpy_namespace


def test_array_api_strict_gives_itself() -> None:
    x = array_api_strict.asarray([1.0, 2.0])
    assert cunumpy.array_namespace(x) is array_api_strict
    assert cunumpy.array_namespace(x, 2.0, None) is array_api_strict


def test_api_version_is_passed_on_to_array_namespace() -> None:
    x = array_api_strict.asarray([1.0])
    before = array_api_strict.get_array_api_strict_flags()["api_version"]
    try:
        assert cunumpy.array_namespace(x, api_version="2023.12") is array_api_strict
        # array-api-strict's own __array_namespace__ sets its version globally.
        assert array_api_strict.get_array_api_strict_flags()["api_version"] == "2023.12"
    finally:
        array_api_strict.set_array_api_strict_flags(api_version=before)


def test_mixed_libraries_raise_type_error_naming_both() -> None:
    x = array_api_strict.asarray([1.0])
    with pytest.raises(TypeError, match=r"numpy\.ndarray.*array_api_strict\.Array"):
        cunumpy.array_namespace(np.ones(1), x)
    with pytest.raises(TypeError, match=r"numpy\.ndarray.*array_api_strict\.Array"):
        cunumpy.array_namespace(np.ones(1), x, use_compat=None, api_version="2025.12")


@pytest.mark.parametrize("bad", [[1.0, 2.0], (1,), "abc", object()])
def test_non_arrays_raise_type_error_naming_the_type(bad: object) -> None:
    with pytest.raises(
        TypeError, match=rf"array_namespace: {type(bad).__qualname__} is not a supported array type"
    ):
        cunumpy.array_namespace(bad)
    with pytest.raises(TypeError, match=type(bad).__qualname__):
        cunumpy.array_namespace(np.ones(1), bad, api_version="2025.12")


def _masked() -> np.ndarray:
    return np.ma.masked_array([3.0, 100.0, 1.0], mask=[False, True, False])


def _matrix() -> np.ndarray:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PendingDeprecationWarning)
        return np.matrix([[1.0, 2.0], [3.0, 4.0]])


@pytest.mark.parametrize(
    ("make", "hint"),
    [
        (_masked, r"(?s)masked arrays.*x\.filled\(fill_value\)` or `np\.asarray\(x\)"),
        (_matrix, r"(?s)numpy\.matrix.*`np\.asarray\(x\)`"),
    ],
    ids=["masked", "matrix"],
)
def test_masked_arrays_and_matrices_are_refused(make: object, hint: str) -> None:
    x = make()  # type: ignore[operator]
    for call in (
        lambda: cunumpy.array_namespace(x),
        lambda: cunumpy.array_namespace(np.ones(1), x),
        lambda: cunumpy.array_namespace(x, api_version="2025.12"),
        lambda: cunumpy.array_namespace(x, use_compat=False),
        lambda: cunumpy.linalg.vector_norm(x),  # the top level refuses them too
        lambda: cunumpy.sum(x, axis=1),
    ):
        with pytest.raises(TypeError, match=hint):
            call()
    # What the messages recommend works.
    assert cunumpy.array_namespace(np.asarray(x)) is numpy_namespace


def test_api_version() -> None:
    x = np.ones(1)
    for version in ("2021.12", "2022.12", "2023.12", "2024.12", "2025.12", None):
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # the namespace contains every earlier version
            assert cunumpy.array_namespace(x, api_version=version) is numpy_namespace
    with pytest.raises(ValueError, match=r"array_namespace: unsupported `api_version` '2030\.12'"):
        cunumpy.array_namespace(x, api_version="2030.12")


@pytest.mark.parametrize("bad", [2023.12, 2025, b"2025.12"])
def test_api_version_of_the_wrong_type_is_a_type_error(bad: object) -> None:
    with pytest.raises(TypeError, match=r"array_namespace: `api_version` must be a str"):
        cunumpy.array_namespace(np.ones(1), api_version=bad)  # type: ignore[arg-type]


def test_use_compat() -> None:
    x, strict = np.ones(1), array_api_strict.asarray([1.0])
    assert cunumpy.array_namespace(x, use_compat=True) is numpy_namespace
    assert cunumpy.array_namespace(x, use_compat=False) is np
    assert cunumpy.array_namespace(strict, use_compat=False) is array_api_strict
    with pytest.raises(ValueError, match=r"use_compat=True, but array_api_strict\.Array"):
        cunumpy.array_namespace(strict, use_compat=True)
    with pytest.raises(TypeError, match=r"`use_compat` must be True, False or None, not 1"):
        cunumpy.array_namespace(x, use_compat=1)  # type: ignore[arg-type]


def test_is_numpy_and_is_cupy_array() -> None:
    assert cunumpy.is_numpy_array(np.zeros(1))
    assert cunumpy.is_numpy_array(np.float32(1.0))
    assert not cunumpy.is_numpy_array([0.0])
    assert not cunumpy.is_cupy_array(np.zeros(1))
    assert not cunumpy.is_cupy_array(array_api_strict.asarray([1.0]))


@pytest.mark.parametrize(
    "predicate",
    ["torch", "jax", "dask", "pydata_sparse", "ndonnx", "dpnp", "mparray"],
)
def test_other_library_predicates_are_false_for_numpy_and_do_not_import(predicate: str) -> None:
    import sys

    before = set(sys.modules)
    check = getattr(cunumpy, f"is_{predicate}_array")
    assert check(np.zeros(1)) is False
    assert check(array_api_strict.asarray([1.0])) is False
    namespace_check = getattr(cunumpy, f"is_{predicate}_namespace")
    assert namespace_check(np) is False
    assert set(sys.modules) == before


def test_namespace_predicates_for_cunumpys_namespaces() -> None:
    assert cunumpy.is_numpy_namespace(numpy_namespace)
    assert cunumpy.is_numpy_namespace(np)
    assert not cunumpy.is_cupy_namespace(numpy_namespace)
    assert not cunumpy.is_numpy_namespace(cunumpy)  # the top level follows its inputs
    assert not cunumpy.is_cupy_namespace(cunumpy)
    assert cunumpy.is_array_api_strict_namespace(array_api_strict)
    assert not cunumpy.is_array_api_strict_namespace(numpy_namespace)
    assert not cunumpy.is_numpy_namespace(3)  # not a module: False, never an error

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


# The standard's extension functions, from its specification (array_api_tests' data).
_LINALG = set(spec_signatures.LINALG)
_FFT = set(spec_signatures.FFT)


@pytest.mark.parametrize("namespace", [cunumpy, numpy_namespace], ids=["cunumpy", "numpy-ns"])
def test_extension_names(namespace: object) -> None:
    linalg = namespace.linalg  # type: ignore[attr-defined]
    fft = namespace.fft  # type: ignore[attr-defined]
    assert sorted(_LINALG - _public_names(linalg)) == []
    assert sorted(_FFT - _public_names(fft)) == []


def test_the_shared_name_lists_are_the_standards() -> None:
    """``_backends/_standard_names``: the one list every namespace's ``__all__`` takes."""
    # eig and eigvals are defined in the 2025.12 stubs and tested by the public suite,
    # though the stubs' linalg __all__ (which the spec data follows) does not list them yet.
    assert set(standard_names.LINALG) == _LINALG | {"eig", "eigvals"}
    assert set(standard_names.FFT) == _FFT
    assert set(standard_names.__all__) == {*spec_signatures.CONSTANTS, *spec_signatures.DTYPES}
    for name in standard_names.__all__:
        assert getattr(cunumpy, name) is getattr(np, name)
        assert getattr(numpy_namespace, name) is getattr(np, name)


def test_all_lists_only_existing_names() -> None:
    assert sorted(n for n in cunumpy.__all__ if not hasattr(cunumpy, n)) == []
    assert len(cunumpy.__all__) == len(set(cunumpy.__all__))


def test_size_takes_numpys_and_compats_names_for_its_input() -> None:
    """``size(a=...)`` is NumPy's keyword call, ``size(x=...)`` array-api-compat's."""
    import array_api_compat

    arr = np.zeros((2, 3))
    assert cunumpy.size(a=arr) == np.size(a=arr)
    assert cunumpy.size(x=arr) == array_api_compat.size(x=arr)
    assert cunumpy.size(a=arr, axis=1) == np.size(arr, axis=1)
    with pytest.raises(TypeError, match=r"^size: give the array once"):
        cunumpy.size(arr, x=arr)
    with pytest.raises(TypeError, match=r"^size: missing the array"):
        cunumpy.size()
