"""Type promotion: every pair of the 13 dtypes, via result_type and via binary functions."""

from __future__ import annotations

from types import ModuleType

import pytest

from array_api_tests._dtypes import COMPLEXES, INTS, NUMERIC, PROMOTABLE, REALS, UINTS

pytestmark = pytest.mark.usefixtures("quiet_fp")

PROMOTION_IDS = [pytest.param(a, b, r, id=f"{a}-{b}") for a, b, r in PROMOTABLE]
BINARY = {
    "add": NUMERIC, "subtract": NUMERIC, "multiply": NUMERIC, "divide": REALS + COMPLEXES,
    "pow": NUMERIC, "equal": ("bool", *NUMERIC), "maximum": INTS + UINTS + REALS,
    "bitwise_and": ("bool", *INTS, *UINTS), "atan2": REALS, "floor_divide": INTS + UINTS + REALS,
}  # fmt: skip
COMPARISON = {"equal"}


@pytest.mark.parametrize(("a", "b", "expected"), PROMOTION_IDS)
def test_result_type(xp: ModuleType, a: str, b: str, expected: str) -> None:
    got = xp.result_type(getattr(xp, a), getattr(xp, b))
    assert got == getattr(xp, expected), f"result_type({a}, {b}) = {got}, expected {expected}"


@pytest.mark.parametrize(("a", "b", "expected"), PROMOTION_IDS)
def test_binary_functions(xp: ModuleType, a: str, b: str, expected: str) -> None:
    x1 = xp.ones((2,), dtype=getattr(xp, a))
    x2 = xp.ones((2, 1), dtype=getattr(xp, b))
    for name, kinds in BINARY.items():
        if a not in kinds or b not in kinds:
            continue
        out = getattr(xp, name)(x1, x2)
        want = xp.bool if name in COMPARISON else getattr(xp, expected)
        assert out.dtype == want, f"{name}({a}, {b}) has dtype {out.dtype}, expected {want}"
        assert out.shape == (2, 2)


@pytest.mark.parametrize(("a", "b", "expected"), PROMOTION_IDS)
def test_operators(xp: ModuleType, a: str, b: str, expected: str) -> None:
    x1 = xp.ones((2,), dtype=getattr(xp, a))
    x2 = xp.ones((2,), dtype=getattr(xp, b))
    if a != "bool":
        assert (x1 + x2).dtype == getattr(xp, expected)
        assert (x1 * x2).dtype == getattr(xp, expected)
    assert (x1 == x2).dtype == xp.bool


SCALARS = [
    ("bool", True, "bool"),
    *[(d, 2, d) for d in NUMERIC], *[(d, 2.5, d) for d in REALS + COMPLEXES],
    *[(d, 1j, d) for d in COMPLEXES],
    ("float32", 1j, "complex64"), ("float64", 1j, "complex128"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("dtype", "scalar", "expected"),
    [pytest.param(d, s, e, id=f"{d}-{type(s).__name__}") for d, s, e in SCALARS],
)
def test_python_scalars(xp: ModuleType, dtype: str, scalar: object, expected: str) -> None:
    x = xp.ones((3,), dtype=getattr(xp, dtype))
    want = getattr(xp, expected)
    if dtype == "bool":
        assert xp.logical_and(x, scalar).dtype == xp.bool
        assert (x & scalar).dtype == xp.bool
        return
    for out, label in ((x + scalar, "x + s"), (scalar + x, "s + x"), (xp.add(x, scalar), "add")):
        assert out.dtype == want, f"{label} for {dtype} and {scalar!r}: {out.dtype} != {want}"
    assert (x == scalar).dtype == xp.bool
