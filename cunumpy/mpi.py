"""Multi-GPU programs with MPI: bind ranks to GPUs, synchronize, exchange arrays.

The same program runs on NumPy (CPU ranks) and on CuPy (one GPU per rank), chosen by
``CUNUMPY_BACKEND``. Importing this module imports neither mpi4py nor CuPy; mpi4py is
imported (which initializes MPI) by the first function that needs it.

Binding and synchronization
    ``bind_local_device``, ``local_rank``, ``synchronize_for_mpi``, ``is_cuda_aware``.
Collectives (called by every rank of the communicator)
    ``allreduce``, ``bcast``, ``allgather``, ``gather``, ``scatter``.
Point to point
    ``send``, ``recv``, ``sendrecv``.

The collectives check every rank's input together before moving data, so bad input
raises the same exception on every rank instead of hanging or corrupting memory. CuPy
arrays go to MPI directly when it is CUDA-aware and through pinned host memory when
it is not.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from . import _config
from ._mpi_collectives import REDUCTION_OPS, allgather, allreduce, bcast, gather, scatter
from ._mpi_env import (
    CUDA_AWARE_ENV_VAR,
    LOCAL_RANK_ENV_VARS,
    CudaAwareness,
    default_comm,
    detect_cuda_awareness,
    local_rank_from_environment,
)
from ._mpi_p2p import recv, send, sendrecv

__all__ = [
    "CUDA_AWARE_ENV_VAR",
    "LOCAL_RANK_ENV_VARS",
    "REDUCTION_OPS",
    "CudaAwareness",
    "allgather",
    "allreduce",
    "bcast",
    "bind_local_device",
    "gather",
    "is_cuda_aware",
    "local_rank",
    "recv",
    "scatter",
    "send",
    "sendrecv",
    "synchronize_for_mpi",
]

_detected: CudaAwareness | None = None


def local_rank(comm: Any = None) -> int:
    """Return this process's rank among the ranks on the same node.

    The launcher's environment is read first (``OMPI_COMM_WORLD_LOCAL_RANK``,
    ``MPI_LOCALRANKID``, ``MV2_COMM_WORLD_LOCAL_RANK``, ``PMI_LOCAL_RANK``,
    ``PMIX_LOCAL_RANK``, ``PALS_LOCAL_RANKID``, ``SLURM_LOCALID``, ...; see
    ``LOCAL_RANK_ENV_VARS``), which works before MPI is initialized. Without any of them,
    ``comm`` is split into shared-memory groups (``Split_type(COMM_TYPE_SHARED)``), a
    collective call that every rank of ``comm`` must make.

    Parameters
    ----------
    comm : mpi4py.MPI.Comm, optional
        The communicator to split when the environment says nothing; ``COMM_WORLD`` by
        default.

    Returns
    -------
    int
        The node-local rank, from 0.

    Raises
    ------
    ValueError
        If a launcher variable holds something other than a non-negative integer.
    RuntimeError
        If the environment says nothing and mpi4py is not usable.

    Examples
    --------
    >>> from cunumpy import mpi
    >>> mpi.local_rank() >= 0
    True
    """
    found = local_rank_from_environment()
    if found is not None:
        return found[0]
    comm = default_comm(comm, "local_rank")
    from mpi4py import MPI

    node = comm.Split_type(MPI.COMM_TYPE_SHARED, key=comm.Get_rank())
    try:
        return int(node.Get_rank())
    finally:
        node.Free()


def bind_local_device(comm: Any = None) -> int | None:
    """Make this rank's GPU the current device, one GPU per rank on each node.

    The device is ``local_rank(comm) % number of visible GPUs``, so ranks on a node
    spread over its GPUs, and a rank that sees a single GPU (for example with
    ``srun --gpus-per-task=1``, which sets ``CUDA_VISIBLE_DEVICES`` per rank) uses it.
    Call it at the start of the program, before creating arrays. On the NumPy backend it
    does nothing.

    Parameters
    ----------
    comm : mpi4py.MPI.Comm, optional
        Used only when no launcher variable gives the local rank; see ``local_rank``.

    Returns
    -------
    int or None
        The index of the device made current, or ``None`` on the NumPy backend.

    Raises
    ------
    RuntimeError
        On the CuPy backend, if CuPy is not usable (the reason is given).

    Examples
    --------
    >>> import cunumpy
    >>> from cunumpy import mpi
    >>> cunumpy.get_backend()
    'numpy'
    >>> print(mpi.bind_local_device())
    None
    """
    if _config.get_backend() == "numpy":
        return None
    from ._cupy import require_cupy, visible_gpu_count

    cupy = require_cupy("bind_local_device")
    count = visible_gpu_count()
    device = local_rank(comm) % count
    cupy.cuda.Device(device).use()
    return device


def synchronize_for_mpi() -> None:
    """Wait until all GPU work queued on the current device is done, so MPI sees it.

    CuPy returns before kernels and copies finish; MPI reads and writes device memory
    without CuPy's knowledge. Call this before passing CuPy buffers to mpi4py yourself
    (the functions of this module do it for you). It waits for every stream of the
    current device. It does nothing on the NumPy backend.

    Examples
    --------
    >>> from cunumpy import mpi
    >>> mpi.synchronize_for_mpi()
    """
    cupy = sys.modules.get("cupy")
    if cupy is None and _config.get_backend() == "numpy":
        return
    from ._cupy import cupy_available

    if cupy_available():
        sys.modules["cupy"].cuda.Device().synchronize()


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
