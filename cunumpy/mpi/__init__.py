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

One rule for errors: every local failure (a bad array, a read-only ``out``, an
unpicklable ``op``, a root out of range, a failed allocation, ...) becomes a collective
error, agreed on before any data moves, so the same exception, naming the function and
the rank, is raised on every rank instead of leaving the others waiting; ranks that call
different collectives raise too, naming both. Only messages without a partner
(mismatched tags or communicators) can still block. CuPy arrays go to
MPI directly when it is CUDA-aware and through pinned host memory when it is not.
"""

from __future__ import annotations

from ._binding import bind_local_device, local_rank, synchronize_for_mpi
from ._collectives import REDUCTION_OPS, allgather, allreduce, bcast, gather, scatter
from ._env import (
    CUDA_AWARE_ENV_VAR,
    LOCAL_RANK_ENV_VARS,
    CudaAwareness,
    is_cuda_aware,
)
from ._p2p import recv, send, sendrecv

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


def __dir__() -> list[str]:
    """The public names only (``__all__``), not the imports and private submodules."""
    return list(__all__)
