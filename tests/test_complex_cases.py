"""The complex special-case corrections the CuPy namespace applies (``_complex_cases``).

They are written for any NumPy-like module, so their masks and values are checked here with
NumPy, against the standard's special-case text. On a GPU the CuPy namespace's functions
that use them are checked by the conformance harness (``array_api_tests``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from cunumpy._backends._complex_cases import acosh_cases, log_cases, sqrt_cases, tanh_cases

INF, NAN = math.inf, math.nan

# (correction, input, the standard's value); NaN parts compare as NaN, zeros by sign.
CASES: list[tuple[Callable[..., Any], complex, complex]] = [
    (log_cases, complex(INF, NAN), complex(INF, NAN)),
    (log_cases, complex(-INF, NAN), complex(INF, NAN)),
    (log_cases, complex(NAN, INF), complex(INF, NAN)),
    (log_cases, complex(NAN, -INF), complex(INF, NAN)),
    (sqrt_cases, complex(INF, 2.0), complex(INF, 0.0)),
    (sqrt_cases, complex(INF, -2.0), complex(INF, -0.0)),
    (sqrt_cases, complex(INF, 0.0), complex(INF, 0.0)),
    (tanh_cases, complex(INF, 2.0), complex(1.0, 0.0)),
    (tanh_cases, complex(-INF, -2.0), complex(-1.0, -0.0)),
    (tanh_cases, complex(INF, INF), complex(1.0, 0.0)),
    (tanh_cases, complex(0.0, INF), complex(0.0, NAN)),
    (tanh_cases, complex(0.0, NAN), complex(0.0, NAN)),
    (tanh_cases, complex(-0.0, NAN), complex(-0.0, NAN)),
    (acosh_cases, complex(0.0, NAN), complex(NAN, math.pi / 2)),
    (acosh_cases, complex(-0.0, NAN), complex(NAN, math.pi / 2)),
]


def _parts(z: complex) -> tuple[str, str]:
    return repr(z.real), repr(z.imag)  # repr tells -0.0 from 0.0 and shows nan


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize(
    ("fix", "value", "expected"), CASES, ids=lambda v: getattr(v, "__name__", repr(v))
)
def test_special_value_is_the_standards(
    fix: Callable[..., Any], value: complex, expected: complex, dtype: type
) -> None:
    x = np.asarray([value, complex(0.5, 0.25)], dtype=dtype)
    wrong = np.full(2, complex(NAN, NAN), dtype=dtype)  # whatever the library computed
    fixed = fix(np, x, wrong)
    assert fixed.dtype == dtype
    got = complex(fixed[0])
    if math.isnan(expected.real):
        assert math.isnan(got.real)
        assert got.imag == pytest.approx(expected.imag)
    elif math.isnan(expected.imag):
        assert math.isnan(got.imag)
        assert repr(got.real) == repr(expected.real)
    else:
        assert _parts(got) == _parts(expected)
    assert all(math.isnan(p) for p in (fixed[1].real, fixed[1].imag)), "ordinary values untouched"


@pytest.mark.parametrize(
    ("fix", "func"),
    [(log_cases, np.log), (log_cases, np.log1p), (sqrt_cases, np.sqrt), (tanh_cases, np.tanh)],
    ids=["log", "log1p", "sqrt", "tanh"],
)
def test_ordinary_values_keep_the_librarys_result(fix: Callable[..., Any], func: Any) -> None:
    x = np.asarray([complex(1.0, 2.0), complex(-3.0, 0.5), complex(0.25, -4.0)])
    expected = func(x)
    np.testing.assert_array_equal(fix(np, x, func(x)), expected)


def test_zero_dimensional_input_stays_zero_dimensional() -> None:
    x = np.asarray(complex(INF, 1.0))
    fixed = sqrt_cases(np, x, np.asarray(complex(NAN, NAN)))
    assert fixed.shape == ()
    assert _parts(complex(fixed)) == _parts(complex(INF, 0.0))
