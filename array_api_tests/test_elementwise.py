"""Result dtypes, shapes and broadcasting of elementwise functions (property based)."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from array_api_tests._strategies import SETTINGS, strategies

pytestmark = pytest.mark.usefixtures("quiet_fp")

FLOAT_UNARY = ("acos", "acosh", "asin", "asinh", "atan", "atanh", "cos", "cosh", "exp", "expm1",
               "log", "log1p", "log2", "log10", "sin", "sinh", "sqrt", "tan", "tanh",
               "reciprocal")  # fmt: skip
NUMERIC_UNARY = ("abs", "negative", "positive", "square", "sign")
REAL_UNARY = ("ceil", "floor", "trunc", "round")
BOOL_UNARY = ("isfinite", "isinf", "isnan")
FLOAT_BINARY = ("atan2", "copysign", "hypot", "logaddexp", "nextafter", "divide")
NUMERIC_BINARY = ("add", "subtract", "multiply", "pow")
REAL_BINARY = ("maximum", "minimum", "floor_divide", "remainder")
COMPARE = ("equal", "not_equal", "greater", "greater_equal", "less", "less_equal")
LOGICAL = ("logical_and", "logical_or", "logical_xor")
BITWISE = ("bitwise_and", "bitwise_or", "bitwise_xor")


def _dtype_strategy(xp: ModuleType, family: str) -> Any:
    s = strategies(xp)
    return {
        "float": st.one_of(s.floating_dtypes(), s.complex_dtypes()),
        "real_float": s.floating_dtypes(),
        "numeric": s.numeric_dtypes(),
        "real": st.one_of(s.integer_dtypes(), s.unsigned_integer_dtypes(), s.floating_dtypes()),
        "bool": st.just(xp.bool),
        "integer": st.one_of(s.integer_dtypes(), s.unsigned_integer_dtypes()),
    }[family]  # fmt: skip


UNARY = [(f, "float") for f in FLOAT_UNARY] + [(f, "numeric") for f in NUMERIC_UNARY]
UNARY += [(f, "real") for f in REAL_UNARY] + [(f, "numeric") for f in BOOL_UNARY]
UNARY += [("logical_not", "bool"), ("bitwise_invert", "integer"), ("signbit", "real_float")]


@pytest.mark.parametrize(("name", "family"), UNARY, ids=[u[0] for u in UNARY])
def test_unary(xp: ModuleType, name: str, family: str) -> None:
    s = strategies(xp)

    @SETTINGS
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        dtype = data.draw(_dtype_strategy(xp, family), label="dtype")
        x = data.draw(s.arrays(dtype=dtype, shape=s.array_shapes(min_dims=0, max_side=4)))
        out = getattr(xp, name)(x)
        assert out.shape == x.shape
        want = dtype
        if name in BOOL_UNARY or name in ("logical_not", "signbit"):
            want = xp.bool
        elif name == "abs" and dtype in (xp.complex64, xp.complex128):
            want = xp.float32 if dtype == xp.complex64 else xp.float64
        assert out.dtype == want, f"{name}({dtype}) -> {out.dtype}"

    run()


BINARY = [(f, "real_float") for f in FLOAT_BINARY] + [(f, "numeric") for f in NUMERIC_BINARY]
BINARY += [(f, "real") for f in REAL_BINARY] + [(f, "real") for f in COMPARE[2:]]
BINARY += [(f, "numeric") for f in COMPARE[:2]] + [(f, "bool") for f in LOGICAL]
BINARY += [(f, "integer") for f in BITWISE]


@pytest.mark.parametrize(("name", "family"), BINARY, ids=[b[0] for b in BINARY])
def test_binary_broadcasting(xp: ModuleType, name: str, family: str) -> None:
    s = strategies(xp)

    @SETTINGS
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        dtype = data.draw(_dtype_strategy(xp, family), label="dtype")
        shapes = data.draw(s.mutually_broadcastable_shapes(2, max_side=3), label="shapes")
        x1 = data.draw(s.arrays(dtype=dtype, shape=shapes.input_shapes[0]))
        x2 = data.draw(s.arrays(dtype=dtype, shape=shapes.input_shapes[1]))
        if name in ("floor_divide", "remainder") and xp.isdtype(dtype, "integral"):
            x2 = xp.where(x2 == 0, xp.ones_like(x2), x2)
        if name == "pow" and xp.isdtype(dtype, "signed integer"):
            x2 = xp.where(x2 < 0, xp.zeros_like(x2), x2)
        out = getattr(xp, name)(x1, x2)
        assert out.shape == shapes.result_shape
        want = xp.bool if name in COMPARE or name in LOGICAL else dtype
        assert out.dtype == want, f"{name}({dtype}) -> {out.dtype}"

    run()
