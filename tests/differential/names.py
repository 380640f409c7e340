"""The callables that ``numpy`` and ``cunumpy`` share, each with NumPy's signature.

The top level, ``linalg`` and ``fft``, and the methods ``reduce``, ``accumulate``,
``reduceat``, ``outer`` and ``at`` of the top-level ufuncs. A name whose cunumpy object
*is* NumPy's object answers as NumPy by construction and is not called (``SAME``); a few
are not called because they touch files, the process's settings or print (``LEFT_OUT``).
"""

from __future__ import annotations

import inspect
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np

import cunumpy as xp

#: Shared names that are not called, and why.
LEFT_OUT = {
    **dict.fromkeys(
        ["save", "savetxt", "savez", "savez_compressed", "load", "loadtxt", "genfromtxt",
         "fromfile", "fromregex", "memmap"],
        "reads or writes files",
    ),
    **dict.fromkeys(
        ["set_printoptions", "setbufsize", "seterr", "seterrcall", "printoptions"],
        "changes the process's settings",
    ),
    **dict.fromkeys(
        ["info", "show_config", "show_runtime", "test"], "prints, or runs NumPy's own tests"
    ),
}  # fmt: skip

_EMPTY = inspect.Parameter.empty
_P = inspect.Parameter


def _signature(*parameters: tuple[str, Any, Any]) -> inspect.Signature:
    return inspect.Signature(
        [_P(name, kind, default=default) for name, kind, default in parameters]
    )


_PO, _PK, _KW = _P.POSITIONAL_ONLY, _P.POSITIONAL_OR_KEYWORD, _P.KEYWORD_ONLY
#: NumPy's ufunc methods, as NumPy documents them (``inspect`` sees ``**kwargs`` only).
METHODS = {
    "reduce": _signature(
        ("array", _PO, _EMPTY), ("axis", _PK, 0), ("dtype", _PK, None), ("out", _PK, None),
        ("keepdims", _PK, False), ("initial", _PK, np._NoValue), ("where", _PK, True),
    ),
    "accumulate": _signature(
        ("array", _PO, _EMPTY), ("axis", _PK, 0), ("dtype", _PK, None), ("out", _PK, None)
    ),
    "reduceat": _signature(
        ("array", _PO, _EMPTY), ("indices", _PK, _EMPTY), ("axis", _PK, 0),
        ("dtype", _PK, None), ("out", _PK, None),
    ),
    "outer": _signature(
        ("A", _PO, _EMPTY), ("B", _PO, _EMPTY), ("out", _KW, None), ("where", _KW, True),
        ("casting", _KW, "same_kind"), ("dtype", _KW, None),
    ),
    "at": _signature(("a", _PO, _EMPTY), ("indices", _PO, _EMPTY), ("b", _PO, None)),
}  # fmt: skip


#: NumPy's callables whose ``inspect`` signature hides a way to call them: ``arange``'s
#: parser takes ``start``, ``stop``, ``step`` and ``dtype`` by name too (``numpy.arange(
#: stop=None, start=3)`` is ``[0, 1, 2]``), where its signature shows ``start_or_stop``,
#: positional-only.
SIGNATURES = {
    "arange": _signature(
        ("start", _PK, _EMPTY), ("stop", _PK, None), ("step", _PK, 1), ("dtype", _PK, None),
        ("device", _KW, None), ("like", _KW, None),
    ),
}  # fmt: skip


@dataclass(frozen=True)
class Callee:
    """One shared callable: its name as written after ``np.``, both objects, NumPy's signature."""

    name: str
    numpy: Any
    ours: Any
    signature: inspect.Signature | None


def _shared(numpy_module: Any, our_module: Any, prefix: str) -> tuple[list[Callee], list[str]]:
    called, same = [], []
    for name in sorted(dir(numpy_module)):
        if name.startswith("_") or name in LEFT_OUT:
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            theirs = getattr(numpy_module, name, None)
            ours = getattr(our_module, name, None)
        exception = isinstance(theirs, type) and issubclass(theirs, BaseException)
        if ours is None or not callable(theirs) or exception:
            continue
        if ours is theirs:
            same.append(prefix + name)
            continue
        try:
            signature = SIGNATURES.get(prefix + name) or inspect.signature(theirs)
        except (TypeError, ValueError):
            signature = None
        called.append(Callee(prefix + name, theirs, ours, signature))
        if isinstance(theirs, np.ufunc):
            for method, method_signature in METHODS.items():
                if theirs.nin != 2 and method != "at":
                    continue
                if theirs.nout != 1:
                    continue
                called.append(
                    Callee(
                        f"{prefix}{name}.{method}",
                        getattr(theirs, method),
                        getattr(ours, method),
                        method_signature,
                    )
                )
    return called, same


def shared_callables() -> tuple[list[Callee], list[str]]:
    """The callables to call, sorted by name, and the shared names that are NumPy's own object."""
    callees, same = _shared(np, xp, "")
    for module in ("linalg", "fft"):
        more, more_same = _shared(getattr(np, module), getattr(xp, module), module + ".")
        callees += more
        same += more_same
    return callees, same
