"""The public home of a public class: the module users import it from.

A class defined in a private module (``cunumpy._settings._cupy_probe``) and exported by a
public one (``cunumpy``) takes that module as its ``__module__``, so tracebacks, ``repr``
and the docs name ``cunumpy.CupyUnavailableError``, never a private path. Each public
module calls :func:`set_public_homes` once, after its ``__all__``; of the public modules
that export a class, the shortest name is its home (``cunumpy`` before ``cunumpy.cuda``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

__all__ = ["set_public_homes"]


def set_public_homes(module: str, names: Iterable[str], namespace: dict[str, Any]) -> None:
    """Make ``module`` the ``__module__`` of each of its classes ``names`` that cunumpy
    defines in a private module, or that a public module with a longer name claimed.

    >>> import cunumpy
    >>> cunumpy.CupyUnavailableError.__module__
    'cunumpy'
    """
    for name in names:
        value = namespace.get(name)
        if not isinstance(value, type):
            continue
        home = value.__module__
        if not home.startswith("cunumpy.") or home == module:
            continue
        if any(part.startswith("_") for part in home.split(".")) or len(module) < len(home):
            value.__module__ = module
