"""Behaviour of the namespace on every usable backend, through the ``xp`` fixture of
``cunumpy.testing.plugin``: cunumpy's NumPy and CuPy namespaces, and the top-level
``cunumpy`` on the NumPy and on the CuPy backend (CuPy wherever a GPU is usable).

The expected values come from the standard's text or from NumPy's own functions on the
host copies; they are the cases where NumPy or CuPy alone departs from the standard.
Expected arrays are built in the namespace under test, so the assertions also check the
dtype, the namespace and the device of every result.
"""

from __future__ import annotations

import math
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import cunumpy
from cunumpy.testing import assert_close, assert_equal

INF, NAN = math.inf, math.nan

#: Every namespace cunumpy provides; the tests of cunumpy's own helpers narrow it.
pytestmark = [
    pytest.mark.filterwarnings("ignore::RuntimeWarning"),
    pytest.mark.xp("numpy", "cupy", "cunumpy", "cunumpy:cupy"),
]
TOP_LEVEL = pytest.mark.xp("cunumpy", "cunumpy:cupy")


def host(x: Any) -> np.ndarray:
    """A NumPy copy of any result (0-D results included)."""
    return np.asarray(cunumpy.to_numpy(x))


def like(reference: Any, values: Any) -> Any:
    """NumPy's ``values``, built on the host, moved to where ``reference`` lives."""
    return cunumpy.to_device(np.asarray(values), cunumpy.device(reference))


# --- creation and devices ------------------------------------------------------------------


def test_creation_lands_on_the_default_device(xp: ModuleType) -> None:
    library = pytest.importorskip(cunumpy.get_backend())  # the xp fixture sets the backend
    default = xp.__array_namespace_info__().default_device()
    for x in (xp.zeros((2, 3)), xp.ones(4, dtype=xp.int32), xp.arange(5), xp.eye(3)):
        assert isinstance(x, library.ndarray)
        assert cunumpy.device(x) == default
    assert xp.zeros(2).dtype == xp.float64
    assert xp.arange(3).dtype == xp.int64


@pytest.mark.parametrize("value", [-0.0, complex(-0.0, 0.0), complex(0.0, -0.0), -0.0j])
def test_zero_dimensional_negative_zero_keeps_its_sign(xp: ModuleType, value: complex) -> None:
    x = xp.asarray(value)
    assert x.shape == ()
    assert host(x).tobytes() == np.asarray(value).tobytes()
    assert_equal(x, like(x, value), check_signed_zeros=True)


def test_linspace_with_complex_endpoints(xp: ModuleType) -> None:
    z = xp.linspace(0, 2 + 4j, 3)
    assert z.dtype == xp.complex128
    assert_close(z, like(z, np.linspace(0, 2 + 4j, 3)), rtol=1e-7)


def test_asarray_copy_semantics(xp: ModuleType) -> None:
    x = xp.asarray([1.0, 2.0, 3.0])
    assert xp.asarray(x) is x
    same = xp.asarray(x, copy=False)
    copied = xp.asarray(x, copy=True)
    copied[0] = 10.0
    same[1] = 20.0
    assert_equal(x, xp.asarray([1.0, 20.0, 3.0]))
    assert_equal(copied, xp.asarray([10.0, 2.0, 3.0]))
    with pytest.raises(ValueError, match="copy=False"):
        xp.asarray(x, dtype=xp.float32, copy=False)


def test_from_dlpack_shares_or_copies_as_asked(xp: ModuleType) -> None:
    x = xp.arange(4.0)
    shared = xp.from_dlpack(x)
    copied = xp.from_dlpack(x, copy=True)
    x[0] = 7.0
    assert_equal(shared, xp.asarray([7.0, 1.0, 2.0, 3.0]))
    assert_equal(copied, xp.asarray([0.0, 1.0, 2.0, 3.0]))


@TOP_LEVEL
def test_from_dlpack_to_the_cpu(xp: ModuleType) -> None:
    x = xp.arange(4.0)
    on_cpu = xp.from_dlpack(x, device="cpu")
    assert isinstance(on_cpu, np.ndarray)
    assert_equal(on_cpu, np.arange(4.0))
    x[0] = 7.0
    assert on_cpu[0] == (7.0 if cunumpy.is_numpy_array(x) else 0.0)  # shared on the host only


@TOP_LEVEL
def test_to_device_round_trip(xp: ModuleType) -> None:
    default = xp.__array_namespace_info__().default_device()
    x = xp.arange(6.0)
    on_cpu = xp.to_device(x, "cpu")
    assert isinstance(on_cpu, np.ndarray)
    back = xp.to_device(on_cpu, default)
    assert xp.device(back) == default
    assert_equal(back, x)
    assert_equal(on_cpu, np.arange(6.0))
    assert xp.to_device(x, default) is x


# --- elementwise special cases ------------------------------------------------------------


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_remainder_follows_the_standard(xp: ModuleType, dtype: str) -> None:
    x1 = [5.0, -5.0, 5.0, -5.0, 0.0, -0.0, 0.0, -0.0, 4.0, -4.0, 5.5, INF, 1.0]
    x2 = [INF, INF, -INF, -INF, 2.0, 2.0, -2.0, -2.0, -2.0, 2.0, 2.0, 2.0, 0.0]
    # The standard: sign of x2, x1 % ±inf is x1 or x2, ±0 % x2 is a zero signed as x2.
    want = [5.0, INF, -INF, -5.0, 0.0, 0.0, -0.0, -0.0, -0.0, 0.0, 1.5, NAN, NAN]
    kind = getattr(xp, dtype)
    got = xp.remainder(xp.asarray(x1, dtype=kind), xp.asarray(x2, dtype=kind))
    assert_equal(got, xp.asarray(want, dtype=kind), check_signed_zeros=True)


def test_floor_divide_with_infinities(xp: ModuleType) -> None:
    x1 = xp.asarray([INF, INF, -INF, -INF, 5.0, -5.0])
    x2 = xp.asarray([2.0, -2.0, 2.0, -2.0, -INF, INF])
    want = xp.asarray([INF, -INF, -INF, INF, -0.0, -0.0])
    assert_equal(xp.floor_divide(x1, x2), want, check_signed_zeros=True)


@pytest.mark.parametrize(
    ("name", "args", "expected"),
    [
        ("add", (-0.0, -0.0), -0.0),
        ("add", (-0.0, 0.0), 0.0),
        ("divide", (-0.0, 2.0), -0.0),
        ("divide", (1.0, -0.0), -INF),
        ("pow", (-0.0, 3.0), -0.0),
        ("nextafter", (0.0, -0.0), -0.0),
        ("atan2", (-0.0, -1.0), -math.pi),
        ("sqrt", (-0.0,), -0.0),
    ],
)
def test_signed_zero_arithmetic(
    xp: ModuleType, name: str, args: tuple[float, ...], expected: float
) -> None:
    got = getattr(xp, name)(*(xp.asarray(arg) for arg in args))
    assert_equal(got, xp.asarray(expected), check_signed_zeros=True)


@pytest.mark.parametrize(
    ("name", "value", "expected"),
    [
        ("log", complex(INF, NAN), complex(INF, NAN)),
        ("log", complex(NAN, INF), complex(INF, NAN)),
        ("log", complex(-0.0, 0.0), complex(-INF, math.pi)),
        ("log1p", complex(-INF, NAN), complex(INF, NAN)),
        ("sqrt", complex(INF, 2.0), complex(INF, 0.0)),
        ("tanh", complex(INF, 2.0), complex(1.0, 0.0)),
        ("tanh", complex(0.0, INF), complex(0.0, NAN)),
        ("acosh", complex(0.0, NAN), complex(NAN, math.pi / 2)),
        ("expm1", complex(0.0, 0.0), complex(0.0, 0.0)),
    ],
)
def test_complex_special_cases(
    xp: ModuleType, name: str, value: complex, expected: complex
) -> None:
    got = complex(host(getattr(xp, name)(xp.asarray(value, dtype=xp.complex128))))
    for part_got, part_want in ((got.real, expected.real), (got.imag, expected.imag)):
        if math.isnan(part_want):
            assert math.isnan(part_got), (name, value, got)
        else:
            assert repr(abs(part_got)) == repr(abs(part_want)), (name, value, got)
            if part_want != 0 or name != "acosh":
                assert math.copysign(1, part_got) == math.copysign(1, part_want), (name, value, got)


def test_python_scalars_do_not_promote(xp: ModuleType) -> None:
    assert xp.add(xp.asarray([1, 2], dtype=xp.int8), 1).dtype == xp.int8
    assert xp.multiply(xp.asarray([1.0], dtype=xp.float32), 2.5).dtype == xp.float32
    assert xp.result_type(xp.int32, xp.uint8, 1) == xp.int32


def test_clip_keeps_the_dtype(xp: ModuleType) -> None:
    x = xp.asarray([1, 5, 300], dtype=xp.int16)
    clipped = xp.clip(x, min=2, max=100_000)
    assert_equal(clipped, xp.asarray([2, 5, 300], dtype=xp.int16))
    floats = xp.asarray([1.0, NAN, 3.0])
    assert_equal(xp.clip(floats, min=2.0, max=2.5), xp.asarray([2.0, NAN, 2.5]))
    assert_equal(xp.clip(floats, min=xp.asarray(NAN)), xp.asarray([NAN, NAN, NAN]))


# --- reductions, sorting, sets, manipulation ------------------------------------------------


def test_reductions_with_infinities(xp: ModuleType) -> None:
    x = xp.asarray([INF, INF])
    assert_equal(xp.min(x), xp.asarray(INF))
    assert_equal(xp.max(-x), xp.asarray(-INF))
    assert_equal(xp.argmax(xp.asarray([-INF, -INF])), xp.asarray(0))
    assert_equal(xp.argmin(xp.asarray([INF, 1.0, INF])), xp.asarray(1))


def test_reduction_dtypes_and_keepdims(xp: ModuleType) -> None:
    ints = xp.asarray([[1, 2], [3, 4]], dtype=xp.int32)
    assert xp.prod(ints).dtype == xp.int64
    assert xp.sum(ints, axis=1, keepdims=True).shape == (2, 1)
    floats = xp.asarray([[1.0, 2.0], [3.0, 4.0]])
    reference = np.std(host(floats), ddof=1)
    assert_close(xp.std(floats, correction=1), like(floats, reference), rtol=1e-7)
    assert xp.count_nonzero(floats, axis=0, keepdims=True).shape == (1, 2)
    cumulative = xp.cumulative_sum(xp.asarray([1, 2, 3]), include_initial=True)
    assert_equal(cumulative, xp.asarray([0, 1, 3, 6]))


def test_sort_descending_is_stable(xp: ModuleType) -> None:
    x = xp.asarray([3, 1, 3, 2, 1])
    assert_equal(xp.sort(x, descending=True), xp.asarray([3, 3, 2, 1, 1]))
    assert_equal(xp.argsort(x, descending=True), xp.asarray([0, 2, 3, 1, 4]))


def test_unique_values_keeps_every_nan(xp: ModuleType) -> None:
    assert xp.unique_values(xp.asarray([NAN, NAN, 1.0])).shape == (3,)
    counts = xp.unique_counts(xp.asarray([2, 1, 2]))
    assert isinstance(counts, tuple)
    assert_equal(counts.counts, xp.asarray([1, 2]))


def test_repeat_with_an_array_of_repeats(xp: ModuleType) -> None:
    x = xp.asarray([1, 2, 3])
    assert_equal(xp.repeat(x, xp.asarray([0, 1, 2])), xp.asarray([2, 3, 3]))


def test_tuples_not_lists(xp: ModuleType) -> None:
    a, b = xp.asarray([1.0, 2.0]), xp.asarray([3.0])
    assert isinstance(xp.meshgrid(a, b), tuple)
    assert isinstance(xp.broadcast_arrays(a, b), tuple)
    assert isinstance(xp.unstack(xp.eye(2)), tuple)


# --- linalg and fft ---------------------------------------------------------------------


def test_linalg_departures(xp: ModuleType) -> None:
    stack = xp.asarray([[[2.0, 0.0], [0.0, 4.0]], [[1.0, 1.0], [0.0, 1.0]]])
    vector = xp.asarray([2.0, 4.0])
    want = xp.asarray([[1.0, 1.0], [-2.0, 4.0]])
    assert_close(xp.linalg.solve(stack, vector), want, rtol=1e-7)
    ints = xp.asarray([[1, 2], [3, 4]], dtype=xp.int32)
    assert xp.vecdot(ints, ints).dtype == xp.int32
    values = xp.linalg.eigvals(xp.asarray([[2.0, 0.0], [0.0, 3.0]]))
    assert values.dtype == xp.complex128
    z = xp.asarray([[3.0 + 4.0j, 0.0], [0.0, 12.0j]], dtype=xp.complex64)
    norm = xp.linalg.vector_norm(z, keepdims=True)
    assert (norm.shape, norm.dtype) == ((1, 1), xp.float32)
    assert_close(norm, xp.asarray([[13.0]], dtype=xp.float32), rtol=1e-6)
    assert_close(xp.linalg.svdvals(xp.eye(2) * 3.0), xp.asarray([3.0, 3.0]), rtol=1e-7)


def test_fftn_sizes_of_minus_one_keep_the_length(xp: ModuleType) -> None:
    x = xp.reshape(xp.arange(24.0), (4, 6))
    assert xp.fft.fftn(x, s=(-1, 3)).shape == (4, 3)
    reference = np.fft.fftn(host(x), s=(6, 4), axes=(0, 1))
    assert_close(xp.fft.fftn(x, s=(4, 6), axes=(1, 0)), like(x, reference), rtol=1e-7, atol=1e-9)
    assert xp.fft.rfftn(x, s=(4, 6), axes=(1, 0)).shape == (4, 4)
    assert xp.fft.irfftn(xp.fft.fftn(x), s=(5, 4), axes=(1, 0)).shape == (4, 5)
    half = xp.fft.rfftn(x, s=(-1, -1))
    assert half.shape == (4, 4)
    assert_close(xp.fft.irfftn(half, s=(-1, -1)), x, rtol=1e-7, atol=1e-12)
    freq = xp.fft.fftfreq(8, d=0.5, dtype=xp.float32)
    assert freq.dtype == xp.float32
    reference_freq = np.fft.fftfreq(8, 0.5).astype(np.float32)
    assert_close(freq, like(freq, reference_freq), rtol=1e-7)


# --- properties ---------------------------------------------------------------------------

finite = st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False, width=64)
# The xp fixture only selects the namespace (and backend), so it is safe to share between
# examples.


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(values=hnp.arrays(np.float64, st.integers(1, 20), elements=finite))
def test_elementwise_and_reductions_match_numpy(xp: ModuleType, values: np.ndarray) -> None:
    x = xp.asarray(values)
    exp_reference = np.exp(np.minimum(values, 50.0))
    assert_close(xp.exp(xp.clip(x, max=50.0)), like(x, exp_reference), rtol=1e-7)
    assert_close(xp.sum(x), like(x, values.sum()), rtol=1e-9, atol=1e-6)
    assert_equal(xp.sort(x), like(x, np.sort(values)))
    assert_equal(xp.sort(x, descending=True), like(x, np.sort(values)[::-1]))
    assert_equal(xp.max(x), like(x, values.max()))


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    x1=hnp.arrays(np.float64, 8, elements=finite),
    x2=hnp.arrays(np.float64, 8, elements=finite.filter(lambda v: v != 0)),
)
def test_remainder_has_the_sign_of_the_divisor(
    xp: ModuleType, x1: np.ndarray, x2: np.ndarray
) -> None:
    got = xp.remainder(xp.asarray(x1), xp.asarray(x2))
    assert_equal(xp.signbit(got), like(got, np.signbit(x2)))
    host_got = host(got)
    assert np.all(np.abs(host_got) <= np.abs(x2))
    assert_equal(got, like(got, np.remainder(x1, x2)))
