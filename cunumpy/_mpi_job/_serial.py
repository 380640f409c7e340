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

import maybempi
from maybempi import SerialComm, SerialMPI, SerialRequest, SerialStatus, set_copy_hook

from .._placement._transfer_log import active, describe, nbytes_of, note_transfer
from ._import import MpiUnavailableError, require_mpi

__all__ = [
    "OVERRIDE_VARIABLE",
    "SerialComm",
    "SerialMPI",
    "SerialRequest",
    "SerialStatus",
    "default_comm",
    "get_mpi",
    "is_serial",
    "launched_under_mpi",
    "mpi_of",
    "serial_mpi",
]


#: The environment variable that overrides the launcher detection: ``1`` (or true, yes,
#: on) makes ``launched_under_mpi`` true, ``0`` (or false, no, off) false.
OVERRIDE_VARIABLE: str = maybempi.OVERRIDE_VARIABLE


def get_mpi(use_mpi: bool | None = None) -> Any:
    """Return ``mpi4py.MPI`` in an MPI job, and the serial stand-in ``SerialMPI`` otherwise.

    By default the choice is made once per process, by ``launched_under_mpi``: a process
    that no launcher started gets the stand-in, whose ``COMM_WORLD`` is a ``SerialComm``
    of one rank, and MPI is never initialized (nor mpi4py imported), so the same program
    runs on a laptop without an MPI library. Under a launcher, a missing or broken mpi4py
    is an error: each process running on as rank 0 of 1 would compute the whole problem
    and write the same files. To run the processes of a launcher as serial programs on
    purpose, set ``MAYBEMPI=0`` (``OVERRIDE_VARIABLE``): no launcher is seen then.

    Parameters
    ----------
    use_mpi : bool, optional
        ``True`` imports and returns ``mpi4py.MPI``; ``False`` returns the stand-in;
        ``None`` decides as above.

    Returns
    -------
    module or SerialMPI
        ``mpi4py.MPI``, or the one ``SerialMPI`` object, which has the module's constants
        (``SUM``, ``IN_PLACE``, ``PROC_NULL``, ...) and communicators.

    Raises
    ------
    RuntimeError
        With ``use_mpi=True``, or ``None`` under a launcher, where mpi4py cannot be used
        (not installed, or no MPI library it can load): a ``MpiUnavailableError``, also an
        ``ImportError``, whose message names ``get_mpi``, the reason and what to install
        (and, under a launcher, ``MAYBEMPI=0`` to run serially on purpose).
    TypeError
        If ``use_mpi`` is not True, False or None.

    Examples
    --------
    >>> from cunumpy import mpi
    >>> MPI = mpi.get_mpi()  # mpi4py.MPI under mpiexec, the stand-in otherwise
    >>> comm = MPI.COMM_WORLD
    >>> comm.allreduce(3, op=MPI.SUM) == 3 * comm.Get_size()
    True
    >>> mpi.is_serial(mpi.get_mpi(False))
    True
    """
    if use_mpi is True:
        return require_mpi("get_mpi")
    if use_mpi is None and "mpi4py.MPI" not in sys.modules and launched_under_mpi():
        try:
            require_mpi("get_mpi")
        except MpiUnavailableError as exc:  # not maybempi's warning and N serial copies
            msg = (
                f"{exc} This process was started by an MPI launcher, so it is one rank of "
                f"an MPI job; to run each process as a serial program of one rank on "
                f"purpose, set {OVERRIDE_VARIABLE}=0."
            )
            raise MpiUnavailableError(msg) from None
    elif use_mpi is not False and use_mpi is not None:
        msg = f"get_mpi: `use_mpi` must be True, False or None, not {use_mpi!r}."
        raise TypeError(msg)
    return maybempi.get_mpi(use_mpi)


def launched_under_mpi() -> bool:
    """Tell, without importing mpi4py, whether an MPI launcher started this process.

    True when a per-rank variable of a common launcher is set (Open MPI's
    ``OMPI_COMM_WORLD_RANK``, ``PMI_RANK`` of MPICH, Intel MPI and ``srun``,
    ``PMIX_RANK``, MVAPICH2's, Cray's), or when mpi4py was already imported and MPI
    initialized (then using it costs nothing more). ``MAYBEMPI=1``/``0`` (``OVERRIDE_VARIABLE``) overrides the answer.

    Returns
    -------
    bool
        Whether the process belongs to an MPI job.

    Examples
    --------
    >>> import os
    >>> from cunumpy import mpi
    >>> os.environ[mpi.OVERRIDE_VARIABLE] = "0"  # MAYBEMPI=0: never an MPI job
    >>> mpi.launched_under_mpi()
    False
    >>> del os.environ[mpi.OVERRIDE_VARIABLE]
    """
    return bool(maybempi.launched_under_mpi())


def is_serial(obj: Any) -> bool:
    """Tell whether ``obj`` is the serial stand-in: a ``SerialMPI`` or a ``SerialComm``.

    Parameters
    ----------
    obj : object
        What ``get_mpi`` returned, or a communicator.

    Returns
    -------
    bool
        ``False`` for mpi4py's module and communicators (and anything else).

    Examples
    --------
    >>> from cunumpy import mpi
    >>> mpi.is_serial(mpi.get_mpi(False)), mpi.is_serial(mpi.get_mpi(False).COMM_WORLD)
    (True, True)
    """
    return isinstance(obj, (SerialMPI, SerialComm))


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


def default_comm(comm: Any, func: str) -> Any:
    """Return ``comm``, or ``get_mpi().COMM_WORLD`` when it is ``None``; reject others.

    Without a launcher the default is the serial stand-in's communicator of one rank, so
    no MPI library is needed (see ``cunumpy.mpi.get_mpi``).
    """
    if comm is None:
        if launched_under_mpi():
            require_mpi(func)  # a clear error where the launcher's MPI cannot be loaded
        return get_mpi().COMM_WORLD
    if isinstance(comm, SerialComm):
        return comm
    MPI = sys.modules.get("mpi4py.MPI")
    if MPI is not None and isinstance(comm, MPI.Comm):
        return comm
    msg = (
        f"{func}: `comm` must be an mpi4py.MPI.Comm, the serial stand-in's "
        f"(cunumpy.mpi.SerialComm) or None, not {comm!r}."
    )
    raise TypeError(msg)


def _note_serial_copy(kind: str, array: Any) -> None:
    """Report a device/host copy made by the stand-in's buffer methods (``Allreduce``, ...)."""
    if active():
        what = describe("mpi.SerialComm", array, "a buffer copied by the serial stand-in")
        note_transfer(kind, what, nbytes=nbytes_of(array))


set_copy_hook(_note_serial_copy)
