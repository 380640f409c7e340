"""The differential test: every callable numpy and cunumpy share, called on both (issue 43).

``tests/differential/`` generates the calls and compares the outcomes; here a seeded
budget runs in the suite and must find exactly the differences still open
(``tests/differential/known_open.json``): a new one fails, and so does a listed one no
longer found (regenerate the list with ``python -m tests.differential --suite
--write-known``). The longer run is ``python -m tests.differential --calls 1000000 --seed 1
--jobs 2`` (docs/testing.md). The rest checks the parts: the comparison, the arguments,
the forked runner (crashes and hangs are findings) and the deliberate list.
"""

from __future__ import annotations

import inspect
import os
import random
import signal
import time

import numpy as np
import pytest
from differential import known
from differential.arguments import S, build, call_recipe, render_call
from differential.compare import compare, same_bits
from differential.findings import Tally, deliberate_entry, load_deliberate
from differential.names import LEFT_OUT, Callee, shared_callables
from differential.outcome import call
from differential.runner import _defined, one_call, run

import cunumpy as xp


def _outcome(function, *args, **kwargs):
    positional = [("lit", a) for a in args]
    keywords = [(k, ("lit", v)) for k, v in kwargs.items()]
    return call(function, positional, keywords)


# --- the suite's budget ---------------------------------------------------------------


@pytest.fixture(scope="module")
def suite_run() -> Tally:
    listed = known.load()
    if listed["numpy"].split(".")[:2] != np.__version__.split(".")[:2]:
        # the list holds this NumPy's answers, and the calls are drawn from its signatures
        # (NumPy 2.3's arange, asarray, concat, empty, zeros and where have none)
        pytest.skip(f"known_open.json was made with NumPy {listed['numpy']}, not {np.__version__}")
    callees, _ = shared_callables()
    tally = Tally(load_deliberate())
    run(callees, known.SEED, known.CALLS, tally.add, jobs=2, batch=known.CALLS // 4, timeout=10)
    tally.calls = known.CALLS
    return tally


def test_the_suite_budget_finds_exactly_the_known_open_differences(suite_run: Tally) -> None:
    listed = known.load()
    if listed["numpy"].split(".")[:2] != np.__version__.split(".")[:2]:
        pytest.skip(f"known_open.json was made with NumPy {listed['numpy']}, not {np.__version__}")
    assert (listed["seed"], listed["calls"]) == (known.SEED, known.CALLS)
    found, expected = suite_run.open_pairs(), known.pairs(listed)
    new = [
        f"{cls} {suite_run.examples[cls, name]['call'][:300]}"
        for cls, name in sorted(found - expected)
    ]
    stale = sorted(expected - found)
    assert (new, stale) == ([], []), (
        f"new differences from NumPy (fix them, or list them in deliberate.json): {new}; "
        f"listed but no longer found (fixed? regenerate with python -m tests.differential "
        f"--suite --write-known): {stale}"
    )


def test_the_suite_budget_calls_every_callable(suite_run: Tally) -> None:
    callees, _ = shared_callables()
    assert 5 * len(callees) <= known.CALLS  # call i calls callees[i % len(callees)]
    assert len(callees) > 300
    assert {"repeat", "linalg.solve", "fft.fft", "add.reduce", "add.at", "sum"} <= {
        c.name for c in callees
    }
    assert suite_run.calls == known.CALLS


def test_the_known_open_findings_carry_the_issue_and_a_reproducer() -> None:
    for entry in known.load()["findings"]:
        assert entry["issue"] == 43
        assert entry["call"].startswith(entry["name"] + "(")


# --- the names --------------------------------------------------------------------------


def test_names_not_called_are_numpys_own_objects_or_left_out_for_a_reason() -> None:
    callees, same = shared_callables()
    for name in same:
        module, _, attribute = name.rpartition(".")
        ours, theirs = (getattr(getattr(m, module) if module else m, attribute) for m in (xp, np))
        assert ours is theirs, name
    assert all(reason for reason in LEFT_OUT.values())
    assert not {c.name for c in callees} & set(LEFT_OUT)
    assert len(callees) + len(same) > 600


def test_ufunc_methods_are_called_with_numpys_signatures() -> None:
    callees = {c.name: c for c in shared_callables()[0]}
    assert list(callees["add.reduceat"].signature.parameters)[:2] == ["array", "indices"]
    assert "add.at" in callees and "sqrt.at" in callees and "sqrt.reduce" not in callees


# --- the arguments ------------------------------------------------------------------------


def test_a_call_is_the_same_for_a_seed_and_number_and_differs_between_numbers() -> None:
    signature = inspect.signature(np.repeat)
    first = call_recipe(random.Random(7), signature)
    assert first == call_recipe(random.Random(7), signature)
    assert any(call_recipe(random.Random(n), signature) != first for n in range(8, 20))


def test_arguments_go_by_position_and_by_numpys_names() -> None:
    signature = inspect.signature(np.repeat)
    calls = [call_recipe(random.Random(n), signature) for n in range(200)]
    by_name = {name for _, keywords in calls for name, _ in keywords}
    assert {"a", "repeats", "axis"} <= by_name
    assert any(len(positional) == 2 for positional, _ in calls)


def test_the_arguments_cover_dtypes_shapes_layouts_and_special_values() -> None:
    recipes = [call_recipe(random.Random(n), inspect.signature(np.sum))[0] for n in range(3000)]
    arrays = [r[0] for r in recipes if r and r[0][0] == "arr"]
    assert {a[1] for a in arrays} >= {"bool", "int8", "uint64", "float16", "complex128"}
    assert {a[3] for a in arrays} == {"C", "F", "S", "RO"}
    assert {len(a[2]) for a in arrays} == {0, 1, 2, 3}
    assert any(0 in a[2] for a in arrays)
    values = [v for a in arrays for v in a[4]]
    assert any(v != v for v in values) and float("-inf") in values
    assert -(2**63) in values and 2**64 - 1 in values
    assert any(r and r[0][0] == "np" for r in recipes) and any(
        r and r[0][0] == "lit" for r in recipes
    )


def test_each_side_gets_its_own_objects_in_the_recipes_layout() -> None:
    recipe = ("arr", "float64", (2, 3), "F", (1.0, 2.0, 3.0, 4.0, 5.0, 6.0))
    a, b = build(recipe, []), build(recipe, [])
    assert a is not b and a.flags.f_contiguous and not a.flags.c_contiguous
    np.testing.assert_array_equal(a, [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    strided = build(("arr", "int8", (3,), "S", (1, 2, 3)), [])
    assert strided.strides == (2,) and strided.tolist() == [1, 2, 3]
    assert not build(("arr", "int8", (3,), "RO", (1, 2, 3)), []).flags.writeable


def test_the_reproducer_is_runnable_python() -> None:
    positional = [("arr", "int8", (2,), "S", (1, -128))]
    keywords = [("repeats", ("lit", 2)), ("dtype", ("lit", np.float32))]
    text = render_call("np", "repeat", positional, keywords)
    assert text == "np.repeat(S(np.array([1, -128], dtype='int8')), repeats=2, dtype=np.float32)"
    source = render_call("np", "repeat", positional, keywords[:1])
    np.testing.assert_array_equal(eval(source, {"np": np, "S": S}), [1, 1, -128, -128])


# --- the comparison ---------------------------------------------------------------------


def test_values_are_compared_bit_for_bit_with_nan_equal_to_nan() -> None:
    assert same_bits(np.array([np.nan, 1.0]), np.array([-np.nan, 1.0]))
    assert not same_bits(np.array([0.0]), np.array([-0.0]))
    assert not same_bits(np.array([complex(1, 0.0)]), np.array([complex(1, -0.0)]))
    assert not same_bits(np.array([np.nan, 1.0]), np.array([1.0, np.nan]))
    assert same_bits(S(np.array([1, 2], dtype=np.int16)), np.array([1, 2], dtype=np.int16))


@pytest.mark.parametrize(
    ("ours", "theirs", "expected"),
    [
        (lambda: np.float64(1.0), lambda: np.array(1.0), "kind"),
        (lambda: np.array([1], np.int32), lambda: np.array([1], np.int64), "dtype"),
        (lambda: np.zeros(2), lambda: np.zeros(3), "shape"),
        (lambda: np.array([-0.0]), lambda: np.array([0.0]), "values"),
        (lambda: np.ones((2, 2)), lambda: np.asfortranarray(np.ones((2, 2))), "layout"),
        (lambda: np.float64("nan"), lambda: np.float64("nan"), None),
        (lambda: (1, [np.int8(2)]), lambda: (1, [np.int8(2)]), None),
        (lambda: (1, [np.int8(2)]), lambda: (1, [np.int16(2)]), "[1] [0] dtype"),
        (lambda: [np.int8(2)], lambda: (np.int8(2),), "kind: ours list, NumPy tuple"),
        (lambda: 0.0, lambda: -0.0, "values"),
    ],
)
def test_answers_differing_in_kind_dtype_shape_values_or_layout_are_silent(ours, theirs, expected):
    found = compare(_outcome(ours), _outcome(theirs))
    if expected is None:
        assert found is None
    else:
        assert found is not None and found[0] == "silent" and found[1].startswith(expected), found


def test_mutation_and_aliasing_of_inputs_are_silent_differences() -> None:
    recipe = [("arr", "float64", (3,), "C", (1.0, 2.0, 3.0))]

    def in_place(a):
        a += 1
        return a.copy()

    found = compare(call(in_place, recipe, []), call(lambda a: a + 1, recipe, []))
    assert found == ("silent", "mutation: input 0 differs after the call")
    found = compare(call(lambda a: a, recipe, []), call(lambda a: a.copy(), recipe, []))
    assert found is not None and found[1].startswith("aliasing")


def test_raising_classes_accepts_refuses_and_warnings() -> None:
    def raises(cls):
        def function():
            raise cls("no")

        return function

    ok = _outcome(lambda: 1)
    assert compare(ok, _outcome(raises(TypeError)))[0] == "accepts"
    assert compare(_outcome(raises(TypeError)), ok)[0] == "refuses"
    assert compare(_outcome(raises(ValueError)), _outcome(raises(np.linalg.LinAlgError)))[0] == (
        "exception-class"
    )
    # ours may raise a subclass of NumPy's class; a private NumPy class counts as its public base
    assert compare(_outcome(raises(np.exceptions.AxisError)), _outcome(raises(ValueError))) is None
    assert compare(_outcome(raises(ValueError)), _outcome(raises(np.exceptions.AxisError))) == (
        "exception-class", "ours ValueError, NumPy AxisError: no"
    )  # fmt: skip

    def warns():
        import warnings

        warnings.warn("old", DeprecationWarning, stacklevel=1)
        return 1

    assert compare(ok, _outcome(warns)) == ("warning", "ours [], NumPy ['DeprecationWarning']")


# --- the runner -------------------------------------------------------------------------


def _crashes(*args, **kwargs):
    os.kill(os.getpid(), signal.SIGSEGV)


def _hangs(*args, **kwargs):
    time.sleep(60)


def test_a_crash_and_a_hang_are_findings_and_the_run_goes_on() -> None:
    signature = inspect.signature(lambda a: None)
    callees = [
        Callee("ok", np.negative, np.negative, signature),
        Callee("crashes", np.negative, _crashes, signature),
        Callee("hangs", _hangs, np.negative, signature),
    ]
    found = []
    run(callees, 1, 9, found.append, jobs=2, batch=5, timeout=1)
    crashes = sorted((f["i"], f["name"], f["detail"]) for f in found)
    sigsegv = f"ours: signal {int(signal.SIGSEGV)}"
    assert crashes == [
        (1, "crashes", sigsegv), (2, "hangs", "NumPy: timeout after 1 s"),
        (4, "crashes", sigsegv), (5, "hangs", "NumPy: timeout after 1 s"),
        (7, "crashes", sigsegv), (8, "hangs", "NumPy: timeout after 1 s"),
    ]  # fmt: skip
    assert {f["class"] for f in found} == {"crash"}


def test_one_call_finds_a_difference_and_renders_it() -> None:
    signature = inspect.signature(lambda a: None)
    callee = Callee("negative", np.negative, np.positive, signature)
    for i in range(20):
        finding = one_call([callee], 3, i, lambda i, side: None)
        if finding is not None:
            break
    assert finding is not None and finding["class"] in (
        "silent",
        "accepts",
        "refuses",
        "exception-class",
    )
    assert finding["call"].startswith("negative(")


# --- the deliberate list --------------------------------------------------------------------


def test_deliberate_differences_are_data_with_reasons_and_match_the_documented_calls() -> None:
    entries = load_deliberate()
    assert len(entries) >= 10 and all(e["reason"] for e in entries)

    def finding(name, positional, **keywords):
        numpy_function, our_function = np, xp
        for part in name.split("."):  # linalg.eigvals
            numpy_function, our_function = (
                getattr(numpy_function, part),
                getattr(our_function, part),
            )
        theirs = _outcome(numpy_function, *positional, **keywords)
        found = compare(_outcome(our_function, *positional, **keywords), theirs)
        assert found is not None, name
        text = render_call("", name, [("lit", p) for p in positional],
                           [(k, ("lit", v)) for k, v in keywords.items()])[1:]  # fmt: skip
        return {"name": name, "class": found[0], "detail": found[1], "call": text}

    documented = [
        finding("full", [2, 1.5], dtype=np.int64),
        finding("full", [(3, 1), 0.5j], dtype=np.float32),
        finding("astype", [np.array([1 + 2j]), np.float64]),
        finding("argsort", [np.random.default_rng(0).integers(0, 3, size=40)]),  # ties
        finding("iinfo", [np.int8]),
        finding("iinfo", [np.array([1], dtype=np.int16)]),
        finding("fft.fftn", [np.ones((2, 3))], s=(2,)),
        finding("clip", [np.array([1, 5])], a_max=2, min=0),
        finding("clip", [np.array([1, 5]), 1, None], min=0),
        finding("clip", [np.array(-2, dtype=np.int8), None], max=-(2**63)),  # issue 53
        finding("clip", [np.array([1, 5]), 0], max=2),
        finding("diff", [np.array([1, 4])], prepend=None),
        finding("diff", [np.array([1, 4]), 1, -1, None]),
        finding("diff", [np.empty((1, 0))], append=None),  # NumPy's object array
    ]
    with np.errstate(all="ignore"):
        documented.append(finding("floor_divide", [np.array([np.inf]), 2.0]))
    real_eigenvalues = np.array([[2, 1], [1, 2]])
    if np.lib.NumpyVersion(np.__version__) < "2.5.0":  # NumPy's are real where all are
        documented.append(finding("linalg.eigvals", [real_eigenvalues]))
    else:  # NumPy 2.5's eigvals are complex always, as the standard's: no difference left
        theirs = _outcome(np.linalg.eigvals, real_eigenvalues)
        assert theirs.error is None and theirs.result.dtype == np.complex128, theirs.result
        assert compare(_outcome(xp.linalg.eigvals, real_eigenvalues), theirs) is None
    for f in documented:
        assert deliberate_entry(f, entries) is not None, f
    other = {"name": "clip", "class": "refuses", "detail": "TypeError: x", "call": "clip(1)"}
    assert deliberate_entry(other, entries) is None


def test_inverse_real_transforms_of_an_empty_input_leave_numpys_values_uninitialized() -> None:
    """NumPy's irfft of an empty input holds heap addresses, not zeros (a zero-padded
    length-1 input gives zeros exactly): its values are not compared, the rest is."""
    garbage = np.fft.irfft(np.zeros((1, 0)), n=3)
    padded = np.fft.irfft(np.zeros((1, 1)), n=3)
    assert np.array_equal(padded, np.zeros((1, 3)))
    assert garbage.shape == padded.shape and garbage.dtype == padded.dtype
    callee = Callee("fft.irfft", np.fft.irfft, xp.fft.irfft, None)
    empty = ("arr", "float64", (1, 0), "C", [])
    full = ("arr", "float64", (1, 1), "C", [0.0])
    assert not _defined(callee, [empty], [("n", ("lit", 3))])
    assert not _defined(callee, [], [("a", ("out", empty))])
    assert _defined(callee, [full], [("n", ("lit", 3))])
    assert _defined(Callee("fft.rfft", np.fft.rfft, xp.fft.rfft, None), [empty], [])


def test_a_ufunc_with_where_and_out_none_leaves_its_values_undefined() -> None:
    # out=None by name (issue 53's generator) is no out: NumPy leaves where=False elements
    # uninitialized, so their values are not compared.
    callee = Callee("abs", np.abs, xp.abs, None)
    x = ("arr", "float64", (2,), "C", [1.0, -2.0])
    where = ("arr", "bool", (2,), "C", [True, False])
    assert not _defined(callee, [x], [("out", ("lit", None)), ("where", where)])
    out = ("out", ("arr", "float64", (2,), "C", [0.0, 0.0]))
    assert _defined(callee, [x], [("out", out), ("where", where)])
    assert _defined(callee, [x], [("out", ("lit", None))])


# --- calls the generator reaches since issue 53 ----------------------------------------------


def test_numpys_answers_to_the_calls_of_issue_53() -> None:
    # A NumPy scalar where NumPy expects a Python one: NumPy's division warns and answers.
    with np.errstate(all="ignore"):
        for args, kwargs in (([0, np.float32(0.1)], {}), ([0], {"d": np.float32(0.1)})):
            for name in ("fftfreq", "rfftfreq"):
                theirs = _outcome(getattr(np.fft, name), *args, **kwargs)
                ours = _outcome(getattr(xp.fft, name), *args, **kwargs)
                assert theirs.error is None, (name, theirs.error)
                assert compare(ours, theirs) is None, (name, args, kwargs)
    # With a Python d both raise ZeroDivisionError (ours is also a ValueError).
    found = compare(_outcome(xp.fft.fftfreq, 0, 0.1), _outcome(np.fft.fftfreq, 0, 0.1))
    assert found is None
    with pytest.raises(ZeroDivisionError):
        xp.fft.fftfreq(0, 0.1)
    # arange's stop given as None by name: start is then the end, as in NumPy.
    assert xp.arange(stop=None, start=3).tolist() == [0, 1, 2]
    assert xp.arange(stop=None, start=3, step=2).tolist() == [0, 2]
    with pytest.raises(TypeError, match="requires stop"):
        xp.arange(start=3)  # stop left out: NumPy's TypeError
    assert xp.arange(3, stop=None).tolist() == [0, 1, 2]  # the standard's call
    for args, kwargs in (([], {"stop": None, "start": 3}), ([], {"start": 3}), ([3, None], {})):
        ours, theirs = _outcome(xp.arange, *args, **kwargs), _outcome(np.arange, *args, **kwargs)
        assert compare(ours, theirs) is None, (args, kwargs)
    # searchsorted: a side that is no str is NumPy's TypeError, found before a 2-D x1.
    rows = np.array([[4], [2], [4]])
    for side in (None, 1, "left"):
        ours = _outcome(xp.searchsorted, rows, v=np.array([1, 2]), side=side)
        theirs = _outcome(np.searchsorted, rows, v=np.array([1, 2]), side=side)
        assert compare(ours, theirs) is None, side


def test_the_generator_passes_none_by_name_and_numpy_scalars_for_python_ones() -> None:
    callees = {c.name: c for c in shared_callables()[0]}
    none_by_name = numpy_scalars = 0
    arange_start_by_name = False
    for i in range(400):
        rng = random.Random(i)
        for name in ("arange", "fft.fftfreq", "clip", "linspace"):
            positional, keywords = call_recipe(rng, callees[name].signature)
            for key, recipe in keywords:
                none_by_name += recipe == ("lit", None) and key in ("stop", "d", "num")
                arange_start_by_name |= name == "arange" and key == "start"
            numpy_scalars += sum(r[0] == "np" for r in [*positional, *(r for _, r in keywords)])
    assert arange_start_by_name  # arange's parser takes start by name (names.SIGNATURES)
    assert none_by_name >= 20
    assert numpy_scalars >= 100
