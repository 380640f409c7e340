"""Parity with array-api-compat 1.16: each helper, on the same inputs, through both libraries.

Every helper that array-api-compat exports is called with the same arguments through
``cunumpy`` and through ``array_api_compat``; the outcomes (value, or exception type,
and the warnings) must agree. Where they do not, ``_documented_difference`` names the
reason, and that reason must be a row of the table in docs/migrating.md
("Differences that remain"): an unexplained difference, or one the docs do not list,
fails the test.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import array_api_compat
import array_api_compat.common._helpers
import array_api_compat.numpy as compat_numpy
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import cunumpy
from cunumpy._backends import numpy as numpy_namespace

array_api_strict = pytest.importorskip("array_api_strict")  # the suite collects without it

MIGRATING = Path(__file__).resolve().parent.parent / "docs" / "migrating.md"

# Every public function of array-api-compat 1.16.
HELPERS = sorted(array_api_compat.common._helpers.__all__)

ARRAY_PREDICATES = [h for h in HELPERS if h.startswith("is_") and h.endswith("_array")]
NAMESPACE_PREDICATES = [h for h in HELPERS if h.startswith("is_") and h.endswith("_namespace")]


def _documented_ids() -> set[str]:
    section = MIGRATING.read_text().split("## Differences that remain", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^\| `([a-z-]+)` \|", section, re.MULTILINE))


def test_every_compat_helper_is_at_cunumpys_top_level() -> None:
    missing = [h for h in HELPERS if h not in cunumpy.__all__ or not callable(getattr(cunumpy, h))]
    assert missing == []
    assert len(HELPERS) == 27  # array-api-compat 1.16's list; a new release needs a look


def test_the_documented_differences_are_the_ones_this_test_knows() -> None:
    assert _documented_ids() == set(_REASONS)


# --- inputs -----------------------------------------------------------------------------

_DTYPES = st.sampled_from(
    [np.bool_, np.int8, np.int64, np.uint16, np.float32, np.float64, np.complex128]
)


@st.composite
def numpy_arrays(draw: st.DrawFn) -> np.ndarray:
    x = draw(hnp.arrays(draw(_DTYPES), hnp.array_shapes(min_dims=0, max_dims=3, max_side=3)))
    if draw(st.booleans()):
        x.flags.writeable = False
    return x


def _masked() -> Any:
    return np.ma.masked_array([1.0, 2.0], mask=[False, True])


def _matrix() -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PendingDeprecationWarning)
        return np.matrix([[1.0, 2.0]])


_OTHERS: list[Callable[[], Any]] = [
    lambda: 1,
    lambda: 2.5,
    lambda: 1j,
    lambda: True,
    lambda: None,
    lambda: [1.0, 2.0],
    lambda: (1,),
    lambda: "abc",
    lambda: object(),
    lambda: np.float64(1.5),
    lambda: np.int32(3),
    lambda: array_api_strict.asarray([1.0, 2.0]),
    lambda: array_api_strict.asarray(3, dtype=array_api_strict.int16),
    lambda: array_api_strict.asarray([[True]], device=array_api_strict.Device("device1")),
    _masked,
    _matrix,
]

objects = st.one_of(numpy_arrays(), st.sampled_from(_OTHERS).map(lambda make: make()))

_NAMESPACES: list[object] = [
    np,
    compat_numpy,
    numpy_namespace,
    cunumpy,
    array_api_strict,
    np.linalg,
    re,
    "numpy",
    3,
    None,
]

_DEVICES: list[Any] = [
    "cpu",
    array_api_strict.Device("CPU_DEVICE"),
    array_api_strict.Device("device1"),
    None,
    "cuda:0",
    0,
]


# --- outcomes -----------------------------------------------------------------------------


def _normalised(value: Any) -> Any:
    """A comparable form of a result: arrays by type, dtype, shape, device and values."""
    if isinstance(value, ModuleType):
        # Both libraries return their own wrapper of NumPy: the same library.
        wrapped = {
            compat_numpy.__name__: "numpy (wrapped)",
            numpy_namespace.__name__: "numpy (wrapped)",
        }
        return ("module", wrapped.get(value.__name__, value.__name__))
    if isinstance(value, np.ndarray | np.generic):
        return ("numpy", value.dtype.str, np.shape(value), np.asarray(value).tobytes())
    if isinstance(value, array_api_strict._array_object.Array):
        return ("strict", str(value.dtype), value.shape, repr(value.device), value._array.tobytes())
    return ("value", value)


def _outcome(func: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[Any, ...]:
    flags = array_api_strict.get_array_api_strict_flags()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result: tuple[Any, ...] = ("returns", _normalised(func(*args, **kwargs)))
        except Exception as exc:
            result = ("raises", type(exc).__name__)
        finally:  # array-api-strict's __array_namespace__ sets its version globally
            array_api_strict.set_array_api_strict_flags(**flags)
    return (*result, sorted({type(w.message).__name__ for w in caught}))


_REASONS = {
    "errors-are-type-errors": "a wrong type is a TypeError naming the function",
    "size-is-numpys": "size of what has no shape is numpy.size's answer",
    "predicates-never-raise": "is_*_namespace answers False for what is not a namespace",
    "masked-and-matrix": "masked arrays and numpy.matrix are refused",
    "arguments-checked": "api_version and use_compat are checked, whatever the arrays",
    "no-version-warning": "no warning for an older api_version",
    "cunumpy-namespaces": "cunumpy's own namespaces are NumPy (CuPy) namespaces",
    "devices-everywhere": "other libraries' devices and 'cpu' are understood",
    "numpy-to-gpu": "to_device moves NumPy arrays to a GPU",
}


def _is_masked_or_matrix(x: object) -> bool:
    return isinstance(x, np.ma.MaskedArray | np.matrix)


def _documented_difference(
    helper: str, args: tuple[Any, ...], kwargs: dict[str, Any], ours: tuple, theirs: tuple
) -> str | None:
    """The reason (a row of docs/migrating.md) for a difference, or None if unexplained."""
    namespace_helper = helper in ("array_namespace", "get_namespace")
    if ours[:2] == theirs[:2] and ours[-1] == [] and theirs[-1] == ["UserWarning"]:
        return "no-version-warning" if namespace_helper and kwargs.get("api_version") else None
    if (
        helper == "size"
        and not hasattr(args[0], "shape")
        and theirs[:2] == ("raises", "AttributeError")
    ):
        return "size-is-numpys" if ours == _outcome(np.size, *args) else None
    if ours[:2] == ("raises", "TypeError") and theirs[0] == "raises":
        return "errors-are-type-errors" if theirs[1] in ("AttributeError", "ValueError") else None
    if helper in NAMESPACE_PREDICATES:
        if ours == ("returns", ("value", False), []) and theirs[0] == "raises":
            return "predicates-never-raise"
        if args[0] is numpy_namespace and helper == "is_numpy_namespace":
            return "cunumpy-namespaces"
    if namespace_helper:
        if ours[:2] == ("raises", "TypeError") and any(map(_is_masked_or_matrix, args)):
            return "masked-and-matrix"
        version, use_compat = kwargs.get("api_version"), kwargs.get("use_compat")
        wrong_type = (version is not None and not isinstance(version, str)) or (
            use_compat is not None and not isinstance(use_compat, bool)
        )
        if ours[:2] == ("raises", "TypeError") and wrong_type:
            return "arguments-checked"
        if ours[:2] == ("raises", "ValueError") and version not in (None, *_VERSIONS):
            return "arguments-checked"
    if helper == "to_device":
        x, device = args
        is_numpy = isinstance(x, np.ndarray | np.generic)
        if ours[0] == "returns" and theirs[:2] == ("raises", "ValueError"):
            return "devices-everywhere"
        if is_numpy and device in ("cuda:0", 0) and ours[1] != theirs[1]:
            return "numpy-to-gpu"  # RuntimeError without a GPU, a CuPy array with one
    return None


def _check(helper: str, *args: Any, **kwargs: Any) -> None:
    ours = _outcome(getattr(cunumpy, helper), *args, **kwargs)
    theirs = _outcome(getattr(array_api_compat, helper), *args, **kwargs)
    if ours == theirs:
        return
    reason = _documented_difference(helper, args, kwargs, ours, theirs)
    assert reason is not None, f"{helper}{args!r:.200} {kwargs}: cunumpy {ours}, compat {theirs}"
    assert reason in _documented_ids(), f"{reason!r} is not in docs/migrating.md"


_VERSIONS = ("2021.12", "2022.12", "2023.12", "2024.12", "2025.12")

# --- the parity tests ---------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(x=objects)
def test_array_predicates_size_and_device(x: object) -> None:
    for helper in (
        *ARRAY_PREDICATES,
        "is_array_api_obj",
        "is_lazy_array",
        "is_writeable_array",
        "size",
        "device",
    ):
        _check(helper, x)


@settings(max_examples=150, deadline=None)
@given(
    xs=st.lists(objects, max_size=3),
    api_version=st.sampled_from([None, *_VERSIONS, "2030.12", 2023.12]),
    use_compat=st.sampled_from([None, None, True, False, 1]),
)
def test_array_namespace(xs: list[object], api_version: object, use_compat: object) -> None:
    for helper in ("array_namespace", "get_namespace"):
        kwargs: dict[str, Any] = {}
        if api_version is not None:
            kwargs["api_version"] = api_version
        if use_compat is not None:
            kwargs["use_compat"] = use_compat
        _check(helper, *xs, **kwargs)


# array_namespace is array-api-compat's drop-in: a NumPy scalar counts as a NumPy array, so
# beside another library's array it is a second namespace (SciPy's own test,
# test_array_and_array_likes_mix[array_api_strict], expects compat's "Multiple namespaces").
_MIXES: dict[str, Callable[[], tuple[Any, ...]]] = {
    "float64 alone": lambda: (np.float64(1.5),),
    "int32 alone": lambda: (np.int32(3),),
    "bool_ and float": lambda: (np.bool_(True), 2.0),
    "float64 beside ndarray": lambda: (np.float64(1.5), np.ones(2)),
    "ndarray beside int64": lambda: (np.ones(2), np.int64(1)),
    "float64 beside strict": lambda: (np.float64(1.5), array_api_strict.asarray([1.0])),
    "strict beside int64": lambda: (array_api_strict.asarray([1]), np.int64(1)),
    "strict beside complex128": lambda: (array_api_strict.asarray([1.0]), np.complex128(1j)),
    "strict, 2.0, float32": lambda: (array_api_strict.asarray([1.0]), 2.0, np.float32(1)),
    "strict and a list": lambda: (array_api_strict.asarray([1.0]), [1, 2]),
    "two strict and None": lambda: (array_api_strict.asarray(1), None, array_api_strict.asarray(2)),
}


@pytest.mark.parametrize("mix", list(_MIXES))
@pytest.mark.parametrize("api_version", [None, "2024.12"])
@pytest.mark.parametrize("helper", ["array_namespace", "get_namespace"])
def test_array_namespace_gives_compats_answer_for_numpy_scalars(
    mix: str, api_version: str | None, helper: str
) -> None:
    args = _MIXES[mix]()
    kwargs = {} if api_version is None else {"api_version": api_version}
    ours = _outcome(getattr(cunumpy, helper), *args, **kwargs)
    theirs = _outcome(getattr(array_api_compat, helper), *args, **kwargs)
    assert ours[:2] == theirs[:2], (mix, ours, theirs)


def test_scipys_own_test_of_array_and_array_likes_passes_with_ours_as_its_helper(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """SciPy's test_array_and_array_likes_mix[array_api_strict] (scipy/_lib/tests/
    test_array_api.py), with cunumpy.array_namespace where SciPy calls compat's."""
    override = pytest.importorskip("scipy._lib._array_api_override")
    monkeypatch.setattr(override, "SCIPY_ARRAY_API", True)
    monkeypatch.setattr(
        override,
        "array_api_compat",
        type("Compat", (), {"array_namespace": cunumpy.array_namespace}),
    )
    x = array_api_strict.asarray(1)
    assert override.array_namespace(x) is array_api_strict
    assert override.array_namespace(x, 1) is array_api_strict
    assert override.array_namespace(None, x) is array_api_strict
    for other in ([1, 2], np.int64(1), np.float64(1), np.complex128(1)):
        with pytest.raises(TypeError, match="Multiple namespaces"):
            override.array_namespace(x, other)


def test_the_top_level_takes_a_numpy_scalar_as_a_scalar_beside_another_librarys_array() -> None:
    """Unlike array_namespace, the top level's dispatch runs where the array lives (as a
    Python scalar would): Struphy's clip(cupy_array, np.float64(...)) needs that."""
    da = pytest.importorskip("dask.array")
    x = da.asarray(np.asarray([1.0, 5.0]))
    clipped = cunumpy.clip(x, np.float64(2.0), 3.0)
    assert type(clipped) is type(x)
    np.testing.assert_array_equal(clipped.compute(), np.clip([1.0, 5.0], 2.0, 3.0))
    for helper in (cunumpy.array_namespace, array_api_compat.array_namespace):
        with pytest.raises(TypeError, match="Multiple namespaces"):
            helper(x, np.float64(0.0))


@pytest.mark.parametrize("namespace", _NAMESPACES, ids=repr)
@pytest.mark.parametrize("helper", NAMESPACE_PREDICATES)
def test_namespace_predicates(helper: str, namespace: object) -> None:
    _check(helper, namespace)


@settings(max_examples=100, deadline=None)
@given(
    x=st.one_of(numpy_arrays(), st.sampled_from(_OTHERS[9:14]).map(lambda make: make())),
    device=st.sampled_from(_DEVICES),
    stream=st.sampled_from([None, None, None, 1]),
)
def test_to_device(x: object, device: object, stream: object) -> None:
    _check("to_device", x, device, stream=stream)


def test_to_device_of_a_strict_array_to_its_own_devices_agrees() -> None:
    x = array_api_strict.asarray([1.0, 2.0])
    for device in array_api_strict.__array_namespace_info__().devices():
        _check("to_device", x, device)


# --- the namespaces: every public attribute of compat's namespaces is ours too ------------

# Module machinery that compat's dir() shows and no namespace needs to share.
_MACHINERY = {"__builtins__"}


def _missing(compat_module: ModuleType, ours: ModuleType) -> list[str]:
    return [n for n in dir(compat_module) if n not in _MACHINERY and not hasattr(ours, n)]


def test_the_numpy_namespace_has_every_attribute_of_compats() -> None:
    assert _missing(compat_numpy, numpy_namespace) == []
    assert _missing(compat_numpy.linalg, numpy_namespace.linalg) == []
    assert _missing(compat_numpy.fft, numpy_namespace.fft) == []


def test_the_numpy_namespace_version_is_numpys() -> None:
    """A library that checks ``xp.__version__`` (as compat's namespace has it) sees NumPy's."""
    assert numpy_namespace.__version__ == np.__version__ == compat_numpy.__version__


def test_the_named_results_are_the_classes_the_functions_return() -> None:
    x = np.asarray([[2.0, 1.0], [1.0, 2.0]])
    xp, linalg = numpy_namespace, numpy_namespace.linalg
    assert type(xp.unique_all(x)) is xp.UniqueAllResult
    assert type(xp.unique_counts(x)) is xp.UniqueCountsResult
    assert type(xp.unique_inverse(x)) is xp.UniqueInverseResult
    assert type(linalg.eigh(x)) is linalg.EighResult
    assert type(linalg.qr(x)) is linalg.QRResult
    assert type(linalg.svd(x)) is linalg.SVDResult
    assert type(linalg.slogdet(x)) is linalg.SlogdetResult
    # Same fields as compat's results, so code written against compat's names works on ours.
    for ours, theirs in [
        (xp.unique_all(x), compat_numpy.unique_all(x)),
        (xp.unique_counts(x), compat_numpy.unique_counts(x)),
        (xp.unique_inverse(x), compat_numpy.unique_inverse(x)),
    ]:
        assert ours._fields == theirs._fields
    for name in ("EighResult", "QRResult", "SVDResult", "SlogdetResult"):
        assert getattr(linalg, name)._fields == getattr(compat_numpy.linalg, name)._fields


@pytest.mark.gpu
def test_the_cupy_namespace_has_every_attribute_of_compats() -> None:
    import array_api_compat.cupy as compat_cupy
    import cupy

    from cunumpy._backends import cupy as cupy_namespace

    assert _missing(compat_cupy, cupy_namespace) == []
    assert _missing(compat_cupy.linalg, cupy_namespace.linalg) == []
    assert _missing(compat_cupy.fft, cupy_namespace.fft) == []
    assert cupy_namespace.__version__ == cupy.__version__
    x = cupy.asarray([[2.0, 1.0], [1.0, 2.0]])
    assert type(cupy_namespace.unique_all(x)) is cupy_namespace.UniqueAllResult
    assert type(cupy_namespace.linalg.eigh(x)) is cupy_namespace.linalg.EighResult
