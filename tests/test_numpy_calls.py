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
from numpy_idioms import IDIOMS, assert_same_error, compare, outcome, public_class

import cunumpy as xp
from cunumpy._api import elementwise
from cunumpy._calls._numpy_names import NUMPY_NAMES
from cunumpy._calls._shown_signatures import own_signature


@pytest.mark.parametrize("name", list(IDIOMS))
def test_numpy_idiom_gives_numpys_answer(name: str) -> None:
    idiom = IDIOMS[name]
    kind, reference = outcome(idiom, np)
    if kind == "value":
        compare(idiom(xp), reference)
        return
    with pytest.raises(public_class(reference)) as info:
        idiom(xp)
    assert_same_error(name, info.value, reference)


def test_the_corpus_covers_the_issues_idioms() -> None:
    assert len(IDIOMS) >= 72
    for idiom in ("mean(m, 1)", "where(cond)", "squeeze(a)", "zeros(dtype=object)"):
        assert idiom in IDIOMS


def test_out_is_the_array_numpy_writes() -> None:
    x = np.linspace(0.0, 1.0, 4)
    y = np.empty(4)
    assert xp.cos(x, out=y) is y
    np.testing.assert_array_equal(y, np.cos(x))


def test_the_defs_take_the_union_of_the_standards_parameters_and_numpys() -> None:
    """The defs' own parameters (how a call binds; ``inspect.signature`` shows NumPy's,
    tests/test_shown_signatures.py)."""
    parameters = own_signature(xp.mean).parameters
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
    sort = own_signature(xp.sort).parameters
    assert list(sort) == ["a", "axis", "args", "descending", "stable", "kwargs"]
    assert repr(sort["stable"].default) == "<not given: True>"
    assert list(own_signature(xp.eye).parameters)[:4] == ["N", "M", "k", "dtype"]
    assert list(own_signature(xp.linalg.solve).parameters)[:2] == ["a", "b"]
    where = own_signature(xp.where).parameters
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
    if [p.kind for p in own_signature(getattr(xp, name)).parameters.values()][:2]
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
    if list(own_signature(getattr(xp, name)).parameters)[:3] == ["x1", "x2", "args"]
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


_LAYOUTS = {
    "fortran": lambda: np.ones((2, 3), order="F"),
    "transposed 3-D": lambda: np.ones((2, 3, 4)).transpose(2, 0, 1),
    "strided": lambda: np.ones((4, 6))[::2, ::3],
    "C": lambda: np.ones((2, 3)),
}


@pytest.mark.parametrize("layout", list(_LAYOUTS))
@pytest.mark.parametrize("name", ["empty_like", "zeros_like", "ones_like", "full_like"])
@pytest.mark.parametrize("dtype", [None, np.int32])
def test_like_functions_with_device_keep_numpys_layout(
    name: str, layout: str, dtype: object
) -> None:
    """With ``device="cpu"`` (x's own library), NumPy keeps x's layout (order "K")."""
    x = _LAYOUTS[layout]()
    fill = (2,) if name == "full_like" else ()
    expected = getattr(np, name)(x, *fill, dtype=dtype, device="cpu")
    ours = getattr(xp, name)(x, *fill, dtype=dtype, device="cpu")
    assert type(ours) is type(expected)
    assert ours.dtype == expected.dtype
    assert ours.strides == expected.strides
    if name != "empty_like":
        np.testing.assert_array_equal(ours, expected)


# --- every generated function takes NumPy's names (issue 43) -----------------------------


def _generated() -> list[str]:
    """The generated functions' qualified names (``sum``, ``linalg.solve``, ``fft.fft``)."""
    import importlib

    topics = ("creation", "elementwise", "indexing", "linear_algebra", "manipulation",
              "searching", "sets", "sorting", "statistics", "utility")  # fmt: skip
    names = [
        name
        for topic in topics
        for name in importlib.import_module(f"cunumpy._api.{topic}").__all__
    ]
    extensions = [f"linalg.{n}" for n in xp.linalg.__all__] + [f"fft.{n}" for n in xp.fft.__all__]
    return sorted(names) + extensions


def _ours_and_numpys(qualname: str) -> tuple[Callable[..., object], Callable[..., object]]:
    module, _, name = qualname.rpartition(".")
    ours = getattr(getattr(xp, module) if module else xp, name)
    owner = getattr(np, module) if module else np
    return ours, getattr(owner, NUMPY_NAMES.get(name, name), None)


def _generated_for_numpy(ours: Callable[..., object]) -> str | None:
    """The NumPy major.minor whose signatures the generated module of ``ours`` follows."""
    import re
    import sys

    text = sys.modules[ours.__module__].__doc__ or ""
    found = re.search(r"and NumPy (\d+\.\d+)'s\s+signatures", text)
    assert found is not None, ours.__module__
    return found.group(1)


def _skip_unless_generated_with_this_numpy(qualname: str, ours: Callable[..., object]) -> None:
    """The generator read NumPy's signatures when it wrote ours (tools/generate_api.py's
    `_union`): the checks against NumPy's live signatures run on that NumPy only. Another
    NumPy may add parameters (NumPy 2.5's sort/argsort `descending`) or show none (NumPy
    2.3's arange, asarray, concat, empty, zeros and where have no signature)."""
    made_with = _generated_for_numpy(ours)
    running = ".".join(np.__version__.split(".")[:2])
    if made_with != running:
        pytest.skip(
            f"{qualname} was generated with NumPy {made_with}'s signatures, not {running}'s"
        )


def _numpy_parameters(function: object) -> list[inspect.Parameter] | None:
    if function is None or isinstance(function, np.ufunc):
        return None
    try:
        return list(inspect.signature(function).parameters.values())  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None


_POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)


@pytest.mark.parametrize("qualname", _generated())
def test_the_positional_parameters_are_numpys(qualname: str) -> None:
    """Ours, by position, have the names and kinds of NumPy's function's (read from NumPy)."""
    ours, numpys = _ours_and_numpys(qualname)
    _skip_unless_generated_with_this_numpy(qualname, ours)
    theirs = _numpy_parameters(numpys)
    parameters = list(own_signature(ours).parameters.values())
    positional = [p for p in parameters if p.kind in _POSITIONAL]
    if theirs is None:  # a ufunc: positional-only inputs, as NumPy's
        assert all(p.kind is p.POSITIONAL_ONLY for p in positional), qualname
        return
    numpy_positional = [p for p in theirs if p.kind in _POSITIONAL]
    if any(p.kind is p.VAR_POSITIONAL for p in parameters[:1]):  # meshgrid(*arrays)
        return
    for mine, numpys_parameter in zip(positional, numpy_positional):
        if qualname in ("clip",) and mine.name in ("min", "max"):
            continue  # the standard's positional-or-keyword names (NumPy's a_min, a_max)
        assert mine.name == numpys_parameter.name, (qualname, mine, numpys_parameter)
        # NumPy's unique_* dispatchers take `x` by position only, whatever their signature
        # says (test_numpys_keyword_names_give_numpys_answer calls them by name on both)
        positional_only = qualname.startswith("unique_") and mine.kind is mine.POSITIONAL_ONLY
        assert positional_only or mine.kind is numpys_parameter.kind, (qualname, mine)
    assert len(positional) <= len(numpy_positional), qualname


@pytest.mark.parametrize("qualname", _generated())
def test_a_default_is_numpys_or_not_given(qualname: str) -> None:
    """A default that NumPy's function has otherwise is ``<not given: ...>``: NumPy's
    call leaves the parameter out, so a value given equal to ours is passed on."""
    ours, numpys = _ours_and_numpys(qualname)
    # The generator read NumPy's defaults when it wrote ours (tools/generate_api.py's
    # `_union`): they are NumPy's on that NumPy. Another NumPy may add parameters (NumPy
    # 2.5's sort/argsort `descending=<no value>`, which the call leaves out unless given
    # otherwise than False, so the answer is NumPy's), so the check runs on that NumPy only.
    _skip_unless_generated_with_this_numpy(qualname, ours)
    theirs = _numpy_parameters(numpys)
    if theirs is None:
        return
    numpy_defaults = {p.name: p.default for p in theirs}
    same_meaning = {("dtype", None, float), ("norm", "backward", None)}
    # tools/generate_api.py's LEFT_OUT_DIFFERS: numpy.arange(stop=None, start=3) is [0, 1, 2],
    # numpy.arange(start=3) a TypeError (issue 53)
    left_out_differs = {("arange", "stop")}
    for p in own_signature(ours).parameters.values():
        if p.default is p.empty or p.name not in numpy_defaults or repr(p.default) == "<omitted>":
            continue
        theirs_default = numpy_defaults[p.name]
        if repr(p.default).startswith("<not given: "):
            standard = p.default.default
            if (qualname, p.name) in left_out_differs:
                continue  # NumPy's default is ours, but it tells a value given from none
            assert not (type(standard) is type(theirs_default) and standard == theirs_default)
        else:
            assert (p.name, p.default, theirs_default) in same_meaning or (
                type(p.default) is type(theirs_default) and p.default == theirs_default
            ), (qualname, p.name, p.default, theirs_default)


_M = np.asarray([[4.0, 1.0, 0.5], [1.0, 3.0, 0.25], [0.5, 0.25, 2.0]])
_V = np.asarray([3.0, 1.0, 2.0, 1.0])

#: NumPy's positional call of each generated function, bound to NumPy's parameter names
#: by ``test_numpys_keyword_names_give_numpys_answer``.
_POSITIONAL_CALLS: dict[str, tuple[object, ...]] = {
    "arange": (1, 7, 2), "asarray": ([1, 2],), "empty_like": (_V,), "eye": (3, 4, 1),
    "full": ((2, 2), 1.5), "full_like": (_V, 2.0), "linspace": (0.0, 1.0, 5, False),
    "ones": ((2,),), "ones_like": (_V,), "tril": (_M, -1), "triu": (_M, 1), "zeros": (3,),
    "zeros_like": (_V,), "empty": (0,), "clip": (_V, 1.5, 2.5), "imag": (_V,), "real": (_V,),
    "round": (_V,), "take": (_V, [0, 2], 0), "take_along_axis": (_M, np.asarray([[0], [1], [2]]), 1),
    "matrix_transpose": (_M,), "tensordot": (_M, _M, 1), "broadcast_to": (_V, (2, 4)),
    "concat": ([_V, _V], 0), "expand_dims": (_V, 0), "flip": (_M, 1),
    "moveaxis": (_M[None], 0, 2), "permute_dims": (_M, (1, 0)), "repeat": (_V, 2, 0),
    "reshape": (_V, (2, 2)), "roll": (_V, 1, 0), "squeeze": (_V[None], 0), "stack": ([_V, _V], 1),
    "tile": (_V, 2), "unstack": (_M,), "argmax": (_M, 1), "argmin": (_M, 0),
    "count_nonzero": (_M, 0), "nonzero": (_V,), "searchsorted": (np.sort(_V), 2.0, "right"),
    "where": (_V > 1, _V, -_V), "isin": (_V, [1.0]), "unique_all": (_V,),
    "unique_counts": (_V,), "unique_inverse": (_V,), "unique_values": (_V,),
    "argsort": (_V, 0), "sort": (_V, 0), "cumulative_prod": (_V,), "cumulative_sum": (_V,),
    "max": (_M, 0), "mean": (_M, 1), "min": (_M, 1), "prod": (_M, 0, np.float32),
    "std": (_M, 0), "sum": (_M, 1, np.float32), "var": (_M, 1), "all": (_M, 0),
    "any": (_M, 1), "diff": (_V, 2, 0), "linalg.cholesky": (_M,), "linalg.det": (_M,),
    "linalg.eig": (_M,), "linalg.eigh": (_M,), "linalg.eigvals": (_M,),
    "linalg.eigvalsh": (_M,), "linalg.inv": (_M,), "linalg.matrix_power": (_M, 2),
    "linalg.matrix_rank": (_M,), "linalg.pinv": (_M,), "linalg.qr": (_M, "complete"),
    "linalg.slogdet": (_M,), "linalg.solve": (_M, _V[:3]), "linalg.svd": (_M, False),
    "fft.fft": (_V, 6, 0, "ortho"), "fft.ifft": (_V, 3), "fft.rfft": (_V,),
    "fft.irfft": (_V, 6), "fft.hfft": (_V,), "fft.ihfft": (_V,), "fft.fftn": (_M, (2, 2), (0, 1)),
    "fft.ifftn": (_M,), "fft.rfftn": (_M,), "fft.irfftn": (_M,), "fft.fftfreq": (5, 0.5),
    "fft.rfftfreq": (5, 0.5), "fft.fftshift": (_M, 0), "fft.ifftshift": (_M,),
}  # fmt: skip


def test_the_keyword_calls_cover_the_functions_with_numpys_names() -> None:
    renamed = [
        q for q in _generated()
        if (theirs := _numpy_parameters(_ours_and_numpys(q)[1])) is not None
        and any(p.kind is p.POSITIONAL_OR_KEYWORD for p in theirs)
    ]  # fmt: skip
    assert len(renamed) >= 75
    assert set(renamed) <= set(_POSITIONAL_CALLS), sorted(set(renamed) - set(_POSITIONAL_CALLS))


@pytest.mark.parametrize("qualname", sorted(_POSITIONAL_CALLS))
def test_numpys_keyword_names_give_numpys_answer(qualname: str) -> None:
    """NumPy's call with every argument that NumPy names given by name: NumPy's answer."""
    ours, numpys = _ours_and_numpys(qualname)
    _skip_unless_generated_with_this_numpy(qualname, ours)
    theirs = _numpy_parameters(numpys)
    assert theirs is not None, qualname
    bound = inspect.Signature(theirs).bind(*_POSITIONAL_CALLS[qualname])
    args, kwargs = [], {}
    for name, value in bound.arguments.items():
        if inspect.Signature(theirs).parameters[name].kind is inspect.Parameter.POSITIONAL_ONLY:
            args.append(value)
        else:
            kwargs[name] = value
    if (
        qualname in _STANDARDS_ANSWER
        and outcome(lambda _: numpys(*args, **kwargs), np)[0] == "value"
    ):
        compare(ours(*args, **kwargs), ours(*bound.args))  # by name, the call by position
        return
    _same_outcome(lambda: ours(*args, **kwargs), lambda: numpys(*args, **kwargs))
    if qualname in _STANDARDS_ANSWER:
        return
    _same_outcome(lambda: ours(*bound.args), lambda: numpys(*bound.args))  # by position


#: Positional calls that are the standard's, answered as the standard answers them.
_STANDARDS_ANSWER = {
    "linalg.eig": "the standard's eig is complex, a namedtuple of the namespace",
    "linalg.eigvals": "the standard's eigvals is complex",
    **{
        f"unique_{kind}": "the standard's namedtuple, cunumpy's class"
        for kind in ("all", "counts", "inverse")
    },
}


def _warnings_of(function: Callable, *args, **kwargs) -> list[type]:
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        function(*args, **kwargs)
    return [w.category for w in caught]


@pytest.mark.parametrize("name", ["fftn", "ifftn", "rfftn", "irfftn"])
def test_fft_s_without_axes_warns_as_numpy_for_numpys_calls_only(name: str) -> None:
    """NumPy's call (a list, NumPy's out=) gives NumPy's DeprecationWarning and answer; the
    standard's call fftn(x, s=(2,)) gives none (the standard defines s without axes), with
    NumPy's values (docs/migrating.md, deliberate.json)."""
    ours, theirs = getattr(xp.fft, name), getattr(np.fft, name)
    data = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
    assert DeprecationWarning in _warnings_of(theirs, data, s=(2,))
    assert DeprecationWarning in _warnings_of(ours, data, s=(2,))  # a list: NumPy's call
    x = np.asarray(data)
    assert _warnings_of(ours, x, s=(2,)) == []
    with pytest.warns(DeprecationWarning, match="axes"):
        expected = theirs(x, s=(2,))
    compare(ours(x, s=(2,)), expected)


def test_clip_min_and_max_reach_numpy_as_written() -> None:
    x = np.array([-1.5, 0.5, 2.5])
    for call in (
        lambda m: m.clip(x, min=0.0, out=np.empty(3)),
        lambda m: m.clip(-2.0, min=None),
        lambda m: m.clip([[1 + 0j, 2j]], min=np.inf),
        lambda m: m.clip(x, 0, a_max=1),
        lambda m: m.clip(x, 0, 1, np.empty(3)),
    ):
        compare(call(xp), call(np))
    kind, exc = outcome(lambda m: m.clip(x, a_min=0, max=1), np)
    assert kind == "raises" and isinstance(exc, TypeError)
    with pytest.raises(TypeError, match="a_max"):
        xp.clip(x, a_min=0, max=1)
    compare(xp.clip(x, 1), np.clip(x, 1, None))  # the standard's call: no upper bound
