"""Special cases of unary elementwise functions for complex operands ``a + bj``."""

from __future__ import annotations

from types import ModuleType

import pytest

from array_api_tests._special_values import check_complex, samples
from array_api_tests.special_cases import COMPLEX_SPECIAL_CASES

pytestmark = pytest.mark.usefixtures("quiet_fp")

COMPLEX_DTYPES = ("complex64", "complex128")


def _params() -> list[object]:
    counts: dict[str, int] = {}
    params = []
    for function, conditions, expected in COMPLEX_SPECIAL_CASES:
        counts[function] = counts.get(function, 0) + 1
        case_id = f"{function}-complex-{counts[function]}"
        params.append(pytest.param(function, conditions, expected, id=case_id))
    return params


@pytest.mark.parametrize(("function", "conditions", "expected"), _params())
def test_complex_function(
    xp: ModuleType, function: str, conditions: tuple[str, ...], expected: str
) -> None:
    chosen = samples(conditions, 2, names=("a", "b"))
    assert chosen, f"no sample satisfies {conditions}"
    func = getattr(xp, function)
    failures = []
    for a, b in chosen:
        for dtype_name in COMPLEX_DTYPES:
            out = func(xp.asarray(complex(a, b), dtype=getattr(xp, dtype_name)))
            if out.dtype == xp.bool:
                result: complex | float | bool = bool(out)
            elif xp.isdtype(out.dtype, "complex floating"):
                result = complex(out)
            else:
                result = float(out)
            if not check_complex(expected, result):
                failures.append(f"{dtype_name} {complex(a, b)!r}: got {result!r}")
    assert not failures, f"{function} {conditions} -> {expected}: " + "; ".join(failures)
