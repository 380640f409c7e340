"""The compiled fast path of the top-level standard functions, where it was built.

A generated function costs a Python call more than NumPy's own object: 60-80 ns, a third
of a ufunc on a small array (docs/architecture.md, "What a standard name costs"). Where
the package was installed with a C compiler, ``_fastcall`` (``_fastcall.c``) is built,
and ``install`` puts at the top level, for each function of the generated modules'
``FAST_PATHS`` tables, a ``FastCall`` object in front of it: in C, it takes the calls the
function's own NumPy fast path takes (exact ``numpy.ndarray`` arguments of the kinds the
table gives, the keywords it lists; Python data and creation only on the NumPy backend)
and calls the same NumPy function; every other call, and every call that raises, goes
to the Python function, so answers, dispatch and messages stay the Python function's.

Without a compiler, or with ``CUNUMPY_PURE_PYTHON=1`` in the environment, the top level
keeps the Python functions, which give the same answers a little more slowly.
``compiled()`` says which is in use (``python -m cunumpy`` reports it).
"""

from __future__ import annotations

import importlib
import inspect
import os
from collections.abc import MutableMapping
from types import ModuleType
from typing import Any

import numpy as np

from .._backends import numpy as _numpy_namespace
from .._settings._config import _context
from .._settings._landscape import add_listener
from ._numpy_calls import _function as _library_function

__all__ = ["EXTENSIONS", "MODULES", "compiled", "generated_module", "install", "top_level_name"]

#: The generated modules whose ``FAST_PATHS`` tables ``install`` reads.
MODULES = (
    "creation", "data_types", "elementwise", "indexing", "linear_algebra", "manipulation",
    "numpy_creation", "searching", "sets", "sorting", "statistics", "utility", "linalg",
    "fft",
)  # fmt: skip

#: The public extension modules among ``MODULES`` (their functions are ``cunumpy.linalg.inv``).
EXTENSIONS = ("linalg", "fft")

_state: dict[str, Any] = {"installed": 0, "why": "not installed yet"}

#: ``[True]`` while NumPy is the backend of every context (the default, and no live
#: ``use_backend`` block of another backend): the C code then skips reading the context.
_NUMPY_EVERYWHERE = [False]

_BOOL = np.dtype(bool)


def _follow(default: ModuleType, others: frozenset[ModuleType]) -> None:
    """The landscape listener that keeps ``_NUMPY_EVERYWHERE`` (told before a change)."""
    _NUMPY_EVERYWHERE[0] = default is _numpy_namespace and not others


def _extension() -> tuple[Any, str]:
    """The compiled module, or None and the reason it is not used."""
    if os.environ.get("CUNUMPY_PURE_PYTHON") == "1":
        return None, "CUNUMPY_PURE_PYTHON=1"
    try:
        from . import _fastcall  # type: ignore[attr-defined]
    except ImportError as exc:  # installed without a C compiler, or from a plain checkout
        return None, f"not built ({exc})"
    return _fastcall, ""


def top_level_name(qualname: str) -> Any:
    """``cunumpy.<qualname>`` (``"sum"``, ``"linalg.inv"``): how a pickled ``FastCall`` is found."""
    found: Any = importlib.import_module("cunumpy")
    for part in qualname.split("."):
        found = getattr(found, part)
    return found


def install(namespace: MutableMapping[str, Any]) -> int:
    """Put a ``FastCall`` in front of each function of the tables in ``namespace``.

    Returns how many names it replaced (0 without the compiled module).
    """
    extension, why = _extension()
    if extension is None:
        _state.update(installed=0, why=why)
        return 0
    add_listener(_follow)
    count = 0
    for topic in MODULES:
        module = generated_module(topic)
        part = topic if topic in EXTENSIONS else ""
        target = vars(namespace[part]) if part else namespace
        for name, entry in getattr(module, "FAST_PATHS", {}).items():
            slow = getattr(module, name)
            qualname = f"{part}.{name}" if part else name
            placed = entry.get("placed", False)
            fast = (
                getattr(module, entry["fast"])
                if "fast" in entry
                else _fast_function(module, qualname, placed)
            )
            casts = getattr(module, entry["casts"]) if "casts" in entry else None
            keywords = entry.get("keywords", {})
            if target.get(name) is not slow or not (
                entry.get("bare") or _same_call(fast, slow, len(entry["kinds"]), keywords)
            ):
                continue  # another object holds the name, or NumPy's call would differ
            data = fast is _numpy_call_function(qualname)  # NumPy's calls reach fast
            target[name] = _fast_call(
                extension,
                fast,
                slow,
                entry["kinds"],
                qualname,
                placed=placed,
                identity=name == "asarray",  # asarray(ndarray) on NumPy is the array itself
                data=data,
                # mean(m, 1): NumPy's further arguments, where NumPy's call reaches fast
                extras=entry.get("extras", 1 if data and not placed else 0),
                keywords=keywords,
                casts=casts,
            )
            count += 1
            _install_methods(extension, slow, qualname)
    _install_namespace_astype(extension)
    _state.update(installed=count, why="")
    return count


def _install_namespace_astype(extension: ModuleType) -> None:
    """``array_namespace(x).astype`` of the NumPy namespace: ``x.astype(dtype)`` in C.

    The namespace's ``astype`` calls ``x.astype(dtype)`` for an ndarray when ``copy`` is
    True and ``device`` None (its defaults), so a call with an exact ndarray and a dtype
    and nothing else is ``numpy.ndarray.astype(x, dtype)``; its errors go to the function.
    """
    function = vars(_numpy_namespace)["astype"]
    if type(function) is extension.FastCall:  # installed already
        return
    vars(_numpy_namespace)["astype"] = _fast_call(
        extension,
        np.ndarray.astype,
        function,
        "ax",
        "",
        reduce_value=(getattr, (_numpy_namespace, "astype")),
    )


def _install_methods(extension: ModuleType, function: Any, qualname: str) -> None:
    """A ``FastCall`` in front of each ufunc method of ``function`` (``xp.add.reduce``).

    A method's own fast path (``UfuncMethod``) calls NumPy's method when the first
    argument is an ndarray and every other argument and keyword is a host value; the C
    code takes the same calls (``extras=2``). ``at`` stays in Python: it writes in place,
    so a failed call must not be run twice.
    """
    for method in ("reduce", "accumulate", "reduceat", "outer"):
        python_method = getattr(function, method, None)
        numpy_method = getattr(python_method, "_numpy_method", None)
        if numpy_method is None:
            continue
        fast_call = _fast_call(
            extension, numpy_method, python_method, "a", f"{qualname}.{method}", extras=2
        )
        setattr(function, method, fast_call)


def _fast_call(
    extension: ModuleType,
    fast: Any,
    slow: Any,
    kinds: str,
    qualname: str,
    *,
    reduce_value: Any = None,
    **options: Any,
) -> Any:
    """A ``FastCall`` of ``fast`` in front of ``slow``, pickled as ``cunumpy.<qualname>``
    (or by ``reduce_value``); ``options`` are its flags and tables (see ``_fastcall.c``)."""
    return extension.FastCall(
        fast,
        slow,
        np.ndarray,
        kinds.encode(),
        _context,
        _numpy_namespace,
        _NUMPY_EVERYWHERE,
        reduce_value or (top_level_name, (qualname,)),
        _BOOL,
        **options,
    )


def generated_module(topic: str) -> ModuleType:
    """The generated module of ``topic`` (``cunumpy._api.elementwise``, ``cunumpy.linalg``)."""
    return importlib.import_module(
        f"cunumpy.{topic}" if topic in EXTENSIONS else f"cunumpy._api.{topic}"
    )


def _numpy_call_function(qualname: str) -> Any:
    """The function NumPy's calls of ``qualname`` reach on the NumPy backend (numpy_call)."""
    return _library_function(np, _numpy_namespace, qualname)


def _fast_function(module: ModuleType, qualname: str, placed: bool) -> Any:
    """The NumPy function the Python fast path calls (creation: the NumPy namespace's)."""
    if placed:
        function = getattr(_numpy_namespace, qualname)
        # the namespace's creation functions check `device` in Python, then call NumPy's:
        # the fast path calls NumPy's own (a device NumPy refuses falls back to them)
        if getattr(function, "__module__", "") == "cunumpy._backends.numpy._creation":
            return getattr(np, qualname)
        return function
    return getattr(module, "_numpy_" + qualname.replace(".", "_"))


def _same_call(fast: Any, slow: Any, given: int, keywords: dict[str, int]) -> bool:
    """Whether ``fast(*args, **kw)`` is the Python fast path's call when ``given``
    positional arguments and some of ``keywords`` are given, every other parameter at the
    standard's default.

    It is where ``fast`` takes the first ``given`` arguments by position, in the generated
    function's order, takes each of ``keywords`` by name, and every other parameter of
    the generated function that ``fast`` has too defaults to the same value there
    (NumPy's ufuncs have no other parameter).
    """
    code = slow.__code__
    if code.co_argcount + code.co_kwonlyargcount == given and not keywords:
        return True  # nothing at a default: the positional arguments are the whole call
    ours = [
        p for p in inspect.signature(slow).parameters.values()
        if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
    ]  # fmt: skip
    try:
        theirs = list(inspect.signature(fast).parameters.values())
    except (TypeError, ValueError):  # no signature to compare: keep the Python function
        return False
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    if len(theirs) < given or any(p.kind not in positional for p in theirs[:given]):
        return False
    by_name = {p.name: p for p in theirs[given:] if p.kind is not p.POSITIONAL_ONLY}
    return all(
        p.name in by_name and by_name[p.name].default is not inspect.Parameter.empty
        and _equal(by_name[p.name].default, p.default)
        for p in ours[given:]
    )  # fmt: skip


def _equal(first: Any, second: Any) -> bool:
    return type(first) is type(second) and first == second


def compiled() -> tuple[int, str]:
    """How many top-level functions have the compiled fast path (their ufunc methods not
    counted), or 0 and why none has."""
    return _state["installed"], _state["why"]
