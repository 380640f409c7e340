"""The compiled fast path of the top-level standard functions (``cunumpy/_calls/_fastcall.c``).

Where the extension is built (the package installed with a C compiler), each function
whose def carries a ``@fast_path`` record is a ``FastCall`` at the top level: the calls it
takes in C must give what the def gives, errors included (raised once, the call never
made again in Python), and every other call must reach the def. CI sets ``CUNUMPY_FASTCALL_REQUIRED=1``, so there these tests fail
instead of skipping when the extension was not built. The same on the CuPy backend (fake
CuPy) is in ``tests/fake_cupy/test_fastcall_fake_cupy.py``.
"""

from __future__ import annotations

import inspect
import os
import pickle
import subprocess
import sys
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any

import hypothesis.extra.numpy as hnp
import numpy as np
import pytest
from fast_path import require_fast_path
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy_idioms import compare, outcome, public_class

import cunumpy as xp
from cunumpy._calls import _fast_path
from cunumpy._calls._kinds import flags

require_fast_path()

from cunumpy._calls import _fastcall  # type: ignore[attr-defined]  # noqa: E402

# The fast path's records follow NumPy 2.4's signatures. With NumPy 2.3, cunumpy's oldest,
# the creation functions whose NumPy signature differs run in Python (same answers):
# `left_in_python()` names them.
NUMPY_24 = np.lib.NumpyVersion(np.__version__) >= "2.4.0"
IN_PYTHON_BEFORE_NUMPY_24 = {"arange", "asarray", "concat", "empty", "zeros"}
needs_numpy_24 = pytest.mark.skipif(
    not NUMPY_24,
    reason=f"the fast path's records follow NumPy 2.4's signatures (NumPy {np.__version__}: "
    "arange, asarray, concat, empty and zeros run in Python)",
)

xp.linalg, xp.fft  # loaded on first use: their records join when they load
_RECORDS = _fast_path.records()


def _top(qualname: str) -> Any:
    found: Any = xp
    for part in qualname.split("."):
        found = getattr(found, part)
    return found


_ARRAY_FUNCTIONS = sorted(
    (qualname, record.kinds, record.keywords) for qualname, record in _RECORDS.items()
)


@pytest.mark.skipif(NUMPY_24, reason="checks NumPy 2.3's calls, which differ from 2.4's")
def test_before_numpy_2_4_only_the_creation_functions_whose_signature_differs_run_in_python() -> (
    None
):
    installed, why = _fast_path.compiled()
    assert why == ""
    assert set(_fast_path.left_in_python()) == IN_PYTHON_BEFORE_NUMPY_24
    assert installed == len(_RECORDS) > 120
    assert not IN_PYTHON_BEFORE_NUMPY_24 & set(_RECORDS)
    np.testing.assert_array_equal(xp.zeros(3), np.zeros(3))  # in Python: the same answer


@needs_numpy_24
def test_every_declared_function_is_a_fastcall_over_its_def() -> None:
    installed, why = _fast_path.compiled()
    assert why == "" and _fast_path.left_in_python() == {}
    for qualname, record in _RECORDS.items():
        top = _top(qualname)
        assert top is record.function and type(top) is _fastcall.FastCall, qualname
        function = top.__wrapped__
        assert inspect.isfunction(function)
        assert inspect.signature(top) == inspect.signature(function)
        assert top.__doc__ == function.__doc__
        name = qualname.rpartition(".")[2]
        assert (top.__name__, top.__module__) == (name, function.__module__)
        # the record is on the def itself: go-to-definition of the name lands on it
        source = inspect.getsource(function)
        assert source.lstrip().startswith(("@_fast_path(", "@fast_path(")), qualname
    assert installed == len(_RECORDS) > 120
    assert {"sqrt", "add", "sum", "asarray", "zeros", "linalg.inv", "fft.fftn"} <= set(_RECORDS)
    assert xp.sqrt.__fast__ is np.sqrt and xp.sum.__fast__ is np.sum


def test_a_def_without_a_record_runs_in_python_and_says_why() -> None:
    # NumPy's eye defaults dtype to float: the generator writes the reason on the def
    assert inspect.isfunction(xp.eye) and "eye" not in _RECORDS
    _, first = inspect.getsourcelines(xp.eye)  # its first decorator's line, from 1
    module_lines = inspect.getsource(inspect.getmodule(xp.eye)).splitlines()
    assert module_lines[first - 2].startswith("# In Python: NumPy's eye")
    # a ufunc left in Python keeps its methods (vecdot)
    assert inspect.isfunction(xp.vecdot) and xp.vecdot.nin == 2


def test_a_fastcall_keeps_the_functions_attributes_and_pickles_by_name() -> None:
    assert xp.add.nin == 2 and int(xp.add.reduce(np.arange(4))) == 6
    assert repr(xp.sum) == repr(xp.sum.__wrapped__)
    assert pickle.loads(pickle.dumps(xp.sum)) is xp.sum
    assert pickle.loads(pickle.dumps(xp.linalg.inv)) is xp.linalg.inv
    with pytest.raises(AttributeError):
        xp.sum.reduce  # sum is no ufunc in NumPy


def _arguments(kinds: str, draw: Any, dtype: str, shape: tuple[int, ...]) -> list[Any]:
    """Arguments of every sort, mostly of the kinds the table gives: whatever they are, the
    C path and the Python function must agree."""
    array = hnp.arrays(dtype, shape)
    values: list[Any] = []
    for kind in kinds:
        usual = {
            "b": hnp.arrays("bool", shape),
            "q": st.lists(array, min_size=1, max_size=3),
            "p": st.sampled_from([0, 3, 2.5, True, (2, 3), ()]),
            "d": _DTYPES,
            "x": _DTYPES,
        }.get(kind, array)
        other = st.one_of(
            st.sampled_from([0, 1, -2, 2.5, True, 1 + 1j, None, "x"]),
            st.lists(st.sampled_from([0, 1.5, -2]), min_size=0, max_size=4),
            st.tuples(st.integers(-3, 3), st.integers(-3, 3)),
            array,
            st.lists(array, min_size=0, max_size=2),
        )
        values.append(draw(st.one_of(usual, usual, usual, other), label=kind))
    return values


def _same(fast: Callable[[], Any], slow: Callable[[], Any], *, values: bool = True) -> None:
    with np.errstate(all="ignore"):
        kind, reference = outcome(lambda m: slow(), np)
        if kind == "value":
            compare(fast(), reference, values=values)
            return
        with pytest.raises(public_class(reference)) as raised:
            fast()
        assert str(raised.value) == str(reference)


#: How many calls the property test draws (``CUNUMPY_FASTCALL_EXAMPLES`` for a long run).
_EXAMPLES = int(os.environ.get("CUNUMPY_FASTCALL_EXAMPLES", "500"))


@settings(max_examples=_EXAMPLES, deadline=None)
@given(
    entry=st.sampled_from(_ARRAY_FUNCTIONS),
    dtype=st.sampled_from(["bool", "int8", "uint8", "int64", "float32", "float64", "complex128"]),
    shape=hnp.array_shapes(min_dims=0, max_dims=2, max_side=3),
    data=st.data(),
)
def test_the_c_path_answers_as_the_python_function(
    entry: tuple[str, str, tuple[str, ...]],
    dtype: str,
    shape: tuple[int, ...],
    data: st.DataObject,
) -> None:
    qualname, kinds, keywords = entry
    args = _arguments(kinds, data.draw, dtype, shape)
    extra = data.draw(st.lists(_EXTRA_VALUES, max_size=2), label="NumPy's further arguments")
    if data.draw(st.booleans(), label="further arguments"):
        args += extra
    given = data.draw(st.dictionaries(st.sampled_from(keywords or ("axis",)), _EXTRA_VALUES))
    top = _top(qualname)
    values = not qualname.startswith("empty")  # empty's values are whatever memory held
    _same(lambda: top(*args, **given), lambda: top.__wrapped__(*args, **given), values=values)


@settings(max_examples=300, deadline=None)
@given(
    x=hnp.arrays(
        st.sampled_from(["bool", "int8", "float32", "float64", "complex64", ">c16", ">f8"]),
        hnp.array_shapes(min_dims=0, max_dims=2, max_side=3),
    ),
    dtype=st.deferred(lambda: _DTYPES),
)
def test_astype_in_c_answers_as_the_python_functions(x: np.ndarray, dtype: Any) -> None:
    # the top level's (the standard's casts: complex to real refused) and the namespace's
    namespace = xp.array_namespace(x)
    assert type(namespace.astype) is _fastcall.FastCall
    for astype in (xp.astype, namespace.astype):
        _same(lambda: astype(x, dtype), lambda: astype.__wrapped__(x, dtype))  # noqa: B023


#: dtypes as a call spells them: types, dtype objects (one byte-swapped), names, wrong ones.
_DTYPES = st.sampled_from(
    [np.float32, np.float64, np.int8, np.uint64, np.complex64, np.complex128, np.bool_,
     np.dtype("float16"), np.dtype(">f8"), np.dtype("complex128"), "float32", bool, float,
     None, "bogus", [1]]
)  # fmt: skip

#: Values of NumPy's further arguments and of keywords: valid ones and wrong ones.
_EXTRA_VALUES = st.sampled_from(
    [None, True, False, 0, 1, -1, 2, 1.5, "x", "stable", (0,), (0, 1), np.float32,
     np.dtype("int8"), [1, 2]]
)  # fmt: skip


@pytest.mark.parametrize(
    ("name", "args"),
    [("zeros", (3,)), ("ones", ((2, 2),)), ("empty", (0,)), ("arange", (4,)),
     ("arange", (2.5,)), ("eye", (3,)), ("linspace", (0.0, 1.0, 5)), ("zeros", (-1,)),
     ("zeros", (2.5,)), ("linspace", (0, 1, -2))],
)  # fmt: skip
def test_creation_on_the_c_path_answers_as_the_python_function(name: str, args: tuple) -> None:
    top = getattr(xp, name)
    if name == "empty":
        compare(top(*args), inspect.unwrap(top)(*args), values=False)
    else:
        _same(lambda: top(*args), lambda: inspect.unwrap(top)(*args))


def test_errors_of_the_c_path_are_the_python_functions() -> None:
    # NumPy's own error on the C path is raised in the def's words, naming ours
    with pytest.raises(ValueError, match=r"^zeros: "):
        xp.zeros(-1)
    with pytest.raises(TypeError, match=r"^sqrt: "):
        xp.sqrt(np.array(["a"]))


def test_a_numpy_error_on_the_c_path_is_raised_once_and_the_call_is_made_once() -> None:
    # NumPy calls the errcall once per ufunc call: a second count would be the call run
    # again in Python after the C path's error (as before: the error cleared, then rerun)
    counted: list[str] = []

    def count(kind: str, flag: int) -> None:
        counted.append(kind)
        raise ValueError("counted")

    a, zero = np.ones(3), np.zeros(3)
    with np.errstate(all="call", call=count):
        with pytest.raises(
            ValueError,
            match=r"^divide: counted \(called with x1=<float64 array of shape \(3,\)>, x2=<float64 array of shape \(3,\)>\)\.$",
        ) as raised:
            xp.divide(a, zero)
        assert counted == ["divide by zero"]
        with pytest.raises(ValueError, match=r"^divide\.reduce: counted\.$"):
            xp.divide.reduce(np.asarray([1.0, 0.0]))  # a ufunc method in C as well
    assert counted == ["divide by zero", "divide by zero"]
    assert isinstance(raised.value.__cause__, ValueError)  # NumPy's, chained


def test_asarray_of_an_ndarray_is_the_array_itself() -> None:
    a = np.arange(3.0)
    assert xp.asarray(a) is a
    assert xp.asarray(a, dtype=np.float32).dtype == np.float32  # keywords: the Python path


# --- which path a call takes: a FastCall over recording functions ----------------------

_BACKEND: ContextVar[Any] = ContextVar("test_backend")


class _State:
    def __init__(self, namespace: Any) -> None:
        self.namespace = namespace


def _recording(
    kinds: str, *, placed: bool = False, everywhere: bool = False, data: bool = False
) -> tuple[Any, list[str]]:
    calls: list[str] = []

    def fast(*args: Any) -> str:
        calls.append("fast")
        if args and isinstance(args[0], np.ndarray) and args[0].size == 0:
            raise ValueError("fast refuses empty arrays")
        return "fast"

    def slow(*args: Any, **kwargs: Any) -> str:
        calls.append("slow")
        return "slow"

    numpy_namespace = object()
    _BACKEND.set(_State(numpy_namespace))

    def restate(error: BaseException, args: tuple, kwargs: dict) -> None:
        calls.append("restate")
        raise TypeError(f"restated: {error}") from error

    call = _fastcall.FastCall(
        fast, slow, np.ndarray, flags(kinds), _BACKEND, numpy_namespace, [everywhere],
        (str, ("x",)), np.dtype(bool), restate, placed, False, data,
    )  # fmt: skip
    return call, calls


def test_the_c_path_takes_exact_ndarrays_of_the_tables_kinds_only() -> None:
    call, calls = _recording("as")
    a = np.ones(2)
    assert call(a, a) == "fast" and call(a, 2.0) == "fast" and call(a, 1 + 1j) == "fast"
    assert call(2.0, a) == "slow"  # a scalar where the table wants an array: NumPy's call
    assert call(a, [1.0]) == "slow"  # a list: NumPy's call
    assert call(a, np.ma.masked_array([1.0])) == "slow"  # a subclass: dispatched in Python
    assert call(a, np.float64(1.0)) == "slow"  # a NumPy scalar: dispatched in Python
    assert call(a) == "slow" and call(a, a, a) == "slow"  # not the table's arity
    assert call(a, a, out=a) == "slow"  # keywords: the Python path
    assert calls == ["fast"] * 3 + ["slow"] * 7


def test_the_kinds_of_bool_conditions_and_sequences_of_arrays() -> None:
    call, calls = _recording("bq")
    a, c = np.ones(2), np.ones(2, bool)
    assert call(c, [a, a]) == "fast" and call(c, (a,)) == "fast"
    assert call(a, [a]) == "slow"  # not a bool condition
    assert call(c, []) == "slow" and call(c, [a, [1.0]]) == "slow"
    assert calls == ["fast"] * 2 + ["slow"] * 3


def test_an_error_on_the_c_path_is_restated_once_and_slow_never_runs() -> None:
    call, calls = _recording("a")
    with pytest.raises(TypeError, match=r"^restated: fast refuses empty arrays$") as raised:
        call(np.ones(0))
    assert calls == ["fast", "restate"]  # not "slow": the call is not made twice
    assert isinstance(raised.value.__cause__, ValueError)


def test_an_error_restate_keeps_is_raised_as_it_is() -> None:
    def fast(x: Any) -> None:
        raise ValueError("as it is")

    call = _fastcall.FastCall(
        fast, lambda *a: "slow", np.ndarray, flags("a"), _BACKEND, object(), [True],
        (str, ("x",)), None, lambda error, args, kwargs: None,
    )  # fmt: skip
    with pytest.raises(ValueError, match=r"^as it is$"):
        call(np.ones(2))


def test_keywords_and_further_arguments_run_in_c_as_the_tables_allow() -> None:
    a = np.ones(2)
    calls: list[str] = []
    call = _fastcall.FastCall(
        lambda *args, **kw: calls.append("fast") or "fast",
        lambda *args, **kw: calls.append("slow") or "slow",
        np.ndarray, flags("a"), _BACKEND, object(), [True], (str, ("x",)), None, None, False,
        False, True, 1, {"axis": 0, "keepdims": 1, "n": 2, "copy": 3},
    )  # fmt: skip
    assert call(a, 1) == "fast" and call(a, 1, None, "x", (0, 1)) == "fast"  # extras 1
    assert call(a, [1]) == "slow" and call(a, np.float64(1)) == "slow"  # not host values
    assert call(a, axis="anything") == "fast"  # mode 0: the NumPy function's to refuse
    assert call(a, keepdims=True) == "fast" and call(a, keepdims=1) == "slow"  # mode 1
    assert call(a, n=2) == "fast" and call(a, n=True) == "slow"  # mode 2: an exact int
    assert call(a, copy=None) == "fast" and call(a, copy=0) == "slow"  # mode 3
    assert call(a, other=1) == "slow"  # not in the table
    assert calls == ["fast", "fast", "slow", "slow", "fast", "fast", "slow", "fast", "slow",
                     "fast", "slow", "slow"]  # fmt: skip


def test_python_data_runs_in_c_only_where_numpys_call_is_the_fast_function() -> None:
    a = np.ones(2)
    call, calls = _recording("as")
    assert call([1.0, 2.0], 0) == "slow" and calls == ["slow"]  # no `data`: the Python route
    call, calls = _recording("as", data=True)
    assert call([1.0, 2.0], 0) == "fast" and call(2.0, a) == "fast" and call(2.0, 1) == "fast"
    assert call([[1.0]], 0) == "slow"  # nested: the Python route scans it
    assert call([a], 0) == "slow"  # a list of arrays: the Python route looks at them
    _BACKEND.set(_State(object()))  # another backend in this context
    assert call([1.0, 2.0], 0) == "slow"  # Python data alone: the context's backend
    assert call(2.0, a) == "fast"  # an array among the arguments: compute follows it
    assert calls == ["fast", "fast", "fast", "slow", "slow", "slow", "fast"]


def test_a_creation_runs_in_c_only_on_the_numpy_backend() -> None:
    call, calls = _recording("p", placed=True)
    assert call(2) == "fast"  # the context's backend is the NumPy namespace
    _BACKEND.set(_State(object()))  # another backend in this context
    assert call(2) == "slow"
    call, _ = _recording("p", placed=True, everywhere=True)
    _BACKEND.set(_State(object()))
    assert call(3) == "fast"  # the landscape says NumPy everywhere: no context read
    assert calls == ["fast", "slow"]


@needs_numpy_24
def test_a_creation_record_calls_numpys_own_function_and_the_def_checks_devices() -> None:
    # the NumPy namespace's creation functions check `device` in Python before NumPy's
    # (cunumpy/_backends/numpy/_creation.py); C passes no device, so it calls NumPy's own
    for name in ("arange", "asarray", "empty", "linspace", "ones", "zeros"):
        assert getattr(xp, name).__fast__ is getattr(np, name), name
    with pytest.raises(ValueError, match=r"^zeros: device 'cuda:0' is not a device of cunumpy's"):
        xp.array_namespace(np.ones(1)).zeros(2, device="cuda:0")
    assert xp.linspace(0, 1).shape == (50,)  # `num` left out: NumPy's call, in Python


@pytest.mark.parametrize(
    ("name", "args", "kwargs"),
    [("asarray", ([1.0, 2.0],), {}), ("asarray", (np.arange(3),), {"dtype": np.float32}),
     ("asarray", (np.arange(3), "f4"), {}), ("asarray", (np.arange(3),), {"copy": False}),
     ("zeros", (3,), {}), ("ones", ((2, 2),), {"dtype": "i1", "order": "F"}),
     ("empty", (0,), {}), ("zeros", (-1,), {}), ("zeros", (2,), {"device": "cpu"}),
     ("zeros", (2,), {"device": "cuda:0"}), ("zeros_like", (np.ones(2),), {"shape": (3,)}),
     ("ones_like", (np.ones(2), None, "C"), {}), ("empty_like", ([1, 2],), {}),
     ("arange", (1, 7, 2), {"dtype": "f4"}), ("arange", ((2, 3),), {}), ("eye", (3,), {"k": 1}),
     ("full", ((2,), 1.5), {"dtype": "f4"}), ("full_like", (np.ones(2), 7), {"shape": (3,)}),
     ("linspace", (0, 1.0), {"num": 5, "retstep": True}), ("linspace", (0, 1, -1), {}),
     ("arange", (3,), {"device": "gpu"})],
)  # fmt: skip
def test_the_numpy_namespaces_creation_runs_in_c_as_its_python_function(
    name: str, args: tuple, kwargs: dict
) -> None:
    # they check `device` in Python, then call NumPy's own: C makes that call without one
    function = getattr(xp.array_namespace(np.ones(1)), name)
    assert type(function) is _fastcall.FastCall and function.__fast__ is getattr(np, name)
    values = not name.startswith("empty")
    _same(
        lambda: function(*args, **kwargs),
        lambda: function.__wrapped__(*args, **kwargs),
        values=values,
    )
    a = np.arange(3.0)
    assert xp.array_namespace(a).asarray(a) is a


def test_the_landscape_flag_follows_use_backend_blocks() -> None:
    assert _fast_path._NUMPY_EVERYWHERE == [True]
    with xp.use_backend("numpy"):  # the same backend as the default: still everywhere
        assert _fast_path._NUMPY_EVERYWHERE == [True]


def test_pure_python_is_chosen_by_the_environment() -> None:
    code = (
        "import types, cunumpy as xp\n"
        "from cunumpy._calls._fast_path import compiled\n"
        "print(type(xp.sqrt) is types.FunctionType, compiled())\n"
    )
    env = {**os.environ, "CUNUMPY_PURE_PYTHON": "1"}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    assert out.stdout.strip() == "True (0, 'CUNUMPY_PURE_PYTHON=1')"


@needs_numpy_24
def test_the_signature_check_reads_code_objects_and_builtins_text_signatures() -> None:
    from cunumpy._calls._same_call import same_call

    # numpy.zeros is a builtin (its text signature), numpy.flip a Python function
    assert same_call(np.zeros, xp.zeros.__wrapped__, 1, {"dtype": 0})
    assert same_call(np.flip, xp.flip.__wrapped__, 1, {"axis": 0})
    # numpy.sum's keepdims defaults to a marker, not False: its record says `bare`
    assert not same_call(np.sum, xp.sum.__wrapped__, 1, {"dtype": 0, "keepdims": 1})
    # NumPy's eye calls n_cols M and defaults dtype to float: the def stays in Python
    assert not same_call(np.eye, xp.eye, 1, {"k": 2, "dtype": 0})
    assert not same_call(np.fft.fft, xp.fft.fft, 1, {"n": 0, "axis": 2, "norm": 0})
