"""NumPy's ufunc methods and attributes on the top-level standard functions
(``cunumpy/_calls/_ufunc_methods.py``): NumPy's answers on NumPy data, CuPy's on a GPU.

The fake CuPy's answers are in ``tests/fake_cupy/test_ufunc_methods_fake_cupy.py``.
"""

from __future__ import annotations

import contextlib
import inspect
import types
from typing import Any

import numpy as np
import pytest

import cunumpy as xp
from cunumpy._calls import _ufunc_methods as ufunc_methods
from cunumpy._calls._ufunc_methods import METHODS, UFUNC_NAMES, UfuncMethod

# The generated functions (behind a compiled FastCall where it is built: its __wrapped__)
_STANDARD_FUNCTIONS = [
    name for name in xp.__all__ if isinstance(inspect.unwrap(getattr(xp, name)), types.FunctionType)
]


def _same(got: Any, expected: Any) -> None:
    """Same value, dtype and type (NumPy scalar or array) as NumPy's answer."""
    assert type(got) is type(expected), (type(got), type(expected))
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(got, expected)


def test_every_standard_name_that_is_a_numpy_ufunc_has_the_methods() -> None:
    # NumPy 2 spells the standard's names too (np.acos is np.arccos): which are ufuncs
    expected = {
        name: getattr(np, name).__name__
        for name in _STANDARD_FUNCTIONS
        if isinstance(getattr(np, name, None), np.ufunc)
    }
    assert expected["pow"] == "power" and expected["bitwise_invert"] == "invert"
    assert expected == UFUNC_NAMES
    for name, ufunc_name in expected.items():
        function = getattr(xp, name)
        ufunc = getattr(np, ufunc_name)
        assert isinstance(inspect.unwrap(function), types.FunctionType)  # not NumPy's ufunc
        for attribute in ("nin", "nout", "nargs", "identity", "ntypes", "types", "signature"):
            assert getattr(function, attribute) == getattr(ufunc, attribute), (name, attribute)
        for method in ("reduce", "accumulate", "reduceat", "outer", "at"):
            assert isinstance(inspect.unwrap(getattr(function, method)), UfuncMethod)
    assert set(METHODS) == {"reduce", "accumulate", "reduceat", "outer", "at"}


def test_functions_that_are_not_ufuncs_in_numpy_have_no_methods() -> None:
    for name in ("sum", "round", "clip", "real", "where"):
        assert not hasattr(getattr(xp, name), "reduce"), name


def test_the_issue_examples_give_numpys_answers() -> None:
    a = np.arange(12.0).reshape(3, 4)
    _same(xp.add.reduce(a, axis=0), np.add.reduce(a, axis=0))
    _same(xp.add.reduce(a, axis=None), np.add.reduce(a, axis=None))
    v = np.array([3, 1, 4, 1, 5, 9, 2, 6])
    _same(xp.maximum.accumulate(v), np.maximum.accumulate(v))
    u, w = np.array([1.0, 2.0, 3.0]), np.array([1, 10], dtype=np.int32)
    _same(xp.multiply.outer(u, w), np.multiply.outer(u, w))
    grid, idx, weights = np.zeros(5), np.array([0, 1, 1, 4, 1]), np.array([1.0, 2, 3, 4, 5])
    expected = np.zeros(5)
    np.add.at(expected, idx, weights)
    assert xp.add.at(grid, idx, weights) is None
    np.testing.assert_array_equal(grid, expected)
    assert grid[1] == 10.0  # the repeated index adds up, unlike grid[idx] += weights


def test_renamed_ufuncs_run_numpys_ufunc() -> None:
    x = np.array([1, 2, 3], dtype=np.int16)
    _same(xp.pow.outer(x, x), np.power.outer(x, x))
    _same(xp.bitwise_left_shift.reduce(x), np.left_shift.reduce(x))
    _same(xp.atan2.outer(x, x), np.arctan2.outer(x, x))
    inverted = x.copy()
    xp.bitwise_invert.at(inverted, [0, 2])
    np.testing.assert_array_equal(inverted, [~1, 2, ~3])


def test_keywords_out_where_dtype_casting_initial_keepdims() -> None:
    a = np.arange(6, dtype=np.int8).reshape(2, 3)
    _same(xp.add.reduce(a, axis=1, dtype=np.float32), np.add.reduce(a, axis=1, dtype=np.float32))
    out = np.empty(3, dtype=np.int64)
    assert xp.add.reduce(a, axis=0, out=out) is out
    np.testing.assert_array_equal(out, [3, 5, 7])
    mask = np.array([[True, False, True], [True, True, False]])
    _same(
        xp.maximum.reduce(a, axis=1, where=mask, initial=-1),
        np.maximum.reduce(a, axis=1, where=mask, initial=-1),
    )
    _same(xp.add.reduce(a, axis=0, keepdims=True), np.add.reduce(a, axis=0, keepdims=True))
    _same(
        xp.multiply.accumulate(a, axis=1, dtype=np.int64),
        np.multiply.accumulate(a, axis=1, dtype=np.int64),
    )
    with pytest.raises(TypeError, match=r"^add\.reduce: .*casting"):
        xp.add.reduce(np.ones(3), dtype=np.int32, casting="safe")


def test_reduceat_and_scalar_results() -> None:
    a = np.arange(8.0)
    _same(xp.add.reduceat(a, [0, 4, 6]), np.add.reduceat(a, [0, 4, 6]))
    _same(xp.add.reduce(a), np.add.reduce(a))  # a NumPy scalar, as NumPy returns
    _same(xp.logical_and.reduce(a > 1), np.logical_and.reduce(a > 1))


def test_python_data_alone_runs_on_the_current_backend() -> None:
    _same(xp.add.reduce([1, 2, 3]), np.add.reduce([1, 2, 3]))
    _same(xp.pow.reduce([2, 3]), np.power.reduce([2, 3]))
    _same(xp.multiply.outer([1, 2], [1.5, 2.0]), np.multiply.outer([1, 2], [1.5, 2.0]))
    _same(xp.add.reduce(np.float32(2.5)), np.add.reduce(np.float32(2.5)))


def test_bad_calls_name_the_ufunc_and_method() -> None:
    a = np.ones((2, 3))
    with pytest.raises(ValueError, match=r"^sin\.reduce: reduce only supported for binary"):
        xp.sin.reduce(a)
    with pytest.raises(np.exceptions.AxisError, match=r"^add\.accumulate: axis 4"):
        xp.add.accumulate(a, axis=4)
    with pytest.raises(TypeError, match=r"^maximum\.outer: .*unexpected keyword.*'axes'"):
        xp.maximum.outer(a, a, axes=1)
    with pytest.raises(RuntimeError, match=r"^matmul\.reduce: Reduction not defined"):
        xp.matmul.reduce(a)


def test_a_method_the_library_lacks_is_a_runtime_error(monkeypatch: pytest.MonkeyPatch) -> None:
    # CuPy implements some methods for some ufuncs only: a stand-in library shows the errors
    def not_supported(*args: Any) -> None:
        msg = "`cupy_sin.at` is not supported yet"
        raise NotImplementedError(msg)

    library = types.SimpleNamespace(__name__="cupy", sin=types.SimpleNamespace(at=not_supported))
    monkeypatch.setattr(
        ufunc_methods, "_library", lambda values, func: (library, contextlib.nullcontext())
    )
    with pytest.raises(RuntimeError, match=r"^sin\.at: `cupy_sin\.at` is not supported yet\.$"):
        xp.sin.at(np.ones(2), (np.asarray([0]),))  # a tuple: the library is chosen
    with pytest.raises(RuntimeError, match=r"^vecdot\.outer: cupy\.vecdot has no method 'outer'"):
        xp.vecdot.outer(np.ones(2), np.ones(2), dtype=np.dtype("float64"))  # the library's


def test_repr_and_the_table_check() -> None:
    assert repr(xp.pow.outer) == "<ufunc method cunumpy.pow.outer>"
    with pytest.raises(ValueError, match=r"UfuncMethod: `ufunc` 'sum' and `method` 'reduce'"):
        UfuncMethod("sum", "sum", "reduce")


@pytest.mark.gpu
def test_add_at_on_cupy_arrays_scatters_on_the_gpu() -> None:
    cupy = pytest.importorskip("cupy")
    grid = cupy.zeros(5)
    idx = cupy.asarray([0, 1, 1, 4, 1])
    weights = cupy.asarray([1.0, 2.0, 3.0, 4.0, 5.0])
    assert xp.add.at(grid, idx, weights) is None
    assert isinstance(grid, cupy.ndarray)
    np.testing.assert_array_equal(cupy.asnumpy(grid), [1.0, 10.0, 0.0, 0.0, 4.0])
    reduced = xp.add.reduce(cupy.arange(6.0).reshape(2, 3), axis=0)
    assert isinstance(reduced, cupy.ndarray)
    np.testing.assert_array_equal(cupy.asnumpy(reduced), [3.0, 5.0, 7.0])
    with xp.use_backend("cupy"):
        summed = xp.add.accumulate([1, 3, 2])  # Python data: the current backend's library
    assert isinstance(summed, cupy.ndarray)
    np.testing.assert_array_equal(cupy.asnumpy(summed), [1, 4, 6])
