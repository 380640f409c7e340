"""Stand-ins that follow the running context's backend, for the public modules' names.

While a ``use_backend`` block whose backend differs from the process default is alive,
one module global cannot hold the right object for every context, so ``_public_names``
puts a stand-in there: an object that finds the running context's backend's object at
each use. ``stand_in`` picks one per name, from that name's object in each backend:

- the same object in every backend (NumPy's and CuPy's ``float16``, ``newaxis``), or
  equal constants: that object itself, nothing to follow;
- functions: a function that calls the context's function (about 0.1 us per call);
- other callables (ufuncs): a ``Forwarder``, which calls the context's object and hands
  out its attributes (``xp.fmax.reduce``), keeping a stand-in for each attribute that has
  one, so the next use is a look-up; modules: a module that does the same
  (``xp.random.default_rng``);
- anything else (classes such as ``ndarray``, objects that differ in kind, a name one
  backend lacks): ``ABSENT``, so the module's ``__getattr__`` answers at each access.

A stand-in resolves in the context where it is used, so it stays right whatever the
backends are later, and may be kept (``pad = xp.pad``) and reused.
"""

from __future__ import annotations

from collections.abc import Callable
from types import BuiltinFunctionType, FunctionType, MethodType, ModuleType
from typing import Any

import numpy as np

from .._backend_choice._config import current as _current

__all__ = ["ABSENT", "Forwarder", "stand_in"]

#: ``stand_in``'s answer for a name the module's ``__getattr__`` must answer.
ABSENT: Any = object()

#: The kinds of plain functions, whose stand-in is a function (numpy.pad, numpy.concatenate).
_FUNCTIONS = (FunctionType, BuiltinFunctionType, MethodType, type(np.concatenate))
_CONSTANTS = (bool, int, float, complex, str, bytes, np.generic)

#: ``resolve(namespace)``: the object a stand-in stands for, in that backend namespace.
Resolve = Callable[[ModuleType], Any]


def _same(first: Any, other: Any) -> bool:
    """Whether two backends' objects are one, or equal constants (NaN equal to NaN)."""
    if other is first:
        return True
    if type(other) is not type(first) or not isinstance(first, _CONSTANTS):
        return False
    return bool(other == first) or (first != first and other != other)


def stand_in(objects: dict[ModuleType, Any], label: str, resolve: Resolve) -> Any:
    """The stand-in for a name whose object in each live backend namespace is ``objects``.

    ``label`` names it in messages (``"cunumpy.pad"``); ``resolve`` finds its object in a
    namespace not in ``objects``.
    """
    values = list(objects.values())
    first = values[0]
    if all(_same(first, value) for value in values):
        return first
    if all(isinstance(value, ModuleType) for value in values):
        return _module(dict(objects), label, resolve)
    if not all(callable(value) and not isinstance(value, type) for value in values):
        return ABSENT
    if all(isinstance(value, _FUNCTIONS) for value in values):
        return _function(dict(objects), first, resolve)
    return Forwarder(dict(objects), label, resolve)


def _function(objects: dict[ModuleType, Any], first: Any, resolve: Resolve) -> Any:
    """A function that calls the running context's backend's function."""

    def forwarded(*args: Any, **kwargs: Any) -> Any:
        namespace = _current().namespace
        try:
            function = objects[namespace]
        except KeyError:
            function = objects[namespace] = resolve(namespace)
        return function(*args, **kwargs)

    for attribute in ("__name__", "__qualname__", "__doc__", "__module__"):
        value = getattr(first, attribute, None)
        if isinstance(value, str):
            setattr(forwarded, attribute, value)
    return forwarded


def _module(objects: dict[ModuleType, Any], label: str, resolve: Resolve) -> ModuleType:
    """A module whose attributes are the running context's backend's module's.

    Its ``__getattr__`` (PEP 562) keeps each attribute's stand-in in the module's own
    ``__dict__``, so a later ``xp.random.default_rng`` is two dictionary look-ups.
    """
    forwarder = Forwarder(objects, label, resolve)
    module = ModuleType(f"{label} (following the backend)", next(iter(objects.values())).__doc__)
    found = vars(module)
    found["__getattr__"] = lambda name: forwarder._attribute(name, found)
    found["__dir__"] = forwarder.__dir__
    return module


class Forwarder:
    """A module or callable of the running context's backend (``xp.random``, ``xp.fmax``).

    Calls go to the context's object; attributes are the context's object's, and those
    that have a stand-in (functions, methods, submodules, shared objects) keep it in this
    object's ``__dict__``, so later look-ups cost no call.
    """

    __slots__ = ("__dict__", "_label", "_objects", "_resolve")

    def __init__(self, objects: dict[ModuleType, Any], label: str, resolve: Resolve) -> None:
        self._objects = objects
        self._label = label
        self._resolve = resolve

    def _target(self, namespace: ModuleType) -> Any:
        try:
            return self._objects[namespace]
        except KeyError:
            value = self._objects[namespace] = self._resolve(namespace)
            return value

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._target(_current().namespace)(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return self._attribute(name, self.__dict__)

    def _attribute(self, name: str, store: dict[str, Any]) -> Any:
        """The context's object's attribute ``name``; its stand-in, if any, kept in ``store``."""
        target = self._target(_current().namespace)
        if name.startswith("__"):
            return getattr(target, name)
        objects = {}
        for namespace, value in self._objects.items():
            try:
                objects[namespace] = getattr(value, name)
            except AttributeError:
                return getattr(target, name)  # one backend lacks it: the context's answer

        def resolve(namespace: ModuleType) -> Any:
            return getattr(self._target(namespace), name)

        entry = stand_in(objects, f"{self._label}.{name}", resolve)
        if entry is ABSENT:
            return getattr(target, name)
        store[name] = entry
        return entry

    @property
    def __doc__(self) -> str | None:  # type: ignore[override]
        return getattr(self._target(_current().namespace), "__doc__", None)

    def __dir__(self) -> list[str]:
        return dir(self._target(_current().namespace))

    def __repr__(self) -> str:
        target = self._target(_current().namespace)
        return f"<{self._label}, following the backend: {target!r} here>"
