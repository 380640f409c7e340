"""The node-local rank: this process's rank among the ranks on its node.

The launcher's variables give it before MPI starts (``LOCAL_RANK_ENV_VARS``); without
them, the communicator is split by node. ``bind_local_device`` (``cunumpy.cuda`` and
``cunumpy.mpi``) picks a GPU with it, and ``cunumpy.mpi`` makes ``local_rank`` public.
"""

from __future__ import annotations

import os
from typing import Any

from ._serial import default_comm, is_serial, launched_under_mpi, mpi_of

__all__ = ["LOCAL_RANK_ENV_VARS", "local_rank", "local_rank_from_environment"]

#: Variables that launchers set to the node-local rank, checked in this order.
LOCAL_RANK_ENV_VARS = (
    "OMPI_COMM_WORLD_LOCAL_RANK",  # Open MPI (mpirun/prterun)
    "MPI_LOCALRANKID",  # MPICH Hydra, Intel MPI
    "MV2_COMM_WORLD_LOCAL_RANK",  # MVAPICH2
    "PMI_LOCAL_RANK",  # PMI-based launchers (some MPICH/Cray setups)
    "PMIX_LOCAL_RANK",  # PMIx-based launchers
    "PALS_LOCAL_RANKID",  # HPE Cray PALS (mpiexec on Polaris, Aurora, ...)
    "SLURM_LOCALID",  # srun
    "FLUX_TASK_LOCAL_ID",  # Flux
    "JSM_NAMESPACE_LOCAL_RANK",  # IBM jsrun
    "LOCAL_RANK",  # torchrun and others (read last: the name is generic)
)


def local_rank_from_environment() -> tuple[int, str] | None:
    """Return ``(local_rank, variable)`` from the launcher's environment, or ``None``."""
    for name in LOCAL_RANK_ENV_VARS:
        raw = os.environ.get(name)
        if raw is None or raw.strip() == "":
            continue
        try:
            value = int(raw.strip())
        except ValueError:
            msg = (
                f"local_rank: the environment variable {name}={raw!r} is not a "
                f"non-negative integer, as a launcher would set it."
            )
            raise ValueError(msg) from None
        if value < 0:
            msg = f"local_rank: the environment variable {name}={raw!r} is negative."
            raise ValueError(msg)
        return value, name
    return None


def local_rank(comm: Any = None) -> int:
    """Return this process's rank among the ranks on the same node.

    The launcher's environment is read first (``OMPI_COMM_WORLD_LOCAL_RANK``,
    ``MPI_LOCALRANKID``, ``MV2_COMM_WORLD_LOCAL_RANK``, ``PMI_LOCAL_RANK``,
    ``PMIX_LOCAL_RANK``, ``PALS_LOCAL_RANKID``, ``SLURM_LOCALID``, ...; see
    ``LOCAL_RANK_ENV_VARS``), which works before MPI is initialized. Without any of them,
    ``comm`` is split into shared-memory groups (``Split_type(COMM_TYPE_SHARED)``), a
    collective call that every rank of ``comm`` must make. A process that no launcher
    started (see ``launched_under_mpi``) is rank 0 of its node, without MPI.

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
    if comm is None and not launched_under_mpi():
        return 0  # a serial run: one process, no MPI to ask
    comm = default_comm(comm, "local_rank")
    if is_serial(comm):
        return 0
    MPI = mpi_of(comm)

    node = comm.Split_type(MPI.COMM_TYPE_SHARED, key=comm.Get_rank())
    try:
        return int(node.Get_rank())
    finally:
        node.Free()
