"""Special cases of elementwise functions and their operator forms (real floating point)."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest

from array_api_tests._spec_signatures import MAIN
from array_api_tests._special_values import check, samples
from array_api_tests.special_cases import SPECIAL_CASES

pytestmark = pytest.mark.usefixtures("quiet_fp")

FLOAT_DTYPES = ("float32", "float64")
COMPARISONS = {"equal", "not_equal", "greater", "greater_equal", "less", "less_equal"}
COMPARISONS |= {"isfinite", "isinf", "isnan", "signbit"}
BINARY_OPERATORS = {
    "add": "add", "subtract": "sub", "multiply": "mul", "divide": "truediv",
    "floor_divide": "floordiv", "remainder": "mod", "pow": "pow",
    "equal": "eq", "not_equal": "ne", "greater": "gt", "greater_equal": "ge",
    "less": "lt", "less_equal": "le",
}  # fmt: skip
UNARY_OPERATORS = {"abs": "__abs__", "negative": "__neg__", "positive": "__pos__"}


def arity(function: str) -> int:
    return sum(1 for _, kind, _ in MAIN[function] if kind == "P")


def _ids() -> list[tuple[str, tuple[str, ...], str, str]]:
    counts: dict[str, int] = {}
    cases = []
    for function, conditions, expected in SPECIAL_CASES:
        counts[function] = counts.get(function, 0) + 1
        cases.append((function, conditions, expected, f"{function}-{counts[function]}"))
    return cases


CASES = _ids()


def _run(xp: ModuleType, function: str, expected: str, values: tuple[float, ...], call: Any) -> str:
    failures = []
    for dtype_name in FLOAT_DTYPES:
        dtype = getattr(xp, dtype_name)
        arrays = [xp.asarray(v, dtype=dtype) for v in values]
        out = call(arrays, values)
        want = xp.bool if function in COMPARISONS else dtype
        if out.dtype != want:
            failures.append(f"{dtype_name}: result dtype {out.dtype}, expected {want}")
            continue
        result = bool(out) if out.dtype == xp.bool else float(out)
        if not check(expected, result, values):
            failures.append(f"{dtype_name} {values!r}: got {result!r}, expected {expected}")
    return "; ".join(failures)


@pytest.mark.parametrize(
    ("function", "conditions", "expected"),
    [pytest.param(f, c, e, id=i) for f, c, e, i in CASES],
)
def test_function(
    xp: ModuleType, function: str, conditions: tuple[str, ...], expected: str
) -> None:
    func = getattr(xp, function)
    chosen = samples(conditions, arity(function))
    assert chosen, f"no sample satisfies {conditions}"
    errors = [_run(xp, function, expected, v, lambda a, _: func(*a)) for v in chosen]
    errors = [e for e in errors if e]
    assert not errors, f"{function} {conditions} -> {expected}: " + " | ".join(errors)


def _operator_params() -> list[Any]:
    params = []
    for function, conditions, expected, case_id in CASES:
        if function in UNARY_OPERATORS:
            params.append(pytest.param(function, conditions, expected, UNARY_OPERATORS[function],
                                       id=f"{case_id}-{UNARY_OPERATORS[function]}"))  # fmt: skip
        elif function in BINARY_OPERATORS:
            name = BINARY_OPERATORS[function]
            forms = [f"__{name}__"]
            if function not in COMPARISONS:
                forms += [f"__i{name}__", f"__r{name}__"]
            for form in forms:
                params.append(
                    pytest.param(function, conditions, expected, form, id=f"{case_id}-{form}")
                )
    return params


def _apply(form: str, arrays: list[Any], values: tuple[float, ...]) -> Any:
    if len(arrays) == 1:
        return getattr(arrays[0], form)()
    x1, x2 = arrays
    if form.startswith("__r"):  # reflected form: Python float on the left, array on the right
        return getattr(x2, form)(float(values[0]))
    return getattr(x1, form)(x2)  # plain and in-place forms


@pytest.mark.parametrize(("function", "conditions", "expected", "form"), _operator_params())
def test_operator(
    xp: ModuleType, function: str, conditions: tuple[str, ...], expected: str, form: str
) -> None:
    chosen = samples(conditions, arity(function))
    assert chosen, f"no sample satisfies {conditions}"
    errors = [
        _run(xp, function, expected, v, lambda a, vals: _apply(form, a, vals)) for v in chosen
    ]
    errors = [e for e in errors if e]
    assert not errors, f"x.{form} {conditions} -> {expected}: " + " | ".join(errors)


def test_table_is_consistent() -> None:
    assert len(SPECIAL_CASES) > 250
    for function, _conditions, _expected in SPECIAL_CASES:
        assert function in MAIN
