"""The signature a top-level function shows: NumPy's parameters, and the standard's keywords.

A generated function takes NumPy's calls through ``*args`` and ``**kwargs`` (see
``_numpy_calls``), so its own parameters do not say what it takes: ``sum``'s def is
``(a, axis=None, dtype=None, *args, keepdims=<not given: False>, **kwargs)``. What it
shows (``inspect.signature``, ``help()``, the API reference, an editor without stubs) is
NumPy's signature, in NumPy's places, kinds and defaults, with the standard's keywords
that NumPy lacks after them, keyword-only (``sort(a, axis=-1, kind=None, order=None, *,
stable=True, descending=False)``). ``tools/generate_api.py`` writes it from the same
table and the same NumPy signatures as the def, as the text of the def's ``@shows``::

    @shows("(a: Array, axis: ... = None, dtype: ... = None, out=None, keepdims: bool = "
           "_NoValue, initial=_NoValue, where=_NoValue) -> Array")
    def sum(a, axis=None, dtype=None, *args, keepdims=_NOT_GIVEN_FALSE, **kwargs): ...

The text is read on first use (a ``ShownSignature``): some 170 ``inspect.Signature``
objects built at import would cost ``import cunumpy`` a few milliseconds. A ``FastCall``
shows its def's, as it gives every attribute it lacks. The call machinery reads the
def's own parameters (``own_signature``), never the shown ones.
"""

from __future__ import annotations

import ast
import inspect
import types
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

__all__ = ["DEFAULT_NAMES", "ShownSignature", "own_signature", "shows", "shows_numpys"]

F = TypeVar("F", bound=Callable[..., Any])

#: The names a shown default may be (the other defaults are Python literals); the
#: generator writes them so (``tools/generate_api.py`` reads this table).
DEFAULT_NAMES: dict[str, Any] = {
    "_NoValue": np._NoValue,  # NumPy's "not given", shown <no value>
    "float": float,
    "int": int,
    "bool": bool,
    "complex": complex,
}

_KINDS = inspect.Parameter


class ShownSignature(inspect.Signature):
    """An ``inspect.Signature`` read from its text on first use.

    Until then only ``Signature``'s two slots are unset; the first read of either parses
    the text and fills both, after which the object is an ordinary ``Signature``.
    """

    __slots__ = ("_function", "_source")

    def __init__(
        self, source: str | Callable[..., Any], function: Callable[..., Any] | None = None
    ) -> None:  # not Signature's: nothing is read here
        self._source = source
        self._function = function

    def __getattr__(self, name: str) -> Any:  # only while the slots are unset
        if name not in ("_parameters", "_return_annotation"):
            raise AttributeError(name)
        if isinstance(self._source, str):
            parameters, returns = _parse(self._source)
        else:
            assert self._function is not None
            parameters, returns = _numpys(self._source, self._function)
        inspect.Signature.__init__(self, parameters, return_annotation=returns)
        return getattr(self, name)

    # typeshed's replace gives Self; this one gives a plain Signature, since Signature's
    # would call ShownSignature(parameters, return_annotation=...) (Sphinx replaces them)
    def replace(self, **changes: Any) -> inspect.Signature:  # type: ignore[override]
        """``Signature.replace``, giving a plain ``Signature``."""
        plain = inspect.Signature(
            list(self.parameters.values()), return_annotation=self.return_annotation
        )
        return plain.replace(**changes)

    def __repr__(self) -> str:  # as any Signature's: the class is a detail of loading
        return f"<Signature {self}>"

    def __reduce__(self) -> tuple[Any, ...]:
        return (ShownSignature, (self._source, self._function))


def _parse(source: str) -> tuple[list[inspect.Parameter], Any]:
    """The parameters and the return annotation of ``source``, ``"(a, /, ...) -> Array"``:
    annotations as their text (as ``from __future__ import annotations`` keeps them)."""
    function = ast.parse(f"def f{source}: pass").body[0]
    assert isinstance(function, ast.FunctionDef), source
    args = function.args
    parameters: list[inspect.Parameter] = []

    def add(arg: ast.arg, kind: Any, default: ast.expr | None = None) -> None:
        parameters.append(
            inspect.Parameter(
                arg.arg,
                kind,
                default=_KINDS.empty if default is None else _value(default),
                annotation=_KINDS.empty if arg.annotation is None else ast.unparse(arg.annotation),
            )
        )

    positional = [*args.posonlyargs, *args.args]
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(args.defaults))
    defaults += args.defaults
    for index, (arg, default) in enumerate(zip(positional, defaults)):
        kind = (
            _KINDS.POSITIONAL_ONLY
            if index < len(args.posonlyargs)
            else _KINDS.POSITIONAL_OR_KEYWORD
        )
        add(arg, kind, default)
    if args.vararg is not None:
        add(args.vararg, _KINDS.VAR_POSITIONAL)
    for arg, default in zip(args.kwonlyargs, args.kw_defaults):
        add(arg, _KINDS.KEYWORD_ONLY, default)
    if args.kwarg is not None:
        add(args.kwarg, _KINDS.VAR_KEYWORD)
    returns = _KINDS.empty if function.returns is None else ast.unparse(function.returns)
    return parameters, returns


def _value(node: ast.expr) -> Any:
    """A shown default: a Python literal, or one of ``DEFAULT_NAMES``."""
    if isinstance(node, ast.Name):
        return DEFAULT_NAMES[node.id]
    return ast.literal_eval(node)


def shows(source: str) -> Callable[[F], F]:
    """Give the decorated def the signature ``source`` (read on first use) to show."""

    def declare(function: F) -> F:
        function.__signature__ = ShownSignature(source)  # type: ignore[attr-defined]
        return function

    return declare


def shows_numpys(numpy_function: Callable[..., Any]) -> Callable[[F], F]:
    """Give the decorated def NumPy's signature of ``numpy_function`` to show, read on first
    use, with the def's annotations (a function written by hand that takes NumPy's calls
    and adds no keyword of the standard's: ``array``, ``can_cast``)."""

    def declare(function: F) -> F:
        function.__signature__ = ShownSignature(numpy_function, function)  # type: ignore[attr-defined]
        return function

    return declare


def _numpys(
    numpy_function: Callable[..., Any], function: Callable[..., Any]
) -> tuple[list[inspect.Parameter], Any]:
    """NumPy's parameters of ``numpy_function`` with ``function``'s annotations by name;
    ``function``'s own where NumPy's function shows none (NumPy 2.3's ``array``)."""
    try:
        theirs = inspect.signature(numpy_function)
    except (TypeError, ValueError):
        own = own_signature(function)
        return list(own.parameters.values()), own.return_annotation
    annotations = function.__annotations__
    parameters = [
        p.replace(annotation=annotations.get(p.name, p.annotation))
        for p in theirs.parameters.values()
    ]
    return parameters, annotations.get("return", _KINDS.empty)


def own_signature(function: Callable[..., Any]) -> inspect.Signature:
    """The parameters ``function``'s code takes (a ``FastCall``'s: its def's), not the
    signature it shows: what the call machinery binds a call to."""
    if not isinstance(function, types.FunctionType):
        function = getattr(function, "__wrapped__", function)  # a FastCall's def
    if not isinstance(function, types.FunctionType) or "__signature__" not in function.__dict__:
        return inspect.signature(function)
    bare = types.FunctionType(
        function.__code__,
        function.__globals__,
        function.__name__,
        function.__defaults__,
        function.__closure__,
    )
    bare.__kwdefaults__ = function.__kwdefaults__
    bare.__annotations__ = function.__annotations__
    return inspect.signature(bare)
