"""Multi-GPU programs with MPI: bind ranks to GPUs, synchronize, exchange arrays.

The same program runs on NumPy (CPU ranks) and on CuPy (one GPU per rank), chosen by
``CUNUMPY_BACKEND``. Importing this module imports neither mpi4py nor CuPy; mpi4py is
imported (which initializes MPI) by the first function that needs it.

MPI without MPI
    ``get_mpi`` returns ``mpi4py.MPI`` when a launcher (``mpiexec``, ``srun``, ...)
    started the process (``launched_under_mpi``), and otherwise the serial stand-in
    ``SerialMPI`` whose ``COMM_WORLD`` (a ``SerialComm``) has one rank, so one program
    runs with and without MPI, even where mpi4py is not installed. ``MAYBEMPI=1``/``0``
    (``OVERRIDE_VARIABLE``) overrides the detection. The functions below default to
    ``get_mpi().COMM_WORLD``.
Binding and synchronization
    ``bind_local_device``, ``local_rank``, ``synchronize_for_mpi``.
Device buffers
    ``mpi_buffer`` and ``MPIStaging`` hand arrays to mpi4py calls you write yourself;
    ``mpi_is_cuda_aware``, ``require_cuda_aware_mpi``, ``set_mpi_cuda_aware``,
    ``get_mpi_cuda_aware`` and ``is_cuda_aware`` decide whether they are staged.
Collectives (called by every rank of the communicator)
    ``allreduce``, ``bcast``, ``allgather``, ``gather``, ``scatter``.
Point to point
    ``send``, ``recv``, ``sendrecv``, and ``exchange`` for many messages at once.

One rule for errors: every local failure (a bad array, a read-only ``out``, an
unpicklable ``op``, a root out of range, a failed allocation, ...) becomes a collective
error, agreed on before any data moves, so the same exception, naming the function and
the rank, is raised on every rank instead of leaving the others waiting; ranks that call
different collectives raise too, naming both. Only messages without a partner
(mismatched tags or communicators) can still block. CuPy arrays go to
MPI directly when it is CUDA-aware and through pinned host memory when it is not.
"""

from __future__ import annotations

from .._mpi_job._import import MpiUnavailableError
from .._mpi_job._local_rank import LOCAL_RANK_ENV_VARS, local_rank
from .._mpi_job._serial import (
    OVERRIDE_VARIABLE,
    SerialComm,
    SerialMPI,
    SerialRequest,
    SerialStatus,
    get_mpi,
    is_serial,
    launched_under_mpi,
)
from .._settings._homes import set_public_homes as _set_public_homes
from ..cuda._bind import bind_local_device
from ._aware import (
    CUDA_AWARE_ENV_VAR,
    CudaAwareness,
    get_mpi_cuda_aware,
    is_cuda_aware,
    mpi_is_cuda_aware,
    require_cuda_aware_mpi,
    set_mpi_cuda_aware,
)
from ._collectives import REDUCTION_OPS, allgather, allreduce, bcast, gather, scatter
from ._exchange import exchange
from ._mpibuffer import MPIStaging, mpi_buffer
from ._p2p import recv, send, sendrecv
from ._synchronize import synchronize_for_mpi

__all__ = [
    "CUDA_AWARE_ENV_VAR",
    "MpiUnavailableError",
    "LOCAL_RANK_ENV_VARS",
    "MPIStaging",
    "OVERRIDE_VARIABLE",
    "REDUCTION_OPS",
    "CudaAwareness",
    "SerialComm",
    "SerialMPI",
    "SerialRequest",
    "SerialStatus",
    "allgather",
    "allreduce",
    "bcast",
    "bind_local_device",
    "exchange",
    "gather",
    "get_mpi",
    "get_mpi_cuda_aware",
    "is_cuda_aware",
    "is_serial",
    "launched_under_mpi",
    "local_rank",
    "mpi_buffer",
    "mpi_is_cuda_aware",
    "recv",
    "require_cuda_aware_mpi",
    "scatter",
    "send",
    "sendrecv",
    "set_mpi_cuda_aware",
    "synchronize_for_mpi",
]


_set_public_homes(__name__, __all__, globals())  # tracebacks name the public module


def __dir__() -> list[str]:
    """The public names only (``__all__``), not the imports and private submodules."""
    return list(__all__)
