"""The namespaces array_namespace returns are supersets: standard names ours, others the library's."""

from __future__ import annotations

import gc
import warnings

import numpy as np
import pytest

import cunumpy
from array_api_tests._spec_signatures import CONSTANTS, DTYPES, MAIN
from cunumpy._backends import numpy as numpy_namespace

# What the NumPy fast paths of array-api-extra and scikit-learn call on `xp`.
FAST_PATH_NAMES = [
    "atleast_1d",
    "cov",
    "diag",
    "einsum",
    "isclose",
    "kron",
    "nanmax",
    "nanmin",
    "nansum",
    "pad",
    "partition",
    "setdiff1d",
    "union1d",
    "ndarray",
    "random",
]

# The names of the standard (2025.12), with its two extensions.
STANDARD = sorted({*MAIN, *CONSTANTS, *DTYPES, "fft", "linalg"})


@pytest.mark.parametrize("name", FAST_PATH_NAMES)
def test_names_outside_the_standard_are_numpys_own(name: str) -> None:
    assert getattr(numpy_namespace, name) is getattr(np, name)


def test_a_numpy_fast_path_runs_on_the_namespace() -> None:
    x = np.asarray([[1.0, np.nan], [3.0, 2.0]])
    xp = cunumpy.array_namespace(x)
    assert cunumpy.is_numpy_namespace(xp)
    np.testing.assert_array_equal(xp.nanmax(x, axis=1), [1.0, 3.0])
    np.testing.assert_array_equal(xp.pad(xp.ones(1), 1), [0.0, 1.0, 0.0])
    assert xp.einsum("ij,ij->", x[1:], x[1:]) == 13.0
    np.testing.assert_array_equal(xp.union1d(xp.asarray([3, 1]), xp.asarray([2, 1])), [1, 2, 3])


def test_standard_names_stay_cunumpys() -> None:
    # Where cunumpy fixes NumPy, the fix wins over NumPy's object of the same name.
    assert numpy_namespace.sort is not np.sort
    assert numpy_namespace.clip is not np.clip
    assert numpy_namespace.unique_values is not np.unique_values
    x = np.asarray([3, 1, 2])
    np.testing.assert_array_equal(numpy_namespace.sort(x, descending=True), [3, 2, 1])


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("tanh", (np.asarray([0.5, -1.0]),)),
        ("expm1", (np.asarray([1e-10, 2.0]),)),
        ("floor_divide", (np.asarray([7.0, -7.0]), np.asarray([2.0, 2.0]))),
        ("clip", (np.asarray([-3.0, 0.5, 9.0]), 0.0, 1.0)),
    ],
)
def test_fixed_functions_take_numpys_out(name: str, args: tuple[np.ndarray, ...]) -> None:
    # NumPy fast paths write into `out=` (scikit-learn: xp.tanh(K, out=K)).
    expected = getattr(np, name)(*args)
    out = np.empty_like(args[0])
    assert getattr(numpy_namespace, name)(*args, out=out) is out
    np.testing.assert_array_equal(out, expected)
    in_place = args[0].copy()
    getattr(numpy_namespace, name)(in_place, *args[1:], out=in_place)
    np.testing.assert_array_equal(in_place, expected)


_INF, _NAN = float("inf"), float("nan")
_SPECIAL_INPUTS = {
    "floor_divide": [(a, b) for a in (_INF, -_INF, _NAN, -0.0, 1.5) for b in (_INF, -0.0, 2.0)],
    "expm1": [(complex(a, b),) for a in (_INF, -_INF, _NAN, -0.0) for b in (0.0, 1.0, _NAN, _INF)],
    "tanh": [(complex(a, b),) for a in (_INF, -_INF, _NAN, -0.0) for b in (0.0, 1.0, _NAN, _INF)],
}


@pytest.mark.parametrize("name", sorted(_SPECIAL_INPUTS))
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_fixed_functions_give_numpys_kind_of_result(name: str, dtype: type) -> None:
    """NumPy's ufuncs give a NumPy scalar for NumPy scalars and 0-D arrays; where a fix
    replaces a special value, the result keeps that kind (and the top level's too)."""
    kind = np.dtype(dtype) if name == "floor_divide" else np.result_type(dtype, np.complex64)
    with np.errstate(all="ignore"):
        for values in _SPECIAL_INPUTS[name]:
            for make in (kind.type, lambda v: np.asarray(v, dtype=kind)):
                args = [make(v) for v in values]
                expected = getattr(np, name)(*args)
                for ours in (getattr(numpy_namespace, name)(*args), getattr(cunumpy, name)(*args)):
                    assert type(ours) is type(expected), (name, args, type(ours))
                    assert ours.dtype == expected.dtype
                    # the value is the standard's, as for a 1-D array of the same values
                    one_d = getattr(numpy_namespace, name)(*(np.asarray([a]) for a in args))
                    np.testing.assert_array_equal(np.asarray(ours).reshape(1), one_d)


def test_out_keeps_the_standards_special_cases() -> None:
    x = np.asarray([complex(np.inf, 1.0), 0.5 + 0j])
    out = np.empty_like(x)
    numpy_namespace.tanh(x, out=out)
    assert out[0] == 1.0 + 0j  # NumPy's own tanh gives NaNs here
    with pytest.raises(TypeError, match="Cannot cast"):
        numpy_namespace.tanh(np.asarray([0.5]), out=np.empty(1, dtype=np.int64))


def test_every_standard_name_is_a_module_global_so_it_never_reaches_getattr() -> None:
    own = vars(numpy_namespace)
    lazy = {"fft", "linalg"}  # the extensions: loaded on first use, then module globals
    assert [n for n in STANDARD if n not in own and n not in lazy] == []
    numpy_namespace.fft, numpy_namespace.linalg
    assert lazy <= set(vars(numpy_namespace))


def test_dir_lists_no_global_that_pytests_assertion_rewriting_adds() -> None:
    """An installed cunumpy-xp has a ``pytest11`` entry point, so pytest rewrites the asserts
    of all its modules, which adds ``@py_builtins`` and ``@pytest_ar`` to their globals."""
    from cunumpy._backends._superset import standard_dir

    names = standard_dir({"@py_builtins": 1, "@pytest_ar": 2, "sum": 3, "__doc__": 4, "_x": 5})
    assert names == ("__doc__", "sum")


def test_every_public_numpy_name_resolves_to_numpys_object() -> None:
    standard = set(STANDARD)
    wrong = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # NumPy's deprecated aliases warn on access
        for name in dir(np):
            if name.startswith("_") or name in standard:
                continue
            try:
                expected = getattr(np, name)
            except AttributeError:
                continue  # listed by dir() but removed (NumPy raises with a hint)
            if getattr(numpy_namespace, name) is not expected:
                wrong.append(name)
    assert wrong == []


def test_dir_lists_the_standard_names_only() -> None:
    numpy_namespace.einsum
    public = sorted(n for n in dir(numpy_namespace) if not n.startswith("_"))
    assert public == STANDARD
    assert "__array_namespace_info__" in dir(numpy_namespace)
    assert "pad" not in dir(numpy_namespace)


def test_extensions_fall_through_to_numpy_linalg_and_fft() -> None:
    assert numpy_namespace.linalg.lstsq is np.linalg.lstsq
    assert numpy_namespace.linalg.norm is np.linalg.norm
    assert numpy_namespace.linalg.vector_norm is not None
    assert "lstsq" not in dir(numpy_namespace.linalg)
    assert "fft" in dir(numpy_namespace.fft)
    assert numpy_namespace.fft.fft2 is np.fft.fft2


def test_unknown_names_raise_attribute_error_naming_both() -> None:
    with pytest.raises(
        AttributeError, match=r"^cunumpy's NumPy namespace has no attribute 'bogus'.*numpy"
    ):
        numpy_namespace.bogus
    with pytest.raises(AttributeError, match=r"np\.float_` was removed"):
        numpy_namespace.float_
    with pytest.raises(AttributeError, match=r"has no attribute 'bogus'.*numpy\.linalg"):
        numpy_namespace.linalg.bogus


@pytest.mark.parametrize("name", ["_private", "__wrapped__", "__config__"])
def test_private_and_dunder_names_are_not_passed_on(name: str) -> None:
    assert hasattr(np, "__config__")
    with pytest.raises(AttributeError):
        getattr(numpy_namespace, name)


def test_the_top_level_is_a_numpy_superset_on_the_numpy_backend() -> None:
    standard = set(STANDARD) | set(cunumpy.__all__)
    wrong = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # NumPy's deprecated aliases warn on access
        for name in dir(np):
            if name.startswith("_") or name in standard:
                continue
            try:
                expected = getattr(np, name)
            except AttributeError:
                continue
            if getattr(cunumpy, name) is not expected:
                wrong.append(name)
    assert wrong == []
    assert cunumpy.linalg.norm is np.linalg.norm and cunumpy.linalg.lstsq is np.linalg.lstsq
    assert cunumpy.fft.fft2 is np.fft.fft2 and cunumpy.fft.fftshift.__module__ == "cunumpy.fft"
    assert cunumpy.random is np.random and cunumpy.float16 is np.float16


def test_the_top_levels_standard_names_are_globals_so_they_never_reach_getattr() -> None:
    assert [n for n in STANDARD if n not in vars(cunumpy)] == []
    assert [n for n in cunumpy.linalg.__all__ if n not in vars(cunumpy.linalg)] == []
    assert [n for n in cunumpy.fft.__all__ if n not in vars(cunumpy.fft)] == []


def test_the_top_levels_standard_names_stay_ours() -> None:
    for name in ("sum", "asarray", "concat", "abs", "max", "round"):
        assert getattr(cunumpy, name).__module__.startswith("cunumpy._api.")
    for name in ("solve", "vector_norm"):
        assert getattr(cunumpy.linalg, name).__module__ == "cunumpy.linalg"
    assert "pad" not in dir(cunumpy) and "norm" not in dir(cunumpy.linalg)
    assert dir(cunumpy) == sorted(cunumpy.__all__)


def test_top_level_backend_names_are_globals_in_a_program_on_one_backend() -> None:
    # a dictionary look-up, not a module __getattr__ call (tests/test_public_names.py
    # follows them through use_backend blocks, threads and tasks)
    gc.collect()  # no block of another backend left alive by an earlier test
    assert vars(cunumpy)["pad"] is np.pad and vars(cunumpy)["einsum"] is np.einsum
    assert vars(cunumpy.linalg)["norm"] is np.linalg.norm
    assert vars(cunumpy.fft)["fft2"] is np.fft.fft2
    assert vars(cunumpy)["float16"] is np.float16


def test_top_level_unknown_and_private_names_raise_attribute_error() -> None:
    with pytest.raises(AttributeError, match=r"'cunumpy' has no attribute 'bogus'.*numpy's"):
        cunumpy.bogus
    with pytest.raises(AttributeError, match=r"'cunumpy.linalg' has no attribute 'bogus'"):
        cunumpy.linalg.bogus
    with pytest.raises(AttributeError, match=r"'cunumpy.fft' has no attribute 'bogus'"):
        cunumpy.fft.bogus
    for name in ("_private", "__wrapped__"):
        assert not hasattr(cunumpy, name)
        assert not hasattr(cunumpy.linalg, name)


@pytest.mark.parametrize(
    ("name", "where_it_went"),
    [
        ("byte_bounds", "`np.lib.array_utils.byte_bounds`"),
        ("NaN", "Use `np.nan` instead."),
        ("alltrue", "Use `np.all` instead."),
        ("float_", "Use `np.float64` instead."),
    ],
)
def test_a_name_numpy_2_removed_gives_numpys_own_text(name: str, where_it_went: str) -> None:
    with pytest.raises(AttributeError) as info:
        getattr(cunumpy, name)
    message = str(info.value)
    assert message.startswith(f"module 'cunumpy' has no attribute {name!r}, nor has numpy, ")
    assert f"`np.{name}` was removed in the NumPy 2.0 release" in message
    assert message.endswith(where_it_went)


@pytest.mark.gpu
def test_top_level_names_are_cupys_on_the_cupy_backend() -> None:
    import cupy

    with cunumpy.use_backend("cupy", strict=True):
        # stand-ins that follow the context while the block differs from the default
        assert isinstance(cunumpy.pad(cupy.ones(2), 1), cupy.ndarray)
        assert cunumpy.ndarray is cupy.ndarray
        assert isinstance(cunumpy.random.rand(2), cupy.ndarray)
        assert isinstance(cunumpy.linalg.norm(cupy.ones((2, 2))), cupy.ndarray)
        assert isinstance(cunumpy.fft.fft2(cupy.ones((2, 2))), cupy.ndarray)
        # a ufunc stand-in keeps the ufunc's attributes (CuPy has no fmax.reduce: its call)
        assert cunumpy.fmax.nin == 2
        assert isinstance(cunumpy.fmax(cupy.ones(3), cupy.zeros(3)), cupy.ndarray)
        x = cunumpy.array([1.0, 2.0])
        assert isinstance(x, cupy.ndarray)
        assert cunumpy.sum.__module__ == "cunumpy._api.statistics"
    assert cunumpy.pad is np.pad
    cunumpy.set_backend("cupy", strict=True)
    # on one backend, the library's own objects
    assert cunumpy.pad is cupy.pad and cunumpy.random is cupy.random
    assert cunumpy.linalg.norm is cupy.linalg.norm and cunumpy.fft.fft2 is cupy.fft.fft2


def test_the_version_is_numpys_as_in_compats_namespace() -> None:
    """The one dunder taken from NumPy: libraries check ``xp.__version__``."""
    assert numpy_namespace.__version__ == np.__version__


@pytest.mark.gpu
def test_cupy_namespace_is_a_superset_of_cupy() -> None:
    import cupy

    from cunumpy._backends import cupy as cupy_namespace

    assert cunumpy.is_cupy_namespace(cupy_namespace)
    assert not cunumpy.is_numpy_namespace(cupy_namespace)
    for name in ("pad", "einsum", "isclose", "nanmax", "diag", "kron", "partition", "ndarray"):
        assert getattr(cupy_namespace, name) is getattr(cupy, name)
    assert cupy_namespace.linalg.lstsq is cupy.linalg.lstsq
    assert cupy_namespace.fft.fft2 is cupy.fft.fft2
    public = sorted(n for n in dir(cupy_namespace) if not n.startswith("_"))
    assert public == STANDARD
    x = cupy.asarray([[1.0, cupy.nan], [3.0, 2.0]])
    xp = cunumpy.array_namespace(x)
    assert xp is cupy_namespace
    np.testing.assert_array_equal(cupy.asnumpy(xp.nanmax(x, axis=1)), [1.0, 3.0])


@pytest.mark.gpu
@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("tanh", (np.asarray([0.5, -1.0]),)),
        ("expm1", (np.asarray([1e-10, 2.0]),)),
        ("sqrt", (np.asarray([4.0, 2.0]),)),
        ("log", (np.asarray([1.0, 3.0]),)),
        ("log1p", (np.asarray([1e-12, 3.0]),)),
        ("acosh", (np.asarray([1.5, 2.0]),)),
        ("sign", (np.asarray([-2.0, 0.0, 3.0]),)),
        ("clip", (np.asarray([-3.0, 0.5, 9.0]), 0.0, 1.0)),
        ("remainder", (np.asarray([7.0, -7.0]), np.asarray([2.0, 2.0]))),
        ("nextafter", (np.asarray([1.0, 2.0]), np.asarray([2.0, 1.0]))),
    ],
)
def test_cupy_fixed_functions_take_cupys_out(name: str, args: tuple[np.ndarray, ...]) -> None:
    import cupy

    from cunumpy._backends import cupy as cupy_namespace

    expected = getattr(numpy_namespace, name)(*args)
    on_gpu = tuple(cupy.asarray(a) if isinstance(a, np.ndarray) else a for a in args)
    out = cupy.empty_like(on_gpu[0])
    assert getattr(cupy_namespace, name)(*on_gpu, out=out) is out
    np.testing.assert_allclose(cupy.asnumpy(out), expected, rtol=1e-12, atol=0)
