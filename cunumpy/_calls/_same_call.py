"""Whether NumPy's function takes a call as a top-level def would make it.

``@fast_path`` (``_fast_path``) asks it once per record, when the module is imported: the
C code passes a call on as given, which is the def's own NumPy call only where NumPy's
function takes the positional arguments in the same places and has the standard's
defaults for the parameters left out. The parameters are read from code objects and
text signatures, not ``inspect.signature``, which would cost ``import cunumpy`` time.
"""

from __future__ import annotations

import ast
import inspect
from typing import Any

from ._numpy_calls import NotGiven

__all__ = ["arity", "same_call"]


def arity(code: Any) -> int:
    """How many named parameters a code object has."""
    return int(code.co_argcount + code.co_kwonlyargcount)


#: A parameter: its name, whether it may be given by position, by name, and its default.
_Parameter = tuple[str, bool, bool, Any]
_EMPTY: Any = inspect.Parameter.empty


def _parameters(function: Any) -> list[_Parameter] | None:
    """The named parameters of ``function``, read from its code object (or, for a builtin,
    its text signature) without ``inspect.signature``, which is slow at import; None where
    neither says."""
    while not hasattr(function, "__code__") and hasattr(function, "__wrapped__"):
        function = function.__wrapped__  # NumPy's array-function dispatchers
    code = getattr(function, "__code__", None)
    if code is None:
        return _text_parameters(getattr(function, "__text_signature__", None))
    names = code.co_varnames[: arity(code)]
    defaults = function.__defaults__ or ()
    keyword_defaults = function.__kwdefaults__ or {}
    first_default = code.co_argcount - len(defaults)
    return [
        (
            name,
            index < code.co_argcount,
            index >= code.co_posonlyargcount,
            defaults[index - first_default] if first_default <= index < code.co_argcount
            else keyword_defaults.get(name, _EMPTY),
        )
        for index, name in enumerate(names)
    ]  # fmt: skip


def _text_parameters(text: str | None) -> list[_Parameter] | None:
    """The parameters of a builtin's ``__text_signature__`` (``"(shape, dtype=None, *, ...)"``)."""
    text = (text or "").strip()
    if not text.startswith("(") or not text.endswith(")"):
        return None
    parameters: list[_Parameter] = []
    keyword_only = False
    for piece in text[1:-1].split(","):
        part = piece.strip()
        if not part or part.startswith("$"):
            continue
        if part == "/":
            parameters = [(name, True, False, default) for name, _, _, default in parameters]
        elif part == "*":
            keyword_only = True
        elif part.startswith("*"):
            return None  # *args, **kwargs: not read here
        else:
            name, _, default = part.partition("=")
            try:
                value = ast.literal_eval(default) if default else _EMPTY
            except (ValueError, SyntaxError):
                return None
            parameters.append((name, not keyword_only, True, value))
    return parameters


def same_call(fast: Any, slow: Any, given: int, keywords: dict[str, int]) -> bool:
    """Whether ``fast(*args, **kw)`` is the def's own NumPy call when ``given`` positional
    arguments and some of ``keywords`` are given, every other parameter at the standard's
    default.

    It is where ``fast`` takes the first ``given`` arguments by position, in the def's
    order, takes each of ``keywords`` by name, and every other parameter of the def that
    ``fast`` has too defaults to the same value there (NumPy's ufuncs have no other
    parameter).
    """
    code = slow.__code__
    if arity(code) == given and not keywords:
        return True  # nothing at a default: the positional arguments are the whole call
    ours = _parameters(slow)
    theirs = _parameters(fast)
    if ours is None or theirs is None:  # no signature to compare: keep the def
        return False
    if len(theirs) < given or not all(positional for _, positional, _, _ in theirs[:given]):
        return False
    by_name = {name: default for name, _, keyword, default in theirs[given:] if keyword}
    return all(
        name in by_name and by_name[name] is not _EMPTY and _equal(by_name[name], default)
        for name, _, _, default in ours[given:]
    )


def _equal(first: Any, second: Any) -> bool:
    if type(second) is NotGiven:  # the def's standard path takes the standard's default
        second = second.default
    return type(first) is type(second) and first == second
