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
one step later, with ``backend_attribute``: a name they do not define is looked up, at
each access, in the namespace of the running context's backend (the library's object on
NumPy, CuPy's on CuPy). Nothing is cached there, so the names follow ``set_backend`` and
``use_backend``; the standard's names stay the modules' own globals, as fast as before.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

__all__ = ["backend_attribute", "library_attribute", "standard_dir"]


def library_attribute(library: ModuleType, namespace: str, name: str) -> Any:
    """``library``'s public attribute ``name``, for the namespace module named ``namespace``.

    Private and dunder names are not passed on (``AttributeError``), so the import
    system and introspection see the namespace module as it is. The caller keeps the
    result as a module global (one module ``__getattr__`` call per name).
    """
    if name.startswith("_"):
        msg = f"module {namespace!r} has no attribute {name!r}"
        raise AttributeError(msg)
    try:
        return getattr(library, name)
    except AttributeError as exc:
        msg = (
            f"module {namespace!r} has no attribute {name!r}: it is neither a name of the "
            f"Array API standard nor of {library.__name__} ({exc})"
        )
        raise AttributeError(msg) from None


def standard_dir(namespace_globals: dict[str, Any]) -> tuple[str, ...]:
    """The names a namespace module defines itself: the standard's, plus its dunders.

    Taken at the end of the module's import, before any name of the library is cached.
    """
    return tuple(
        sorted(
            name
            for name in namespace_globals
            if not name.startswith("_") or (name.startswith("__") and name.endswith("__"))
        )
    )


def backend_attribute(namespace: ModuleType, module: str, name: str) -> Any:
    """The current backend's object ``name`` for the public module named ``module``.

    ``namespace`` is the backend namespace module (or its ``linalg`` / ``fft``) of the
    running context; its own ``__getattr__`` finds the library's object, so that private
    names and the namespace's imports are never passed on. Not cached: the caller asks at
    each access, so the answer follows the backend.
    """
    if name.startswith("_"):
        msg = f"module {module!r} has no attribute {name!r}"
        raise AttributeError(msg)
    try:
        return namespace.__getattr__(name)
    except AttributeError:
        library = namespace.__name__.removeprefix("cunumpy._backends.")
        msg = (
            f"module {module!r} has no attribute {name!r}: it is neither cunumpy's nor "
            f"{library}'s (the current backend's)"
        )
        raise AttributeError(msg) from None
