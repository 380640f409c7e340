"""Whether device buffers go to MPI directly: the recorded answer, the probe, the requirement.

One decision serves every path that hands CuPy arrays to MPI (``mpi_buffer``, ``exchange``
and the collectives): the answer recorded by ``mpi_is_cuda_aware`` or
``set_mpi_cuda_aware`` when there is one, else ``CUNUMPY_MPI_CUDA_AWARE``, else direct
for the serial stand-in (it copies device arrays itself), else ``is_cuda_aware()``.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from .._backend_choice import _config
from .._mpi_job._serial import default_comm, get_mpi, is_serial, mpi_of
from .._placement._transfer_log import active, describe, note_transfer
from ._env import CUDA_AWARE_ENV_VAR as _OVERRIDE  # an alias: documented in _env only
from ._env import detect_cuda_awareness, is_cuda_aware, known_cuda_awareness

__all__ = [
    "device_buffers_direct",
    "get_mpi_cuda_aware",
    "mpi_is_cuda_aware",
    "require_cuda_aware_mpi",
    "set_mpi_cuda_aware",
]

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
    if os.environ.get(_OVERRIDE, "").strip() != "":
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
