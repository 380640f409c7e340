"""Whether device buffers go to MPI directly: the detection, the recorded answer, the probe.

Whether the MPI library is CUDA-aware is detected from ``CUNUMPY_MPI_CUDA_AWARE``, mpi4py's
or the library's own query and the hints of some libraries (``is_cuda_aware``). One
decision serves every path that hands CuPy arrays to MPI (``mpi_buffer``, ``exchange``
and the collectives): the answer recorded by ``mpi_is_cuda_aware`` or
``set_mpi_cuda_aware`` when there is one, else ``CUNUMPY_MPI_CUDA_AWARE``, else direct
for the serial stand-in (it copies device arrays itself), else ``is_cuda_aware()``.
Nothing here imports mpi4py (or CuPy) at module import time.
"""

from __future__ import annotations

import ctypes
import os
from typing import Any, NamedTuple

import numpy as np

from .._backend_choice import _config
from .._mpi_job._import import require_mpi
from .._mpi_job._serial import default_comm, get_mpi, is_serial, mpi_of
from .._placement._transfer_log import active, describe, note_transfer

__all__ = [
    "CUDA_AWARE_ENV_VAR",
    "CudaAwareness",
    "detect_cuda_awareness",
    "device_buffers_direct",
    "get_mpi_cuda_aware",
    "is_cuda_aware",
    "known_cuda_awareness",
    "mpi_is_cuda_aware",
    "require_cuda_aware_mpi",
    "set_mpi_cuda_aware",
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


_METHODS = ("probe", "query")

_recorded: bool | None = None  # set by mpi_is_cuda_aware() and set_mpi_cuda_aware()


def set_mpi_cuda_aware(value: bool | None) -> None:
    """Record whether MPI can take device (CuPy) buffers, for every cunumpy MPI call.

    ``mpi_is_cuda_aware`` records its answer itself; call this when the answer is known
    otherwise (the cluster's documentation), or to force staging through host memory.
    The recorded answer wins over ``CUNUMPY_MPI_CUDA_AWARE`` and the library's query.

    Parameters
    ----------
    value : bool or None
        Whether MPI is CUDA-aware; ``None`` forgets the recorded answer.

    Raises
    ------
    TypeError
        If `value` is not a bool (or NumPy bool) or None.

    Examples
    --------
    >>> from cunumpy import mpi
    >>> mpi.set_mpi_cuda_aware(False)  # stage device buffers through the host
    >>> mpi.get_mpi_cuda_aware()
    False
    >>> mpi.set_mpi_cuda_aware(None)
    """
    global _recorded
    if value is not None and not isinstance(value, (bool, np.bool_)):
        msg = f"set_mpi_cuda_aware: `value` must be True, False or None, not {value!r}."
        raise TypeError(msg)
    _recorded = None if value is None else bool(value)


def get_mpi_cuda_aware() -> bool | None:
    """Return the answer recorded by ``mpi_is_cuda_aware`` or ``set_mpi_cuda_aware``.

    Returns
    -------
    bool or None
        ``None`` when nothing was recorded.

    Examples
    --------
    >>> from cunumpy import mpi
    >>> mpi.get_mpi_cuda_aware() is None
    True
    """
    return _recorded


def device_buffers_direct(func: str) -> bool:
    """Whether CuPy arrays go to MPI as they are (``True``) or through host memory."""
    if _recorded is not None:
        return _recorded
    if os.environ.get(CUDA_AWARE_ENV_VAR, "").strip() != "":
        return detect_cuda_awareness(func).aware
    if is_serial(get_mpi()):
        return True  # no MPI library: the stand-in copies device arrays itself
    return is_cuda_aware().aware


def _device_buffers_in_use() -> bool:
    """Whether this process's MPI calls would carry CuPy arrays (CuPy backend, usable)."""
    if _config.get_backend() != "cupy":
        return False
    from .._settings._cupy_probe import cupy_available

    return cupy_available()


def _probe_unless_ruled_out(comm: Any) -> bool:
    """The probe, unless ``CUNUMPY_MPI_CUDA_AWARE`` or the library's query says "not
    CUDA-aware": such a library takes the device address for a host address and crashes
    (Open MPI without CUDA: a segmentation fault in ``opal_convertor_pack``)."""
    if not is_serial(comm):  # the serial stand-in copies device arrays itself
        known = known_cuda_awareness("mpi_is_cuda_aware")
        if known is not None and not known.aware:
            return False
    return _probe(comm)


def _probe(comm: Any) -> bool:
    """Send a small device array around the ring; whether every value arrived intact."""
    import cupy

    rank, size = comm.Get_rank(), comm.Get_size()
    source = (rank - 1) % size
    sent = cupy.arange(4, dtype=cupy.float64) + rank
    received = cupy.full(4, -1.0)
    cupy.cuda.Device().synchronize()
    comm.Sendrecv(sent, (rank + 1) % size, recvbuf=received, source=source)
    got = received.get()
    if active():
        what = describe("mpi.mpi_is_cuda_aware", got, "the probe's received values")
        note_transfer("to_host", what, nbytes=int(got.nbytes))
    return bool(np.array_equal(got, np.arange(4, dtype=np.float64) + source))


def mpi_is_cuda_aware(comm: Any = None, *, method: str = "probe") -> bool:
    """Find out whether MPI can send and receive device buffers; every rank agrees.

    Collective: every rank of `comm` calls it and all get the same answer, which is
    recorded for ``mpi_buffer``, ``exchange`` and the collectives. Call it once at
    startup, after ``bind_local_device``. A local failure (a crash-free wrong answer, an
    exception) counts as "not CUDA-aware" on that rank, and the ranks combine their
    answers with a logical and, so no rank is left waiting.

    Parameters
    ----------
    comm : mpi4py.MPI.Comm or SerialComm, optional
        The communicator; ``get_mpi().COMM_WORLD`` by default.
    method : {"probe", "query"}, optional
        ``"probe"`` sends a small device array to the next rank with ``Sendrecv`` and
        checks what arrives, unless ``CUNUMPY_MPI_CUDA_AWARE`` or the library's CUDA
        query already says "not CUDA-aware" (then the answer is ``False``, without the
        send that would crash such a library). ``"query"`` asks the library instead
        (``is_cuda_aware``: ``CUNUMPY_MPI_CUDA_AWARE``, mpi4py's or the library's CUDA
        query), and never sends anything.

    Returns
    -------
    bool
        ``False`` on the NumPy backend and without a usable CuPy, without touching MPI
        (and without recording anything).

    Raises
    ------
    ValueError
        For a `method` other than ``"probe"`` or ``"query"``.
    TypeError
        If `comm` is not a communicator.

    Notes
    -----
    A library that is not CUDA-aware takes the device address for a host address and
    crashes during the send, so the probe is made only where nothing says "not
    CUDA-aware"; a library that cannot be queried and is not CUDA-aware may still crash
    there: use ``method="query"`` (or set ``CUNUMPY_MPI_CUDA_AWARE=0``) for it.

    Examples
    --------
    >>> from cunumpy import mpi
    >>> mpi.mpi_is_cuda_aware()  # NumPy backend: no device buffers
    False
    """
    if not isinstance(method, str) or method not in _METHODS:
        msg = f"mpi_is_cuda_aware: `method` must be one of {_METHODS!r}, not {method!r}."
        raise ValueError(msg)
    if not _device_buffers_in_use():
        if comm is not None:
            default_comm(comm, "mpi_is_cuda_aware")  # a wrong type is still an error
        return False
    comm = default_comm(comm, "mpi_is_cuda_aware")
    try:
        ok = _probe_unless_ruled_out(comm) if method == "probe" else is_cuda_aware().aware
    except Exception:  # any local failure means "not CUDA-aware" here; the ranks agree below
        ok = False
    MPI = mpi_of(comm)
    result = bool(comm.allreduce(ok, op=MPI.LAND))
    set_mpi_cuda_aware(result)
    return result


def require_cuda_aware_mpi(comm: Any = None) -> None:
    """Raise on every rank unless MPI can take device buffers (on the CuPy backend).

    Collective like ``mpi_is_cuda_aware``, which it calls. On the NumPy backend, or
    without a usable CuPy, it returns at once without touching MPI.

    Parameters
    ----------
    comm : mpi4py.MPI.Comm or SerialComm, optional
        The communicator; ``get_mpi().COMM_WORLD`` by default.

    Raises
    ------
    RuntimeError
        If MPI is not CUDA-aware, saying how to get a CUDA-aware build.

    Examples
    --------
    >>> from cunumpy import mpi
    >>> mpi.require_cuda_aware_mpi()  # returns at once on the NumPy backend
    """
    if not _device_buffers_in_use():
        return
    if mpi_is_cuda_aware(comm):
        return
    msg = (
        "require_cuda_aware_mpi: the MPI library cannot send or receive device (CuPy) "
        "buffers (the probe failed on at least one rank). Use a CUDA-aware build (Open MPI "
        "with --with-cuda and a CUDA-enabled UCX, MPICH with a CUDA-enabled ch4:ucx, or "
        "your site's CUDA-aware MPI module) with mpi4py rebuilt against it; or let cunumpy "
        "stage device buffers through host memory (mpi.set_mpi_cuda_aware(False))."
    )
    raise RuntimeError(msg)
