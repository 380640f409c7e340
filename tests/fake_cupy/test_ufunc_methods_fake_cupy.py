"""The top-level ufunc methods on the fake CuPy: CuPy arrays run CuPy's ufunc methods, and
Python data alone the current backend's (fake CuPy, not a GPU check; the GPU test is in
tests/test_ufunc_methods.py)."""

from __future__ import annotations

from typing import Any

import cupy
import numpy as np
import pytest

import cunumpy as xp
from cunumpy.kernel_testing import host_buffer


def _same_as_fake(got: Any, expected: Any) -> None:
    """The fake CuPy's own answer: a CuPy array of the same value and dtype."""
    assert type(got) is cupy.ndarray and type(expected) is cupy.ndarray
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(host_buffer(got), host_buffer(expected))


def test_cupy_arrays_run_cupys_ufunc_methods_on_the_fake_cupy() -> None:
    a = cupy.asarray(np.arange(12.0).reshape(3, 4))
    _same_as_fake(xp.add.reduce(a, axis=0), cupy.add.reduce(a, axis=0))
    _same_as_fake(xp.add.reduce(a, axis=None), cupy.add.reduce(a, axis=None))
    v = cupy.asarray([3, 1, 4, 1, 5])
    _same_as_fake(xp.maximum.accumulate(v), cupy.maximum.accumulate(v))
    _same_as_fake(xp.pow.outer(v, v), cupy.power.outer(v, v))
    _same_as_fake(xp.add.reduceat(v, cupy.asarray([0, 2])), cupy.add.reduceat(v, [0, 2]))
    out = cupy.zeros(4)
    assert xp.add.reduce(a, axis=0, out=out) is out
    np.testing.assert_array_equal(host_buffer(out), [12.0, 15.0, 18.0, 21.0])


def test_add_at_scatters_into_a_cupy_array_on_the_fake_cupy() -> None:
    grid = cupy.zeros(5)
    xp.add.at(grid, cupy.asarray([0, 1, 1, 4, 1]), cupy.asarray([1.0, 2, 3, 4, 5]))
    np.testing.assert_array_equal(host_buffer(grid), [1.0, 10.0, 0.0, 0.0, 4.0])


def test_python_data_on_the_cupy_backend_gives_cupy_arrays_on_the_fake_cupy() -> None:
    with xp.use_backend("cupy"):
        _same_as_fake(xp.add.reduce([1, 2, 3]), cupy.add.reduce(cupy.asarray([1, 2, 3])))
        _same_as_fake(
            xp.multiply.outer([1, 2], [1.5, 2.0]),
            cupy.multiply.outer(cupy.asarray([1, 2]), cupy.asarray([1.5, 2.0])),
        )
        host = np.arange(3.0)  # NumPy data still runs on NumPy: compute follows data
        assert type(xp.add.accumulate(host)) is np.ndarray


def test_mixing_numpy_and_cupy_in_a_method_raises_on_the_fake_cupy() -> None:
    with pytest.raises(TypeError, match=r"^add\.reduce: .*NumPy array and a CuPy array"):
        xp.add.reduce(cupy.ones(3), out=np.zeros(()))
    with pytest.raises(TypeError, match=r"^multiply\.outer: "):
        xp.multiply.outer(cupy.ones(2), np.ones(2))
