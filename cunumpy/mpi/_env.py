"""Whether MPI is CUDA-aware, detected: ``CUNUMPY_MPI_CUDA_AWARE``, the library's query, hints.

Nothing here imports mpi4py at module import time: ``import cunumpy.mpi`` stays free of
mpi4py (and of CuPy) until a function that needs MPI is called. The launcher, the
node-local rank and mpi4py on first use are ``cunumpy._mpi_job``'s.
"""

from __future__ import annotations

import ctypes
import os
from typing import NamedTuple

from .._mpi_job._import import require_mpi

__all__ = [
    "CUDA_AWARE_ENV_VAR",
    "CudaAwareness",
    "detect_cuda_awareness",
    "is_cuda_aware",
    "known_cuda_awareness",
]

#: Set to ``1``/``0`` to override the detection of CUDA-aware MPI.
CUDA_AWARE_ENV_VAR = "CUNUMPY_MPI_CUDA_AWARE"

_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off")


class CudaAwareness(NamedTuple):
    """Whether MPI can read and write GPU memory directly, and how that was decided.

    It unpacks as ``aware, reason = is_cuda_aware()`` and is truthy only when ``aware``.
    """

    aware: bool
    reason: str

    def __bool__(self) -> bool:
        return self.aware


def _loaded_mpi_libraries() -> list[str]:
    """Paths of the MPI shared libraries this process has loaded (Linux), best first."""
    try:
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as maps:
            lines = maps.read().splitlines()
    except OSError:
        return []
    found: list[str] = []
    for line in lines:
        path = line.rsplit(" ", 1)[-1]
        base = os.path.basename(path)
        if base.startswith("libmpi") and ".so" in base and path not in found:
            found.append(path)
    return found


def _query_library() -> CudaAwareness | None:
    """Ask the loaded MPI library through its CUDA query extension, if it has one."""
    for path in _loaded_mpi_libraries():
        try:
            lib = ctypes.CDLL(path, mode=getattr(os, "RTLD_NOLOAD", 0) | ctypes.RTLD_GLOBAL)
        except OSError:
            continue
        query = getattr(lib, "MPIX_Query_cuda_support", None)  # Open MPI
        if query is not None:
            query.restype = ctypes.c_int
            query.argtypes = []
            if query():
                return CudaAwareness(True, f"MPIX_Query_cuda_support() of {path} returned 1")
            return CudaAwareness(
                False, f"MPIX_Query_cuda_support() of {path} returned 0 (built without CUDA)"
            )
        gpu_query = getattr(lib, "MPIX_GPU_query_support", None)  # MPICH >= 4
        if gpu_query is not None:
            supported = ctypes.c_int(0)
            gpu_query.restype = ctypes.c_int
            gpu_query.argtypes = [ctypes.c_int, ctypes.POINTER(ctypes.c_int)]
            # MPIX_GPU_SUPPORT_CUDA is 0 in MPICH's mpi.h.
            if gpu_query(0, ctypes.byref(supported)) == 0:
                aware = bool(supported.value)
                return CudaAwareness(
                    aware, f"MPIX_GPU_query_support(CUDA) of {path} reported {int(aware)}"
                )
    return None


def known_cuda_awareness(func: str) -> CudaAwareness | None:
    """What ``CUNUMPY_MPI_CUDA_AWARE``, the library's query or a hint says, or ``None``
    when none of them says anything (then ``detect_cuda_awareness`` assumes "no")."""
    raw = os.environ.get(CUDA_AWARE_ENV_VAR)
    if raw is not None and raw.strip() != "":
        value = raw.strip().lower()
        if value in _TRUE:
            return CudaAwareness(True, f"{CUDA_AWARE_ENV_VAR}={raw!r} says so")
        if value in _FALSE:
            return CudaAwareness(False, f"{CUDA_AWARE_ENV_VAR}={raw!r} says so")
        msg = (
            f"{func}: the environment variable {CUDA_AWARE_ENV_VAR}={raw!r} is not valid; "
            f"use 1 or 0 (or true/false, yes/no, on/off), or leave it unset."
        )
        raise ValueError(msg)
    MPI = require_mpi(func)
    query = getattr(MPI, "Query_cuda_support", None)  # newer mpi4py releases
    if query is not None:
        aware = bool(query())
        return CudaAwareness(aware, f"mpi4py.MPI.Query_cuda_support() returned {aware}")
    answer = _query_library()
    if answer is not None:
        return answer
    if os.environ.get("MPICH_GPU_SUPPORT_ENABLED", "").strip() == "1":
        return CudaAwareness(True, "MPICH_GPU_SUPPORT_ENABLED=1 (HPE Cray MPICH) is set")
    if os.environ.get("MV2_USE_CUDA", "").strip() == "1":
        return CudaAwareness(True, "MV2_USE_CUDA=1 (MVAPICH2-GDR) is set")
    return None


def detect_cuda_awareness(func: str) -> CudaAwareness:
    """Decide whether MPI is CUDA-aware; see ``cunumpy.mpi.is_cuda_aware`` for the order."""
    known = known_cuda_awareness(func)
    if known is not None:
        return known
    library = require_mpi(func).Get_library_version().splitlines()[0].strip()
    return CudaAwareness(
        False,
        f"{library!r} offers no CUDA query and no hint was set; assuming not CUDA-aware "
        f"(set {CUDA_AWARE_ENV_VAR}=1 to pass GPU buffers directly)",
    )


_detected: CudaAwareness | None = None


def is_cuda_aware() -> CudaAwareness:
    """Tell whether MPI can read and write GPU memory directly, and why we think so.

    The answer comes from, in order: ``CUNUMPY_MPI_CUDA_AWARE`` (``1`` or ``0``, an
    override for libraries that cannot be queried), ``mpi4py.MPI.Query_cuda_support``
    when mpi4py has it, the MPI library's own query (Open MPI's
    ``MPIX_Query_cuda_support``, MPICH's ``MPIX_GPU_query_support``), and the hints
    ``MPICH_GPU_SUPPORT_ENABLED=1`` (HPE Cray MPICH) and ``MV2_USE_CUDA=1`` (MVAPICH2).
    Otherwise MPI is assumed not to be CUDA-aware, which is always safe: CuPy arrays are
    then staged through pinned host memory. The library's answer is cached.

    Returns
    -------
    CudaAwareness
        A named tuple ``(aware, reason)``, truthy when ``aware``.

    Raises
    ------
    RuntimeError
        If mpi4py is not usable and no override is set.
    ValueError
        If ``CUNUMPY_MPI_CUDA_AWARE`` is set to something else than 1/0.

    Examples
    --------
    >>> from cunumpy import mpi
    >>> aware, reason = mpi.is_cuda_aware()
    >>> isinstance(aware, bool) and isinstance(reason, str)
    True
    """
    global _detected
    if os.environ.get(CUDA_AWARE_ENV_VAR, "").strip() != "":
        return detect_cuda_awareness("is_cuda_aware")  # an override is never cached
    if _detected is None:
        _detected = detect_cuda_awareness("is_cuda_aware")
    return _detected
