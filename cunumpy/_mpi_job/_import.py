"""mpi4py, imported on first use, with one error and one install hint when it cannot be.

``require_mpi`` is the only place that imports ``mpi4py.MPI``: ``get_mpi(use_mpi=True)``,
the launcher's check of ``get_mpi()``, the collectives and the device-aware checks all
say the same thing, with the same install hint, when it fails.
"""

from __future__ import annotations

import sys
from types import ModuleType

from .._settings._distributions import install_hint

__all__ = ["MpiUnavailableError", "require_mpi", "unusable_reason"]


class MpiUnavailableError(RuntimeError, ImportError):
    """mpi4py (or the MPI library it loads) is not usable here.

    A ``RuntimeError`` (cunumpy's rule for a missing capability) and an ``ImportError``
    (what ``mpi4py``'s import raised), as ``cunumpy.CupyUnavailableError`` is for CuPy.

    Examples
    --------
    >>> import cunumpy as xp
    >>> issubclass(xp.mpi.MpiUnavailableError, RuntimeError)
    True
    >>> issubclass(xp.mpi.MpiUnavailableError, ImportError)
    True
    """


_unusable: str | None = None  # why mpi4py could not be imported, once it failed


def require_mpi(func: str) -> ModuleType:
    """Import and return ``mpi4py.MPI``, or raise ``MpiUnavailableError`` naming ``func`` and why.

    mpi4py 4 imports without an MPI library but raises ``RuntimeError("cannot load MPI
    library")`` when ``mpi4py.MPI`` is imported (older releases raise ``ImportError``);
    both, and the loader's ``OSError``, become one ``MpiUnavailableError`` (a
    ``RuntimeError`` and an ``ImportError``) that names ``func``, says why and what to
    install. The failure is remembered: MPI is not retried.
    """
    global _unusable
    module = sys.modules.get("mpi4py.MPI")
    if module is not None:
        return module
    if _unusable is None:
        try:
            from mpi4py import MPI
        except (ImportError, RuntimeError, OSError) as exc:
            lines = str(exc).strip().splitlines()
            first = lines[0] if lines else ""
            more = f" ({len(lines) - 1} more line(s) from the loader)" if len(lines) > 1 else ""
            _unusable = f"{type(exc).__name__}: {first}{more}"
        else:
            return MPI
    msg = (
        f"{func}: mpi4py is not usable ({_unusable}); {install_hint('mpi')}, or an MPI "
        f"library that mpi4py can load (see mpi4py's MPI4PY_LIBMPI)."
    )
    raise MpiUnavailableError(msg)


def unusable_reason() -> str | None:
    """Why mpi4py cannot be used, or ``None`` when it can (imports it on first call)."""
    try:
        require_mpi("unusable_reason")
    except MpiUnavailableError:
        return _unusable
    return None
