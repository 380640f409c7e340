"""Numba, found without importing it and imported on first use.

Numba comes with the ``kernels`` extra (the CPU targets); numba-cuda, which provides
``numba.cuda``, comes with the GPU extras (``cuda12``, ``cuda13``).
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import warnings
from types import ModuleType

from ..._settings._distributions import install_hint

__all__ = [
    "cuda_target_problem",
    "gpu_available",
    "gpu_unavailable_reason",
    "numba_installed",
    "require_numba",
    "require_numba_cuda",
    "simulator_enabled",
]

_UNPROBED = object()
_cuda_target_problem: object = _UNPROBED  # None when numba-cuda can compile, else why not


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
            f"({exc}); {install_hint('kernels')}."
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
            f"import ({exc}); {install_hint('numba-cuda12', 'numba-cuda13')}."
        )
        raise ImportError(msg) from exc
    return cuda


def cuda_target_problem() -> str | None:
    """Why numba-cuda cannot compile kernels with the installed NumPy, or ``None``; cached.

    numba-cuda loads its implementations of NumPy functions at the first compilation, and
    a numba-cuda that does not know the installed NumPy fails there for every kernel:
    numba-cuda 0.30 (in maintenance mode) registers ``np.row_stack``, which NumPy 2.5
    removed (NVIDIA/numba-cuda#907). This loads that module now, to say so up front.
    """
    global _cuda_target_problem
    if _cuda_target_problem is _UNPROBED:
        _cuda_target_problem = _probe_cuda_target()
    return _cuda_target_problem if isinstance(_cuda_target_problem, str) else None


def _probe_cuda_target() -> str | None:
    import numpy as np

    try:
        with warnings.catch_warnings():  # numba-cuda's own deprecation warnings on new NumPy
            warnings.simplefilter("ignore", DeprecationWarning)
            importlib.import_module("numba.cuda.np.arrayobj")
    except ModuleNotFoundError:
        return None  # an older numba-cuda, which uses Numba's own implementations
    except Exception as exc:
        version = _version("numba-cuda")
        return (
            f"numba-cuda {version} cannot compile kernels with NumPy {np.__version__} "
            f"({type(exc).__name__}: {exc}); numba-cuda supports NumPy up to 2.4 "
            "(NVIDIA/numba-cuda#907), so install numpy<2.5 to run portable kernels on a GPU"
        )
    return None


def _version(distribution: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(distribution)
    except PackageNotFoundError:
        return "(version unknown)"


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


def gpu_available() -> bool:
    """Return whether portable kernels can run on a GPU here.

    That takes a usable GPU (``cunumpy.cupy_available()``), Numba with numba-cuda, and a
    numba-cuda that can compile with the installed NumPy; the simulator must be off.
    ``gpu_unavailable_reason()`` says what is missing. CUDA C kernels
    (:class:`ElementwiseKernel` and the others) need only CuPy.

    Examples
    --------
    >>> from cunumpy import kernels
    >>> kernels.gpu_available() in (True, False)
    True
    """
    return gpu_unavailable_reason() is None


def gpu_unavailable_reason() -> str | None:
    """Return why portable kernels cannot run on a GPU here, or ``None`` when they can.

    Examples
    --------
    >>> import cunumpy as xp
    >>> from cunumpy import kernels
    >>> reason = kernels.gpu_unavailable_reason()
    >>> reason is None or isinstance(reason, str)
    True
    >>> xp.cupy_available() or reason.startswith("no usable GPU")
    True
    """
    from ..._settings._cupy_probe import cupy_available, cupy_unavailable_reason

    if not cupy_available():
        return f"no usable GPU: {cupy_unavailable_reason()}"
    if not numba_installed():
        return f"Numba is not installed ({install_hint('kernels')})"
    try:
        from numba import cuda  # noqa: F401
    except ImportError as exc:
        return (
            f"numba-cuda cannot be imported ({exc}); {install_hint('numba-cuda12', 'numba-cuda13')}"
        )
    if simulator_enabled():
        return "Numba's CUDA simulator is on (NUMBA_ENABLE_CUDASIM=1); it runs kernels on NumPy arrays only"
    return cuda_target_problem()
