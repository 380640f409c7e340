"""cunumpy.testing's assertions: what passes, what fails, and the exact failure messages."""

from __future__ import annotations

import math
import re
import subprocess
import sys
from typing import Any

import numpy as np
import pytest

from cunumpy.testing import assert_close, assert_equal, assert_less

NAN, INF = math.nan, math.inf

pytest_plugins = ["pytester"]


def message(call: Any, *args: Any, **kwargs: Any) -> str:
    """The AssertionError message of ``call(*args, **kwargs)``; fails if it passes."""
    with pytest.raises(AssertionError) as info:
        call(*args, **kwargs)
    return str(info.value)


# --- what passes ------------------------------------------------------------------------


def test_equal_arrays_pass() -> None:
    assert_equal(np.asarray([1, 2, 3]), np.asarray([1, 2, 3]))
    assert_equal(np.asarray([1.0, NAN]), np.asarray([1.0, NAN]))
    assert_equal(np.asarray([0.0]), np.asarray([-0.0]))
    assert_equal(np.float64(2.0), np.asarray(2.0))  # NumPy scalars are 0-D arrays
    assert_equal(np.zeros((0, 3)), np.zeros((0, 3)))


def test_close_within_the_default_tolerance_passes() -> None:
    assert_close(np.asarray([1.0, 2.0]), np.asarray([1.0, 2.0 * (1 + 5e-8)]))
    assert_close(np.asarray([1.0], np.float32), np.asarray([1.001], np.float32))
    assert_close(np.asarray([INF, -INF, NAN]), np.asarray([INF, -INF, NAN]))
    assert_close(np.asarray([1 + 1j], np.complex64), np.asarray([1 + 1.001j], np.complex64))


def test_close_with_tolerances_passes() -> None:
    assert_close(np.asarray([1.0, 0.0]), np.asarray([1.1, 1e-9]), rtol=0.1, atol=1e-8)
    assert_close(np.asarray([10, 20]), np.asarray([11, 20]), atol=1)


def test_less_passes() -> None:
    assert_less(np.asarray([1.0, 2.0]), np.asarray([1.5, 2.5]))
    assert_less(np.asarray([1, 2]), np.asarray(3), check_shape=False)


# --- defaults that depend on the dtype ------------------------------------------------------


@pytest.mark.parametrize(
    ("dtype", "passing", "failing"),
    [
        ("float64", 5e-8, 7e-8),  # 4 * sqrt(eps) = 5.96e-8
        ("float32", 1e-3, 2e-3),  # 4 * sqrt(eps) = 1.38e-3
        ("complex128", 5e-8, 7e-8),
        ("complex64", 1e-3, 2e-3),
    ],
)
def test_default_rtol_depends_on_the_dtype(dtype: str, passing: float, failing: float) -> None:
    one = np.asarray([1.0], dtype=dtype)
    assert_close(np.asarray([1.0 + passing], dtype=dtype), one)
    text = message(assert_close, np.asarray([1.0 + failing], dtype=dtype), one)
    eps = float(np.finfo(dtype).eps)
    assert f"rtol={4 * math.sqrt(eps):g} (the {dtype} default)" in text


def test_integers_compare_exactly_by_default() -> None:
    big = np.asarray([2**53 + 1], dtype=np.int64)
    text = message(assert_close, big, np.asarray([2**53], dtype=np.int64))
    assert "rtol=0 (exact, for integers), atol=0" in text
    assert "[0]    9007199254740993  9007199254740992  1" in text


# --- NaN, infinities, signed zeros -----------------------------------------------------------


def test_nan_equal_only_where_asked() -> None:
    text = message(assert_equal, np.asarray([NAN, 1.0]), np.asarray([NAN, 1.0]), equal_nan=False)
    assert "1 of 2 elements (50%) differs" in text
    assert "both NaN (equal_nan=False)" in text
    text = message(assert_close, np.asarray([1.0, NAN]), np.asarray([1.0, 2.0]))
    assert "NaN where a number is expected" in text
    text = message(assert_close, np.asarray([1.0, 2.0]), np.asarray([NAN, 2.0]))
    assert "a number where NaN is expected" in text


def test_complex_nan_in_either_part_is_nan() -> None:
    assert_equal(np.asarray([complex(NAN, 1.0)]), np.asarray([complex(NAN, 1.0)]))
    text = message(assert_equal, np.asarray([complex(NAN, 1.0)]), np.asarray([1 + 1j]))
    assert "NaN where a number is expected" in text


def test_signed_zeros_distinguished_only_where_asked() -> None:
    assert_equal(np.asarray([0.0, -0.0]), np.asarray([-0.0, 0.0]))
    text = message(
        assert_equal, np.asarray([0.0, -0.0]), np.asarray([-0.0, -0.0]), check_signed_zeros=True
    )
    assert "1 of 2 elements (50%) differs" in text
    assert "[0]    0.0     -0.0" in text
    assert "zeros of opposite sign (check_signed_zeros=True)" in text
    complex_zeros = np.asarray([complex(0.0, -0.0)])
    assert_close(complex_zeros, np.asarray([0j]))
    with pytest.raises(AssertionError, match="opposite sign"):
        assert_close(complex_zeros, np.asarray([0j]), check_signed_zeros=True)


def test_infinities_must_be_equal_whatever_the_tolerance() -> None:
    text = message(assert_close, np.asarray([INF]), np.asarray([-INF]), rtol=10.0, atol=1e300)
    assert "infinities must be equal" in text
    with pytest.raises(AssertionError, match="infinities must be equal"):
        assert_close(np.asarray([INF]), np.asarray([1e308]), rtol=1.0)


# --- the full failure messages ---------------------------------------------------------------


def test_assert_close_message() -> None:
    actual = np.asarray([[1.0, 2.0, 3.0], [4.0, 5.0, NAN]])
    desired = np.asarray([[1.0, 2.0001, 3.0], [4.0, 5.5, NAN]])
    assert message(assert_close, actual, desired) == (
        "assert_close: 2 of 6 elements (33.3%) differ beyond rtol=5.96046e-08 (the float64 "
        "default), atol=0\n"
        "  actual:  shape (2, 3), dtype float64, device cpu, namespace numpy\n"
        "  desired: shape (2, 3), dtype float64, device cpu, namespace numpy\n"
        "  largest absolute error: 0.5 at index [1, 1]\n"
        "  largest relative error: 0.0909091 at index [1, 1]\n"
        "  failing elements (|actual - desired| > atol + rtol * |desired|):\n"
        "    index   actual  desired  abs error  rel error\n"
        "    [0, 1]  2.0     2.0001   0.0001     4.99975e-05\n"
        "    [1, 1]  5.0     5.5      0.5        0.0909091\n"
        "  actual:  array([[ 1.,  2.,  3.],\n"
        "                  [ 4.,  5., nan]])\n"
        "  desired: array([[1.    , 2.0001, 3.    ],\n"
        "                  [4.    , 5.5   ,    nan]])"
    )


def test_assert_equal_message() -> None:
    text = message(
        assert_equal,
        np.asarray([1, 2, 3], np.int16),
        np.asarray([1, 5, 3], np.int16),
        err_msg="ctx",
    )
    assert text == (
        "assert_equal: 1 of 3 elements (33.3%) differs\n"
        "  ctx\n"
        "  actual:  shape (3,), dtype int16, device cpu, namespace numpy\n"
        "  desired: shape (3,), dtype int16, device cpu, namespace numpy\n"
        "  largest absolute error: 3 at index [1]\n"
        "  largest relative error: 0.6 at index [1]\n"
        "  failing elements (actual != desired):\n"
        "    index  actual  desired  abs error  rel error\n"
        "    [1]    2       5        3          0.6\n"
        "  actual:  array([1, 2, 3], dtype=int16)\n"
        "  desired: array([1, 5, 3], dtype=int16)"
    )


def test_assert_less_message() -> None:
    text = message(assert_less, np.asarray([1.0, 3.0, 4.5, NAN]), np.asarray([2.0, 3.0, 4.0, 1.0]))
    assert text == (
        "assert_less: 3 of 4 elements (75%) are not less than y\n"
        "  x: shape (4,), dtype float64, device cpu, namespace numpy\n"
        "  y: shape (4,), dtype float64, device cpu, namespace numpy\n"
        "  largest x - y: 0.5 at index [2]\n"
        "  failing elements (x < y is false):\n"
        "    index  x    y    x - y\n"
        "    [1]    3.0  3.0  0\n"
        "    [2]    4.5  4.0  0.5\n"
        "    [3]    nan  1.0  nan    x is NaN\n"
        "  x: array([1. , 3. , 4.5, nan])\n"
        "  y: array([2., 3., 4., 1.])"
    )


def test_bool_arrays_have_no_error_columns() -> None:
    text = message(assert_equal, np.asarray([True, False]), np.asarray([True, True]))
    assert "    index  actual  desired\n    [1]    False   True\n" in text
    assert "largest" not in text


def test_many_failures_are_counted_and_the_first_ten_listed() -> None:
    text = message(assert_close, np.arange(1000.0), np.arange(1000.0) * 1.01)
    assert text.startswith("assert_close: 999 of 1000 elements (99.9%) differ beyond")
    assert "largest absolute error: 9.99 at index [999]" in text
    assert "    [10]   10.0" in text
    assert "[11]" not in text.split("... and")[0]
    assert "    ... and 989 more\n" in text
    assert "array([  0.,   1.,   2., ..., 997., 998., 999.], shape=(1000,))" in text


def test_zero_dimensional_failure() -> None:
    text = message(assert_close, np.asarray(1.0), np.asarray(2.0))
    assert "1 of 1 element (100%) differs" in text
    assert "largest absolute error: 1 at index [()]" in text


# --- metadata -------------------------------------------------------------------------------


def test_metadata_mismatches_are_all_named_and_values_not_compared() -> None:
    text = message(assert_close, np.asarray([1.0, 2.0], np.float32), np.asarray([[1.0, 2.0]]))
    assert text == (
        "assert_close: the shapes and dtypes differ; the values were not compared (pass "
        "check_shape=False, check_dtype=False to compare them anyway)\n"
        "  actual:  shape (2,), dtype float32, device cpu, namespace numpy\n"
        "  desired: shape (1, 2), dtype float64, device cpu, namespace numpy"
    )
    assert_close(
        np.asarray([1.0, 2.0], np.float32),
        np.asarray([[1.0, 2.0]]),
        check_shape=False,
        check_dtype=False,
    )


def test_unbroadcastable_shapes_without_the_shape_check() -> None:
    text = message(assert_equal, np.zeros(2), np.zeros(3), check_shape=False)
    assert text.startswith("assert_equal: the shapes (2,) and (3,) do not broadcast together\n")


def test_namespaces_differ() -> None:
    xps = pytest.importorskip("array_api_strict")
    strict = xps.asarray([1.0, 2.0])
    text = message(assert_equal, strict, np.asarray([1.0, 2.0]))
    assert text.startswith("assert_equal: the namespaces differ; the values were not compared")
    assert "  actual:  shape (2,), dtype float64, device cpu, namespace array_api_strict\n" in text
    assert_equal(strict, np.asarray([1.0, 2.0]), check_namespace=False)
    with pytest.raises(AssertionError, match=r"1 of 2 elements \(50%\) differs"):
        assert_equal(strict, np.asarray([1.0, 3.0]), check_namespace=False)


def test_devices_differ() -> None:
    xps = pytest.importorskip("array_api_strict")
    device1 = xps.Device("device1")
    on_cpu, elsewhere = xps.asarray([1.0]), xps.asarray([1.0], device=device1)
    text = message(assert_close, elsewhere, on_cpu)
    assert text.startswith("assert_close: the devices differ; the values were not compared")
    assert (
        "  actual:  shape (1,), dtype float64, device device1, namespace array_api_strict" in text
    )
    assert "  desired: shape (1,), dtype float64, device cpu, namespace array_api_strict" in text
    assert_close(elsewhere, on_cpu, check_device=False)


def test_strict_arrays_compare_by_value() -> None:
    xps = pytest.importorskip("array_api_strict")
    text = message(assert_close, xps.asarray([1.0, 2.0]), xps.asarray([1.0, 2.5]))
    assert "    [1]    2.0     2.5      0.5        0.2\n" in text


# --- argument errors --------------------------------------------------------------------------


@pytest.mark.parametrize("desired", [[1.0, 2.0], 1.0, (1.0, 2.0), None])
def test_expected_values_must_be_arrays(desired: Any) -> None:
    with pytest.raises(TypeError, match=r"assert_close: `desired` must be an array .* xp\.asarray"):
        assert_close(np.asarray([1.0, 2.0]), desired)
    with pytest.raises(TypeError, match=r"assert_less: `x` must be an array"):
        assert_less(desired, np.asarray([1.0, 2.0]))


@pytest.mark.parametrize(
    ("kwargs", "error", "pattern"),
    [
        ({"rtol": -1.0}, ValueError, "`rtol` must be a non-negative number, not -1.0"),
        ({"atol": NAN}, ValueError, "`atol` must be a non-negative number, not nan"),
        ({"rtol": "1e-3"}, TypeError, "`rtol` must be a real number, not '1e-3'"),
        ({"atol": True}, TypeError, "`atol` must be a real number, not True"),
        ({"equal_nan": 1}, TypeError, "`equal_nan` must be True or False, not 1"),
        ({"check_dtype": None}, TypeError, "`check_dtype` must be True or False, not None"),
        ({"err_msg": 3}, TypeError, "`err_msg` must be a str, not 3"),
    ],
)
def test_bad_arguments(kwargs: dict[str, Any], error: type[Exception], pattern: str) -> None:
    with pytest.raises(error, match="assert_close: " + re.escape(pattern)):
        assert_close(np.asarray([1.0]), np.asarray([1.0]), **kwargs)


@pytest.mark.parametrize(
    "values",
    [np.asarray(["a"]), np.asarray(["2020-01-01"], dtype="M8[D]"), np.asarray([1, None], object)],
    ids=["str", "datetime64", "object"],
)
def test_non_numeric_dtypes_are_refused_by_name(values: np.ndarray) -> None:
    pattern = (
        rf"assert_equal: `actual` has dtype {re.escape(str(values.dtype))}, which is not a numeric"
    )
    with pytest.raises(TypeError, match=pattern):
        assert_equal(values, values)


def test_complex_arrays_have_no_order() -> None:
    with pytest.raises(TypeError, match="assert_less: complex arrays have no order"):
        assert_less(np.asarray([1j]), np.asarray([2j]))


def test_importing_cunumpy_testing_imports_no_test_library() -> None:
    code = (
        "import sys, cunumpy, cunumpy.testing; "
        "print(sorted(m for m in ('pytest', 'hypothesis', 'cupy') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.gpu
def test_cupy_arrays_are_compared_on_the_host() -> None:
    import cunumpy

    with cunumpy.use_backend("cupy"):
        x = cunumpy.asarray([1.0, 2.0, 3.0])
        assert_close(x * 2, cunumpy.asarray([2.0, 4.0, 6.0]))
        text = message(assert_close, x, cunumpy.asarray([1.0, 2.0, 4.0]))
    assert "  actual:  shape (3,), dtype float64, device cuda:0, namespace cupy" in text
    assert "    [2]    3.0     4.0      1          0.25" in text
    text = message(assert_equal, x, np.asarray([1.0, 2.0, 3.0]))
    assert "the namespaces and devices differ" in text
    assert_equal(x, np.asarray([1.0, 2.0, 3.0]), check_namespace=False, check_device=False)


# --- what pytest shows of a failure: the test's line, not the assertions' insides -------

FAILING = """
import numpy as np
from cunumpy.testing import assert_close, assert_equal, assert_less

def test_close():
    assert_close(np.asarray([1.0, 2.0]), np.asarray([1.0, 2.5]))  # LINE close

def test_equal_dtypes():
    assert_equal(np.asarray([1, 2]), np.asarray([1.0, 2.0]))  # LINE equal

def test_less():
    assert_less(np.asarray([3.0]), np.asarray([2.0]))  # LINE less

def test_broadcast():
    assert_close(np.ones(2), np.ones(3), check_shape=False)  # LINE broadcast
"""


@pytest.mark.parametrize("style", ["long", "short", "auto"])
def test_a_failing_assertion_shows_no_internal_frames(
    pytester: pytest.Pytester, style: str
) -> None:
    pytester.makepyfile(test_failing=FAILING)
    result = pytester.runpytest("-p", "no:cacheprovider", f"--tb={style}")
    result.assert_outcomes(failed=4)
    text = result.stdout.str()
    for internal in ("_assertions.py", "_compared", "_raise(", "values_message", "_report.py"):
        assert internal not in text, internal
    for name in ("close", "equal", "less", "broadcast"):
        assert f"# LINE {name}" in text  # the test's own line is what is shown


@pytest.mark.filterwarnings("ignore:the matrix subclass:PendingDeprecationWarning")
def test_an_array_that_array_namespace_refuses_is_named_by_the_assertion() -> None:
    import numpy as np

    from cunumpy.testing import assert_close, assert_equal

    with pytest.raises(TypeError, match=r"^assert_equal: `actual`: array_namespace: masked "):
        assert_equal(np.ma.masked_array([1.0]), np.ones(1))
    with pytest.raises(TypeError, match=r"^assert_close: `desired`: array_namespace: numpy.matrix"):
        assert_close(np.ones((1, 1)), np.matrix([[1.0]]))
