"""Binding ranks to GPUs and making GPU work visible to MPI: the start of every MPI program."""

from __future__ import annotations

import sys
from typing import Any

from .. import _config
from ._env import default_comm, local_rank_from_environment

__all__ = ["bind_local_device", "local_rank", "synchronize_for_mpi"]


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
    from .._cupy import require_cupy, visible_gpu_count

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
    from .._cupy import cupy_available

    if cupy_available():
        sys.modules["cupy"].cuda.Device().synchronize()
