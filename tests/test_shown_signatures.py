"""The signatures the top-level functions show (``cunumpy/_calls/_shown_signatures.py``).

``inspect.signature`` of every generated function (and so ``help()``, the API reference
and an editor without stubs) gives NumPy's parameters in NumPy's places, kinds and
defaults, the standard's keywords that NumPy lacks after them, keyword-only, and the
standard's annotations; the def behind it keeps its own parameters for the calls.
"""

from __future__ import annotations

import ast
import inspect
import pickle
import pydoc
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from test_numpy_calls import _generated, _ours_and_numpys, _skip_unless_generated_with_this_numpy

import cunumpy as xp
from cunumpy._calls import _fast_path
from cunumpy._calls._shown_signatures import ShownSignature, own_signature, shows, shows_numpys

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
try:
    from api_signatures import SIGNATURES
finally:
    sys.path.pop(0)

_POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)

#: The parameters whose shown default is the standard's, not NumPy's: NumPy's default
#: means something else, and a call that leaves the parameter out gets the standard's
#: (docs/architecture.md, "One signature for both calls"; docs/migrating.md).
STANDARDS_DEFAULT = {
    ("sort", "stable"): True,  # NumPy's None sorts unstably
    ("argsort", "stable"): True,
}


def _standard_keywords(qualname: str) -> list[ast.arg]:
    """The standard's parameters of ``qualname`` that a call may name (not its
    positional-only ones, whose names are not the standard's), from the generator's table."""
    module, _, name = qualname.rpartition(".")
    topic = module or next(t for t, entries in SIGNATURES.items() if name in entries)
    function = ast.parse(f"def f({SIGNATURES[topic][name]['params']}): pass").body[0]
    assert isinstance(function, ast.FunctionDef)
    args = function.args
    return [*args.args, *args.kwonlyargs]


#: NumPy's positional parameters shown by the standard's positional-or-keyword name that the
#: def takes at their place, which NumPy takes as a keyword too (``clip(a, a_min, a_max,
#: out=None, *, min, max)``: the standard's ``clip(x, /, min=None, max=None)``).
STANDARDS_NAMES = {"clip": {"a_min": "min", "a_max": "max"}}


def _standard_defaults(qualname: str) -> dict[str, Any]:
    """The standard's defaults of ``qualname``'s parameters, from the generator's table."""
    module, _, name = qualname.rpartition(".")
    topic = module or next(t for t, entries in SIGNATURES.items() if name in entries)
    args = ast.parse(f"def f({SIGNATURES[topic][name]['params']}): pass").body[0].args  # type: ignore[attr-defined]
    positional = [*args.posonlyargs, *args.args]
    found = {a.arg: ast.literal_eval(d) for a, d in zip(positional[::-1], args.defaults[::-1])}
    found.update(
        {a.arg: ast.literal_eval(d) for a, d in zip(args.kwonlyargs, args.kw_defaults) if d}
    )
    return found


def _numpys(qualname: str) -> tuple[Any, list[inspect.Parameter]]:
    """Ours and the parameters of NumPy's function (``STANDARDS_NAMES`` applied)."""
    ours, numpys = _ours_and_numpys(qualname)
    _skip_unless_generated_with_this_numpy(qualname, ours)
    if numpys is None:
        pytest.skip(f"NumPy {np.__version__} has no {qualname}")
    theirs = list(inspect.signature(numpys).parameters.values())
    renamed = STANDARDS_NAMES.get(qualname, {})
    return ours, [
        p.replace(name=renamed.get(p.name, p.name))
        for p in theirs
        if not (p.kind is p.KEYWORD_ONLY and p.name in renamed.values())
    ]


@pytest.mark.parametrize("qualname", _generated())
def test_every_parameter_of_numpys_signature_is_shown_in_numpys_place(qualname: str) -> None:
    ours, theirs = _numpys(qualname)
    shown = list(inspect.signature(ours).parameters.values())
    numpy_names = [p.name for p in theirs]
    # NumPy's parameters, all of them, in NumPy's order ...
    assert [p.name for p in shown if p.name in numpy_names] == numpy_names, qualname
    # ... first (the standard's additions come after NumPy's last named parameter) ...
    assert [p.name for p in shown[: len(theirs)] if p.kind is not p.VAR_KEYWORD] == [
        p.name for p in theirs if p.kind is not p.VAR_KEYWORD
    ], qualname
    for mine, numpys in zip((p for p in shown if p.name in numpy_names), theirs, strict=True):
        # ... each of NumPy's kind (NumPy's unique_* take `x` by position only, whatever
        # their signature says: numpy.unique_values(x=a) is a TypeError) ...
        positional_only = qualname.startswith("unique_") and mine.kind is mine.POSITIONAL_ONLY
        assert positional_only or mine.kind is numpys.kind, (qualname, mine, numpys)
        # ... and NumPy's default, or the standard's where NumPy's means otherwise
        if (qualname, mine.name) in STANDARDS_DEFAULT:
            assert mine.default == STANDARDS_DEFAULT[qualname, mine.name] != numpys.default
        else:
            assert mine.default is numpys.default or (
                type(mine.default) is type(numpys.default) and mine.default == numpys.default
            ), (qualname, mine, numpys)
    extras = [p for p in shown if p.name not in numpy_names]
    assert all(p.kind is p.KEYWORD_ONLY for p in extras), (qualname, extras)


@pytest.mark.parametrize("qualname", _generated())
def test_the_standards_keywords_are_shown_with_its_defaults_and_annotations(
    qualname: str,
) -> None:
    ours, theirs = _numpys(qualname)
    shown = inspect.signature(ours).parameters
    own = own_signature(ours).parameters
    numpy_names = {p.name for p in theirs}
    for arg in _standard_keywords(qualname):
        parameter = shown.get(arg.arg)
        assert parameter is not None, (qualname, arg.arg)  # clip's min: NumPy's keyword too
        assert parameter.kind in (parameter.POSITIONAL_OR_KEYWORD, parameter.KEYWORD_ONLY)
        assert parameter.annotation == own[arg.arg].annotation, (qualname, arg.arg)
    # a parameter of the standard's that NumPy lacks: the standard's default
    defaults = _standard_defaults(qualname)
    for name, parameter in shown.items():
        if name not in numpy_names:
            assert name in defaults, (qualname, name)
            assert parameter.default == defaults[name], (qualname, name)
    assert inspect.signature(ours).return_annotation == own_signature(ours).return_annotation


def test_sum_shows_numpys_keywords_and_sort_the_standards() -> None:
    sum_ = inspect.signature(xp.sum)
    assert str(sum_) == (
        "(a: 'Array', axis: 'Optional[Union[int, tuple[int, ...]]]' = None, "
        "dtype: 'Optional[DType]' = None, out=None, keepdims: 'bool' = <no value>, "
        "initial=<no value>, where=<no value>) -> 'Array'"
    )
    assert sum_.parameters["keepdims"].default is np._NoValue  # as NumPy's own shows it
    sort = inspect.signature(xp.sort).parameters
    assert list(sort) == ["a", "axis", "kind", "order", "stable", "descending"]
    assert sort["stable"].default is True and sort["descending"].default is False
    assert sort["descending"].kind is inspect.Parameter.KEYWORD_ONLY
    # a ufunc shows NumPy's ufunc call, its inputs by position only
    assert str(inspect.signature(xp.sqrt)) == (
        "(x: 'Array', /, out=None, *, where=True, casting='same_kind', order='K', "
        "dtype=None, subok=True, signature=None) -> 'Array'"
    )
    # the standard's keyword NumPy lacks: fftfreq's dtype, after NumPy's device
    fftfreq = inspect.signature(xp.fft.fftfreq).parameters
    assert list(fftfreq) == ["n", "d", "device", "dtype"]
    assert fftfreq["dtype"].kind is inspect.Parameter.KEYWORD_ONLY


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("sum", ["out=None", "initial=<no value>", "where=<no value>"]),  # a FastCall
        ("add", ["/, out=None, *, where=True", "casting='same_kind'"]),  # a FastCall ufunc
        ("std", ["ddof=0", "where=<no value>", "correction: 'Union[int, float]' = <no value>"]),
        ("vecdot", ["out=None", "axes=<no value>", "axis: 'int' = <no value>"]),  # a gufunc
    ],
)
def test_help_shows_numpys_keywords(name: str, shown: list[str]) -> None:
    """``help()``: for a ``FastCall`` (``sum``, ``add``) as for a def left in Python."""
    lines = pydoc.render_doc(getattr(xp, name), renderer=pydoc.plaintext).splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"{name}("))
    end = start
    if lines[start].rstrip().endswith("("):  # Python 3.13's pydoc: a parameter a line, to ")"
        end = next(i for i in range(start, len(lines)) if lines[i].startswith(")"))
    signature_line = " ".join(line.strip() for line in lines[start : end + 1])
    assert all(part in signature_line for part in shown), signature_line
    assert "*args" not in signature_line and "**kwargs" not in signature_line


def _documented_parameters(function: Any) -> dict[str, str]:
    """The entries of a numpydoc docstring's Parameters section: ``*xi`` or ``out`` -> the
    entry's text (its type line and description), in the section's order."""
    lines = (inspect.getdoc(function) or "").splitlines()
    heading = [i for i, line in enumerate(lines[:-1]) if line == "Parameters"]
    assert len(heading) == 1 and set(lines[heading[0] + 1]) == {"-"}, function
    entries: dict[str, str] = {}
    name = None
    for i in range(heading[0] + 2, len(lines)):
        line = lines[i]
        if i + 1 < len(lines) and line and set(lines[i + 1]) == {"-"}:
            break  # the next section
        if line and not line[0].isspace():
            name = line.partition(" : ")[0]
            assert name not in entries, (function, name)
            entries[name] = line
        elif line:
            assert name is not None, (function, line)
            entries[name] += "\n" + line.strip()
    return entries


def _shown_names(function: Any) -> list[str]:
    stars = {inspect.Parameter.VAR_POSITIONAL: "*", inspect.Parameter.VAR_KEYWORD: "**"}
    return [stars.get(p.kind, "") + p.name for p in inspect.signature(function).parameters.values()]


@pytest.mark.parametrize("qualname", _generated())
def test_the_docstring_documents_the_shown_parameters(qualname: str) -> None:
    """``help()`` and the API reference: the Parameters section names the parameters of
    the signature shown above it, in its order, and not the def's ``*args``/``**kwargs``."""
    ours, _ = _ours_and_numpys(qualname)
    assert list(_documented_parameters(ours)) == _shown_names(ours), qualname


def test_numpys_own_parameters_have_numpys_text() -> None:
    sum_ = _documented_parameters(xp.sum)
    for name in ("out", "initial", "where"):  # NumPy's, described from NumPy's docstring
        assert "NumPy's parameter" in sum_[name] and "``numpy.sum``" in sum_[name], sum_[name]
    assert sum_["out"].startswith("out : ndarray, default None"), sum_["out"]
    assert "Alternative output array" in sum_["out"]
    assert sum_["initial"].startswith("initial : scalar, optional"), sum_["initial"]
    for name in ("a", "axis", "dtype", "keepdims"):  # the standard's
        assert "NumPy's parameter" not in sum_[name], sum_[name]
    assert "The standard's positional ``x``" in sum_["a"]
    sort = _documented_parameters(xp.sort)
    assert "Sorting algorithm" in sort["kind"] and "``numpy.sort``" in sort["kind"]
    assert "NumPy's parameter" not in sort["stable"]
    # the keywords a NumPy ufunc's docstring leaves to NumPy's page on ufuncs
    add = _documented_parameters(xp.add)
    assert add["casting"].startswith("casting : {'no', 'equiv', 'safe', 'same_kind', 'unsafe'}")
    assert "``numpy.add``" in add["signature"]
    # the standard's variadic parameter, by NumPy's name
    meshgrid = _documented_parameters(xp.meshgrid)
    assert "The standard's ``*arrays``" in meshgrid["*xi"], meshgrid["*xi"]
    assert "**kwargs" in _documented_parameters(xp.clip)  # NumPy's clip shows **kwargs
    assert all(not name.startswith("*") for name in sum_)


def test_a_call_binds_as_the_def_takes_it() -> None:
    """What the shown signature binds is a call the def answers as NumPy does."""
    x = np.arange(6.0).reshape(2, 3)
    out = np.empty(3)
    bound = inspect.signature(xp.sum).bind(x, 0, None, out, initial=1.0)
    assert xp.sum(*bound.args, **bound.kwargs) is out
    np.testing.assert_array_equal(out, np.sum(x, 0, None, np.empty(3), initial=1.0))
    with pytest.raises(TypeError):
        inspect.signature(xp.sum).bind(x, spam=1)  # and NumPy's sum refuses it too
    with pytest.raises(TypeError):
        xp.sum(x, spam=1)


def test_the_def_keeps_its_own_parameters() -> None:
    own = own_signature(xp.sum).parameters
    assert list(own) == ["a", "axis", "dtype", "args", "keepdims", "kwargs"]
    assert repr(own["keepdims"].default) == "<not given: False>"
    assert own_signature(xp.sum) == own_signature(getattr(xp.sum, "__wrapped__", xp.sum))
    assert own_signature(np.sum) == inspect.signature(np.sum)  # nothing shown: its own


def test_a_shown_signature_is_an_ordinary_signature() -> None:
    text = "(a: Array, /, axis: int = -1, out=None, *, flag: bool = _NoValue, dtype=float) -> Array"
    shown = ShownSignature(text)
    plain = inspect.Signature(
        [
            inspect.Parameter("a", inspect.Parameter.POSITIONAL_ONLY, annotation="Array"),
            inspect.Parameter(
                "axis", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=-1, annotation="int"
            ),
            inspect.Parameter("out", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None),
            inspect.Parameter(
                "flag", inspect.Parameter.KEYWORD_ONLY, default=np._NoValue, annotation="bool"
            ),
            inspect.Parameter("dtype", inspect.Parameter.KEYWORD_ONLY, default=float),
        ],
        return_annotation="Array",
    )
    assert isinstance(shown, inspect.Signature)
    assert shown == plain and hash(shown) == hash(plain) and str(shown) == str(plain)
    assert repr(shown) == repr(plain)
    assert pickle.loads(pickle.dumps(shown)) == plain
    replaced = shown.replace(return_annotation="int")
    assert type(replaced) is inspect.Signature and replaced.return_annotation == "int"
    assert shown.bind(1, 2, flag=True).arguments == {"a": 1, "axis": 2, "flag": True}


def test_a_shown_default_is_a_literal_or_numpys_no_value() -> None:
    with pytest.raises(KeyError):
        ShownSignature("(a=os)").parameters
    with pytest.raises(ValueError, match="malformed"):
        ShownSignature("(a=print(1))").parameters


def test_shows_sets_the_signature_a_def_shows() -> None:
    @shows("(x, /, out=None) -> int")
    def f(x: int, *args: Any, **kwargs: Any) -> int:
        return x

    assert str(inspect.signature(f)) == "(x, /, out=None) -> 'int'"
    assert list(own_signature(f).parameters) == ["x", "args", "kwargs"]


def test_signatures_are_read_on_first_use() -> None:
    """``import cunumpy`` builds no ``inspect.Signature``: each is read from its text on
    first use (some 170 at import would cost import time)."""
    code = textwrap.dedent("""
        import inspect
        import cunumpy as xp
        from cunumpy._calls._shown_signatures import ShownSignature
        from test_numpy_calls import _generated

        def built(function):
            shown = function.__dict__["__signature__"] if hasattr(function, "__dict__") else (
                function.__wrapped__.__dict__["__signature__"])
            assert type(shown) is ShownSignature
            try:
                inspect.Signature._parameters.__get__(shown)
            except AttributeError:
                return False
            return True

        functions = []
        for qualname in _generated():
            owner, _, name = qualname.rpartition(".")
            functions.append(getattr(getattr(xp, owner) if owner else xp, name))
        print(sum(map(built, functions)), len(functions))
        inspect.signature(xp.sum).parameters  # read: parsed now, and only this one
        print(sum(map(built, functions)))
    """)
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False,
        cwd=ROOT / "tests",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    before, after = done.stdout.split("\n", 1)
    assert before.split()[0] == "0" and int(before.split()[1]) > 150
    assert after.strip() == "1"


@pytest.mark.skipif(not _fast_path.compiled()[0], reason="the C fast path is not in use here")
def test_a_fastcall_is_a_routine_and_is_not_bound_in_a_class() -> None:
    assert inspect.isroutine(xp.sum) and not inspect.isfunction(xp.sum)

    class Holder:
        total = xp.sum

    assert Holder.total is xp.sum and Holder().total is xp.sum
    assert int(Holder().total(np.arange(4))) == 6


@pytest.mark.parametrize("name", ["array", "asanyarray", "ascontiguousarray", "can_cast"])
def test_a_function_written_by_hand_shows_numpys_signature(name: str) -> None:
    """The hand-written functions that take NumPy's calls (``array(object, *args,
    **kwargs)``) show NumPy's signature, read from NumPy, with their annotations."""
    try:
        theirs = inspect.signature(getattr(np, name))
    except ValueError:
        pytest.skip(f"NumPy {np.__version__}'s {name} shows no signature")
    ours = getattr(xp, name)
    shown = inspect.signature(ours)
    assert [(p.name, p.kind, p.default) for p in shown.parameters.values()] == [
        (p.name, p.kind, p.default) for p in theirs.parameters.values()
    ]
    first = next(iter(shown.parameters.values()))
    assert first.annotation == own_signature(ours).parameters[first.name].annotation
    assert shown.return_annotation == own_signature(ours).return_annotation


def test_without_numpys_signature_a_function_written_by_hand_shows_its_own() -> None:
    class Unreadable:
        __signature__ = "not a signature"  # inspect.signature raises TypeError

        def __call__(self) -> None: ...

    @shows_numpys(Unreadable())
    def f(x: int, *args: Any, **kwargs: Any) -> int:
        return x

    assert str(inspect.signature(f)) == "(x: 'int', *args: 'Any', **kwargs: 'Any') -> 'int'"
