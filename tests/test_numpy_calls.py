"""NumPy's calls at the top level: a corpus of NumPy idioms answered as NumPy answers them.

Each idiom of ``tests/numpy_idioms.py`` runs with ``cunumpy`` and with ``numpy``; the
answers must have the same type, dtype, shape and value, or both calls raise the same
class, ours with a message that names the function. The same corpus runs on the fake
CuPy in ``tests/fake_cupy/test_numpy_calls_fake_cupy.py``.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable

import hypothesis.extra.numpy as hnp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy_idioms import IDIOMS, compare, function_name, outcome, public_class

import cunumpy as xp
from cunumpy._api import elementwise
from cunumpy._calls._numpy_names import NUMPY_NAMES


@pytest.mark.parametrize("name", list(IDIOMS))
def test_numpy_idiom_gives_numpys_answer(name: str) -> None:
    idiom = IDIOMS[name]
    kind, reference = outcome(idiom, np)
    if kind == "value":
        compare(idiom(xp), reference)
        return
    with pytest.raises(public_class(reference)) as info:
        idiom(xp)
    assert str(info.value).startswith(f"{function_name(name)}:"), str(info.value)


def test_the_corpus_covers_the_issues_idioms() -> None:
    assert len(IDIOMS) >= 72
    for idiom in ("mean(m, 1)", "where(cond)", "squeeze(a)", "zeros(dtype=object)"):
        assert idiom in IDIOMS


def test_out_is_the_array_numpy_writes() -> None:
    x = np.linspace(0.0, 1.0, 4)
    y = np.empty(4)
    assert xp.cos(x, out=y) is y
    np.testing.assert_array_equal(y, np.cos(x))


def test_signatures_show_the_union_of_the_standards_parameters_and_numpys() -> None:
    parameters = inspect.signature(xp.mean).parameters
    # NumPy's positional parameters, by NumPy's names, then *args, the standard's keywords
    assert list(parameters) == ["a", "axis", "args", "keepdims", "kwargs"]
    assert list(parameters)[:2] == list(inspect.signature(np.mean).parameters)[:2]
    assert parameters["a"].kind is inspect.Parameter.POSITIONAL_OR_KEYWORD
    assert parameters["axis"].kind is inspect.Parameter.POSITIONAL_OR_KEYWORD
    assert parameters["args"].kind is inspect.Parameter.VAR_POSITIONAL
    assert parameters["keepdims"].kind is inspect.Parameter.KEYWORD_ONLY
    assert parameters["kwargs"].kind is inspect.Parameter.VAR_KEYWORD
    # NumPy's default of keepdims (<no value>) is not the standard's False
    assert repr(parameters["keepdims"].default) == "<not given: False>"
    sort = inspect.signature(xp.sort).parameters
    assert list(sort) == ["a", "axis", "args", "descending", "stable", "kwargs"]
    assert repr(sort["stable"].default) == "<not given: True>"
    assert list(inspect.signature(xp.eye).parameters)[:4] == ["N", "M", "k", "dtype"]
    assert list(inspect.signature(xp.linalg.solve).parameters)[:2] == ["a", "b"]
    where = inspect.signature(xp.where).parameters
    assert list(where)[:3] == ["condition", "x", "y"]
    assert where["x"].kind is inspect.Parameter.POSITIONAL_ONLY  # as NumPy's
    assert repr(where["x"].default) == "<omitted>"
    assert "NumPy's call" in (xp.sqrt.__doc__ or "")
    assert "numpy.arccos" in (xp.acos.__doc__ or "")


def test_the_standard_call_keeps_the_fast_path() -> None:
    x = np.arange(3.0)
    assert xp.asarray(x) is x
    assert type(xp.sum(x)) is type(np.sum(x))


def test_the_scalar_fast_path_calls_the_ufunc_numpys_call_would() -> None:
    # sqrt(2.0) on NumPy skips numpy_call only where the namespace's function is NumPy's own
    fast = [
        name
        for name in elementwise.__all__
        if "in _PY_SCALARS and _current().namespace is _numpy_namespace"
        in inspect.getsource(getattr(elementwise, name))
    ]
    assert {"sqrt", "exp", "sin", "isnan"} <= set(fast)
    for name in fast:
        numpys = getattr(np, NUMPY_NAMES.get(name, name))
        assert getattr(elementwise, f"_numpy_{name}") is numpys, name
        with np.errstate(all="ignore"):
            assert type(getattr(xp, name)(2)) is type(numpys(2)), name


def test_the_bare_fast_path_calls_numpys_own_reductions() -> None:
    # sum(x) calls numpy.sum(x) bare when the keywords are at their defaults: only where the
    # namespace's function is NumPy's own, and the reduction property below checks each one
    from cunumpy._api import searching, statistics, utility

    bare = {
        name: module
        for module in (searching, statistics, utility)
        for name in module.__all__
        if f"return _numpy_{name}(a)\n" in (source := inspect.getsource(getattr(module, name)))
        and f"return _numpy_{name}(a, " in source  # the bare call beside the full one
    }
    assert {"sum", "max", "argmax", "mean"} <= set(bare)
    assert set(bare) <= set(_REDUCTIONS)
    for name, module in bare.items():
        assert getattr(module, f"_numpy_{name}") is getattr(np, name), name


# --- properties: a standard call at the top level is the namespace's call -------------

_UNARY_ELEMENTWISE = sorted(
    name
    for name in elementwise.__all__
    if [p.kind for p in inspect.signature(getattr(xp, name)).parameters.values()][:2]
    in (
        [inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.VAR_POSITIONAL],
        [inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.VAR_POSITIONAL],
    )
)
_REDUCTIONS = [
    "sum", "prod", "mean", "std", "var", "max", "min", "all", "any", "argmax", "argmin",
]  # fmt: skip
_DTYPES = ["bool", "int8", "uint8", "int32", "int64", "float32", "float64", "complex128"]


def _same_outcome(ours: Callable[[], object], theirs: Callable[[], object]) -> None:
    with np.errstate(all="ignore"):
        kind, reference = outcome(lambda m: theirs() if m is np else ours(), np)
        if kind == "value":
            compare(ours(), reference)
            return
        with pytest.raises(public_class(reference)):
            ours()


@settings(max_examples=150, deadline=None)
@given(
    name=st.sampled_from(_UNARY_ELEMENTWISE),
    x=hnp.arrays(st.sampled_from(_DTYPES), hnp.array_shapes(min_dims=0, max_dims=2, max_side=3)),
)
def test_a_standard_elementwise_call_is_the_namespaces(name: str, x: np.ndarray) -> None:
    namespace = xp.array_namespace(x)
    _same_outcome(lambda: getattr(xp, name)(x), lambda: getattr(namespace, name)(x))


@settings(max_examples=150, deadline=None)
@given(
    name=st.sampled_from(_REDUCTIONS),
    x=hnp.arrays(st.sampled_from(_DTYPES), hnp.array_shapes(min_dims=1, max_dims=3, max_side=3)),
    axis=st.none() | st.integers(-1, 0),
    keepdims=st.booleans(),
)
def test_a_standard_reduction_is_the_namespaces(
    name: str, x: np.ndarray, axis: int | None, keepdims: bool
) -> None:
    namespace = xp.array_namespace(x)
    _same_outcome(
        lambda: getattr(xp, name)(x, axis=axis, keepdims=keepdims),
        lambda: getattr(namespace, name)(x, axis=axis, keepdims=keepdims),
    )


_BINARY_ELEMENTWISE = sorted(
    name
    for name in elementwise.__all__
    if list(inspect.signature(getattr(xp, name)).parameters)[:3] == ["x1", "x2", "args"]
)


@settings(max_examples=150, deadline=None)
@given(
    name=st.sampled_from(_BINARY_ELEMENTWISE),
    data=st.data(),
    dtype=st.sampled_from(_DTYPES),
    shape=hnp.array_shapes(min_dims=0, max_dims=2, max_side=3),
)
def test_a_standard_binary_call_is_the_namespaces(
    name: str, data: st.DataObject, dtype: str, shape: tuple[int, ...]
) -> None:
    x1 = data.draw(hnp.arrays(dtype, shape), label="x1")
    x2 = data.draw(hnp.arrays(dtype, shape), label="x2")
    namespace = xp.array_namespace(x1)
    _same_outcome(lambda: getattr(xp, name)(x1, x2), lambda: getattr(namespace, name)(x1, x2))


def test_the_properties_cover_the_elementwise_functions() -> None:
    assert {"add", "atan2", "maximum", "logaddexp"} <= set(_BINARY_ELEMENTWISE)
    assert {"sqrt", "abs", "round", "sign", "isnan"} <= set(_UNARY_ELEMENTWISE)


# --- on a GPU ----------------------------------------------------------------------------

_GPU_IDIOMS = [
    "mean(m, 1)", "maximum(list, 3)", "sum(list)", "cos(out=y)", "where(cond)", "squeeze(a)",
    "sort(kind=stable)", "linspace(retstep=True)",
    "linspace(0, 1)", "add(dtype=float32)", "matmul(out=c)",
    "asarray(dtype=float16)", "fft.fft(list)", "linalg.det(lists)", "round(x, 1)",
]  # fmt: skip


@pytest.mark.gpu
def test_asarray_of_a_host_array_lands_on_the_gpu_on_the_cupy_backend() -> None:
    import cupy

    from cunumpy import profiling

    host = np.arange(6.0)
    with xp.use_backend("cupy"), profiling.count_transfers() as counter:
        signal = xp.asarray(host)
        spectrum = xp.fft.fft(signal)
    assert isinstance(signal, cupy.ndarray)
    assert isinstance(spectrum, cupy.ndarray)
    assert signal.device.id == cupy.cuda.runtime.getDevice()
    np.testing.assert_array_equal(signal.get(), host)
    assert counter.to_device == 1
    assert xp.asarray(host) is host  # on the NumPy backend nothing moves


@pytest.mark.gpu
@pytest.mark.parametrize("func", ["array", "asanyarray", "asarray"])
def test_copy_false_of_a_list_raises_on_the_cupy_backend(func: str) -> None:
    # NumPy refuses it; the list has to be copied to the GPU (CuPy 14.2 copies silently)
    with xp.use_backend("cupy", strict=True), pytest.raises(ValueError, match=r"copy=False"):
        getattr(xp, func)([1.0, 2.0], copy=False)
    with pytest.raises(ValueError, match="Unable to avoid copy"):
        np.array([1.0, 2.0], copy=False)


@pytest.mark.gpu
@pytest.mark.parametrize("name", _GPU_IDIOMS)
def test_numpy_idioms_give_cupys_answer_on_the_gpu(name: str) -> None:
    import cupy

    idiom = IDIOMS[name]
    try:
        reference = idiom(cupy)
    except (TypeError, AttributeError):
        # CuPy itself refuses Python lists (sum([1, 2, 3]), maximum([1, 5], 3), fft.fft(list),
        # linalg.det(lists)); the top level converts them with CuPy's asarray first (issue 30):
        # the answer is NumPy's, as a CuPy array on the GPU
        reference = cupy.asarray(idiom(np))
    with xp.use_backend("cupy"):
        compare(idiom(xp), reference)


@pytest.mark.parametrize("name", ["array", "asanyarray", "ascontiguousarray"])
def test_numpys_conversions_are_numpys_on_numpy(name: str) -> None:
    compare(
        getattr(xp, name)([[1, 2]], dtype=np.float32), getattr(np, name)([[1, 2]], dtype=np.float32)
    )
    x = np.arange(3.0)
    assert (getattr(xp, name)(x) is x) == (getattr(np, name)(x) is x)


def test_a_list_of_python_numbers_is_data_not_scanned_item_by_item() -> None:
    # sum(lst) of 20,000 floats cost twice NumPy's conversion when each item was looked at
    from cunumpy._backends import numpy as numpy_namespace
    from cunumpy._calls._numpy_calls import _namespace_of_values

    assert _namespace_of_values([[1.0, np.ones(2)]]) is None  # the first item decides
    assert _namespace_of_values([[np.ones(2), 1.0]]) is numpy_namespace
    assert _namespace_of_values([[[1.0, 2.0], np.ones(2)]]) is numpy_namespace
    compare(xp.sum([[1.0, 2.0], [3.0, 4.0]]), np.sum([[1.0, 2.0], [3.0, 4.0]]))
