"""unique_values, unique_counts, unique_inverse and unique_all return sorted values.

The reference is a plain sort of the distinct values (NaNs distinct, at the end), written
here with ``numpy.sort`` and Python sets, not with ``numpy.unique``. The exception is the
top level's ``unique_values`` of a NumPy array: the standard leaves the order open, and
the top level answers as NumPy (hash order since NumPy 2.3, as CuNumpy 0.7.1's
``xp.unique_values``, which was NumPy's).
"""

from __future__ import annotations

from types import ModuleType

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import cunumpy
from cunumpy._backends import numpy as numpy_namespace

_SHAPES = hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=6)

int_arrays = hnp.arrays(np.int16, _SHAPES, elements=st.integers(-5, 5))
float_arrays = hnp.arrays(
    np.float64, _SHAPES, elements=st.sampled_from([-2.0, -0.5, 0.0, 1.5, 3.0, np.nan, np.inf])
)


def _expected_values(x: np.ndarray) -> np.ndarray:
    flat = x.reshape(-1)
    nan = np.isnan(flat) if flat.dtype.kind == "f" else np.zeros(flat.shape, dtype=bool)
    distinct = sorted({v.item() for v in flat[~nan]})
    return np.concatenate([np.asarray(distinct, dtype=x.dtype), flat[nan]])


def _check(namespace: ModuleType, x: np.ndarray) -> None:
    expected = _expected_values(x)
    values = namespace.unique_values(x)
    if namespace is cunumpy:  # NumPy's answer: the same values, in NumPy's order
        np.testing.assert_array_equal(values, np.unique_values(x))
        np.testing.assert_array_equal(np.sort(values), expected)
    else:
        np.testing.assert_array_equal(values, expected)
    assert values.dtype == x.dtype

    counted = namespace.unique_counts(x)
    np.testing.assert_array_equal(counted.values, expected)
    flat = x.reshape(-1)
    want_counts = [1 if np.isnan(v) else int(np.sum(flat == v)) for v in expected]
    np.testing.assert_array_equal(counted.counts, want_counts)

    inverse = namespace.unique_inverse(x)
    np.testing.assert_array_equal(inverse.values, expected)
    assert inverse.inverse_indices.shape == x.shape
    rebuilt = inverse.values[inverse.inverse_indices]
    np.testing.assert_array_equal(rebuilt, x)

    everything = namespace.unique_all(x)
    np.testing.assert_array_equal(everything.values, expected)
    np.testing.assert_array_equal(everything.counts, want_counts)
    assert everything.inverse_indices.shape == x.shape
    np.testing.assert_array_equal(everything.values[everything.inverse_indices], x)
    for value, first in zip(expected, everything.indices):
        if not np.isnan(value):
            assert flat[first] == value
            assert not np.any(flat[:first] == value)


@pytest.mark.parametrize("namespace", [numpy_namespace, cunumpy], ids=["namespace", "top-level"])
@settings(max_examples=60, deadline=None)
@given(x=st.one_of(int_arrays, float_arrays))
def test_unique_functions_are_sorted(namespace: ModuleType, x: np.ndarray) -> None:
    _check(namespace, x)


def test_values_in_hash_order_on_numpy_are_sorted_in_the_namespace() -> None:
    # NumPy >= 2.3 returns these in hash order from numpy.unique_values; the namespace
    # (array_namespace's, as array-api-compat's) sorts them, the top level is NumPy's.
    x = np.asarray([3, 1, 3, 2, 1, 10, -5, 7, 100, 4] * 3)
    np.testing.assert_array_equal(numpy_namespace.unique_values(x), [-5, 1, 2, 3, 4, 7, 10, 100])
    np.testing.assert_array_equal(cunumpy.unique_values(x), np.unique_values(x))
    np.testing.assert_array_equal(cunumpy.unique_values(list(x)), np.unique_values(list(x)))


def test_results_are_named_tuples() -> None:
    result = numpy_namespace.unique_all(np.asarray([2, 2, 1]))
    assert result._fields == ("values", "indices", "inverse_indices", "counts")
    assert numpy_namespace.unique_counts(np.asarray([1]))._fields == ("values", "counts")
    assert numpy_namespace.unique_inverse(np.asarray([1]))._fields == (
        "values",
        "inverse_indices",
    )


@pytest.mark.gpu
def test_unique_functions_are_sorted_on_cupy() -> None:
    import cupy

    rng = np.random.default_rng(0)
    host = rng.integers(-50, 50, size=(7, 31)).astype(np.float32)
    host[0, :3] = np.nan
    x = cupy.asarray(host)
    namespace = cunumpy.array_namespace(x)
    expected = _expected_values(host)
    np.testing.assert_array_equal(cupy.asnumpy(namespace.unique_values(x)), expected)
    for result in (
        namespace.unique_counts(x),
        namespace.unique_inverse(x),
        namespace.unique_all(x),
    ):
        np.testing.assert_array_equal(cupy.asnumpy(result.values), expected)
    inverse = namespace.unique_inverse(x)
    assert inverse.inverse_indices.shape == x.shape
    np.testing.assert_array_equal(cupy.asnumpy(inverse.values[inverse.inverse_indices]), host)


def test_the_top_level_names_the_types_the_unique_functions_return_on_numpy() -> None:
    """CuNumpy 0.7.1's ``xp.UniqueAllResult`` and friends: the named tuples of the results."""
    x = np.asarray([3, 1, 3])
    assert type(cunumpy.unique_all(x)) is cunumpy.UniqueAllResult
    assert type(cunumpy.unique_counts(x)) is cunumpy.UniqueCountsResult
    assert type(cunumpy.unique_inverse(x)) is cunumpy.UniqueInverseResult
    assert cunumpy.UniqueCountsResult._fields == ("values", "counts")
    assert cunumpy.UniqueInverseResult._fields == ("values", "inverse_indices")
    assert {"UniqueAllResult", "UniqueCountsResult", "UniqueInverseResult"} <= set(cunumpy.__all__)


@pytest.mark.gpu
def test_the_top_level_names_the_types_the_unique_functions_return_on_cupy() -> None:
    import cupy

    x = cupy.asarray([3, 1, 3])
    assert type(cunumpy.unique_all(x)) is cunumpy.UniqueAllResult
    assert type(cunumpy.unique_counts(x)) is cunumpy.UniqueCountsResult
    result = cunumpy.unique_inverse(x)
    assert type(result) is cunumpy.UniqueInverseResult
    assert cupy.asnumpy(result.values[result.inverse_indices]).tolist() == [3, 1, 3]
