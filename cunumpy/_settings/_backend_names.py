"""The backends' names: which names ``set_backend``, ``use_backend`` and ``CUNUMPY_BACKEND``
accept, and the namespace module each one stands for (``"auto"`` resolved, CuPy checked).

Stateless but for the table of names of the namespace modules loaded so far; the state
itself (the process default and the context-local choice) is ``_config``'s.
"""

from __future__ import annotations

import warnings
from types import ModuleType

__all__ = ["ACCEPTED", "BACKENDS", "ENV_VAR", "SCIPY_SUBMODULES"]

#: The backends cunumpy knows, in the order ``auto`` tries them in reverse.
BACKENDS = ("numpy", "cupy")

#: The environment variable read once, when cunumpy is imported.
ENV_VAR = "CUNUMPY_BACKEND"

#: The SciPy subpackages that ``cupyx.scipy`` has as well: those ``xp.scipy`` forwards, and
#: the fake CuPy's ``cupyx.scipy``.
SCIPY_SUBMODULES = (
    "fft",
    "fftpack",
    "interpolate",
    "linalg",
    "ndimage",
    "signal",
    "sparse",
    "sparse.csgraph",
    "sparse.linalg",
    "spatial",
    "special",
    "stats",
)


#: The backend's name of each namespace module (filled as the namespaces are loaded).
_NAMES: dict[ModuleType, str] = {}


def _numpy_namespace() -> ModuleType:
    from .._backends import numpy as numpy_namespace

    _NAMES[numpy_namespace] = "numpy"
    return numpy_namespace


#: The names ``set_backend``, ``use_backend`` and ``CUNUMPY_BACKEND`` accept.
ACCEPTED = (*BACKENDS, "auto")


def _canonical_name(name: object, func: str) -> str:
    """``name`` as one of ``ACCEPTED`` (case and surrounding spaces ignored), or raise."""
    if not isinstance(name, str):
        msg = f"{func}: `name` must be a str, one of {ACCEPTED!r}, not {name!r}."
        raise TypeError(msg)
    canonical = name.strip().lower()
    if canonical not in ACCEPTED:
        msg = f"{func}: unknown backend {name!r}; the valid names are {ACCEPTED!r}."
        raise ValueError(msg)
    return canonical


def _cupy_namespace() -> ModuleType:
    from .._backends import cupy as cupy_namespace

    _NAMES[cupy_namespace] = "cupy"
    return cupy_namespace


def _namespace_for(
    name: object, func: str, *, strict: bool = True, stacklevel: int = 2
) -> ModuleType:
    """Return the namespace module of backend ``name`` (``"auto"`` resolved).

    ``"cupy"`` where CuPy is not usable raises ``CupyUnavailableError`` with the reason
    when ``strict``; otherwise it warns (``CupyUnavailableWarning``, with the reason) and
    gives NumPy, as CuNumpy 0.7.1 did. ``"auto"`` gives CuPy where usable, silently.
    ``stacklevel`` is the warning's stack level as seen from the caller.
    """
    canonical = _canonical_name(name, func)
    if canonical == "numpy":
        return _numpy_namespace()
    from ._cupy_probe import CupyUnavailableWarning, cupy_available, require_cupy

    if canonical == "auto":
        return _cupy_namespace() if cupy_available() else _numpy_namespace()
    if strict or cupy_available():
        require_cupy(func)
        return _cupy_namespace()
    from ._cupy_probe import cupy_unavailable_reason

    msg = (
        f"{func}: CuPy was asked for but is not usable here ({cupy_unavailable_reason()}); "
        f"staying on NumPy. Pass strict=True to raise instead, or 'auto' to take CuPy only "
        f"where it is usable."
    )
    warnings.warn(msg, CupyUnavailableWarning, stacklevel=stacklevel + 1)
    return _numpy_namespace()
