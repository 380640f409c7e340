"""``@fast_path``: the one declaration of how a top-level function is called fast.

A generated function costs a Python call more than NumPy's own object: 60-80 ns, a third
of a ufunc on a small array (docs/architecture.md, "What a standard name costs"). So each
function whose Python fast path is one NumPy call carries, on its ``def``, the record of
that call::

    @fast_path(_numpy_sqrt, "a", scalars=True, ufunc="sqrt")
    def sqrt(x, /, *args, **kwargs): ...

When the module is imported, the record checks that NumPy's function takes the call as
the def would make it (same places, the standard's defaults for the rest), and returns a
``FastCall`` (``_fastcall.c``) in front of the def: in C, it takes the calls whose
arguments pass the tests of the record's kinds (``_kinds.KINDS``) and calls NumPy's
function with them; every other call goes to the def. A call taken in C runs once: an
error of NumPy's is raised in the def's words (``restate``), never run again in Python.
Where the extension is not built (no C compiler, or ``CUNUMPY_PURE_PYTHON=1``), the
record returns the def itself. ``ufunc=`` gives the function NumPy's ufunc methods and
attributes either way (``xp.add.reduce``). A function without the decorator runs in
Python, with the generator's reason on its def.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from types import ModuleType
from typing import Any, NamedTuple, TypeVar

import numpy as np

from .._backend_choice._config import _context
from .._backend_choice._landscape import add_listener
from .._backends import numpy as _numpy_namespace
from .._settings._errors import BACKEND_ERRORS, raise_restated
from ._arguments import ARRAY_ERRORS, raise_restated_call
from ._kinds import KEYWORD_MODES, flags
from ._numpy_calls import NotGiven, raise_named
from ._numpy_calls import _function as _library_function
from ._same_call import arity, same_call
from ._shown_signatures import own_signature
from ._ufunc_methods import METHODS, UFUNC_ATTRIBUTES, UfuncMethod
from ._where_to_run import _PY_SCALARS, _TAKES_NONE, _TAKES_SCALAR

__all__ = [
    "Record", "compile_function", "compiled", "fast_path", "left_in_python", "records",
    "top_level_name", "ufunc_methods",
]  # fmt: skip

F = TypeVar("F", bound=Callable[..., Any])

#: ``[True]`` while NumPy is the backend of every context (the default, and no live
#: ``use_backend`` block of another backend): the C code then skips reading the context.
_NUMPY_EVERYWHERE = [False]

_BOOL = np.dtype(bool)

#: The public extension modules (their functions are ``cunumpy.linalg.inv``).
_EXTENSIONS = ("linalg", "fft")


class Record(NamedTuple):
    """A compiled function's record, as ``fast_path`` read it (for tests and reports)."""

    function: Any
    kinds: str
    keywords: tuple[str, ...]


#: The compiled functions, by qualified name, and the declared ones the signature check
#: left in Python, with the reason.
_COMPILED: dict[str, Record] = {}
_LEFT: dict[str, str] = {}


def _follow(default: ModuleType, others: frozenset[ModuleType]) -> None:
    """The landscape listener that keeps ``_NUMPY_EVERYWHERE`` (told before a change)."""
    _NUMPY_EVERYWHERE[0] = default is _numpy_namespace and not others


def _load() -> tuple[Any, str]:
    """The compiled module, or None and the reason it is not used."""
    if os.environ.get("CUNUMPY_PURE_PYTHON") == "1":
        return None, "CUNUMPY_PURE_PYTHON=1"
    try:
        from . import _fastcall  # type: ignore[attr-defined]
    except ImportError as exc:  # installed without a C compiler, or from a plain checkout
        return None, f"not built ({exc})"
    add_listener(_follow)
    return _fastcall, ""


_EXTENSION, _WHY = _load()


def compiled() -> tuple[int, str]:
    """How many top-level functions run in C (their ufunc methods not counted), or 0 and
    why none does."""
    return len(_COMPILED), _WHY


def records() -> dict[str, Record]:
    """The compiled functions' records, by qualified name (``"sum"``, ``"linalg.inv"``)."""
    return dict(_COMPILED)


def left_in_python() -> dict[str, str]:
    """The declared fast paths that the signature check left in Python, with the reason."""
    return dict(_LEFT)


def top_level_name(qualname: str) -> Any:
    """``cunumpy.<qualname>`` (``"sum"``, ``"linalg.inv"``): how a pickled ``FastCall`` is found."""
    found: Any = importlib.import_module("cunumpy")
    for part in qualname.split("."):
        found = getattr(found, part)
    return found


def _qualname(function: Callable[..., Any]) -> str:
    part = function.__module__.rpartition(".")[2]
    return f"{part}.{function.__name__}" if part in _EXTENSIONS else function.__name__


def fast_path(
    fast: Callable[..., Any],
    kinds: str,
    *,
    keywords: dict[str, str] | None = None,
    scalars: bool = False,
    placed: bool = False,
    bare: bool = False,
    identity: bool = False,
    extras: int | None = None,
    casts: dict[Any, Any] | None = None,
    restate: str | None = "call",
    shown: tuple[str, ...] | None = None,
    ufunc: str | None = None,
) -> Callable[[F], F]:
    """Declare the compiled fast path of the decorated top-level function.

    Parameters
    ----------
    fast : callable
        NumPy's function that the def's own fast path calls.
    kinds : str
        One letter of ``_kinds.KINDS`` per positional parameter.
    keywords : dict, optional
        The keywords C may pass on as given, each with what it accepts (a key of
        ``_kinds.KEYWORD_MODES``: ``""`` any value, ``"bool"``, ``"int"``, ``"Optional[bool]"``).
    scalars : bool
        A Python scalar in the first array's place is the def's fast path too (on NumPy).
    placed : bool
        A creation function: NumPy's answer only while the context's backend is NumPy.
    bare : bool
        NumPy's defaults are known to mean the standard's (no signature check).
    identity : bool
        An ndarray alone is returned as it is (``asarray``).
    extras : int, optional
        1: NumPy's further positional arguments; 2: and any keyword (host values only).
        By default 1 where NumPy's calls of the function reach ``fast`` too.
    casts : dict, optional
        For a ``d`` argument: each dtype argument, and the dtype passed on.
    restate : {"call", "creation", None}
        The def's rule for NumPy's errors: ``raise_restated_call`` with the non-array
        arguments, ``raise_restated`` as the creation functions do, or none (as raised).
    shown : tuple of str, optional
        The arguments ``"creation"`` shows (by default those that are not arrays).
    ufunc : str, optional
        NumPy's ufunc whose methods and attributes the function carries (``"power"``).

    Returns
    -------
    callable
        The decorator: it returns a ``FastCall`` in front of the def, or the def itself
        where the extension is not built or the signature check fails.
    """

    def declare(function: F) -> F:
        qualname = _qualname(function)
        if ufunc is not None:
            _attach_methods(function, qualname, ufunc)
        if _EXTENSION is None:
            return function
        modes = {name: KEYWORD_MODES[mode] for name, mode in (keywords or {}).items()}
        if not (bare or same_call(fast, function, len(kinds), modes)):
            _LEFT[qualname] = f"{getattr(fast, '__name__', fast)!r} takes the call otherwise"
            return function
        data = fast is _library_function(np, _numpy_namespace, qualname)
        # NumPy's further positional arguments go to ``fast`` only where they are the def's
        # ``*args`` too: where they bind to its parameters of NumPy's names (``mean(m, 1)``:
        # ``axis``), the def's checks decide the route, so the def takes the call
        named = function.__code__.co_argcount > len(kinds)
        compiled_call = _fast_call(
            fast,
            function,
            kinds,
            qualname,
            restate=_restater(function, qualname, kinds, restate, shown, scalars, placed),
            placed=placed,
            identity=identity,
            data=data,
            extras=(1 if data and not placed and not named else 0) if extras is None else extras,
            keywords=modes,
            casts=casts,
        )
        _COMPILED[qualname] = Record(compiled_call, kinds, tuple(modes))
        return compiled_call

    return declare


def ufunc_methods(ufunc: str) -> Callable[[F], F]:
    """Give the decorated function (left in Python) NumPy's ufunc methods and attributes."""

    def declare(function: F) -> F:
        _attach_methods(function, _qualname(function), ufunc)
        return function

    return declare


def _attach_methods(function: Any, qualname: str, ufunc: str) -> None:
    """NumPy's ufunc attributes, and one ``UfuncMethod`` per method, on ``function``.

    In C too, where built: a method's own fast path calls NumPy's method when the first
    argument is an ndarray and every other argument and keyword is a host value, which
    the C code tests (``extras=2``). ``at`` stays in Python: it writes in place.
    """
    numpy_ufunc = getattr(np, ufunc)
    for attribute in UFUNC_ATTRIBUTES:
        setattr(function, attribute, getattr(numpy_ufunc, attribute))
    for method in METHODS:
        python_method = UfuncMethod(qualname, ufunc, method)
        numpy_method = python_method._numpy_method
        if _EXTENSION is not None and method != "at" and numpy_method is not None:
            setattr(function, method, _fast_call(
                numpy_method, python_method, "a", f"{qualname}.{method}",
                restate=python_method.restate, extras=2,
            ))  # fmt: skip
        else:
            setattr(function, method, python_method)


def _fast_call(
    fast: Any,
    slow: Any,
    kinds: str,
    qualname: str,
    *,
    reduce_value: Any = None,
    restate: Any = None,
    **options: Any,
) -> Any:
    """A ``FastCall`` of ``fast`` in front of ``slow``, pickled as ``cunumpy.<qualname>``
    (or by ``reduce_value``); ``options`` are its flags and tables (see ``_fastcall.c``)."""
    return _EXTENSION.FastCall(
        fast,
        slow,
        np.ndarray,
        flags(kinds),
        _context,
        _numpy_namespace,
        _NUMPY_EVERYWHERE,
        reduce_value or (top_level_name, (qualname,)),
        _BOOL,
        restate,
        **options,
    )


def compile_function(
    fast: F,
    slow: F,
    kinds: str,
    reduce_value: Any,
    *,
    keywords: dict[str, str] | None = None,
    data: bool = False,
    extras: int = 0,
    identity: bool = False,
) -> F:
    """``slow`` with a ``FastCall`` of ``fast`` in front, errors as raised (or ``slow``):
    a namespace's function below the top level (``array_namespace(x).astype``).

    ``keywords``, ``data``, ``extras`` and ``identity`` mean what they mean in
    ``fast_path``'s record (``data``: Python values alone are ``fast``'s call while the
    context's backend is NumPy).
    """
    if _EXTENSION is None:
        return slow
    modes = {name: KEYWORD_MODES[mode] for name, mode in (keywords or {}).items()}
    return _fast_call(
        fast, slow, kinds, "", reduce_value=reduce_value, keywords=modes or None, data=data,
        extras=extras, identity=identity,
    )  # fmt: skip


# --- errors: the def's words for an error of the call C made ---------------------------


def _restater(
    function: Callable[..., Any],
    qualname: str,
    kinds: str,
    rule: str | None,
    shown: tuple[str, ...] | None,
    scalars: bool,
    placed: bool,
) -> Callable[[BaseException, tuple[Any, ...], dict[str, Any]], None] | None:
    """``restate(error, args, kwargs)``: raise NumPy's ``error`` as the def would have.

    The def restates an error by the route the call takes there: NumPy's call
    (``numpy_call``: further arguments, NumPy's keywords, Python data where arrays are
    asked) names the function and keeps the class; the standard's call restates with the
    arguments (``rule``). A warning made an error, and any other class, is raised as is.
    """
    if rule is None:
        return None

    def restate(error: BaseException, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        if isinstance(error, Warning):
            return
        if not placed and _numpy_route(function, kinds, scalars, args, kwargs):
            raise_named(function, error, _bound(function, args, kwargs))
        arguments = _shown(function, args, kwargs, shown)
        if rule == "creation":
            if isinstance(error, BACKEND_ERRORS):
                raise_restated(qualname, error, **arguments)
        elif isinstance(error, ARRAY_ERRORS):
            raise_restated_call(qualname, error, **arguments)

    return restate


def _numpy_route(
    function: Callable[..., Any],
    kinds: str,
    scalars: bool,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
) -> bool:
    """Whether the def hands this call to ``numpy_call`` (as ``_where_to_run`` decides)."""
    code = function.__code__
    if len(args) > len(kinds) or not kwargs.keys() <= set(code.co_varnames[: arity(code)]):
        return True
    if scalars and type(args[0]) in _PY_SCALARS:
        return False  # the def's fast path takes a Python scalar on NumPy
    arrays = False
    for value, kind in zip(args, kinds):
        if type(value) is np.ndarray or kind == "q":
            arrays = True
        elif not (value is None and kind in _TAKES_NONE) and not (
            type(value) in _PY_SCALARS and kind in _TAKES_SCALAR
        ):
            return True  # Python data where the standard asks for an array
    return not arrays


def _bound(
    function: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]
) -> dict[str, Any]:
    """The def's parameters as the C path's call gives them (``locals()`` at the def's start)."""
    return dict(own_signature(function).bind(*args, **kwargs).arguments)


def _shown(
    function: Callable[..., Any],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    shown: tuple[str, ...] | None,
) -> dict[str, Any]:
    """The arguments the def's message shows: all but ``device`` (or ``shown``), a
    parameter not given as the standard's default it stands for."""
    signature = own_signature(function)
    bound = signature.bind(*args, **kwargs)
    bound.apply_defaults()
    if shown is None:
        shown = tuple(
            name for name, parameter in signature.parameters.items()
            if parameter.kind not in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD)
            and name != "device"
        )  # fmt: skip
    arguments = {name: bound.arguments[name] for name in shown}
    for name, value in arguments.items():  # what the def's standard path reads
        if type(value) is NotGiven:
            arguments[name] = value.default
    return arguments
