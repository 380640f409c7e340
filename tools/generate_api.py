"""Write cunumpy's top-level, backend-dispatching functions from the signature table.

Run ``python tools/generate_api.py`` after changing ``api_signatures.py`` or
``api_docs.py``; ``tests/test_project.py`` fails when the generated files are stale.
The output is ordinary, explicit Python (one ``def`` per function, nothing is built at
import time), so readers, IDEs and type checkers see every function.

Each generated function finds the namespace of its array arguments (one dictionary
look-up per argument type) and calls the same function there, so it computes where its
inputs live. Creation functions use ``device=`` or, without it, the current backend.
"""

from __future__ import annotations

import ast
import copy
import inspect
import io
import re
import sys
import textwrap
import tokenize
from pathlib import Path
from typing import Any, NamedTuple

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

import numpy as np  # noqa: E402
from api_signatures import SIGNATURES  # noqa: E402


def _numpy_names() -> dict[str, str]:
    """``cunumpy/_calls/_numpy_names.py``'s table, read without importing cunumpy (being generated)."""
    tree = ast.parse((ROOT / "cunumpy" / "_calls" / "_numpy_names.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and ast.unparse(node.targets[0]) == "NUMPY_NAMES":
            names = ast.literal_eval(node.value)
            assert isinstance(names, dict)
            return names
    raise AssertionError("cunumpy/_calls/_numpy_names.py defines no NUMPY_NAMES")


NUMPY_NAMES = _numpy_names()


def _calls_module(name: str) -> Any:
    """``cunumpy/_calls/<name>.py``, loaded by its path (a module that imports nothing of
    cunumpy's: the package is being generated)."""
    import importlib.util

    path = ROOT / "cunumpy" / "_calls" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"_cunumpy{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # NamedTuple and the enum look their module up
    spec.loader.exec_module(module)
    return module


#: The one table of argument kinds.
KINDS = _calls_module("_kinds").KINDS
#: The objects a shown default may be besides a Python literal, by the name the runtime's
#: parser reads them by.
SHOWN_NAMES = _calls_module("_shown_signatures").DEFAULT_NAMES


def _ufunc_names() -> dict[str, str]:
    """``cunumpy/_calls/_ufunc_methods.py``'s ``UFUNC_NAMES``: the standard's names that are
    ufuncs in NumPy, and the ufunc's name (read without importing cunumpy)."""
    tree = ast.parse((ROOT / "cunumpy" / "_calls" / "_ufunc_methods.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.AnnAssign) and ast.unparse(node.target) == "UFUNC_NAMES":
            assert node.value is not None
            names = ast.literal_eval(node.value)
            assert isinstance(names, dict)
            return names
    raise AssertionError("cunumpy/_calls/_ufunc_methods.py defines no UFUNC_NAMES")


UFUNC_NAMES = _ufunc_names()

try:
    import api_docs
except ImportError:  # pragma: no cover - the docs table is optional while bootstrapping
    api_docs = None

# Functions written by hand in cunumpy/_api/data_types.py (their arguments mix dtypes and arrays).
HAND_WRITTEN = {"astype", "can_cast", "finfo", "iinfo", "isdtype", "result_type"}

# Topic -> output file (relative to cunumpy/), and how its functions are reached.
OUTPUTS = {
    "creation": "_api/creation.py",
    "elementwise": "_api/elementwise.py",
    "indexing": "_api/indexing.py",
    "linear_algebra": "_api/linear_algebra.py",
    "manipulation": "_api/manipulation.py",
    "searching": "_api/searching.py",
    "sets": "_api/sets.py",
    "sorting": "_api/sorting.py",
    "statistics": "_api/statistics.py",
    "utility": "_api/utility.py",
    "linalg": "linalg.py",
    "fft": "fft.py",
}
EXTENSIONS = {"linalg", "fft"}

TYPE_NAMES = {"array": "Array", "dtype": "DType", "device": "Device"}

# Creation functions without array inputs: placed by `device=` or the current backend.
PLACED = {
    "arange",
    "empty",
    "eye",
    "full",
    "linspace",
    "ones",
    "zeros",
    "fft.fftfreq",
    "fft.rfftfreq",
}
LIKE = {"empty_like", "full_like", "ones_like", "zeros_like"}

# NumPy's calls (see cunumpy/_calls/_numpy_calls.py): functions that keep the standard's signature,
# since NumPy's function takes nothing more.
NO_NUMPY_EXTRAS = {"broadcast_shapes", "from_dlpack"}

# Parameters that NumPy lets a call leave out (``where(cond)``, ``squeeze(a)``,
# ``linspace(0, 1)``, ``arange(stop=5)``, ``permute_dims(a)``): their default is OMITTED, and a call that leaves them out is NumPy's.
OMITTABLE = {
    "where": ("x1", "x2"),
    "squeeze": ("axis",),
    "linspace": ("num",),
    "arange": ("start",),  # arange(stop=5)
    "permute_dims": ("axes",),  # NumPy's transpose(a) reverses the axes
}

# Calls outside the standard's domain that NumPy's route takes as written, tested first
# (in the standard's names): ``linalg.pinv(int_matrix, rtol=None)`` is NumPy's ValueError,
# where ``pinv(int_matrix)`` (no rtol given) is NumPy's ``pinv(x)``.
ROUTE_TESTS = {
    "linalg.pinv": (
        "(rtol is not _NOT_GIVEN_NONE and getattr(getattr(x, 'dtype', None), 'kind', 'f') in 'biu')"
    ),
}


# Checks of arguments that are not arrays, beyond the generic ones (a flag must be True or
# False, an `int` parameter an int): lines run before the call, each a cheap test that
# calls a checker in cunumpy/_calls/_arguments.py only when it fails.
EXTRA_CHECKS = {
    "roll": ["if type(shift) is not int:", "    _check_shift(shift, 'roll')"],
    "repeat": [
        "if type(repeats) in _PY_SCALARS and (type(repeats) is not int or repeats < 0):",
        "    _check_repeats(repeats, 'repeat')",
    ],
    "tensordot": ["if type(axes) is not int or axes < 0:", "    _check_tensordot_axes(axes)"],
    # Outside the standard's domain, where NumPy answers: NumPy's call (see _numpy_calls.py).
    "take": [
        "if axis is None and getattr(x, 'ndim', 1) != 1:",
        "    return _numpy_call(take, locals())",
    ],
    # A `side` that is no str is NumPy's TypeError, which NumPy finds before x1's shape.
    "searchsorted": [
        "if getattr(x1, 'ndim', 1) != 1 and type(side) is str:",
        "    _check_sorted_1d(x1)",
    ],
    "tril": ["if getattr(x, 'ndim', 2) < 2:", "    return _numpy_call(tril, locals())"],
    "triu": ["if getattr(x, 'ndim', 2) < 2:", "    return _numpy_call(triu, locals())"],
    "where": [
        "if getattr(condition, 'dtype', _BOOL) is not _BOOL:",
        "    return _numpy_call(where, locals())",
    ],
}
for _name in ("std", "var"):
    EXTRA_CHECKS[_name] = [
        "if (type(correction) is not int and type(correction) is not float) or correction < 0:",
        f"    _check_correction(correction, {_name!r})",
    ]
# Functions NumPy runs with an axis of a 0-D array (which has none): NumPy's call.
_AXIS_OF_0D = (
    "all", "any", "argmax", "argmin", "argsort", "count_nonzero", "cumulative_prod",
    "cumulative_sum", "max", "min", "prod", "squeeze", "sum",
)  # fmt: skip
for _name in _AXIS_OF_0D:
    EXTRA_CHECKS[_name] = [
        "if axis is not None and getattr(x, 'ndim', 1) == 0:",
        f"    return _numpy_call({_name}, locals())",
    ]

# Reductions whose NumPy namespace function is NumPy's own, a Python function that costs
# 0.1-0.3 us more when its keywords are passed, even at their defaults: the fast path calls
# it bare when every keyword-only parameter is at the standard's default, which NumPy's
# defaults mean too (tests/test_numpy_calls.py checks both).
BARE_WHEN_DEFAULT = {"all", "any", "argmax", "argmin", "max", "mean", "min", "prod", "sum"}

# Functions whose NumPy function only calls the ndarray method of the same name (through
# numpy's _wrapfunc): the fast path calls the method itself, as ``astype`` does.
METHOD_CALLS = {
    "reshape": "x.reshape(shape, copy=copy)",
    "take": "x.take(indices, axis=axis)",
}

# Extra checks that read an attribute of an array argument run on the slow path only: the
# NumPy fast path takes instead this test, which holds exactly when the check would pass
# for the plain ndarrays it has (an attribute read, no getattr call).
FAST_PATH_TESTS = {
    "take": "(axis is not None or x.ndim == 1)",
    "searchsorted": "x1.ndim == 1",
    "tril": "x.ndim >= 2",
    "triu": "x.ndim >= 2",
    "where": "condition.dtype is _BOOL",
    **{name: "(axis is None or x.ndim != 0)" for name in _AXIS_OF_0D},
}


def _numpy_takes(qualname: str, args: ast.arguments) -> set[str]:
    """The standard's names of the parameters that NumPy's function takes too (by the
    signature's name: ``x`` is NumPy's ``a``); none without NumPy's call."""
    theirs = _numpy_parameters(qualname) if qualname not in NO_NUMPY_EXTRAS else None
    if theirs is None:
        if _is_numpy_ufunc(qualname):  # vecdot's axis: a keyword of NumPy's gufunc too
            return {a.arg for a in args.kwonlyargs if a.arg in _UFUNC_KEYWORDS}
        return set()
    renames = _union(qualname, args).renames
    names = {p.name for p in theirs}
    params = [*args.posonlyargs, *args.args, *args.kwonlyargs]
    return {a.arg for a in params if renames.get(a.arg, a.arg) in names}


#: The checkers of ``EXTRA_CHECKS`` that judge a value NumPy takes too (``roll``'s
#: ``shift``): where they refuse it, the call is NumPy's (see ``_judged``).
_ROUTED_CHECKERS = ("_check_shift", "_check_repeats", "_check_tensordot_axes", "_check_correction")


def _judged(qualname: str, lines: list[str]) -> list[str]:
    """An extra check (``if <test>:`` and a checker's call), where its checker judges a
    parameter NumPy takes: the call goes to NumPy when the standard's check refuses it
    (NumPy judges NumPy's call)."""
    out: list[str] = []
    for line in lines:
        match = re.fullmatch(r"    (_check_\w+)\((.*)\)", line)
        if match is None or match[1] not in _ROUTED_CHECKERS or not out:
            out.append(line)
            continue
        test = out.pop().removeprefix("if ").removesuffix(":")
        out += [
            f"if ({test}) and _refused({match[1]}, {match[2]}):",
            f"    return _numpy_call({qualname.rpartition('.')[2]}, locals())",
        ]
    return out


def _argument_checks(qualname: str, args: ast.arguments) -> list[str]:
    """Lines that check the arguments that are not arrays (see ``cunumpy/_calls/_arguments.py``).

    The standard's checks judge the standard's calls: a value they refuse in a parameter
    that NumPy's function takes too (``sum(x, keepdims=1)``, ``roll(x, [1])``) makes the
    call NumPy's, which NumPy answers or refuses with its own class. A value refused in a
    parameter of the standard's only (``sort``'s ``descending``) raises our error.

    Without the extra checks of ``FAST_PATH_TESTS``' functions (see ``_extra_checks``).
    """
    params = [*args.posonlyargs, *args.args, *args.kwonlyargs]
    shared = _numpy_takes(qualname, args)
    name = qualname.rpartition(".")[2]
    to_numpy = f"return _numpy_call({name}, locals())"
    flags, lines = [], []
    for a in params:
        annotation = ast.unparse(a.annotation) if a.annotation else ""
        if annotation == "bool":
            flags.append((a.arg, f"({a.arg} is not False and {a.arg} is not True)"))
        elif annotation == "Optional[bool]":
            test = f"({a.arg} is not None and {a.arg} is not False and {a.arg} is not True)"
            flags.append((a.arg, test))
        elif annotation == "int":
            lines.append(f"if type({a.arg}) is not int:")
            if a.arg in shared:  # None (``sort(a, axis=None)``), 1.5: NumPy's call
                refused = f"_refused(_check_int, {a.arg}, {qualname!r}, {a.arg!r})"
                lines[-1] = f"if type({a.arg}) is not int and ({a.arg} is None or {refused}):"
                lines.append(f"    {to_numpy}")
            else:
                lines.append(f"    _check_int({a.arg}, {qualname!r}, {a.arg!r})")
    if flags:
        ours = [(n, t) for n, t in flags if n not in shared]
        theirs = [(n, t) for n, t in flags if n in shared]
        checks = []
        if theirs:
            keywords = ", ".join(f"{n}={n}" for n, _ in theirs)
            tests = " or ".join(t for _, t in theirs)
            tests = f"({tests})" if len(theirs) > 1 else tests
            checks += [
                f"if {tests} and _refused(_check_bools, {qualname!r}, {keywords}):",
                f"    {to_numpy}",
            ]
        if ours:
            keywords = ", ".join(f"{n}={n}" for n, _ in ours)
            checks += [
                f"if {' or '.join(t for _, t in ours)}:",
                f"    _check_bools({qualname!r}, {keywords})",
            ]
        lines = [*checks, *lines]
    extra = _judged(qualname, EXTRA_CHECKS.get(qualname, []))
    return lines if qualname in FAST_PATH_TESTS else [*lines, *extra]


def _slow_path_checks(qualname: str) -> list[str]:
    """The extra checks that run after the fast path (which tests ``FAST_PATH_TESTS``)."""
    return EXTRA_CHECKS[qualname] if qualname in FAST_PATH_TESTS else []


def _in_signature_order(qualname: str, args: ast.arguments) -> list[ast.arg]:
    """The standard's parameters in the order of the signature (``_union``), as messages
    show them (the C path's restating reads the signature)."""
    params = [*args.posonlyargs, *args.args, *args.kwonlyargs]
    union = _union(qualname, args)
    standard = {new: old for old, new in union.renames.items()}
    order = [*union.args.posonlyargs, *union.args.args, *union.args.kwonlyargs]
    rank = {standard.get(a.arg, a.arg): i for i, a in enumerate(order)}
    return sorted(params, key=lambda a: rank.get(a.arg, len(rank)))


def _restating_call(body: list[str], qualname: str, args: ast.arguments) -> list[str]:
    """``body`` in a ``try`` that restates the backend's errors naming ``qualname`` and
    showing every argument (arrays by their dtype and shape)."""
    params = _in_signature_order(qualname, args)
    shown = ", ".join(f"{a.arg}={a.arg}" for a in params)
    return [
        "try:",
        *("    " + line for line in body),
        "except _ARRAY_ERRORS as exc:",
        f"    _raise_restated_call({qualname!r}, exc{', ' if shown else ''}{shown})",
    ]


class _Rename(ast.NodeTransformer):
    def visit_Name(self, node: ast.Name) -> ast.Name:
        node.id = TYPE_NAMES.get(node.id, node.id)
        return node


def _annotation(node: ast.expr | None) -> str:
    if node is None:
        return "Any"
    text = ast.unparse(_Rename().visit(copy.deepcopy(node)))  # the table's node stays as read
    # Literal[inf, -inf] is the standard's notation for "a float infinity"; spell it as float.
    return text.replace("Literal[inf, -inf, ", "float | Literal[").replace(
        "Literal[inf, -inf]", "float"
    )


def _is_array_param(node: ast.arg) -> bool:
    return node.annotation is not None and "array" in ast.unparse(node.annotation)


def _parse(params: str, returns: str) -> tuple[ast.arguments, str]:
    tree = ast.parse(f"def f({params}) -> {returns}: pass")
    func = tree.body[0]
    assert isinstance(func, ast.FunctionDef)
    return func.args, _annotation(func.returns)


def _signature(args: ast.arguments) -> str:
    renamed = _Rename().visit(ast.parse(f"def f({ast.unparse(args)}): pass")).body[0]
    return _spell_infinity(ast.unparse(renamed.args))


def _spell_infinity(text: str) -> str:
    # Literal[inf, -inf] is the standard's notation for "a float infinity"; spell it as float.
    return text.replace("Literal[inf, -inf, ", "float | Literal[").replace(
        "Literal[inf, -inf]", "float"
    )


def _call_arguments(args: ast.arguments) -> str:
    parts = [a.arg for a in args.posonlyargs]
    n_plain = len(args.args)
    defaults_start = n_plain - len(args.defaults)
    for i, a in enumerate(args.args):
        # Positional-or-keyword: keep required ones positional, pass defaulted ones by name.
        parts.append(a.arg if i < defaults_start else f"{a.arg}={a.arg}")
    if args.vararg is not None:
        parts.append(f"*{args.vararg.arg}")
    parts.extend(f"{a.arg}={a.arg}" for a in args.kwonlyargs)
    return ", ".join(parts)


def _kind(annotation: str) -> str:
    """The argument kind of an array parameter (see ``cunumpy/_calls/_where_to_run.py``).

    ``a`` an array; ``s`` an array or a Python scalar; ``o`` an array or None; ``n`` an
    array, a Python scalar or None; ``q`` a tuple or list of arrays.
    """
    if annotation == "array":
        return "a"
    if annotation.startswith(("Union[Tuple[array", "Tuple[array", "List[array")):
        return "q"
    if annotation == "Optional[array]":
        return "o"
    if annotation.startswith("Optional["):
        return "n"
    return "s"


def _array_kinds(args: ast.arguments) -> list[tuple[str, str]]:
    """``(name, kind)`` of each array parameter, in order."""
    params = [*args.posonlyargs, *args.args, *args.kwonlyargs]
    return [(a.arg, _kind(ast.unparse(a.annotation))) for a in params if _is_array_param(a)]


def _dispatch(qualname: str, args: ast.arguments) -> tuple[str, str]:
    """Return (code computing `namespace`, attribute path) for one function."""
    member = qualname
    if args.vararg is not None:
        name = args.vararg.arg
        return f"_namespace_of_sequence({name}, {qualname!r}, {name!r}, allow_empty=True)", member
    arrays = _array_kinds(args)
    names = [n for n, _ in arrays]
    kinds = "".join(k for _, k in arrays)
    if kinds == "q":
        return f"_namespace_of_sequence({names[0]}, {qualname!r}, {names[0]!r})", member
    if kinds == "a":
        return f"_namespace_of_one({names[0]}, {qualname!r}, {names[0]!r})", member
    if kinds == "ss" and names == ["x1", "x2"]:
        return f"_namespace_of_two(x1, x2, {qualname!r})", member
    if kinds == "aa":
        first, second = names
        return f"_namespace_of_pair({first}, {second}, {qualname!r}, {first!r}, {second!r})", member
    values = ", ".join(names) + ("," if len(names) == 1 else "")
    return f"_namespace_of_args(({values}), {kinds!r}, {tuple(names)!r}, {qualname!r})", member


# Functions of one array whose NumPy namespace function is NumPy's own ufunc (a test in
# tests/test_numpy_calls.py checks it): on the NumPy backend, a Python scalar takes the
# fast path too (``sqrt(2.0)``), since NumPy's call would call the same ufunc.
SCALAR_FAST_PATH = {
    "abs", "acos", "acosh", "asin", "asinh", "atan", "atanh", "bitwise_invert", "ceil",
    "conj", "cos", "cosh", "exp", "floor", "imag", "isfinite", "isinf", "isnan", "log",
    "log10", "log1p", "log2", "logical_not", "negative", "positive", "real", "reciprocal",
    "sign", "signbit", "sin", "sinh", "sqrt", "square", "tan", "trunc",
}  # fmt: skip

_FAST_TESTS = {letter: KINDS[letter].test for letter in "ason"}


def _numpy_fast_path(qualname: str, args: ast.arguments, call: str) -> list[str]:
    """Lines that call the NumPy namespace directly when the arrays are plain ndarrays.

    This is the same dispatch as the general path, decided by exact type checks instead of
    a call to a helper: the first array argument is a plain ``numpy.ndarray`` and every
    other one is a plain ndarray or whatever else its kind allows (a Python scalar, None).
    The NumPy namespace's function is bound at import as ``_numpy_<name>`` (see
    ``_fast_path_imports``), so the fast path looks nothing up at call time; the functions
    of ``METHOD_CALLS`` call the ndarray's method instead, and those of ``FAST_PATH_TESTS``
    add their test.
    """
    arrays = _array_kinds(args)
    if args.vararg is not None or not arrays:
        return []
    if [k for _, k in arrays] == ["q"]:  # a list or tuple of arrays (concat, stack)
        name = arrays[0][0]
        return [
            f"if type({name}) is list or type({name}) is tuple:",
            f"    for x in {name}:",
            "        if type(x) is not _ndarray:",
            "            break",
            "    else:",
            f"        if {name}:",
            f"            return {_fast_name(qualname)}({call})",
        ]
    if any(k == "q" for _, k in arrays):
        return []
    (first, _), rest = arrays[0], arrays[1:]
    first_test = f"type({first}) is _ndarray"
    if qualname in SCALAR_FAST_PATH:
        first_test = (
            f"({first_test} or (type({first}) in _PY_SCALARS"
            " and _current().namespace is _numpy_namespace))"
        )
    tests = [first_test, *(_FAST_TESTS[k].format(n) for n, k in rest)]
    if qualname in FAST_PATH_TESTS:
        tests.append(FAST_PATH_TESTS[qualname])
    fast_call = METHOD_CALLS.get(qualname, f"{_fast_name(qualname)}({call})")
    if qualname in BARE_WHEN_DEFAULT:
        defaults = _keyword_defaults(args)
        at_defaults = " and ".join(f"{n} is {d}" for n, d in defaults)
        bare = _call_arguments(args).split(", ")[: -len(defaults)]
        return [
            f"if {' and '.join(tests)}:",
            f"    if {at_defaults}:",
            f"        return {_fast_name(qualname)}({', '.join(bare)})",
            f"    return {fast_call}",
        ]
    return [f"if {' and '.join(tests)}:", f"    return {fast_call}"]


def _keyword_defaults(args: ast.arguments) -> list[tuple[str, str]]:
    """The keyword-only parameters and their defaults (None, False or True), in order."""
    pairs = []
    for arg, default in zip(args.kwonlyargs, args.kw_defaults):
        assert isinstance(default, ast.Constant) and default.value in (None, False, True), arg.arg
        pairs.append((arg.arg, repr(default.value)))
    return pairs


# Creation functions whose call with only their required positional arguments is, on the
# NumPy backend, the NumPy namespace's function called so (cunumpy/_calls/_fastcall.c).
FAST_CREATION = {"arange", "empty", "eye", "linspace", "ones", "zeros"}


def _c_fast_path(qualname: str, args: ast.arguments) -> dict[str, Any] | None:
    """The compiled fast path of one function, for its ``@fast_path`` record.

    ``kinds``: the kind of each positional argument; ``placed``: it creates on the current
    backend; ``bare``: NumPy's defaults are known to mean the standard's
    (``BARE_WHEN_DEFAULT``); ``keywords``: the keywords the C code may pass on, each with
    what it accepts (a mode of ``cunumpy/_calls/_kinds.py``).

    None where the Python fast path is more than ``_numpy_<name>(...)`` for the calls the C
    code can recognise: every positional parameter given, each an exact ndarray or what
    its kind allows (see ``cunumpy/_calls/_fastcall.c``). The C code then calls NumPy's
    function with the arguments as given, which is the Python fast path's call where
    NumPy's function takes them in the same places and its defaults for the rest are the
    standard's: the record checks that at import (unless ``bare``); the functions known to
    fail it are ``LEFT_IN_PYTHON``.
    """
    if args.vararg is not None:
        return None
    positional = [*args.posonlyargs, *args.args]
    arrays = dict(_array_kinds(args))
    keywords = _c_keywords(qualname, args, arrays)
    if qualname in FAST_CREATION:
        required = len(positional) - len(args.defaults)
        return {"kinds": "p" * required, "placed": True, "keywords": keywords}
    if qualname == "asarray":
        return {"kinds": "a", "placed": True, "keywords": keywords}
    if not positional or any(a.arg not in arrays for a in positional):
        return None
    if qualname in METHOD_CALLS or (
        qualname in FAST_PATH_TESTS and qualname not in (*BARE_WHEN_DEFAULT, "where")
    ):  # BARE_WHEN_DEFAULT's tests (axis is None or x.ndim != 0) hold at axis=None
        return None
    checks = " ".join(_argument_checks(qualname, args))
    if any(_mentions(checks, a.arg) for a in positional):
        return None  # a check of a positional argument runs before the Python fast path
    kinds = "".join(arrays[a.arg] for a in positional)
    if ("q" in kinds and kinds != "q") or not _numpy_fast_path(
        qualname, args, _call_arguments(args)
    ):
        return None
    if qualname == "where":  # its fast path tests condition.dtype is _BOOL
        kinds = "b" + kinds[1:]
    entry: dict[str, Any] = {"kinds": kinds, "keywords": keywords}
    if qualname in BARE_WHEN_DEFAULT:
        entry["bare"] = True
    return entry


#: A keyword's annotation -> what the C code accepts for it (``_kinds.KEYWORD_MODES``).
_KEYWORD_MODES = {"bool": "bool", "int": "int", "Optional[bool]": "bool or None"}


def _c_keywords(qualname: str, args: ast.arguments, arrays: dict[str, str]) -> dict[str, str]:
    """The keyword-only parameters the C code may pass on as given, with what they accept.

    Left out: ``device`` (placement is Python's), arrays (the fast path tests their type)
    and the parameters a fast-path test or an extra check reads (``take``'s ``axis``).
    The bool and int checks of ``_argument_checks`` become the modes.
    """
    tests = " ".join([FAST_PATH_TESTS.get(qualname, ""), *EXTRA_CHECKS.get(qualname, [])])
    modes = {}
    for a in args.kwonlyargs:
        if a.arg == "device" or a.arg in arrays or _mentions(tests, a.arg):
            continue
        modes[a.arg] = _KEYWORD_MODES.get(ast.unparse(a.annotation) if a.annotation else "", "any")
    return modes


def _mentions(code: str, name: str) -> bool:
    """Whether generated ``code`` reads the parameter ``name``."""
    return re.search(rf"\b{name}\b", code) is not None


#: Functions whose NumPy function has other defaults than the standard's, so that the C
#: code cannot pass a call on as given: they run in Python (the reason is on their def).
LEFT_IN_PYTHON = {
    "eye": "NumPy's eye defaults `dtype` to float, the standard to None",
    "vecdot": "NumPy's vecdot is a ufunc with other keywords",
    "std": "NumPy's std takes `ddof` for the standard's `correction`",
    "var": "NumPy's var takes `ddof` for the standard's `correction`",
    "linalg.pinv": "NumPy's pinv takes `rcond` for the standard's `rtol`",
    **{
        f"fft.{name}": f"NumPy's {name} defaults `norm` to None, the standard to 'backward'"
        for name in ("fft", "hfft", "ifft", "ihfft", "irfft", "rfft")
    },
}


def _decorators(
    qualname: str, args: ast.arguments, renames: dict[str, str] | None = None
) -> list[str]:
    """The lines above the def: its ``@fast_path`` record (how C calls it), or why it
    runs in Python; and its ufunc's methods (``xp.add.reduce``). ``renames``: the
    signature's names of the standard's parameters that NumPy names otherwise."""
    renames = renames or {}
    ufunc = UFUNC_NAMES.get(qualname)
    entry = _c_fast_path(qualname, args)
    if entry is None or qualname in LEFT_IN_PYTHON:
        lines = [f"# In Python: {LEFT_IN_PYTHON[qualname]}."] if qualname in LEFT_IN_PYTHON else []
        return lines + ([f"@_ufunc_methods({ufunc!r})"] if ufunc else [])
    name = qualname.rpartition(".")[2]
    # a creation function's record calls NumPy's own: the NumPy namespace's checks
    # `device` in Python first (cunumpy/_backends/numpy/_creation.py), and C passes no device
    fast = f"_np.{qualname}" if entry.get("placed") else _fast_name(qualname)
    options = [fast, repr(entry["kinds"])]
    if entry["keywords"]:
        options.append(f"keywords={entry['keywords']!r}")
    if qualname in SCALAR_FAST_PATH:
        options.append("scalars=True")
    for flag in ("placed", "bare"):
        if entry.get(flag):
            options.append(f"{flag}=True")
    if name == "asarray":
        shown = tuple(renames.get(n, n) for n in ("obj", "dtype", "copy"))
        options += ["identity=True", 'restate="creation"', f"shown={shown!r}"]
    elif qualname in PLACED or name in LIKE:
        options.append('restate="creation"')
    if ufunc:
        options.append(f"ufunc={ufunc!r}")
    return [f"@_fast_path({', '.join(options)})"]


def _fast_name(qualname: str) -> str:
    return "_numpy_" + qualname.replace(".", "_")


#: Functions whose ndarray fast path calls NumPy's own function rather than the NumPy
#: namespace's: the namespace fixes an answer the standard leaves open (sorted unique
#: values, as array-api-compat's), and the top level gives NumPy's (hash order).
NUMPY_OWN = {"unique_values"}


def _fast_path_imports(topic: str, names: list[str]) -> str:
    """The NumPy namespace's functions that a file's fast paths call, bound at import."""
    prefix = f"{topic}." if topic in EXTENSIONS else ""
    fast = []
    for name in names:
        args, _ = _parse(SIGNATURES[topic][name]["params"], SIGNATURES[topic][name]["returns"])
        fast_path = _numpy_fast_path(prefix + name, args, _call_arguments(args))
        owner = "_np" if prefix + name in NUMPY_OWN else "_numpy_namespace"
        if fast_path and prefix + name not in METHOD_CALLS:
            fast.append(f"{_fast_name(prefix + name)} = {owner}.{prefix + name}\n")
    if not fast:
        return ""
    return (
        "# The NumPy namespace's functions, bound at import for the ndarray fast paths.\n"
        + "".join(fast)
        + "\n\n"
    )


def _docstring(
    qualname: str,
    args: ast.arguments,
    returns: str,
    kind: str,
    standard_names: dict[str, str],
    shown: list[inspect.Parameter],
    standard: ast.arguments,
) -> str:
    """The numpydoc docstring of a generated function.

    Its Parameters section lists the parameters of the signature the function shows
    (``shown``, ``_shown_parameters``), in that order: the standard's text for the standard's
    parameters (``standard``, in the standard's names), NumPy's own (``_numpy_parameter_doc``)
    for the parameters only NumPy has. ``args`` is the def's signature (``_numpy_signature``),
    which gives the standard's parameters their types and defaults.
    """
    docs = api_docs
    new_names = {old: new for new, old in standard_names.items()}

    def named(text: str) -> str:  # the parameters by the signature's names (``x`` is ``a``)
        return re.sub(r"``(\w+)``", lambda m: f"``{new_names.get(m[1], m[1])}``", text)

    summary = named(getattr(docs, "SUMMARIES", {}).get(qualname, f"The standard's ``{qualname}``."))
    common = getattr(docs, "COMMON_PARAMETERS", {})
    specific = getattr(docs, "PARAMETERS", {}).get(qualname, {})
    numpy_name = NUMPY_NAMES.get(qualname.rpartition(".")[2], qualname.rpartition(".")[2])
    module = qualname.rpartition(".")[0]
    numpy_name = f"{module}.{numpy_name}" if module else numpy_name
    if args.kwarg is not None:
        kind += (
            f"\nIt also takes every call NumPy's ``numpy.{numpy_name}`` takes (Python scalars and"
            "\nlists, NumPy's positional arguments, keywords and dtypes), and answers it as the"
            "\nlibrary of the inputs (or the current backend's) does; see docs/migrating.md."
        )
    lines = [summary, "", kind, ""]
    params = {a.arg: a for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]}
    defaults = dict(
        zip([a.arg for a in [*args.posonlyargs, *args.args]][::-1], args.defaults[::-1])
    )
    defaults.update({a.arg: d for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None})
    standard_params = {a.arg for a in [*standard.posonlyargs, *standard.args, *standard.kwonlyargs]}
    if shown:
        lines += ["Parameters", "----------"]
    for p in shown:
        star = _STARS.get(p.kind, "")
        ours = standard.vararg if star == "*" else params.get(p.name)
        standard_name = standard_names.get(p.name, p.name)
        if ours is None or (not star and standard_name not in standard_params):
            lines += _numpy_parameter_lines(qualname, numpy_name, p)
            continue
        text = f"{star}{p.name} : {_annotation(ours.annotation)}"
        not_given = None
        if ours.arg in defaults:
            default = ast.unparse(defaults[ours.arg])
            if default in _NOT_GIVEN_NAMES:
                not_given = default = _NOT_GIVEN_NAMES[default]
            text += ", optional" if default == "_OMITTED" else f", default {default}"
        lines.append(text)
        desc = named(
            specific.get(standard_name if not star else ours.arg)
            or common.get(standard_name if not star else ours.arg)
            or f"The ``{p.name}`` argument."
        )
        if standard_name != p.name:
            desc += f" The standard's positional ``{standard_name}``, named as NumPy names it."
        elif star and ours.arg != p.name:
            desc += f" The standard's ``*{ours.arg}``, named as NumPy names it."
        if defaults.get(ours.arg) is not None and ast.unparse(defaults[ours.arg]) == "_OMITTED":
            desc += " Leaving it out is NumPy's call."
        if not_given is not None:
            desc += (
                f" Not given, it is {not_given} for the standard's call and left out of"
                " NumPy's, whose default differs."
            )
        lines += ["    " + line for line in textwrap.wrap(desc, 84)]
    if shown:
        lines.append("")
    lines += ["Returns", "-------", f"out : {returns}"]
    ret = named(
        getattr(docs, "RETURNS", {}).get(qualname, "The result, on the device of the inputs.")
    )
    lines += ["    " + line for line in textwrap.wrap(ret, 84)]
    example = getattr(docs, "EXAMPLES", {}).get(qualname)
    numpy_example = getattr(docs, "NUMPY_EXAMPLES", {}).get(qualname)
    if numpy_example:
        example = (example or "") + "\n" + textwrap.dedent(numpy_example).strip("\n")
    if example:
        lines += [
            "",
            "Examples",
            "--------",
            ">>> import cunumpy as xp",
            *example.strip().splitlines(),
        ]
    return "\n".join(lines)


#: The prefix of a star parameter's name in a signature and a Parameters section.
_STARS: dict[Any, str] = {
    inspect.Parameter.VAR_POSITIONAL: "*",
    inspect.Parameter.VAR_KEYWORD: "**",
}


def _numpy_parameter_lines(qualname: str, numpy_name: str, p: inspect.Parameter) -> list[str]:
    """The Parameters entry of a parameter only NumPy has: NumPy's type and the first
    sentence of NumPy's description (``_numpy_parameter_doc``)."""
    star = _STARS.get(p.kind, "")
    kind, desc = _numpy_parameter_doc(qualname, p.name)
    if star:
        text = f"{star}{p.name}"
    else:
        default = p.default
        optional = default is not p.empty and str(default) not in ("<no value>", "_NoValue")
        text = f"{p.name} : {kind}" + (f", default {default}" if optional else ", optional")
    desc = f"NumPy's parameter, for NumPy's call: {desc} See ``numpy.{numpy_name}``."
    return [text, *("    " + line for line in textwrap.wrap(desc, 84, break_on_hyphens=False))]


def _numpy_parameter_doc(qualname: str, name: str) -> tuple[str, str]:
    """NumPy's type and short description of its parameter ``name`` of ``qualname``.

    Read from the Parameters section of NumPy's docstring (its type without ``optional``
    or a default; the first sentence of its description, Sphinx roles as literals), or
    from ``api_docs.NUMPY_UFUNC_KEYWORDS`` for the keywords NumPy's ufunc docstrings
    leave to NumPy's page on ufuncs.
    """
    function = _numpy_function(qualname)
    documented = _numpy_docstring_parameters(inspect.getdoc(function) or "")
    if name in documented:
        kind, text = documented[name]
    elif name in api_docs.NUMPY_UFUNC_KEYWORDS:
        kind, text = api_docs.NUMPY_UFUNC_KEYWORDS[name]
    else:
        raise SystemExit(f"generate_api: NumPy's docstring of {qualname} has no {name!r}")
    kind = re.sub(r",?\s*\(?(optional|default)\b.*$", "", _rst_literals(kind)).strip()
    # the first sentence of the first paragraph, and the second where the first is short
    sentences = re.split(r"(?<=[a-z0-9`)\]'\"][.!?])\s+(?=[A-Z`('\"])", _rst_literals(text))
    short = sentences[0]
    if len(short) < 60 and len(sentences) > 1 and not sentences[1].startswith(("See ", "For ")):
        short += " " + sentences[1]
    return kind or "object", short.rstrip(":") + ("" if short.endswith(".") else ".")


def _rst_literals(text: str) -> str:
    """NumPy's reST as plain text and literals: ``:ref:`ufuncs <label>``` as ``ufuncs``,
    ```~numpy.ufunc.reduce``` and ``:func:`x``` as ````numpy.ufunc.reduce````."""
    text = " ".join(text.split())
    text = re.sub(r":ref:`([^`<]*?)\s*<[^`]*>`", r"\1", text)
    text = re.sub(r":ref:`([^`]*)`", r"\1", text)
    text = re.sub(r"(?::\w+)*:`~?([^`]*)`", r"``\1``", text)
    text = re.sub(r"(?<!`)`~?([^`]+)`(?!`)", r"``\1``", text)
    text = re.sub(r"(?<![`\w*])\*(\w[^*`]*?)\*(?![*\w])", r"\1", text)  # *i*: no emphasis
    return re.sub(r"(?<![`\w*])(\*{1,2}\w+)", r"``\1``", text)  # *args


def _numpy_docstring_parameters(doc: str) -> dict[str, tuple[str, str]]:
    """A numpydoc docstring's Parameters section: each name -> (its type, the first
    paragraph of its description).

    A line ``x1, x2 : array_like`` documents both names; ``*args`` is ``args``."""
    lines = doc.splitlines()
    found: dict[str, tuple[str, str]] = {}
    for i in range(len(lines) - 1):
        if lines[i].strip() == "Parameters" and set(lines[i + 1].strip()) == {"-"}:
            break
    else:
        return found
    names: list[str] = []
    text: list[str] = []
    kind, paragraph_ended = "", False
    for j in range(i + 2, len(lines)):
        line = lines[j]
        ends = j + 1 < len(lines) and line.strip() and set(lines[j + 1].strip()) == {"-"}
        if ends or (line and not line[0].isspace()):  # the next entry, or the next section
            for n in names:
                found.setdefault(n, (kind, " ".join(text)))
            if ends:
                break
            left, _, kind = line.partition(" : ") if " : " in line else line.partition(":")
            names = [n.strip().lstrip("*") for n in left.split(",") if n.strip()]
            kind, text, paragraph_ended = kind.strip(), [], False
        elif line.strip() and not paragraph_ended:
            text.append(line.strip())
        elif text:  # a blank line ends the entry's first paragraph, the one read
            paragraph_ended = True
    else:
        for n in names:
            found.setdefault(n, (kind, " ".join(text)))
    return found


def _restating(line: str, qualname: str, args: ast.arguments, indent: str = "    ") -> list[str]:
    """``line`` (a backend call) in a ``try`` that restates the backend's errors.

    The restated error names the function and shows the arguments (``device`` aside:
    ``_placement`` checks it with its own messages); see ``cunumpy/_settings/_errors.py``.
    """
    params = _in_signature_order(qualname, args)
    shown = ", ".join(f"{a.arg}={a.arg}" for a in params if a.arg != "device")
    return [
        f"{indent}try:",
        f"{indent}    {line}",
        f"{indent}except _BACKEND_ERRORS as exc:",
        f"{indent}    _raise_restated({qualname!r}, exc, {shown})",
    ]


def _fill_value_check(args: ast.arguments, qualname: str) -> list[str]:
    """A cheap test that ``fill_value`` is a scalar; any other fill is NumPy's call."""
    names = [a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]]
    if "fill_value" not in names:
        return []
    # A float or complex fill_value must fit the dtype exactly (NumPy truncates, writes
    # INT64_MIN for NaN, drops the imaginary part).
    if qualname in LIKE:
        target, condition = "x.dtype if dtype is None else dtype", ""
    else:
        target, condition = "dtype", "dtype is not None and "
    return [
        "if type(fill_value) not in _PY_SCALARS:",
        "    if not _is_scalar_fill(fill_value):  # NumPy's call: an array fill, a string, ...",
        f"        return _numpy_call({qualname.rpartition('.')[2]}, locals())",
        f"elif {condition}(type(fill_value) is float or type(fill_value) is complex):",
        f"    _check_fill(fill_value, {target}, {qualname!r})",
    ]


#: Defaults that differ in value, not in meaning: (parameter, the standard's, NumPy's) and
#: why. Every other parameter whose NumPy default differs from the standard's defaults to
#: ``NOT_GIVEN`` (see ``_union``).
SAME_MEANING = {
    ("dtype", None, float): "NumPy's dtype None is its default float64",
    ("norm", "backward", None): "NumPy's norm None is 'backward'",
}


#: Parameters whose NumPy default is the standard's, but which NumPy's function tells apart
#: from a value left out (its signature cannot show it): they default to ``NOT_GIVEN``, and
#: a value given, the default included, reaches NumPy. ``numpy.arange(stop=None, start=3)``
#: is ``[0, 1, 2]``; ``numpy.arange(start=3)`` raises ``TypeError``.
LEFT_OUT_DIFFERS = {("arange", "stop")}


#: NumPy's functions whose dispatcher takes the input by position only, though their
#: signature names it (``numpy.unique_values(x=a)`` raises ``TypeError``).
NUMPY_POSITIONAL_ONLY = {"unique_all", "unique_counts", "unique_inverse", "unique_values"}


def _numpy_function(qualname: str) -> Any:
    """NumPy's function of the same meaning (``numpy.arccos`` for ``acos``), or None."""
    module, _, name = qualname.rpartition(".")
    owner = getattr(np, module) if module else np
    return getattr(owner, NUMPY_NAMES.get(name, name), None)


def _numpy_parameters(qualname: str) -> list[inspect.Parameter] | None:
    """The parameters of NumPy's function of the same meaning, read at generation time;
    None where it has none to read (a ufunc: its inputs are positional-only, as ours)."""
    function = _numpy_function(qualname)
    if function is None or isinstance(function, np.ufunc):
        return None
    try:
        parameters = list(inspect.signature(function).parameters.values())
    except (TypeError, ValueError):
        return None
    if qualname in NUMPY_POSITIONAL_ONLY:
        kind = inspect.Parameter.POSITIONAL_ONLY
        return [p.replace(kind=kind) if p.kind in _POSITIONAL else p for p in parameters]
    return parameters


#: The keywords every NumPy (g)ufunc takes (``numpy.vecdot(a, b, axis=...)``).
_UFUNC_KEYWORDS = frozenset(
    {"axis", "axes", "keepdims", "out", "where", "casting", "order", "dtype", "subok"}
)


def _is_numpy_ufunc(qualname: str) -> bool:
    """Whether NumPy's function of the same meaning is a ufunc (``vecdot``): its keywords
    have no default of their own, and one given means what one left out does not
    (``vecdot(a, b, axis=-1, axes=...)`` is NumPy's TypeError)."""
    return isinstance(_numpy_function(qualname), np.ufunc)


def _literal(node: ast.expr | None) -> Any:
    """The value of a default in the signature table (None for a name such as ``inf``)."""
    try:
        return ast.literal_eval(node) if node is not None else None
    except ValueError:
        return None


def _same_default(name: str, ours: ast.expr, theirs: Any) -> bool:
    value = _literal(ours)
    if (name, value, theirs) in SAME_MEANING:
        return True
    return type(value) is type(theirs) and value == theirs


class Union(NamedTuple):
    """One function's signature for both calls (see ``_union``)."""

    #: the parameters, NumPy's names and places with the standard's keywords
    args: ast.arguments
    #: the standard's name -> the signature's, for the parameters that NumPy names otherwise
    renames: dict[str, str]
    #: the parameters whose default is ``NOT_GIVEN``, and the standard's default (its text)
    not_given: dict[str, str]


_POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)


def _union(qualname: str, args: ast.arguments) -> Union:
    """The parameters that take both the standard's call and NumPy's.

    NumPy's positional parameters come first, in NumPy's order and with NumPy's names and
    kinds: the standard's positional-only parameters take the name and kind of NumPy's
    parameter at their place (a positional-only name is not part of the standard), and the
    standard's keyword-only parameters that NumPy takes by position move to NumPy's place
    (``sort(a, axis=-1)``). The standard's positional-or-keyword parameters keep their
    names (``clip``'s ``min``). Then ``*args`` (NumPy's further positional parameters), the
    standard's other keyword-only parameters, and ``**kwargs``. A parameter whose NumPy
    default means something else than the standard's (``stable``: NumPy's is None, an
    unstable sort) defaults to ``NOT_GIVEN``: the standard's path takes the standard's
    default, NumPy's call leaves it out, as NumPy does its ``<no value>``.
    """
    plain = Union(copy.deepcopy(args), {}, {})
    if qualname in NO_NUMPY_EXTRAS or args.vararg is not None:
        return plain
    theirs = _numpy_parameters(qualname)
    if theirs is None:
        if _is_numpy_ufunc(qualname):  # vecdot's axis: a keyword NumPy's gufunc reads when given
            for i, (a, default) in enumerate(zip(args.kwonlyargs, args.kw_defaults)):
                if default is not None:
                    plain.not_given[a.arg] = ast.unparse(default)
                    plain.args.kw_defaults[i] = _not_given_default(default)
        return plain
    positional = [p for p in theirs if p.kind in _POSITIONAL]
    standard = [*args.posonlyargs, *args.args]
    if len(positional) < len(standard):
        return plain
    defaults = dict(zip([a.arg for a in standard][::-1], args.defaults[::-1]))
    keyword_only = {a.arg: (a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults)}
    renames: dict[str, str] = {}
    posonly: list[ast.arg] = []
    plain_args: list[ast.arg] = []
    new_defaults: list[ast.expr] = []
    for index, numpy_parameter in enumerate(positional):
        if index < len(standard):
            ours = copy.deepcopy(standard[index])
            default = defaults.get(ours.arg)
            if index < len(args.posonlyargs):  # NumPy's name and kind
                renames[ours.arg] = numpy_parameter.name
                ours.arg = numpy_parameter.name
                kind = numpy_parameter.kind
            else:
                kind = inspect.Parameter.POSITIONAL_OR_KEYWORD
        elif numpy_parameter.name in keyword_only:  # taken by position in NumPy
            ours, default = copy.deepcopy(keyword_only.pop(numpy_parameter.name))
            kind = inspect.Parameter.POSITIONAL_OR_KEYWORD
        else:
            break
        if default is None and new_defaults:  # a required parameter after a default one
            return plain
        (
            posonly if kind is inspect.Parameter.POSITIONAL_ONLY and not plain_args else plain_args
        ).append(ours)
        if default is not None:
            new_defaults.append(default)
    names = [a.arg for a in [*posonly, *plain_args]] + list(keyword_only)
    if len(set(names)) != len(names):  # a name of NumPy's is one of the standard's keywords
        return plain
    union = ast.arguments(
        posonlyargs=posonly,
        args=plain_args,
        vararg=None,
        kwonlyargs=[a for a, _ in keyword_only.values()],
        kw_defaults=[d for _, d in keyword_only.values()],
        kwarg=None,
        defaults=new_defaults,
    )
    by_name = {p.name: p.default for p in theirs if p.kind is not p.VAR_KEYWORD}
    not_given: dict[str, str] = {}
    n_plain = len(posonly) + len(plain_args)
    for i, a in enumerate([*posonly, *plain_args]):
        j = i - (n_plain - len(new_defaults))
        if (
            j >= 0
            and a.arg in by_name
            and (
                not _same_default(a.arg, new_defaults[j], by_name[a.arg])
                or (qualname, a.arg) in LEFT_OUT_DIFFERS
            )
        ):
            not_given[a.arg] = ast.unparse(new_defaults[j])
            new_defaults[j] = _not_given_default(new_defaults[j])
    for i, a in enumerate(union.kwonlyargs):
        default = union.kw_defaults[i]
        if (
            default is not None
            and a.arg in by_name
            and not _same_default(a.arg, default, by_name[a.arg])
        ):
            not_given[a.arg] = ast.unparse(default)
            union.kw_defaults[i] = _not_given_default(default)
    return Union(union, renames, not_given)


#: ``_NOT_GIVEN_TRUE`` and the like: the name -> the standard's default (its text).
_NOT_GIVEN_NAMES: dict[str, str] = {}


def _not_given_default(default: ast.expr) -> ast.expr:
    """``_NOT_GIVEN_<default>``, a module constant ``_not_given(<the standard's default>)``
    (shown ``<not given: True>``), written at the top of the module (``_not_given_lines``)."""
    text = ast.unparse(default)
    slug = {"0.0": "ZERO", "0": "ZERO_INT", "-1": "MINUS_ONE"}.get(
        text, re.sub(r"\W", "_", text).upper()
    )
    name = f"_NOT_GIVEN_{slug}"
    assert _NOT_GIVEN_NAMES.setdefault(name, text) == text, name
    return ast.Name(name)


def _not_given_lines(text: str) -> str:
    """The ``_NOT_GIVEN_<default>`` constants that a module's ``text`` uses."""
    used = sorted(set(re.findall(r"\b_NOT_GIVEN_\w+", text)))
    if not used:
        return ""
    return (
        "# The defaults of the parameters whose NumPy default differs (see _union).\n"
        + "".join(f"{name} = _not_given({_NOT_GIVEN_NAMES[name]})\n" for name in used)
        + "\n\n"
    )


#: Helpers whose keywords are the parameters' names in messages (``_check_bools('sort',
#: stable=stable)``): ``_renamed`` gives them the signature's names.
_DISPLAY_HELPERS = {"_check_bools", "_raise_restated_call", "_raise_restated"}


def _renamed(lines: list[str], values: dict[str, str], names: dict[str, str]) -> list[str]:
    """Generated ``lines`` with the parameters renamed: each read of a parameter by
    ``values``, and its name in messages (the keywords of ``_DISPLAY_HELPERS``' calls, a
    string that is the name alone) by ``names``. The keywords of other calls are the
    standard's names of the namespace's function, and stay."""
    if not values and not names:
        return lines
    text = "\n".join(lines) + "\n"
    tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    edits: list[tuple[int, int, int, str]] = []
    callees: list[str | None] = []  # per open bracket: the called name ("" for a group)
    for i, token in enumerate(tokens):
        previous = tokens[i - 1] if i else None
        if token.type == tokenize.OP and token.string in "([{":
            called = previous is not None and previous.type == tokenize.NAME
            callees.append((previous.string if called else "") if token.string == "(" else None)
        elif token.type == tokenize.OP and token.string in ")]}":
            callees.pop()
        elif token.type == tokenize.NAME and (previous is None or previous.string != "."):
            keyword = bool(callees) and callees[-1] is not None and tokens[i + 1].string == "="
            if keyword:
                new = names.get(token.string) if callees[-1] in _DISPLAY_HELPERS else None
            else:
                new = values.get(token.string)
            if new is not None:
                edits.append((token.start[0], token.start[1], token.end[1], new))
        elif (
            token.type == tokenize.STRING
            and token.string[1:-1] in names
            and token.string[0] in "'\""
            and token.string[0] == token.string[-1]
        ):
            new = repr(names[token.string[1:-1]])
            edits.append((token.start[0], token.start[1], token.end[1], new))
    out = text.split("\n")
    for row, start, end, new in sorted(edits, reverse=True):
        line = out[row - 1]
        out[row - 1] = line[:start] + new + line[end:]
    return "\n".join(out)[:-1].split("\n")


def _shown_default(value: Any, where: str) -> str:
    """The text of a shown default: a Python literal, or a name of ``SHOWN_NAMES``."""
    for name, known in SHOWN_NAMES.items():
        if value is known:
            return name
    text = repr(value)
    try:
        same = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        same = _NOT_A_LITERAL
    if type(same) is not type(value) or same != value:
        msg = f"generate_api: {where}'s default {value!r} is neither a literal nor in SHOWN_NAMES"
        raise SystemExit(msg)
    return text


_NOT_A_LITERAL = object()


def _shown(qualname: str, args: ast.arguments, returns: str) -> str:
    """The text of ``_shown_parameters``' signature, as the function's ``@_shows`` records."""
    parameters = _shown_parameters(qualname, args)
    return str(inspect.Signature(parameters, return_annotation=_Text(_builtin_generics(returns))))


def _shown_parameters(qualname: str, args: ast.arguments) -> list[inspect.Parameter]:
    """The parameters of the signature the function shows (``inspect.signature``, ``help()``, the API pages;
    ``cunumpy/_calls/_shown_signatures.py``), as the text its ``@_shows`` records.

    NumPy's parameters, read from NumPy's live signature (a ufunc's too), in NumPy's
    places and kinds with NumPy's defaults, then the standard's parameters that NumPy
    lacks, keyword-only. A parameter whose NumPy default means something else than the
    standard's (``_union``'s ``not_given``) shows the default that a call leaving it out
    gets: NumPy's ``<no value>`` where NumPy has that (``keepdims``: the parameter is left
    out of the call, as NumPy leaves it out), the standard's otherwise (``stable=True``:
    NumPy's None sorts unstably). Annotations are the standard's, by place for the
    positional parameters and by name for the others; NumPy's own parameters have none,
    as in NumPy's signature. Without a NumPy signature, the union's parameters.
    """
    union = _union(qualname, args)
    ours_positional = [*union.args.posonlyargs, *union.args.args]
    ours = [*ours_positional, *union.args.kwonlyargs]
    annotation = {a.arg: _builtin_generics(_annotation(a.annotation)) for a in ours}
    if union.args.vararg is not None:
        annotation["*"] = _builtin_generics(_annotation(union.args.vararg.annotation))
    defaults = dict(zip([a.arg for a in ours_positional][::-1], union.args.defaults[::-1]))
    defaults.update(
        {a.arg: d for a, d in zip(union.args.kwonlyargs, union.args.kw_defaults) if d is not None}
    )
    standard_default = {
        name: union.not_given.get(name, ast.unparse(node)) for name, node in defaults.items()
    }
    function = _numpy_function(qualname)
    theirs: list[inspect.Parameter] | None = None
    if function is not None:
        try:
            theirs = list(inspect.signature(function).parameters.values())
        except (TypeError, ValueError):  # NumPy 2.3's arange, ...: none to read
            theirs = None
    if theirs is not None and qualname in NUMPY_POSITIONAL_ONLY:
        theirs = _numpy_parameters(qualname)
    parameters: list[inspect.Parameter] = []
    empty = inspect.Parameter.empty
    if theirs is None:  # ours alone, without NumPy's *args and **kwargs
        for a in ours:
            kind = (
                inspect.Parameter.POSITIONAL_ONLY if a in union.args.posonlyargs
                else inspect.Parameter.POSITIONAL_OR_KEYWORD if a in ours_positional
                else inspect.Parameter.KEYWORD_ONLY
            )  # fmt: skip
            text = standard_default.get(a.arg)
            parameters.append(inspect.Parameter(
                a.arg, kind, default=empty if text is None else _Text(text),
                annotation=annotation[a.arg],
            ))  # fmt: skip
        if union.args.vararg is not None:
            where = len(ours_positional)
            parameters.insert(where, inspect.Parameter(
                union.args.vararg.arg, inspect.Parameter.VAR_POSITIONAL, annotation=annotation["*"]
            ))  # fmt: skip
    else:
        numpy_positional = [p for p in theirs if p.kind in _POSITIONAL]
        # ours at NumPy's positional places: NumPy's names, but the standard's
        # positional-or-keyword names where the union keeps them (clip's min at a_min's)
        by_place = {p.name: ours_positional[i].arg for i, p in enumerate(numpy_positional)
                    if i < len(ours_positional)}  # fmt: skip
        for p in theirs:
            name = by_place.get(p.name, p.name)
            if p.name not in by_place and name in by_place.values():
                continue  # NumPy's keyword-only min, shown at a_min's place
            shown = p.default
            if name in union.not_given and p.default is not np._NoValue:
                shown = _Text(union.not_given[name])  # the standard's: NumPy's means otherwise
            elif shown is not empty:
                shown = _Text(_shown_default(shown, f"numpy's {qualname}({p.name}=...)"))
            star = p.kind is inspect.Parameter.VAR_POSITIONAL
            note = annotation.get("*" if star else name, empty)
            parameters.append(p.replace(name=name, default=shown, annotation=note))
        shown_names = {p.name for p in parameters}
        extras = [a for a in ours if a.arg not in shown_names]  # in the union's order
        at = next(
            (i for i, p in enumerate(parameters) if p.kind is inspect.Parameter.VAR_KEYWORD),
            len(parameters),
        )
        parameters[at:at] = [
            inspect.Parameter(
                a.arg, inspect.Parameter.KEYWORD_ONLY,
                default=empty if a.arg not in standard_default else _Text(standard_default[a.arg]),
                annotation=annotation[a.arg],
            )
            for a in extras
        ]  # fmt: skip
    return [
        p if p.annotation is empty else p.replace(annotation=_Text(p.annotation))
        for p in parameters
    ]


def _builtin_generics(annotation: str) -> str:
    """``Tuple[int, ...]`` as ``tuple[int, ...]``: the def's spelling, after ruff's fix."""
    return re.sub(r"\b(Tuple|List)\[", lambda m: m[1].lower() + "[", annotation)


class _Text(str):
    """A default or annotation written as its text (``_NoValue``, ``'same_kind'``,
    ``Optional[int]``) in a shown signature."""

    def __repr__(self) -> str:
        return str(self)


def _shows_lines(qualname: str, args: ast.arguments, returns: str) -> list[str]:
    """The ``@_shows(...)`` lines above a def, its shown signature cut at parameters."""
    text = _shown(qualname, args, returns)
    pieces = [piece + ", " for piece in text.split(", ")]
    pieces[-1] = pieces[-1][:-2]
    lines, line = [], ""
    for piece in pieces:
        if line and len(line) + len(piece) > 84:
            lines.append(line)
            line = ""
        line += piece
    lines.append(line)
    if len(lines) == 1:
        return [f"@_shows({lines[0]!r})"]
    return ["@_shows(", *(f"    {line!r}" for line in lines), ")"]


def _numpy_signature(qualname: str, args: ast.arguments) -> ast.arguments:
    """The union of the standard's parameters and NumPy's (``_union``), with what NumPy's
    calls need: ``*args``, ``**kwargs``, and ``OMITTED`` as the default of the parameters
    NumPy lets a call leave out."""
    if qualname in NO_NUMPY_EXTRAS:
        return args
    union = _union(qualname, args)
    numpy_args = union.args
    omittable = OMITTABLE.get(qualname, ())
    if omittable:
        positional = [*numpy_args.posonlyargs, *numpy_args.args]
        first = [a.arg for a in positional].index(union.renames.get(omittable[0], omittable[0]))
        missing = len(positional) - first - len(numpy_args.defaults)
        numpy_args.defaults[:0] = [ast.Name("_OMITTED") for _ in range(missing)]
    any_type = ast.Name("Any")
    if numpy_args.vararg is None:
        numpy_args.vararg = ast.arg("args", any_type)
    numpy_args.kwarg = ast.arg("kwargs", any_type)
    return numpy_args


def _numpy_route(qualname: str, args: ast.arguments) -> list[str]:
    """The first lines of a function: a call that is not the standard's goes to NumPy's route.

    Extra positional arguments, NumPy's keywords, or a parameter left out that is not an
    array (``squeeze(a)``). The other cases are found on the slow path: a list or an
    omitted array where the standard wants an array (``where(cond)``) by the dispatch
    helpers. A ``dtype`` NumPy takes needs no route: the namespaces pass it on to the
    library's function (NumPy's own, where the fast path calls it).
    """
    if qualname in NO_NUMPY_EXTRAS:
        return []
    arrays = {name for name, _ in _array_kinds(args)}
    tests = ["kwargs"] if args.vararg is not None else ["args", "kwargs"]
    tests += [f"{n} is _OMITTED" for n in OMITTABLE.get(qualname, ()) if n not in arrays]
    tests += [ROUTE_TESTS[qualname]] if qualname in ROUTE_TESTS else []
    name = qualname.rpartition(".")[2]
    return [f"if {' or '.join(tests)}:", f"    return _numpy_call({name}, locals())"]


def _or_numpy_call(name: str) -> list[str]:
    """Lines after ``namespace = ...`` of a dispatch helper: None means NumPy's call."""
    return ["if namespace is None:", f"    return _numpy_call({name}, locals())"]


def _function(qualname: str, entry: dict[str, str]) -> str:
    name = qualname.rpartition(".")[2]
    args, returns = _parse(entry["params"], entry["returns"])
    call = _call_arguments(args)
    numpy_args = _numpy_signature(qualname, args)
    union = _union(qualname, args)
    renames = {old: new for old, new in union.renames.items() if old != new}
    standard_names = {new: old for old, new in renames.items()}
    header = "\n".join(
        [
            *_decorators(qualname, args, renames),
            *_shows_lines(qualname, args, returns),
            f"def {name}({_signature(numpy_args)}) -> {returns}:",
        ]
    )
    route = _numpy_route(qualname, args)
    if name == "asarray":  # NumPy's call of asarray creates on the current backend too
        route[1:1] = [
            "    if device is None and _is_array(obj):  # host data moves to the CuPy backend",
            "        obj, copy, _ = _to_current_backend(obj, copy)",
        ]
    if qualname in PLACED:
        kind = (
            'Creates the array on ``device`` when given (``"cpu"`` for NumPy, a GPU for\n'
            "CuPy), else on the current backend (and, on CuPy, the current GPU)."
        )
        no_device = call.replace("device=device", "").replace(", ,", ",").strip(", ")
        body = [
            *_fill_value_check(args, qualname),
            "if device is None:",
            *_restating(f"return _current().namespace.{qualname}({no_device})", qualname, args),
            f"namespace, device = _placement(device, {qualname!r})",
            *_restating(f"return namespace.{qualname}({call})", qualname, args, indent=""),
        ]
    elif name in LIKE:
        kind = (
            "Creates the array where ``x`` lives, or on ``device`` when given\n"
            '(``"cpu"`` for NumPy, a GPU for CuPy).'
        )
        maker = name.removesuffix("_like")
        fill = "fill_value, " if maker == "full" else ""
        body = [
            f"namespace = _namespace_of_one(x, {qualname!r}, 'x')",
            *_or_numpy_call(name),
            *_fill_value_check(args, qualname),
            "if device is None:",
            *_restating(f"return namespace.{qualname}({call})", qualname, args),
            f"target, device = _placement(device, {qualname!r})",
            "if target is namespace:  # the library's own _like keeps the layout of x, as NumPy's",
            *_restating(f"return namespace.{qualname}({call})", qualname, args),
            "dtype = x.dtype if dtype is None else dtype",
            *_restating(
                f"return target.{maker}(x.shape, {fill}dtype=dtype, device=device)",
                qualname, args, indent="",
            ),
        ]  # fmt: skip
    elif name == "asarray":
        kind = (
            "Without ``device``, an array stays where it lives (a CuPy array on its GPU, on\n"
            "every backend, also with ``copy=``), as the standard says; host data goes to the\n"
            "current backend (and, on CuPy, the current GPU: a NumPy array is copied over,\n"
            "counted by ``count_transfers``, as in CuNumpy 0.7.1). With ``device``, the result\n"
            "is on that device."
        )
        body = [
            "if type(obj) is _ndarray and device is None and _current().namespace is _numpy_namespace:",
            "    if dtype is None and copy is None:",
            "        return obj  # what numpy.asarray returns for a plain ndarray, without the call",
            "    if copy is None or copy is True or copy is False:  # NumPy's own asarray",
            "        try:",
            "            return _numpy_namespace.asarray(obj, dtype=dtype, copy=copy)",
            "        except _BACKEND_ERRORS as exc:",
            "            _raise_restated('asarray', exc, obj=obj, dtype=dtype, copy=copy)",
            "if copy is not None and copy is not True and copy is not False:",
            "    _check_bools('asarray', copy=copy)",
            "try:",
            "    if device is None:",
            "        namespace = _current().namespace",
            "        if _is_array(obj):  # a NumPy array moves to the CuPy backend, counted",
            "            obj, copy, namespace = _to_current_backend(obj, copy)",
            f"        return namespace.asarray({call})",
            "    namespace, device = _placement(device, 'asarray')",
            "    if _is_array(obj):",
            "        obj, copy = _moved(obj, namespace, device, copy)",
            f"    return namespace.asarray({call})",
            "except _BACKEND_ERRORS as exc:",
            "    _raise_restated('asarray', exc, obj=obj, dtype=dtype, copy=copy)",
        ]
    elif name == "broadcast_shapes":
        kind = "Shapes are plain tuples, so this is the same on every backend."
        body = ["return _numpy_namespace.broadcast_shapes(*shapes)"]
    elif name == "from_dlpack":
        kind = "The result lives on ``device`` when given, else where ``x`` lives."
        body = [
            "if type(x) is not _ndarray:",
            "    _refuse_subclass(x, 'from_dlpack')  # a masked array's mask would be lost",
            "if copy is not None and copy is not True and copy is not False:",
            "    _check_bools('from_dlpack', copy=copy)",
            "try:",
            "    if device is None:",
            f"        return _dlpack_namespace(x).from_dlpack({call})",
            "    namespace, device = _placement(device, 'from_dlpack')",
            f"    return namespace.from_dlpack({call})",
            "except BufferError as exc:  # the producer's words do not name the function",
            "    _raise_restated('from_dlpack', exc, x=x)",
        ]
    else:
        kind = "Computes where the array arguments live (NumPy on the CPU, CuPy on their GPU)."
        dispatch, member = _dispatch(qualname, args)
        body = [
            *_numpy_fast_path(qualname, args, call),
            *_slow_path_checks(qualname),
            f"namespace = {dispatch}",
            *_or_numpy_call(name),
            f"return namespace.{member}({call})",
        ]
        body = _restating_call([*_argument_checks(qualname, args), *body], qualname, args)
    # The body is written in the standard's names: the signature's names replace them, and
    # a NotGiven parameter's standard value is read as `_<name>` (NumPy's call sees it unset).
    aliases = {standard_names.get(n, n): f"_{n}" for n in union.not_given}
    standard_values = [
        f"_{n} = {default} if {n} is {_not_given_default(ast.parse(default).body[0].value).id} else {n}"  # type: ignore[attr-defined]
        for n, default in union.not_given.items()
    ]
    body = [
        *_renamed(route, renames, renames),
        *standard_values,
        *_renamed(body, {**renames, **aliases}, renames),
    ]
    shown = _shown_parameters(qualname, args)
    doc = _docstring(qualname, numpy_args, returns, kind, standard_names, shown, args)
    doc_lines = textwrap.indent(doc, "    ").splitlines()
    doc_text = "\n".join(line.rstrip() for line in doc_lines)
    return "\n".join(
        [header, f'    """{doc_text.lstrip()}', '    """', *("    " + b for b in body)]
    )


HEADER = '''"""{title}

Generated by ``tools/generate_api.py`` from ``tools/api_signatures.py`` and NumPy {numpy}'s
signatures; do not edit by hand.
"""

from __future__ import annotations

from typing import Any, List, Literal, Optional, Sequence, Tuple, Union

import numpy as _np

from {dots}_backends._superset import backend_attribute as _backend_attribute
from {dots}_calls._where_to_run import (
    _PY_SCALARS,
    _PY_SCALARS_OR_NONE,
    _current,
    _dlpack_namespace,
    _ndarray,
    _is_array,
    _moved,
    _namespace_of_args,
    _namespace_of_array,
    _namespace_of_one,
    _namespace_of_pair,
    _namespace_of_sequence,
    _namespace_of_two,
    _numpy_namespace,
    _placement,
    _refuse_subclass,
    _to_current_backend,
    _to_device,
)
from {dots}_calls._arguments import ARRAY_ERRORS as _ARRAY_ERRORS
from {dots}_calls._arguments import BOOL as _BOOL
from {dots}_calls._arguments import check_bools as _check_bools
from {dots}_calls._arguments import check_correction as _check_correction
from {dots}_calls._arguments import check_int as _check_int
from {dots}_calls._arguments import check_repeats as _check_repeats
from {dots}_calls._arguments import check_shift as _check_shift
from {dots}_calls._arguments import check_sorted_1d as _check_sorted_1d
from {dots}_calls._arguments import check_tensordot_axes as _check_tensordot_axes
from {dots}_calls._arguments import is_scalar_fill as _is_scalar_fill
from {dots}_calls._arguments import raise_restated_call as _raise_restated_call
from {dots}_calls._arguments import refused as _refused
from {dots}_calls._fast_path import fast_path as _fast_path
from {dots}_calls._fast_path import ufunc_methods as _ufunc_methods
from {dots}_settings._dtype_rules import check_fill as _check_fill
from {dots}_settings._errors import BACKEND_ERRORS as _BACKEND_ERRORS
from {dots}_settings._errors import raise_restated as _raise_restated
from {dots}_calls._numpy_calls import OMITTED as _OMITTED
from {dots}_calls._numpy_calls import not_given as _not_given
from {dots}_calls._numpy_calls import numpy_call as _numpy_call
from {dots}_calls._public_names import bind_library_names as _bind_library_names
from {dots}_calls._shown_signatures import shows as _shows
from {dots}_typing import (
    Array,
    Device,
    DType,
    NestedSequence,
    SupportsBufferProtocol,
    finfo_object,
    iinfo_object,
    inf,
)

{all_line}


'''


DIR_FUNCTION = '''


def __getattr__(name: str) -> Any:
    """Every other name: the current backend's own (``xp.{topic}.{example}``), at each access."""
    return _backend_attribute(_current().namespace.{topic}, __name__, name)


def __dir__() -> list[str]:
    """The standard's names only (``__all__``); the backend's other names resolve as well."""
    return list(__all__)


# Every other public name of the backend's library (xp.{topic}.{example}): globals of
# this module, rebound when needed (cunumpy/_calls/_public_names.py).
_bind_library_names(globals(), __all__, "{topic}")
'''

#: A name outside the standard, for the docstring of each extension's ``__getattr__``.
EXAMPLE = {"linalg": "norm", "fft": "fftshift"}


def _all_line(topic: str, names: list[str]) -> str:
    """The module's ``__all__``, written out for type checkers and star imports.

    An extension's names are defined once, in ``cunumpy/_backends/_standard_names.py``
    (``LINALG``, ``FFT``): the functions generated here must be exactly those.
    """
    if topic not in EXTENSIONS:
        return f"__all__ = {sorted(names)!r}"
    from cunumpy._backends import _standard_names

    listed = getattr(_standard_names, topic.upper())
    if sorted(names) != sorted(listed):
        msg = (
            f"generate_api: the {topic} functions of tools/api_signatures.py, {sorted(names)!r}, "
            f"are not cunumpy/_backends/_standard_names.py's {topic.upper()}, {sorted(listed)!r}"
        )
        raise SystemExit(msg)
    return (
        f"# cunumpy/_backends/_standard_names.py's {topic.upper()}, checked by the generator\n"
        f"__all__ = {sorted(names)!r}"
    )


#: The NumPy major.minor whose signatures the generated code follows (``_union`` reads
#: them at generation time: NumPy 2.5's ``sort`` gained ``descending``), written into each
#: generated file's docstring; tests compare with the generated files only on that NumPy.
NUMPY_VERSION = ".".join(np.__version__.split(".")[:2])


def generated_for_numpy(text: str) -> str | None:
    """The NumPy major.minor a generated file's docstring names (None if none)."""
    found = re.search(r"and NumPy (\d+\.\d+)'s\s+signatures", text)
    return found.group(1) if found else None


def generate() -> dict[Path, str]:
    files: dict[Path, str] = {}
    for topic, path in OUTPUTS.items():
        entries = SIGNATURES[topic]
        names = [n for n in entries if n not in HAND_WRITTEN]
        prefix = f"{topic}." if topic in EXTENSIONS else ""
        title = (
            f"The ``{topic}`` extension, dispatching on where its inputs live."
            if topic in EXTENSIONS
            else f"The standard's {topic.replace('_', ' ')} functions, dispatching on where their inputs live."
        )
        dots = "." if topic in EXTENSIONS else ".."
        text = HEADER.format(
            title=title, dots=dots, numpy=NUMPY_VERSION, all_line=_all_line(topic, names)
        )
        text += _fast_path_imports(topic, names)
        functions = "\n\n\n".join(_function(prefix + n, entries[n]) for n in names) + "\n"
        text += _not_given_lines(functions) + functions
        if topic in EXTENSIONS:  # public modules: dir() shows their names, not their imports
            text += DIR_FUNCTION.format(topic=topic, example=EXAMPLE[topic])
        files[ROOT / "cunumpy" / path] = text
    return files


def main() -> int:
    import subprocess

    files = generate()
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    ruff = [sys.executable, "-m", "ruff"]
    paths = [str(p) for p in files]
    subprocess.run([*ruff, "check", "--fix", "--quiet", *paths], check=False)
    subprocess.run([*ruff, "format", "--quiet", *paths], check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
