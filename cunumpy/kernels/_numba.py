"""Numba, found without importing it and imported on first use.

Numba comes with the ``kernels`` extra (the CPU targets); numba-cuda, which provides
``numba.cuda``, comes with the GPU extras (``cuda12``, ``cuda13``).
"""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType

__all__ = ["numba_installed", "require_numba", "require_numba_cuda", "simulator_enabled"]


def numba_installed() -> bool:
    """Return whether Numba can be imported, without importing it."""
    if "numba" in sys.modules:
        return sys.modules["numba"] is not None
    try:
        return importlib.util.find_spec("numba") is not None
    except (ImportError, ValueError):
        return False


def require_numba(func: str) -> ModuleType:
    """Return the ``numba`` module, or raise ``ImportError`` naming ``func`` and the extra."""
    try:
        import numba
    except ImportError as exc:
        msg = (
            f"{func}: portable kernels are compiled by Numba, which cannot be imported "
            f"({exc}); install the `kernels` extra: pip install 'cunumpy[kernels]'."
        )
        raise ImportError(msg) from exc
    return numba


def require_numba_cuda(func: str) -> ModuleType:
    """Return ``numba.cuda`` (numba-cuda), or raise ``ImportError`` naming ``func`` and the extras."""
    require_numba(func)
    try:
        from numba import cuda
    except ImportError as exc:
        msg = (
            f"{func}: running a portable kernel on a GPU needs numba-cuda, which failed to "
            f"import ({exc}); install it with the GPU extra: pip install 'cunumpy[cuda12]' "
            "or 'cunumpy[cuda13]'."
        )
        raise ImportError(msg) from exc
    return cuda


def simulator_enabled() -> bool:
    """Return whether Numba's CUDA simulator is on (``NUMBA_ENABLE_CUDASIM=1``); imports Numba.

    Numba reads the variable once, when ``numba.cuda`` is first imported; the answer is
    its configuration (numba-cuda's own, or Numba's for older releases).
    """
    import numba

    try:
        from numba.cuda.core import config  # numba-cuda >= 0.20 keeps its own
    except ImportError:
        config = numba.config
    return bool(getattr(config, "ENABLE_CUDASIM", False))
