"""The compiled fast path of the top-level standard functions, where it was built.

A generated function costs a Python call more than NumPy's own object: 60-80 ns, a third
of a ufunc on a small array (docs/architecture.md, "What a standard name costs"). Where
the package was installed with a C compiler, ``_fastcall`` (``_fastcall.c``) is built,
and ``install`` puts at the top level, for each function of the generated modules'
``FAST_PATHS`` tables, a ``FastCall`` object in front of it: in C, it takes the calls the
function's own NumPy fast path takes (exact ``numpy.ndarray`` arguments of the kinds the
table gives, no keywords; creation functions on the NumPy backend) and calls the same
NumPy function; every other call, and every call that raises, goes to the Python
function, so answers, dispatch and messages stay the Python function's.

Without a compiler, or with ``CUNUMPY_PURE_PYTHON=1`` in the environment, the top level
keeps the Python functions, which give the same answers a little more slowly.
``compiled()`` says which is in use (``python -m cunumpy`` reports it).
"""

from __future__ import annotations

import importlib
import os
from collections.abc import MutableMapping
from types import ModuleType
from typing import Any

import numpy as np

from .._backends import numpy as _numpy_namespace
from .._settings._config import _context
from .._settings._landscape import add_listener

__all__ = ["MODULES", "compiled", "install", "top_level_name"]

#: The generated modules whose ``FAST_PATHS`` tables ``install`` reads.
MODULES = (
    "creation", "elementwise", "linear_algebra", "searching", "sets", "statistics", "utility",
)  # fmt: skip

_state: dict[str, Any] = {"installed": 0, "why": "not installed yet"}

#: ``[True]`` while NumPy is the backend of every context (the default, and no live
#: ``use_backend`` block of another backend): the C code then skips reading the context.
_NUMPY_EVERYWHERE = [False]


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


def top_level_name(name: str) -> Any:
    """``cunumpy.<name>``: how a pickled ``FastCall`` is found again."""
    return getattr(importlib.import_module("cunumpy"), name)


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
        module = importlib.import_module(f"cunumpy._api.{topic}")
        for name, (kinds, placed) in getattr(module, "FAST_PATHS", {}).items():
            slow = getattr(module, name)
            if namespace.get(name) is not slow:  # another object holds the name: leave it
                continue
            namespace[name] = extension.FastCall(
                _fast_function(module, name, placed),
                slow,
                np.ndarray,
                kinds.encode(),
                _context,
                _numpy_namespace,
                _NUMPY_EVERYWHERE,
                (top_level_name, (name,)),
                placed,
                name == "asarray",  # asarray(ndarray) on NumPy is the array itself
            )
            count += 1
    _state.update(installed=count, why="")
    return count


def _fast_function(module: ModuleType, name: str, placed: bool) -> Any:
    """The NumPy function the Python fast path calls (creation: the NumPy namespace's)."""
    if placed:
        return getattr(_numpy_namespace, name)
    return getattr(module, f"_numpy_{name}")


def compiled() -> tuple[int, str]:
    """How many top-level functions have the compiled fast path, or 0 and why none has."""
    return _state["installed"], _state["why"]
