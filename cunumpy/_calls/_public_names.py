"""The public modules' names outside cunumpy's own: module globals, rebound when needed.

``cunumpy``, ``cunumpy.linalg`` and ``cunumpy.fft`` define cunumpy's names (the standard's
functions, the helpers, the submodules); every other public name is the current
backend's library's (``xp.pad``, ``xp.float16``, ``xp.random``, ``xp.linalg.norm``). So
that such a name costs a dictionary look-up, as in CuNumpy 0.7.1, ``bind_library_names``
(called once, by ``cunumpy/__init__.py``) makes the
library's objects module globals of the public module, never over one of its own names,
and rebinds them when what code may see changes (``_landscape``):

- *direct*: while every context sees the process default, the globals are the default
  library's objects, taken from its ``__all__`` (or its public names when it has none);
  a name found later by the module's ``__getattr__`` (a lazily imported submodule such as
  ``numpy.random``) is kept as a global too (``remember``);
- *following*: while a ``use_backend`` block whose backend differs from the default is
  alive (in its context, or in an asyncio task that copied it), the globals are
  ``_forwarders`` stand-ins that follow the running context, and the names that have none
  are removed, so the module's ``__getattr__`` answers them per context. When the last
  such block's token is collected, the direct objects come back.

The two tables are computed once per backend (or set of backends) and swapped with one
``dict.update``. ``dir()`` stays the module's own ``__all__``.
"""

from __future__ import annotations

from collections.abc import Iterable
from types import ModuleType
from typing import Any

from .._backend_choice import _landscape
from .._backends import _superset
from ._forwarders import ABSENT, stand_in

__all__ = ["PublicNames", "bind_library_names"]


class PublicNames:
    """The names of one public module that are the backend library's (see the module doc).

    ``part`` is ``""`` for the top level, or the extension (``"linalg"``, ``"fft"``) whose
    backend namespace is that attribute of the top-level backend namespace.
    """

    def __init__(self, module_globals: dict[str, Any], own: Iterable[str], part: str) -> None:
        self._globals = module_globals
        self._module = module_globals["__name__"]
        self._own = frozenset(own)
        self._part = part
        #: The direct table of each default's namespace: name -> the library's object.
        self._direct: dict[ModuleType, dict[str, Any]] = {}
        #: The following table of each (default, live namespaces): name -> stand-in; and
        #: the names without one (answered by ``__getattr__``).
        self._following: dict[tuple[ModuleType, frozenset[ModuleType]], dict[str, Any]] = {}
        self._absent: dict[tuple[ModuleType, frozenset[ModuleType]], set[str]] = {}
        #: The bound table (one of the above, never a copy); the namespace whose direct
        #: objects it holds, or the key of the following table it is.
        self._installed: dict[str, Any] = {}
        self._source: ModuleType | None = None
        self._key: tuple[ModuleType, frozenset[ModuleType]] | None = None
        #: From one table to another (by their ids; the tables are kept with the step so
        #: that no id is reused): the names to remove and those to set. Cleared whenever
        #: a table changes.
        self._steps: dict[tuple[int, int], tuple[Any, Any, tuple[str, ...], dict[str, Any]]] = {}

    def _namespace(self, namespace: ModuleType) -> ModuleType:
        return getattr(namespace, self._part) if self._part else namespace

    def _direct_table(self, source: ModuleType) -> dict[str, Any]:
        table = self._direct.get(source)
        if table is None:
            library = _superset.library_of(source)
            found = vars(library)
            names = getattr(library, "__all__", None) or list(found)
            table = self._direct[source] = {
                name: found[name]
                for name in names
                if name in found and not name.startswith("_") and name not in self._own
            }
        return table

    def _stand_in(self, key: tuple[ModuleType, frozenset[ModuleType]], name: str) -> Any:
        """The stand-in of ``name`` for the live namespaces of ``key``, or ``ABSENT``."""
        default, live = key
        objects = {}  # the default's first: its object names the stand-in
        for namespace in (default, *(namespace for namespace in live if namespace is not default)):
            try:
                objects[namespace] = getattr(self._library(namespace), name)
            except AttributeError:
                return ABSENT

        def resolve(namespace: ModuleType) -> Any:
            return _superset.backend_attribute(self._namespace(namespace), self._module, name)

        return stand_in(objects, f"{self._module}.{name}", resolve)

    def _library(self, namespace: ModuleType) -> ModuleType:
        return _superset.library_of(self._namespace(namespace))

    def _following_table(self, key: tuple[ModuleType, frozenset[ModuleType]]) -> dict[str, Any]:
        table = self._following.get(key)
        if table is None:
            table, absent = {}, set()
            for name in self._direct_table(self._namespace(key[0])):
                entry = self._stand_in(key, name)
                if entry is ABSENT:
                    absent.add(name)
                else:
                    table[name] = entry
            self._following[key], self._absent[key] = table, absent
        return table

    def update(self, default: ModuleType, others: frozenset[ModuleType]) -> None:
        """The listener: bind the direct objects of ``default``, or stand-ins while ``others``."""
        if others:
            key = (default, others | {default})
            self._install(self._following_table(key))
            self._source, self._key = None, key
        else:
            source = self._namespace(default)
            self._install(self._direct_table(source))
            self._source, self._key = source, None

    def _install(self, table: dict[str, Any]) -> None:
        previous = self._installed
        if table is previous:
            return
        step = self._steps.get((id(previous), id(table)))
        if step is None:
            gone = tuple(previous.keys() - table.keys())
            changed = {name: v for name, v in table.items() if previous.get(name, ABSENT) is not v}
            step = self._steps[id(previous), id(table)] = (previous, table, gone, changed)
        namespace = self._globals
        for name in step[2]:
            if namespace.get(name, ABSENT) is previous[name]:
                del namespace[name]
        namespace.update(step[3])
        self._installed = table

    def remember(self, source: ModuleType, name: str, value: Any) -> None:
        """Keep ``name`` as a global after ``__getattr__`` found ``value`` in ``source``.

        While the globals are ``source``'s direct objects, ``value`` itself; while they
        follow the context, its stand-in, where it has one.
        """
        if name in self._own or name in self._installed:
            return
        with _landscape.locked():
            if name in self._installed:
                return
            if self._source is source:
                entry = value
                self._following.clear()  # built from the direct table, which grows
                self._absent.clear()
            elif self._key is not None and name not in self._absent[self._key]:
                entry = self._stand_in(self._key, name)
                if entry is ABSENT:
                    self._absent[self._key].add(name)
                    return
            else:
                return
            self._steps.clear()
            self._installed[name] = entry  # the bound table itself
            self._globals[name] = entry


def bind_library_names(module_globals: dict[str, Any], own: Iterable[str], part: str) -> None:
    """The one entry point: make the backend library's names globals of a public module
    (``module_globals``: the package's, or those of the extension ``part``, ``"linalg"`` or
    ``"fft"``; ``""`` for the top level), rebound from then on when what code may see
    changes (see the module doc). Each public module calls it once, at the foot of its
    import (an extension when it is first used).

    ``own`` adds to the names the module keeps as its own: its globals now, and the names
    its ``__getattr__`` gives (the top level's lazy submodules and computed flags, an
    extension's ``__all__``).
    """
    names = PublicNames(module_globals, {*module_globals, *own}, part)
    _superset.public_modules[names._module] = names
    _landscape.add_listener(names.update)
