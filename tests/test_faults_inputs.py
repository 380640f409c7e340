"""Fault injection, second round: masks, conversions, dtypes and arguments that are not arrays.

Each test asserts the exception type of the project's error table (``TypeError`` for a
wrong type or dtype, ``ValueError`` for a bad value), and that the message names the
function and the bad value. ``tools/probe_faults.py`` counts the same classes.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from numpy_idioms import compare, outcome, public_class

import cunumpy as xp


def _raises(kind: type[Exception], call: Callable[[], object], *names: str) -> str:
    """Assert ``call()`` raises ``kind`` (exactly) whose message holds every one of ``names``."""
    with pytest.raises(kind) as info:
        call()
    assert type(info.value) is kind, f"{type(info.value).__name__}: {info.value}"
    text = str(info.value)
    for name in names:
        assert name in text, f"{name!r} not in {text!r}"
    return text


# --- masks: refused everywhere, never taken as data -----------------------------------


def _masked() -> np.ma.MaskedArray:
    return np.ma.masked_array([1.0, 2.0, 3.0], mask=[0, 1, 0])


@pytest.mark.parametrize(
    ("name", "call"),
    [
        ("from_dlpack", lambda: xp.from_dlpack(_masked())),
        ("from_dlpack", lambda: xp.from_dlpack(_masked(), device="cpu")),
        ("to_device", lambda: xp.to_device(_masked(), "cpu")),
        ("to_numpy", lambda: xp.to_numpy(_masked())),
        ("asarray", lambda: xp.asarray(_masked())),
        ("asarray", lambda: xp.asarray(_masked(), device="cpu")),
        ("to_cupy", lambda: xp.to_cupy(_masked())),
        ("pin_memory", lambda: xp.cuda.pin_memory(_masked())),
    ],
)
def test_masked_arrays_are_refused_by_conversions(name: str, call: Callable[[], object]) -> None:
    text = _raises(TypeError, call, name, "masked arrays are not supported")
    assert "filled" in text  # the hint: how to get an array from it


def test_masked_arrays_are_refused_by_portable_kernels() -> None:
    pytest.importorskip("numba")
    from cunumpy import kernels

    @kernels.elementwise(["float64(float64)"])
    def twice(x):  # type: ignore[no-untyped-def]
        return 2.0 * x

    assert twice(np.asarray([1.0, 2.0])).tolist() == [2.0, 4.0]  # the kernel itself works
    _raises(TypeError, lambda: twice(_masked()), "twice", "masked arrays")
    _raises(TypeError, lambda: twice(np.ones(3), out=_masked()), "twice", "masked arrays")


# --- conversions: NumPy's dtypes, as NumPy gives them ----------------------------------


@pytest.mark.parametrize(
    "call",
    [
        lambda m: m.asarray(None),
        lambda m: m.asarray({}),
        lambda m: m.asarray("abc"),
        lambda m: m.asarray([b"x"]),
        lambda m: m.asarray(None, device="cpu"),
        lambda m: m.zeros(3, dtype=object),
        lambda m: m.ones(3, dtype=list),
        lambda m: m.empty(2, dtype="datetime64[s]").dtype,
        lambda m: m.zeros(3, dtype=[("a", "f8")]),
        lambda m: m.full(2, 1.0, dtype=np.float16),
        lambda m: m.arange(3, dtype="U1"),
        lambda m: m.zeros_like(np.ones(2), dtype=object),
        lambda m: m.asarray([1.0], dtype=object),
        lambda m: m.astype(np.ones(2), object),
        lambda m: m.astype(np.ones(2), "m8[s]"),
        lambda m: m.asarray(2**64),
        lambda m: m.asarray(-(2**63) - 1),
        lambda m: m.asarray(2**64 - 1),
    ],
)
def test_conversions_give_numpys_dtypes(call: Callable[[object], object]) -> None:
    kind, reference = outcome(call, np)
    if kind == "value":
        compare(call(xp), reference)
        return
    with pytest.raises(public_class(reference)):
        call(xp)


@pytest.mark.parametrize(
    ("call", "names"),
    [
        (lambda: xp.to_numpy(None), ("to_numpy", "None", "object")),
        (lambda: xp.to_numpy(["a", "b"]), ("to_numpy", "'a'")),
        (lambda: xp.astype(np.ones(2, complex), xp.float64), ("astype", "complex128", "float64")),
        (lambda: xp.astype(np.ones(2, np.complex64), xp.int8), ("astype", "complex64")),
    ],
)
def test_conversions_the_standard_does_not_permit_raise(
    call: Callable[[], object], names: tuple[str, ...]
) -> None:
    _raises(TypeError, call, *names)


def test_conversions_of_numbers_are_unchanged() -> None:
    assert xp.asarray([1, 2]).dtype == np.int64
    assert xp.asarray(1.5).dtype == np.float64
    assert xp.asarray([True]).dtype == np.bool_
    assert xp.asarray(memoryview(b"ab")).tolist() == [97, 98]
    assert xp.zeros(2, dtype="float32").dtype == np.float32
    assert xp.zeros(2, dtype=float).dtype == np.float64
    assert xp.astype(np.ones(2, complex), xp.complex64).dtype == np.complex64
    assert xp.to_numpy([1, 2]).tolist() == [1, 2]


# --- dtypes: NumPy's, where NumPy's function gives one outside the standard's set -----

_STANDARD = [np.dtype(n) for n in (
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float32", "float64", "complex64", "complex128",
)]  # fmt: skip


def _elementwise_cases() -> list[tuple[str, tuple[np.dtype, ...]]]:
    """Every elementwise function and standard input dtypes for which NumPy itself gives a
    result outside the standard's dtypes (found by calling NumPy, not read from our code)."""
    import itertools
    import sys
    import warnings

    from mpi_run import ROOT

    sys.path.insert(0, str(ROOT / "tools"))
    from api_signatures import SIGNATURES

    cases = []
    for name, entry in SIGNATURES["elementwise"].items():
        reference = getattr(np, name, None)
        n_arrays = entry["params"].partition("/")[0].count("array")
        if reference is None or name == "clip" or n_arrays not in (1, 2):
            continue
        for dtypes in itertools.product(_STANDARD, repeat=n_arrays):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    out = reference(*(np.ones(2, dtype=d) for d in dtypes))
                except TypeError:
                    continue
            if out.dtype not in _STANDARD:
                cases.append((name, dtypes))
    return cases


def test_elementwise_functions_give_numpys_dtype_outside_the_standard_too() -> None:
    cases = _elementwise_cases()
    names = {name for name, _ in cases}
    assert {"sqrt", "hypot", "exp", "atan2"} <= names  # the sweep finds the known ones
    for name, dtypes in cases:
        inputs = [np.ones(2, dtype=d) for d in dtypes]
        with np.errstate(all="ignore"):
            result = getattr(xp, name)(*inputs)
        assert result.dtype not in _STANDARD, (name, dtypes, result.dtype)  # float16, as NumPy


def test_float_results_of_standard_dtypes_are_kept() -> None:
    assert xp.sqrt(np.ones(2, np.int64)).dtype == np.float64  # NumPy's, a standard dtype
    assert xp.sqrt(np.ones(2, np.int16)).dtype == np.float32
    assert xp.add(np.ones(2, np.int8), np.ones(2, np.uint64)).dtype == np.float64
    assert xp.hypot(np.ones(2, np.float32), np.ones(2, np.float32)).dtype == np.float32


@pytest.mark.parametrize(
    "dtypes",
    [(xp.int8, xp.uint64), (xp.int64, xp.uint64), (xp.int8, xp.float32), (xp.bool, xp.int8),
     (xp.float64, xp.int32), (xp.uint8, xp.complex64), (xp.int8, 1.0), (xp.bool, 1)],
)  # fmt: skip
def test_result_type_is_numpys_where_the_standard_defines_no_promotion(dtypes: tuple) -> None:
    """The standard's table has no entry (mixed kinds, a signed integer with uint64): the
    answer is left open, and NumPy's is the answer."""
    assert xp.result_type(*dtypes) == np.result_type(*dtypes)
    arrays = [d if isinstance(d, (bool, int, float)) else np.ones(1, dtype=d) for d in dtypes]
    assert xp.result_type(*arrays) == np.result_type(*arrays)


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [((np.int8, np.int16), {"casting": "no"}), ((np.int8, np.int16, "equiv"), {}),
     ((np.float64, np.float32), {"casting": "same_kind"}), ((np.int8, np.float32), {}),
     ((np.int64, np.float64), {}), ((np.float32, np.int8), {}), ((np.complex64, np.float64), {}),
     ((np.ones(2, np.int8), np.uint8), {"casting": "unsafe"})],
)  # fmt: skip
def test_can_cast_is_numpys_for_numpys_calls_and_mixed_kinds(args: tuple, kwargs: dict) -> None:
    result = xp.can_cast(*args, **kwargs)
    assert type(result) is bool
    assert result == np.can_cast(*args, **kwargs)


def test_can_cast_with_a_casting_numpy_refuses_raises_numpys_class() -> None:
    kind, expected = outcome(lambda m: m.can_cast(np.int8, np.int16, casting="never"), np)
    assert kind == "raises"
    with pytest.raises(type(expected), match=r"^can_cast: "):
        xp.can_cast(np.int8, np.int16, casting="never")


def test_result_type_keeps_every_promotion_the_standard_defines() -> None:
    assert xp.result_type(xp.int8, xp.uint8) == np.int16
    assert xp.result_type(xp.uint32, xp.uint64) == np.uint64
    assert xp.result_type(xp.float32, xp.complex64) == np.complex64
    assert xp.result_type(xp.float64, xp.complex64) == np.complex128
    assert xp.result_type(np.ones(1, np.float32), 1.0) == np.float32  # scalars are weak


@pytest.mark.parametrize(
    ("call", "kind", "names"),
    [
        (lambda: xp.full(3, np.nan, dtype=xp.int64), ValueError, ("full", "nan", "int64")),
        (lambda: xp.full(3, 1.5, dtype=xp.int32), ValueError, ("full", "1.5", "int32")),
        (lambda: xp.full(3, np.inf, dtype=xp.uint8), ValueError, ("full", "inf", "uint8")),
        (lambda: xp.full(2, 1j, dtype=xp.float64), TypeError, ("full", "1j", "float64")),
        (lambda: xp.full_like(np.ones(2, np.int32), 1.5), ValueError, ("full_like", "1.5")),
        (lambda: xp.full_like(np.ones(2), 2j), TypeError, ("full_like", "2j")),
    ],
)
def test_fill_values_that_do_not_fit_the_dtype(
    call: Callable[[], object], kind: type[Exception], names: tuple[str, ...]
) -> None:
    _raises(kind, call, *names)


def test_fill_values_that_fit_are_kept() -> None:
    assert xp.full(2, 2.0, dtype=xp.int32).tolist() == [2, 2]
    assert xp.full(2, 1.5).dtype == np.float64
    assert xp.full(2, 1j, dtype=xp.complex64).dtype == np.complex64


# --- arguments that are not arrays ----------------------------------------------------

_X = np.asarray([3.0, 1.0, 2.0])
_A = np.arange(6.0).reshape(2, 3)


# A value the standard's checks refuse in a parameter that NumPy takes too (``keepdims=1``,
# ``roll(x, 1.5)``, ``correction=-1``) is NumPy's call, answered as NumPy answers it: those
# cases are in the idiom corpus (tests/numpy_idioms.py), checked against NumPy itself.
@pytest.mark.parametrize(
    ("call", "names"),
    [
        (lambda: xp.sort(_X, descending="x"), ("sort", "descending", "'x'")),
        (lambda: xp.argsort(_X, descending=1), ("argsort", "descending", "1")),
        (lambda: xp.asarray(_X, copy=0), ("asarray", "copy", "0")),
    ],
)
def test_arguments_of_the_wrong_type_are_type_errors(
    call: Callable[[], object], names: tuple[str, ...]
) -> None:
    _raises(TypeError, call, *names)


@pytest.mark.parametrize(
    ("call", "names"),
    [
        (lambda: xp.repeat(_X, -1), ("repeat", "repeats", "-1")),
        (lambda: xp.linalg.solve(np.eye(2), np.ones(3)), ("linalg.solve", "size 3")),
    ],
)
def test_bad_values_are_value_errors(call: Callable[[], object], names: tuple[str, ...]) -> None:
    text = _raises(ValueError, call, *names)
    assert "solve1" not in text  # NumPy's internal name is not ours


@pytest.mark.parametrize(
    ("call", "original", "names"),
    [
        (lambda: xp.fft.fft(_X, axis=5), IndexError, ("fft.fft", "axis", "5")),
        (lambda: xp.tensordot(_A, _A, axes=5), IndexError, ("tensordot", "axes", "5")),
        (lambda: xp.take(_X, np.asarray([7])), IndexError, ("take", "7")),
        (lambda: xp.add(np.ones(2, np.int8), 1000), OverflowError, ("add", "1000", "int8")),
        (lambda: xp.linalg.inv(np.zeros((2, 2))), np.linalg.LinAlgError, ("linalg.inv",)),
    ],
)
def test_values_out_of_range_are_value_errors_that_numpy_users_still_catch(
    call: Callable[[], object], original: type[Exception], names: tuple[str, ...]
) -> None:
    with pytest.raises(ValueError, match=names[0].replace(".", r"\.") + ":") as info:
        call()
    assert isinstance(info.value, original), type(info.value).__mro__
    for name in names:
        assert name in str(info.value), str(info.value)


@pytest.mark.parametrize(
    "call",
    [
        lambda m: m.where(_X, _X, 0.0),
        lambda m: m.where(np.asarray([1, 0, 2]), 1.0, 2.0),
        lambda m: m.take(_A, np.asarray([0, 4])),
        lambda m: m.tril(_X),
        lambda m: m.triu(_X, 1),
        lambda m: m.sum(np.asarray(3.0), axis=0),
        lambda m: m.argmax(np.asarray(3.0), axis=-1),
        lambda m: m.squeeze(np.asarray(3.0), axis=0),
    ],
)
def test_calls_outside_the_standards_domain_get_numpys_answer(
    call: Callable[[object], object],
) -> None:
    compare(call(xp), call(np))


def test_valid_arguments_are_unchanged() -> None:
    assert xp.sum(np.asarray(3.0), axis=()) == 3.0  # () is a valid axis of a 0-D array
    assert xp.sort(_X, axis=np.int64(0), descending=np.True_).tolist() == [3.0, 2.0, 1.0]
    assert xp.take(_A, np.asarray([0]), axis=1).shape == (2, 1)
    assert xp.roll(_X, (1,), axis=(0,)).tolist() == [2.0, 3.0, 1.0]
    assert xp.repeat(_X, 2).shape == (6,)
    assert xp.std(_X, correction=1) == pytest.approx(1.0)
    assert xp.tensordot(_A, _A.T, axes=1).shape == (2, 2)
    assert xp.tensordot(_A, _A, axes=([0, 1], [0, 1])) == pytest.approx(55.0)
    assert xp.where(_X > 1, _X, 0.0).tolist() == [3.0, 0.0, 2.0]
    assert xp.reshape(_X, (3,), copy=None).shape == (3,)


# --- the namespaces' own fixes: TypeError/ValueError naming the function -------------

_NS = xp.array_namespace(_X)


@pytest.mark.parametrize(
    ("call", "kind", "names"),
    [
        (lambda: _NS.clip("a"), TypeError, ("clip", "'a'")),
        (lambda: _NS.expm1(["a"]), TypeError, ("expm1", "['a']")),
        (lambda: _NS.tanh(None), TypeError, ("tanh", "None")),
        (lambda: _NS.sort(None), TypeError, ("sort", "None")),
        (lambda: _NS.argsort("abc"), TypeError, ("argsort", "'abc'")),
        (lambda: _NS.linalg.eigvals(_X), np.linalg.LinAlgError, ("linalg.eigvals", "(3,)")),
        (lambda: _NS.linalg.eig("a"), TypeError, ("linalg.eig", "'a'")),
        (lambda: _NS.fft.fftfreq(0), xp.ZeroDivisionValueError, ("fftfreq", "0")),
    ],
)
def test_namespace_fixes_raise_the_documented_errors(
    call: Callable[[], object], kind: type[Exception], names: tuple[str, ...]
) -> None:
    _raises(kind, call, *names)


def test_namespace_fixes_still_take_what_numpy_takes() -> None:
    assert _NS.clip([1, 5], 0, 2).tolist() == [1, 2]  # a superset of NumPy: lists convert
    assert _NS.sort([3, 1]).tolist() == [1, 3]
    assert _NS.linalg.eigvals([[1.0, 0.0], [0.0, 2.0]]).tolist() == [1.0, 2.0]
