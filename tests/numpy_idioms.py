"""A corpus of NumPy idioms, each run with cunumpy's top level and with the reference library.

Each idiom is a function of a module ``m`` (``cunumpy``, or the reference: ``numpy``, or
the fake ``cupy`` on the CuPy backend). It builds its inputs with ``m.asarray`` or
passes Python data, and calls the functions NumPy programs call: Python scalars and lists,
NumPy's positional arguments, its keywords (``out=``, ``where=``, ``kind=``, ``ddof=``,
...), its dtype spellings and its dtypes outside the standard's set. ``compare`` checks
value, dtype, shape and type of the two answers, or that both raise the same class.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

Idiom = Callable[[Any], Any]


def _ties(m: Any) -> Any:
    """Many equal keys: a stable and an unstable sort order them differently."""
    return m.asarray([1, 0, 1, 0, 2, 1, 0, 1] * 6)


def _m2(m: Any) -> Any:
    return m.asarray([[1.0, 2.0, 3.0], [4.0, 5.0, 7.0]])


def _x(m: Any) -> Any:
    return m.asarray([-1.5, 0.25, 0.5, 2.0, 3.75])


def _dates(m: Any) -> Any:
    return m.asarray(np.array(["2024-01-01", "2024-01-03", "2024-01-10"], dtype="datetime64[D]"))


def _matrix() -> Any:
    with warnings.catch_warnings():  # NumPy discourages the matrix class it still has
        warnings.simplefilter("ignore", PendingDeprecationWarning)
        return np.asmatrix("1 2; 3 4")


def _iinfo_fields(info: Any) -> Any:
    """An ``iinfo`` result as comparable fields, its class's name first (NumPy's or ours)."""
    return type(info).__name__, info.min, info.max, info.bits, info.dtype


def _out_cos(m: Any) -> Any:
    y = m.empty(5)
    result = m.cos(_x(m), out=y)
    return result, y


def _out_clip(m: Any) -> Any:
    x = _x(m)
    m.clip(x, 0, 1, out=x)
    return x


def _out_matmul(m: Any) -> Any:
    c = m.zeros((2, 2))
    m.matmul(m.asarray([[1.0, 2.0], [3.0, 4.0]]), m.asarray([[0.0, 1.0], [1.0, 0.0]]), out=c)
    return c


def _where_keyword(m: Any) -> Any:
    x = _x(m)
    out = m.zeros(5)
    return m.multiply(x, 2.0, out=out, where=x > 0)


IDIOMS: dict[str, Idiom] = {
    # Python scalars
    "sqrt(2.0)": lambda m: m.sqrt(2.0),
    "exp(-t)": lambda m: m.exp(-0.5),
    "sin(pi / 2)": lambda m: m.sin(np.pi / 2),
    "isnan(nan)": lambda m: m.isnan(float("nan")),
    "cos(0)": lambda m: m.cos(0),
    "log(10)": lambda m: m.log(10),
    "abs(-3)": lambda m: m.abs(-3),
    "floor(2.7)": lambda m: m.floor(2.7),
    "maximum(2, 3)": lambda m: m.maximum(2, 3),
    "add(1, 2)": lambda m: m.add(1, 2),
    "hypot(3.0, 4.0)": lambda m: m.hypot(3.0, 4.0),
    "sign(-2.0)": lambda m: m.sign(-2.0),
    "round(2.567, 2)": lambda m: m.round(2.567, 2),
    "clip(5, 0, 3)": lambda m: m.clip(5, 0, 3),
    "sqrt(np.float64)": lambda m: m.sqrt(np.float64(9.0)),
    # Python lists and tuples
    "sum(list)": lambda m: m.sum([1, 2, 3]),
    "mean(list)": lambda m: m.mean([1.0, 2.0]),
    "ones_like(list)": lambda m: m.ones_like([1.0, 2.0]),
    "zeros_like(nested)": lambda m: m.zeros_like([[1, 2], [3, 4]]),
    "maximum(list, 3)": lambda m: m.maximum([1, 5], 3),
    "sort(list)": lambda m: m.sort([3, 1, 2]),
    "argsort(tuple)": lambda m: m.argsort((3, 1, 2)),
    "argmax(list)": lambda m: m.argmax([1, 3, 2]),
    "std(list)": lambda m: m.std([1.0, 2.0, 3.0, 4.0]),
    "diff(list)": lambda m: m.diff([1, 4, 9, 16]),
    "where(lists)": lambda m: m.where([True, False], [1, 2], [3, 4]),
    "matmul(lists)": lambda m: m.matmul([[1, 2], [3, 4]], [1, 1]),
    "roll(list, 1)": lambda m: m.roll([1, 2, 3], 1),
    "flip(list)": lambda m: m.flip([1, 2, 3]),
    "reshape(list)": lambda m: m.reshape([1, 2, 3, 4], (2, 2)),
    "expand_dims(list, 0)": lambda m: m.expand_dims([1, 2], 0),
    "tile(list, 2)": lambda m: m.tile([1, 2], 2),
    "repeat(list, 2)": lambda m: m.repeat([1, 2], 2),
    "nonzero(list)": lambda m: m.nonzero([0, 1, 2]),
    "count_nonzero(list)": lambda m: m.count_nonzero([0, 1, 2]),
    "any(list)": lambda m: m.any([0, 1]),
    "prod(list)": lambda m: m.prod([1, 2, 3, 4]),
    "isfinite(list)": lambda m: m.isfinite([1.0, float("inf")]),
    "linalg.det(lists)": lambda m: m.linalg.det([[1.0, 2.0], [3.0, 4.0]]),
    "fft.fft(list)": lambda m: m.fft.fft([1.0, 0.0, 0.0, 0.0]),
    "stack(lists)": lambda m: m.stack([[1, 2], [3, 4]]),
    # lists where CuNumpy 0.7.1's wrappers refuse them
    "sign(list)": lambda m: m.sign([1.0, -2.0, 0.0]),
    "unique_values(list)": lambda m: m.unique_values([3, 1, 3]),
    "unique_counts(list)": lambda m: m.unique_counts([3, 1, 3]),
    "matrix_transpose(lists)": lambda m: m.matrix_transpose([[1, 2, 3]]),
    "fft.ifft(list)": lambda m: m.fft.ifft([1.0, 0.0]),
    "linalg.inv(lists)": lambda m: m.linalg.inv([[2.0, 0.0], [0.0, 4.0]]),
    "vecdot(lists)": lambda m: m.vecdot([1.0, 2.0], [3.0, 4.0]),
    # NumPy's positional arguments
    "mean(m, 1)": lambda m: m.mean(_m2(m), 1),
    "round(x, 1)": lambda m: m.round(_x(m), 1),
    "diff(x, 2)": lambda m: m.diff(_x(m), 2),
    "triu(a, 1)": lambda m: m.triu(_m2(m), 1),
    "tril(a, -1)": lambda m: m.tril(_m2(m), -1),
    "flip(a, 0)": lambda m: m.flip(_m2(m), 0),
    "sum(a, 0)": lambda m: m.sum(_m2(m), 0),
    "std(a, 0)": lambda m: m.std(_m2(m), 0),
    "argmax(a, 1)": lambda m: m.argmax(_m2(m), 1),
    "sort(a, 0)": lambda m: m.sort(_m2(m), 0),
    "sort(a, axis=None)": lambda m: m.sort(_m2(m), axis=None),
    "argsort(a, axis=None)": lambda m: m.argsort(_m2(m), axis=None),
    "full((2, 2), [1, 2])": lambda m: m.full((2, 2), [1, 2]),
    "full_like(a, [1, 2, 3])": lambda m: m.full_like(_m2(m), [1.0, 2.0, 3.0]),
    "full(2, 'ab')": lambda m: m.full(2, "ab"),
    "full(3, None)": lambda m: m.full(3, None),
    "roll(x, 1, 0)": lambda m: m.roll(_m2(m), 1, 0),
    "concat([a, a], 1)": lambda m: (
        m.concat([_m2(m), _m2(m)], 1)
        if m.__name__ == "cunumpy"
        else m.concatenate([_m2(m), _m2(m)], 1)
    ),
    "linspace(0, 1, 5, False)": lambda m: m.linspace(0, 1, 5, False),
    "arange(0, 10, 2, float)": lambda m: m.arange(0, 10, 2, float),
    "eye(3, 3, 1)": lambda m: m.eye(3, 3, 1),
    "full((2, 2), 1.5, float)": lambda m: m.full((2, 2), 1.5, float),
    "zeros(2, int)": lambda m: m.zeros(2, int),
    "fft.fftfreq(4, 0.5)": lambda m: m.fft.fftfreq(4, 0.5),
    # NumPy's keywords
    "sort(kind=stable)": lambda m: m.sort(_x(m), kind="stable"),
    "argsort(kind=stable)": lambda m: m.argsort(_x(m), kind="stable"),
    "max(initial=-1.0)": lambda m: m.max(_x(m), initial=-1.0),
    "min(initial=10.0)": lambda m: m.min(_x(m), initial=10.0),
    "sum(where=)": lambda m: m.sum(_x(m), where=_x(m) > 0),
    "mean(where=)": lambda m: m.mean(_x(m), where=_x(m) > 0),
    "linspace(retstep=True)": lambda m: m.linspace(0, 1, 5, retstep=True),
    "linspace(0, 1)": lambda m: m.linspace(0, 1),  # NumPy's 50 samples
    "linspace(num omitted, endpoint=False)": lambda m: m.linspace(2.0, 3.0, endpoint=False),
    "meshgrid(sparse=True)": lambda m: m.meshgrid(_x(m), _x(m), sparse=True),
    "clip(out=x)": _out_clip,
    "cos(out=y)": _out_cos,
    "add(dtype=float32)": lambda m: m.add(_x(m), 1, dtype=np.float32),
    "matmul(out=c)": _out_matmul,
    "multiply(out=, where=)": _where_keyword,
    "std(ddof=1)": lambda m: m.std(_x(m), ddof=1),
    "var(ddof=1)": lambda m: m.var(_x(m), ddof=1),
    "sum(keepdims, dtype)": lambda m: m.sum(_m2(m), axis=0, keepdims=True, dtype=np.float32),
    "where(cond)": lambda m: m.where(_x(m) > 0),
    "squeeze(a)": lambda m: m.squeeze(m.reshape(_x(m), (1, 5, 1))),
    "add(casting=unsafe)": lambda m: m.add(_x(m), 1, casting="unsafe", dtype=np.int64),
    "cumulative_sum(list)": lambda m: m.cumulative_sum([1, 2, 3]),
    # NumPy's dtype spellings and its dtypes outside the standard's set
    "asarray(dtype=float16)": lambda m: m.asarray(_x(m), dtype=np.float16),
    "zeros(dtype=object)": lambda m: m.zeros(3, dtype=object),
    "diff(datetime64)": lambda m: m.diff(_dates(m)),
    "zeros(dtype='float32')": lambda m: m.zeros(3, dtype="float32"),
    "ones(dtype=complex)": lambda m: m.ones(2, dtype=complex),
    "full(dtype=np.dtype(int16))": lambda m: m.full(2, 1, dtype=np.dtype("int16")),
    "arange(dtype='uint8')": lambda m: m.arange(3, dtype="uint8"),
    "linspace(dtype=float16)": lambda m: m.linspace(0, 1, 3, dtype=np.float16),
    "asarray(float, positional)": lambda m: m.asarray([1, 2], float),
    "sqrt(int8)": lambda m: m.sqrt(m.asarray([1, 4, 9], dtype=np.int8)),
    "exp(float16)": lambda m: m.exp(m.asarray([0.0, 1.0], dtype=np.float16)),
    "finfo(float).eps": lambda m: m.finfo(float).eps,
    "finfo('f4').tiny": lambda m: m.finfo("f4").tiny,
    "iinfo(int).max": lambda m: m.iinfo(int).max,
    "result_type('i4', 'c8')": lambda m: m.result_type("i4", "c8"),
    "result_type(float, int)": lambda m: m.result_type(float, int),
    "result_type(3.0, -2)": lambda m: m.result_type(3.0, -2),
    # where the standard leaves the answer open, NumPy's is the answer (issue 43)
    "result_type(int8, float32)": lambda m: m.result_type(np.int8, np.float32),
    "result_type(int8, uint64)": lambda m: m.result_type(np.int8, np.uint64),
    "result_type(int8 array, 1.0)": lambda m: m.result_type(m.asarray([1], dtype=np.int8), 1.0),
    "can_cast(casting='no')": lambda m: m.can_cast(np.int8, np.int16, casting="no"),
    "can_cast(int8, float32)": lambda m: m.can_cast(np.int8, np.float32),
    "clip(int, 0.5, 2.5)": lambda m: m.clip(m.asarray([1, 5]), 0.5, 2.5),
    "clip(x, 1, None)": lambda m: m.clip(m.asarray([0, 3]), 1, None),
    "clip(int8, float array)": lambda m: m.clip(
        m.asarray([1, 5], dtype=np.int8), m.asarray([1.5, 1.5]), None
    ),
    "linalg.pinv(int matrix)": lambda m: m.linalg.pinv(m.asarray([[1, 2], [3, 4]])),
    "iinfo(np.uint32(1))": lambda m: _iinfo_fields(m.iinfo(np.uint32(1))),
    "iinfo(-2)": lambda m: _iinfo_fields(m.iinfo(-2)),
    "finfo(np.float32(1.0))": lambda m: m.finfo(np.float32(1.0)),
    "fft.rfftfreq(-1)": lambda m: m.fft.rfftfreq(-1),
    "fft.rfftfreq(True)": lambda m: m.fft.rfftfreq(True),
    "size(list)": lambda m: m.size([1, 2, 3]),
    "size(x, 0)": lambda m: m.size(_m2(m), 0),
    "array(np.asmatrix(...))": lambda m: m.array(_matrix()),
    "asarray(np.asmatrix(...))": lambda m: m.asarray(_matrix()),
    # NumPy's names for the standard's positional parameters (issue 43)
    "repeat(x, repeats=2)": lambda m: m.repeat(_x(m), repeats=2),
    "linspace(start=0, stop=1)": lambda m: m.linspace(start=0, stop=1),
    "arange(stop=5)": lambda m: m.arange(stop=5),
    "arange(start=1, stop=5)": lambda m: m.arange(start=1, stop=5),
    "eye(N=2)": lambda m: m.eye(N=2),
    "eye(N=2, M=3, k=1)": lambda m: m.eye(N=2, M=3, k=1),
    "take(x, indices=i)": lambda m: m.take(_x(m), indices=m.asarray([0, 2])),
    "moveaxis(source=, destination=)": lambda m: m.moveaxis(_m2(m), source=0, destination=1),
    "tile(x, reps=2)": lambda m: m.tile(_x(m), reps=2),
    "stack(arrays=)": lambda m: m.stack(arrays=[_x(m), _x(m)]),
    "sum(a=x)": lambda m: m.sum(a=_x(m)),
    "mean(a=, axis=)": lambda m: m.mean(a=_m2(m), axis=1),
    "linalg.solve(a=, b=)": lambda m: m.linalg.solve(a=m.eye(2) * 2.0, b=m.ones(2)),
    "fft.fft(a=x)": lambda m: m.fft.fft(a=_x(m)),
    "fft.fft(a, n, axis)": lambda m: m.fft.fft(_x(m), 8, -1),
    "sort(a, axis=-1)": lambda m: m.sort(a=_x(m), axis=-1),
    "searchsorted(a, v=)": lambda m: m.searchsorted(m.asarray([1.0, 2.0, 3.0]), v=2.5),
    "where(condition, x, y)": lambda m: m.where(_x(m) > 0, _x(m), 0.0),
    "tensordot(a=, b=, axes=1)": lambda m: m.tensordot(
        a=_m2(m), b=m.matrix_transpose(_m2(m)), axes=1
    ),
    "diff(a, 1, 0)": lambda m: m.diff(_m2(m), 1, 0),
    "diff(a, append=)": lambda m: m.diff(_x(m), append=m.asarray([0.0])),
    "permute_dims(a)": lambda m: (m.permute_dims if m.__name__ == "cunumpy" else m.transpose)(
        _m2(m)
    ),
    "clip(a=, min=, max=)": lambda m: m.clip(a=_x(m), min=-1.0, max=1.0),
    "asarray(a=)": lambda m: m.asarray(a=[1, 2]),
    "full_like(a=, fill_value=)": lambda m: m.full_like(a=_x(m), fill_value=2.0),
    "array(object=)": lambda m: m.array(object=[1, 2], ndmin=2),
    "asanyarray(a=)": lambda m: m.asanyarray(a=(1.0, 2.0)),
    "ascontiguousarray(a=)": lambda m: m.ascontiguousarray(a=[[1, 2]]),
    "moveaxis(a, -1, destination=[0])": lambda m: m.moveaxis(_m2(m), -1, destination=[0]),
    "linalg.matrix_power(a, True)": lambda m: m.linalg.matrix_power(m.eye(2) * 2.0, True),
    "linalg.trace(a, offset=False)": lambda m: m.linalg.trace(m.eye(2), offset=False),
    "linalg.vector_norm(x, keepdims=0)": lambda m: m.linalg.vector_norm(_x(m), keepdims=0),
    "unstack(a, axis=(1,))": lambda m: m.unstack(_m2(m), axis=(1,)),
    "logaddexp.accumulate(a, 0, np.float32)": lambda m: m.logaddexp.accumulate(
        m.asarray([1.0, 2.0]), np.int64(0), np.float32
    ),
    # a keyword given at cunumpy's default, where NumPy's default differs: passed on
    "argsort(ties, axis=None, stable=True)": lambda m: m.argsort(_ties(m), axis=None, stable=True),
    "sort(ties, axis=None, stable=True)": lambda m: m.sort(_ties(m), axis=None, stable=True),
    "argsort(ties, axis=None)": lambda m: m.argsort(_ties(m), axis=None),  # NumPy's default
    "argsort(ties, kind=stable)": lambda m: m.argsort(_ties(m), kind="stable"),
    "sum(x, keepdims=False, where=)": lambda m: m.sum(_x(m), keepdims=False, where=_x(m) > 0),
    "std(x, ddof=1, correction=0.0)": lambda m: m.std(_x(m), ddof=1, correction=0.0),
    "linalg.pinv(a, hermitian=True, rtol=None)": lambda m: m.linalg.pinv(
        m.eye(3) * 1e-15 + m.eye(3), hermitian=True, rtol=None
    ),
    # a value the standard's check refuses, in a parameter NumPy takes too: NumPy's call
    "sum(x, keepdims=1)": lambda m: m.sum(_m2(m), keepdims=1),
    "sum(x, keepdims='x')": lambda m: m.sum(_x(m), keepdims="x"),
    "roll(x, [1])": lambda m: m.roll(_x(m), [1]),
    "roll(x, 1.5)": lambda m: m.roll(_x(m), 1.5),
    "repeat(x, 1.5)": lambda m: m.repeat(_x(m), 1.5),
    "repeat(x, -1)": lambda m: m.repeat(_x(m), -1),
    "sort(x, stable='no')": lambda m: m.sort(_x(m), stable="no"),
    "sort(x, axis=0.0)": lambda m: m.sort(_x(m), axis=0.0),
    "isin(x, x, invert='yes')": lambda m: m.isin(_x(m), _x(m), invert="yes"),
    "cumulative_sum(x, include_initial=1)": lambda m: m.cumulative_sum(_x(m), include_initial=1),
    "reshape(x, (5,), copy=0)": lambda m: m.reshape(_x(m), (5,), copy=0),
    "tril(a, k=1.5)": lambda m: m.tril(_m2(m), k=1.5),
    "std(x, correction=-1)": lambda m: m.std(_x(m), correction=-1),
    "var(x, correction='a')": lambda m: m.var(_x(m), correction="a"),
    "sum(a, axis=1.0)": lambda m: m.sum(_m2(m), axis=1.0),
    "tensordot(a, a, axes=-1)": lambda m: m.tensordot(_m2(m), _m2(m), axes=-1),
    "tensordot(a, a, axes='x')": lambda m: m.tensordot(_m2(m), _m2(m), axes="x"),
    "add.reduce(a, 0, np.float64)": lambda m: m.add.reduce(
        m.asarray([[1, 2], [3, 4]]), 0, np.float64
    ),
    # the hand-written functions: NumPy's names, NumPy's calls, NumPy's classes (issue 43)
    "can_cast(from_=, to=, casting=)": lambda m: m.can_cast(
        from_=m.asarray([1], dtype=np.uint64), to="int64", casting="no"
    ),
    "can_cast('uint32', to=, casting=)": lambda m: m.can_cast(
        "uint32", to="complex128", casting="same_kind"
    ),
    "can_cast(from_=, to=)": lambda m: m.can_cast(from_=np.int8, to=np.int16),
    "finfo(dtype='complex128').eps": lambda m: m.finfo(dtype="complex128").eps,
    "finfo(dtype=float64).bits": lambda m: m.finfo(dtype=np.float64).bits,
    "finfo(dtype='uint64')": lambda m: m.finfo(dtype="uint64"),
    "finfo(np.int8)": lambda m: m.finfo(np.int8),
    "finfo(int8 array)": lambda m: m.finfo(m.asarray([1], dtype=np.int8)),
    "iinfo(int_type='int8').max": lambda m: m.iinfo(int_type="int8").max,
    "iinfo(int_type=int16).bits": lambda m: m.iinfo(int_type=np.int16).bits,
    "iinfo(int_type=np.float32(1.0))": lambda m: m.iinfo(int_type=np.float32(1.0)),
    "iinfo(float32)": lambda m: m.iinfo(np.float32),
    "iinfo(float16 array)": lambda m: m.iinfo(m.asarray([1.0], dtype=np.float16)),
    "size(a=x)": lambda m: m.size(a=_m2(m)),
    "size(a=x, axis=1)": lambda m: m.size(a=_m2(m), axis=1),
    "size(a=5, axis=0)": lambda m: m.size(a=5, axis=0),
    "size(x, 2)": lambda m: m.size(_m2(m), 2),
    "astype(x, None)": lambda m: m.astype(m.asarray([1, 2]), None),
    "astype(x, 'uint64', copy=None)": lambda m: m.astype(_x(m), "uint64", copy=None),
    "astype(x, int8, copy='no')": lambda m: m.astype(_x(m), np.int8, copy="no"),
    "astype(-65504.0, 'uint8')": lambda m: m.astype(-65504.0, "uint8"),
    "astype(list, 'uint8')": lambda m: m.astype([1, 2], "uint8"),
    "from_dlpack(5)": lambda m: m.from_dlpack(5),
    "from_dlpack([])": lambda m: m.from_dlpack([]),
    "from_dlpack(True)": lambda m: m.from_dlpack(True),
    # clip: min and max reach NumPy as keywords unless the call names a_min or a_max
    "clip(x, min=1.0, out=y)": lambda m: m.clip(_x(m), min=1.0, out=m.zeros(5)),
    "clip(-2.0, min=None)": lambda m: m.clip(-2.0, min=None),
    "clip(list, max=0.5)": lambda m: m.clip([1.0, 0.0], max=0.5),
    "clip(x, 0, a_max=1)": lambda m: m.clip(_x(m), 0, a_max=1),
    "clip(x, a_min=0, a_max=1)": lambda m: m.clip(_x(m), a_min=0, a_max=1),
    "clip(x, 0, 1, y)": lambda m: m.clip(_x(m), 0, 1, m.zeros(5)),
    "clip(x, a_min=0, max=1)": lambda m: m.clip(_x(m), a_min=0, max=1),
    # NumPy judged first an argument outside the standard's domain: its class
    "eye(-1, True, 2)": lambda m: m.eye(-1, True, 2, dtype="uint64"),
    "arange(array, None, step=array)": lambda m: m.arange(
        np.array([1, 0, 3]), None, step=np.array([[1]])
    ),
    "vecdot(a, b, axis=-1, axes=)": lambda m: m.vecdot(
        np.ones((1, 3)), np.array(0.0), axes=1, axis=-1
    ),
    "vecdot(7, a, axis=(1,))": lambda m: m.vecdot(7, np.ones((2, 2, 2)), axis=(1,)),
    "linalg.pinv(int, rtol=None)": lambda m: m.linalg.pinv(m.asarray([[1, 2], [3, 4]]), rtol=None),
    # bad calls: the class NumPy raises
    "mean(bad axis)": lambda m: m.mean(_m2(m), 5),
    "sqrt(str)": lambda m: m.sqrt("x"),
    "sort(kind=bogus)": lambda m: m.sort(_x(m), kind="bogus"),
    "zeros(dtype=bogus)": lambda m: m.zeros(3, dtype="bogus"),
}


#: Idioms whose answer on the CuPy backend is NumPy's, with the reason.
NUMPY_ON_CUPY = {
    "sqrt(np.float64)": "a NumPy scalar is NumPy data: compute follows data",
    "vecdot(7, a, axis=(1,))": "a NumPy array is NumPy data: compute follows data",
}

#: Idioms that the CuPy backend does not answer as CuPy does, with the reason.
NOT_ON_CUPY = {
    "diff(datetime64)": "CuPy has no datetime64 dtype (the fake's host buffers do)",
    "full(2, 'ab')": "CuPy has no string dtypes",
    "full(3, None)": "CuPy has no object dtype",
    "clip(int, 0.5, 2.5)": "the CuPy namespace's clip keeps x's dtype for bounds of another kind",
    "clip(int8, float array)": "the CuPy namespace's clip keeps x's dtype for bounds of another kind",
    **{
        name: "the fake CuPy's creation functions take their input by position only; cunumpy "
        "takes NumPy's name on every backend"
        for name in ("asarray(a=)", "array(object=)", "asanyarray(a=)", "ascontiguousarray(a=)")
    },
}


def _host(value: Any) -> Any:
    """A NumPy copy of a (real or fake) CuPy array, for comparing; anything else as it is."""
    if type(value).__module__.partition(".")[0] == "cupy" and hasattr(value, "get"):
        return value.get()
    return value


def compare(ours: Any, reference: Any, *, values: bool = True) -> None:
    """Assert that ``ours`` and ``reference`` have the same type, dtype, shape and value
    (not the value with ``values=False``: ``empty`` arrays)."""
    assert type(ours) is type(reference), (type(ours), type(reference))
    if isinstance(reference, (tuple, list)):
        assert len(ours) == len(reference)
        for a, b in zip(ours, reference):
            compare(a, b, values=values)
        return
    ours, reference = _host(ours), _host(reference)
    if hasattr(reference, "dtype"):
        assert ours.dtype == reference.dtype, (ours.dtype, reference.dtype)
        assert np.shape(ours) == np.shape(reference)
        if values:
            np.testing.assert_array_equal(np.asarray(ours), np.asarray(reference))
    else:
        assert ours == reference or (ours != ours and reference != reference)


def outcome(idiom: Idiom, m: Any) -> tuple[str, Any]:
    """``("value", answer)`` or ``("raises", exception)`` of ``idiom(m)``."""
    try:
        return "value", idiom(m)
    except Exception as exc:  # the reference's class is the expected one
        return "raises", exc


def assert_same_error(name: str, ours: BaseException, reference: BaseException) -> None:
    """Assert that ``ours``, raised by the idiom ``name``, is the error ``reference`` gives.

    An error the reference library raises reaches the user restated, named by our function
    (``tril: ...``). A warning made an error by a filter (the suite's ``filterwarnings =
    error``; NumPy 2.5's ``tril(a, k=1.5)`` DeprecationWarning) passes through as it is,
    as numpy_call re-raises warnings: the reference's own class and its message unchanged.
    """
    if isinstance(reference, Warning):
        assert type(ours) is type(reference), (type(ours), type(reference))
        assert str(ours) == str(reference), (str(ours), str(reference))
    else:
        assert str(ours).startswith(f"{function_name(name)}:"), str(ours)


def public_class(exc: BaseException) -> type[BaseException]:
    """The class of ``exc`` a user catches: itself, or its nearest public built-in base."""
    for kind in type(exc).__mro__:
        module = kind.__module__
        if module in ("builtins", "numpy.exceptions") or module.startswith("numpy.linalg"):
            return kind
    return type(exc)


def function_name(idiom_name: str) -> str:
    """``"mean"`` for the idiom ``"mean(m, 1)"``."""
    return idiom_name.partition("(")[0]
