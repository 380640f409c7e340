"""Data-type functions (finfo, iinfo, can_cast, isdtype, result_type) and the inspection API."""

from __future__ import annotations

from types import ModuleType

import pytest

from array_api_tests._dtypes import COMPLEXES, INTS, NUMERIC, PROMOTABLE, REALS, UINTS
from array_api_tests._spec_signatures import DTYPES

KINDS = {
    "bool": ("bool",),
    "signed integer": INTS,
    "unsigned integer": UINTS,
    "integral": INTS + UINTS,
    "real floating": REALS,
    "complex floating": COMPLEXES,
    "numeric": NUMERIC,
}


@pytest.mark.parametrize("name", REALS + COMPLEXES)
@pytest.mark.parametrize("source", ["dtype", "array"])
def test_finfo(xp: ModuleType, name: str, source: str) -> None:
    dtype = getattr(xp, name)
    info = xp.finfo(dtype if source == "dtype" else xp.zeros(1, dtype=dtype))
    for field in ("eps", "max", "min", "smallest_normal"):
        value = getattr(info, field)
        assert type(value) is float, f"finfo({name}).{field} is {type(value).__name__}, not float"
    assert type(info.bits) is int
    assert info.bits == (32 if name in ("float32", "complex64") else 64)
    assert info.min == -info.max
    real = "float32" if name in ("float32", "complex64") else "float64"
    assert info.dtype == getattr(xp, real)


@pytest.mark.parametrize("name", INTS + UINTS)
@pytest.mark.parametrize("source", ["dtype", "array"])
def test_iinfo(xp: ModuleType, name: str, source: str) -> None:
    dtype = getattr(xp, name)
    info = xp.iinfo(dtype if source == "dtype" else xp.zeros(1, dtype=dtype))
    bits = int(name.lstrip("uint"))
    for field in ("bits", "max", "min"):
        assert type(getattr(info, field)) is int, f"iinfo({name}).{field} is not int"
    assert info.bits == bits
    if name.startswith("u"):
        assert (info.min, info.max) == (0, 2**bits - 1)
    else:
        assert (info.min, info.max) == (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1)
    assert info.dtype == dtype


@pytest.mark.parametrize("kind", list(KINDS))
def test_isdtype(xp: ModuleType, kind: str) -> None:
    for name in DTYPES:
        got = xp.isdtype(getattr(xp, name), kind)
        assert got is (name in KINDS[kind]), f"isdtype({name}, {kind!r}) = {got}"
    assert xp.isdtype(xp.float32, (kind, "real floating")) is True
    for name in DTYPES:
        assert xp.isdtype(getattr(xp, name), getattr(xp, name)) is True


def test_can_cast(xp: ModuleType) -> None:
    for a, b, result in PROMOTABLE:
        assert xp.can_cast(getattr(xp, a), getattr(xp, result)) is True, (a, result)
        if result != b:
            assert xp.can_cast(getattr(xp, result), getattr(xp, b)) is False, (result, b)
    assert xp.can_cast(xp.zeros(1, dtype=xp.int8), xp.int16) is True
    assert xp.can_cast(xp.float64, xp.int64) is False


def test_result_type_scalars(xp: ModuleType) -> None:
    assert xp.result_type(xp.float32, 1.0) == xp.float32
    assert xp.result_type(xp.int8, 1) == xp.int8
    assert xp.result_type(xp.zeros(1, dtype=xp.int16), xp.int8) == xp.int16
    assert xp.result_type(xp.float32, 1j) == xp.complex64


def test_capabilities(xp: ModuleType) -> None:
    caps = xp.__array_namespace_info__().capabilities()
    assert isinstance(caps, dict)
    for key in ("boolean indexing", "data-dependent shapes", "max dimensions"):
        assert key in caps, f"capabilities lacks {key!r}"
    assert isinstance(caps["boolean indexing"], bool)
    assert isinstance(caps["data-dependent shapes"], bool)
    assert caps["max dimensions"] is None or type(caps["max dimensions"]) is int


def test_devices(xp: ModuleType) -> None:
    info = xp.__array_namespace_info__()
    devices = info.devices()
    assert isinstance(devices, tuple), f"devices() returned {type(devices).__name__}"
    assert info.default_device() in devices


def test_default_dtypes(xp: ModuleType) -> None:
    info = xp.__array_namespace_info__()
    defaults = info.default_dtypes(device=info.default_device())
    assert set(defaults) == {"real floating", "complex floating", "integral", "indexing"}
    assert xp.asarray(1.0).dtype == defaults["real floating"]
    assert xp.asarray(1).dtype == defaults["integral"]
    assert xp.asarray(1j).dtype == defaults["complex floating"]


@pytest.mark.parametrize("kind", [None, *KINDS])
def test_dtypes(xp: ModuleType, kind: str | None) -> None:
    info = xp.__array_namespace_info__()
    table = info.dtypes(kind=kind)
    assert isinstance(table, dict)
    expected = DTYPES if kind is None else KINDS[kind]
    assert set(table) == set(expected), f"dtypes(kind={kind!r}) keys {sorted(table)}"
    for name, dtype in table.items():
        assert dtype == getattr(xp, name)
    both = info.dtypes(kind=("signed integer", "unsigned integer"))
    assert set(both) == set(INTS + UINTS)
