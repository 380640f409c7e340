"""NumPy scalars beside CuPy arrays are scalars at the top level, as Python scalars are
(fake CuPy, not a GPU check; the GPU run is ``tests/test_cupy_backend.py``); only
``array_namespace`` keeps array-api-compat's answer.

Struphy calls ``clip(cupy_array, numpy.float64(...))``; a NumPy scalar must not count as
a NumPy array there. Alone (or with NumPy arrays) it is NumPy's data: NumPy computes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import cupy
import numpy as np
import pytest

import cunumpy as xp

_X = [0.5, 1.5, 2.5]

# Every kind of top-level function that takes a scalar beside an array: the standard's
# "array or scalar" arguments, optional bounds, where's branches, NumPy's calls (out=),
# the ufunc methods, creation from a CuPy array.
_CALLS: dict[str, tuple[Callable[[Any], Any], list[float]]] = {
    "clip": (lambda a: xp.clip(a, np.float64(1.0), np.float64(2.0)), [1.0, 1.5, 2.0]),
    "clip_min_keyword": (lambda a: xp.clip(a, min=np.float64(1.0)), [1.0, 1.5, 2.5]),
    "clip_int_bound": (lambda a: xp.clip(a, None, np.int64(2)), [0.5, 1.5, 2.0]),
    "clip_out": (lambda a: xp.clip(a, np.float64(1.0), 2.0, out=xp.empty_like(a)), [1.0, 1.5, 2.0]),
    "add": (lambda a: xp.add(a, np.float64(1.0)), [1.5, 2.5, 3.5]),
    "add_scalar_first": (lambda a: xp.add(np.float32(1.0), a), [1.5, 2.5, 3.5]),
    "subtract_operator": (lambda a: a - np.float64(0.5), [0.0, 1.0, 2.0]),
    "multiply_bool": (lambda a: xp.multiply(a, np.bool_(True)), _X),
    "pow_int": (lambda a: xp.pow(a, np.int64(2)), [0.25, 2.25, 6.25]),
    "maximum": (lambda a: xp.maximum(a, np.float64(1.0)), [1.0, 1.5, 2.5]),
    "minimum_scalar_first": (lambda a: xp.minimum(np.int64(1), a), [0.5, 1.0, 1.0]),
    "copysign": (lambda a: xp.copysign(a, np.float64(-1.0)), [-0.5, -1.5, -2.5]),
    "greater": (lambda a: xp.astype(xp.greater(a, np.float64(1.0)), xp.float64), [0, 1, 1]),
    "where_x2": (lambda a: xp.where(a > 1, a, np.float64(0.0)), [0.0, 1.5, 2.5]),
    "where_x1": (lambda a: xp.where(a > 1, np.float64(0.0), a), [0.5, 0.0, 0.0]),
    "where_both": (lambda a: xp.where(a > 1, np.float64(1.0), np.float64(0.0)), [0, 1, 1]),
    "full_like": (lambda a: xp.full_like(a, np.float64(2.0)), [2.0, 2.0, 2.0]),
    "add_outer": (lambda a: xp.add.outer(a, np.float64(1.0)), [1.5, 2.5, 3.5]),
    "maximum_reduce": (
        lambda a: xp.reshape(xp.maximum.reduce(a, initial=np.float64(2.0)), (1,)),
        [2.5],
    ),
}


@pytest.mark.parametrize("name", sorted(_CALLS))
def test_a_numpy_scalar_is_a_scalar_beside_a_cupy_array_fake_cupy(name: str) -> None:
    call, expected = _CALLS[name]
    result = call(cupy.asarray(_X))
    assert isinstance(result, cupy.ndarray), type(result)
    np.testing.assert_array_equal(xp.to_numpy(result), expected)


def test_array_namespace_counts_a_numpy_scalar_as_numpy_data_as_compat_does_fake_cupy() -> None:
    # array_namespace, array-api-compat's drop-in, keeps compat's answer: a NumPy scalar
    # beside a CuPy array is a second namespace. The top level's functions above take it
    # as a scalar.
    a = cupy.asarray(_X)
    for args in ((a, np.float64(1.0)), (np.int64(3), a), (np.float64(1.0), np.ones(1), a)):
        with pytest.raises(TypeError, match="Multiple namespaces"):
            xp.array_namespace(*args)
    with pytest.raises(TypeError, match="Multiple namespaces"):
        xp.array_namespace(a, np.float64(1.0), use_compat=False)
    assert xp.array_namespace(np.float64(1.0)) is xp.array_namespace(np.ones(1))
    with pytest.raises(TypeError, match=r"numpy\.ndarray and cupy\.ndarray"):
        xp.clip(np.ones(3), np.float64(1.0), a)


def test_numpy_scalars_alone_compute_on_numpy_on_the_cupy_backend_fake_cupy() -> None:
    with xp.use_backend("cupy"):
        assert type(xp.add(np.float64(1.0), np.float64(2.0))) is np.float64
        assert type(xp.maximum(np.float64(1.0), 2.0, dtype=np.float64)) is np.float64
        full = xp.full(3, np.float64(2.0))  # creation: the current backend, as with 2.0
        assert isinstance(full, cupy.ndarray)
        np.testing.assert_array_equal(xp.to_numpy(full), [2.0, 2.0, 2.0])
        # NumPy's call with a CuPy out=: the array decides, not the scalars before it
        out = cupy.zeros(())
        assert xp.add(np.float64(1.0), np.float64(2.0), out=out) is out
        assert float(out) == 3.0


def test_the_helpers_take_numpy_scalars_beside_cupy_arrays_fake_cupy() -> None:
    from cunumpy._namespaces._data_library import library_of

    lib, _ = library_of(cupy.asarray(_X), np.float64(1.0), func="segment_sum")
    assert lib is cupy
    lib, _ = library_of(np.float64(1.0), func="segment_sum")
    assert lib is np
