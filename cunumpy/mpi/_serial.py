"""MPI without MPI: mpi4py under a launcher, a serial stand-in of one rank otherwise.

The stand-in and the launcher detection come from the ``maybempi`` package (pure Python,
no dependencies), the one that CuNumpy 0.7.1 uses too, so programs written for either see
the same objects. Importing this module imports neither mpi4py nor CuPy; ``get_mpi``
imports mpi4py only when the process was started by a launcher. Copies that the stand-in
makes between device and host arrays are reported to cunumpy's transfer log.
"""

from __future__ import annotations

import sys
from types import ModuleType
from typing import Any

from maybempi import (
    OVERRIDE_VARIABLE,
    SerialComm,
    SerialMPI,
    SerialRequest,
    SerialStatus,
    get_mpi,
    is_serial,
    launched_under_mpi,
    set_copy_hook,
)

from .._transfer_log import active, note_transfer

__all__ = [
    "OVERRIDE_VARIABLE",
    "SerialComm",
    "SerialMPI",
    "SerialRequest",
    "SerialStatus",
    "get_mpi",
    "is_serial",
    "launched_under_mpi",
    "mpi_of",
    "serial_mpi",
]


def serial_mpi() -> SerialMPI:
    """The one serial stand-in object (what ``get_mpi()`` returns without a launcher)."""
    mpi: SerialMPI = get_mpi(False)
    return mpi


def mpi_of(comm: Any) -> Any:
    """The MPI module ``comm`` belongs to: the serial stand-in or ``mpi4py.MPI``."""
    if isinstance(comm, SerialComm):
        return serial_mpi()
    module: ModuleType = sys.modules["mpi4py.MPI"]
    return module


def _note_serial_copy(kind: str, array: Any) -> None:
    """Report a device/host copy made by the stand-in's buffer methods (``Allreduce``, ...)."""
    if active():
        nbytes = int(getattr(array, "nbytes", 0)) or None
        note_transfer(kind, f"SerialComm buffer copy ({kind.replace('_', ' ')})", nbytes=nbytes)


set_copy_hook(_note_serial_copy)
