"""The superset rule of the backend namespaces: standard names ours, every other name the library's.

Each backend namespace module (and its ``linalg`` and ``fft``) defines the standard's
names as module globals, so Python finds them without ever calling the module's
``__getattr__``: the standard names cost nothing extra. Only a name that is not a
global (``xp.pad``, ``xp.einsum``, ``xp.linalg.lstsq``) reaches ``__getattr__``, which
returns the backend library's own object, as array-api-compat's namespaces do, and
keeps it as a module global, so that later look-ups of the name are as fast as those
of standard names. ``dir()`` lists the standard names only (taken when the module has
been imported), so completion and ``help`` show what is portable.

The public modules ``cunumpy``, ``cunumpy.linalg`` and ``cunumpy.fft`` apply the same rule
one step later: the library's names are their module globals too, bound to the process
default's objects and rebound when the backends code may see change
(``cunumpy._calls._public_names``). A name that is not a global reaches the module's
``__getattr__``, which asks ``backend_attribute`` for the running context's backend's
object; where that is the default's, the public module keeps it as a global
(``public_modules``).
"""

from __future__ import annotations

import sys
from types import ModuleType
from typing import Any, Protocol

__all__ = [
    "backend_attribute",
    "library_attribute",
    "library_of",
    "public_modules",
    "standard_dir",
]


class _Remembers(Protocol):
    def remember(self, source: ModuleType, name: str, value: Any) -> None: ...


#: The public modules' name bindings, by module name (filled by ``cunumpy._calls._public_names``).
public_modules: dict[str, _Remembers] = {}


#: How messages name the namespace modules that live in private modules.
_SHOWN = {
    "cunumpy._backends.dask": "module 'cunumpy.dask{}'",
    "cunumpy._backends.numpy": "cunumpy's NumPy namespace{}",
    "cunumpy._backends.cupy": "cunumpy's CuPy namespace{}",
}


def _shown(namespace: str) -> str:
    """``namespace`` as a message names it: its public spelling, never a private path."""
    for private, shown in _SHOWN.items():
        if namespace == private or namespace.startswith(private + "."):
            rest = namespace[len(private) :]
            if rest and not shown.startswith("module"):
                rest = f"'s {rest[1:]}"  # cunumpy's NumPy namespace's linalg
            return shown.format(rest)
    return f"module {namespace!r}"


def library_attribute(library: ModuleType, namespace: str, name: str) -> Any:
    """``library``'s public attribute ``name``, for the namespace module named ``namespace``.

    Private and dunder names are not passed on (``AttributeError``), so the import
    system and introspection see the namespace module as it is. The caller keeps the
    result as a module global (one module ``__getattr__`` call per name).
    """
    if name.startswith("_"):
        msg = f"{_shown(namespace)} has no attribute {name!r}"
        raise AttributeError(msg)
    try:
        return getattr(library, name)
    except AttributeError as exc:
        msg = (
            f"{_shown(namespace)} has no attribute {name!r}: it is neither a name of the "
            f"Array API standard nor of {library.__name__} ({exc})"
        )
        raise AttributeError(msg) from None


def standard_dir(namespace_globals: dict[str, Any]) -> tuple[str, ...]:
    """The names a namespace module defines itself: the standard's, plus its dunders.

    Taken at the end of the module's import, before any name of the library is cached.
    Only identifiers: where pytest rewrites the asserts of cunumpy's modules (it does for
    every module of an installed distribution with a ``pytest11`` entry point, as
    cunumpy-xp has), a module also holds ``@py_builtins`` and ``@pytest_ar``.
    """
    return tuple(sorted(name for name in namespace_globals if defined_name(name)))


def defined_name(name: str) -> bool:
    """Whether ``name`` is a public name or dunder that a module's code defines (an
    identifier: not a global that a tool such as pytest's assertion rewriting adds)."""
    return name.isidentifier() and (
        not name.startswith("_") or (name.startswith("__") and name.endswith("__"))
    )


def backend_attribute(namespace: ModuleType, module: str, name: str) -> Any:
    """The current backend's object ``name`` for the public module named ``module``.

    ``namespace`` is the backend namespace module (or its ``linalg`` / ``fft``) of the
    running context; its own ``__getattr__`` finds the library's object, so that private
    names and the namespace's imports are never passed on. The public module's binding
    keeps the answer as a global when that is right for every context (``remember``).
    """
    if name.startswith("_"):
        msg = f"module {module!r} has no attribute {name!r}"
        raise AttributeError(msg)
    try:
        value = namespace.__getattr__(name)
    except AttributeError:
        raise _missing_name(module, library_of(namespace), name) from None
    binding = public_modules.get(module)
    if binding is not None:
        binding.remember(namespace, name, value)
    return value


def _missing_name(module: str, library: ModuleType, name: str) -> AttributeError:
    """The error of the public module named ``module`` for a name ``library`` lacks too.

    Where the library's own error says more than that the name is missing (NumPy 2 says
    where each name it removed went: ``np.byte_bounds``, ``np.NaN``), its text is given.
    """
    default = f"module {library.__name__!r} has no attribute {name!r}"
    said = default
    try:
        getattr(library, name)
    except AttributeError as exc:
        said = str(exc)
    if not said.startswith(default):
        msg = (
            f"module {module!r} has no attribute {name!r}, nor has {library.__name__}, the "
            f"current backend's library, which says: {said}"
        )
    else:
        msg = (
            f"module {module!r} has no attribute {name!r}: it is neither cunumpy's nor "
            f"{library.__name__}'s (the current backend's)"
        )
    return AttributeError(msg)


def library_of(namespace: ModuleType) -> ModuleType:
    """The library whose names the backend namespace passes on (``numpy.linalg`` for
    ``cunumpy._backends.numpy.linalg``): its ``__getattr__`` gives that library's objects."""
    return sys.modules[namespace.__name__.removeprefix("cunumpy._backends.")]
