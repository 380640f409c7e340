"""One MPI call site for both backends: ``mpi_buffer`` hands an array to mpi4py.

A host array goes to MPI as it is. A CuPy array goes as it is, once its GPU work is done,
when MPI is CUDA-aware (``device_buffers_direct``); otherwise it is copied to pinned host
memory before the MPI call (``send``) and back after it (``recv``). ``MPIStaging`` keeps
that host memory for reuse across calls.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import Any

import numpy as np

from .._calls._arguments import checked_shape
from .._namespaces._array_predicates import is_cupy_array
from .._placement._transfer_log import active, describe, note_transfer
from ._aware import device_buffers_direct
from ._synchronize import synchronize_for_mpi

__all__ = ["MPIStaging", "mpi_buffer"]


class MPIStaging:
    """Reusable host memory for staging one CuPy buffer of ``mpi_buffer`` at a time.

    Make one per buffer in use at the same time (one to send, one to receive). The host
    memory is pinned, allocated on the first staged use and bound to one shape, dtype and
    GPU. Non-contiguous device arrays are packed through reusable device memory, and what
    MPI received is written back into the original view. Host arrays, and device arrays
    under CUDA-aware MPI, are not staged (but still checked against shape and dtype).

    Parameters
    ----------
    shape : int or tuple of int
        The shape of the staged arrays.
    dtype : dtype-like
        Their dtype; not object.

    Raises
    ------
    TypeError
        For a shape that is not ints, or an object dtype.
    ValueError
        For a negative shape.

    Examples
    --------
    >>> import numpy as np
    >>> from cunumpy import mpi
    >>> staging = mpi.MPIStaging((3,), np.float64)
    >>> rho = np.ones(3)
    >>> with staging.buffer(rho, recv=True) as buf:
    ...     buf is rho  # host arrays are not staged
    True
    """

    def __init__(self, shape: int | tuple[int, ...], dtype: Any) -> None:
        self._shape = checked_shape(shape, "MPIStaging")
        self._dtype = np.dtype(dtype)
        if self._dtype.hasobject:
            msg = f"MPIStaging: `dtype` must not be object (MPI moves raw memory), got {dtype!r}."
            raise TypeError(msg)
        self._host: np.ndarray | None = None
        self._packed: Any = None
        self._device: int | None = None
        self._in_use = False

    def __repr__(self) -> str:
        return f"MPIStaging(shape={self._shape}, dtype={self._dtype})"

    @property
    def shape(self) -> tuple[int, ...]:
        """The shape of the staged arrays."""
        return self._shape

    @property
    def dtype(self) -> np.dtype:
        """The dtype of the staged arrays."""
        return self._dtype

    def buffer(self, array: Any, **kwargs: Any) -> Any:
        """Return ``mpi_buffer(array, staging=self, **kwargs)``, a context manager.

        Parameters
        ----------
        array : array
            The buffer of the MPI call.
        **kwargs
            The other arguments of ``mpi_buffer``.

        Returns
        -------
        context manager
            Yields the buffer to pass to MPI.
        """
        return mpi_buffer(array, staging=self, **kwargs)

    def _check(self, array: Any) -> None:
        if tuple(array.shape) != self._shape or np.dtype(array.dtype) != self._dtype:
            msg = (
                f"mpi_buffer: the staging is for shape {self._shape} and dtype "
                f"{str(self._dtype)!r}, but the array has shape {tuple(array.shape)} and "
                f"dtype {str(array.dtype)!r}; make an MPIStaging per buffer shape."
            )
            raise ValueError(msg)

    @contextmanager
    def _lease(self, array: Any) -> Iterator[tuple[np.ndarray, Any]]:
        """``(pinned host memory, contiguous device array)`` for staging ``array``."""
        if self._in_use:
            msg = (
                "mpi_buffer: this MPIStaging is already in use by another mpi_buffer "
                "block; make one MPIStaging per buffer in use at the same time."
            )
            raise RuntimeError(msg)
        device = int(array.device.id)
        if self._device is not None and device != self._device:
            msg = (
                f"mpi_buffer: this MPIStaging is bound to GPU {self._device}, but the array "
                f"is on GPU {device}; make one MPIStaging per GPU."
            )
            raise ValueError(msg)
        cupy = sys.modules["cupy"]
        with cupy.cuda.Device(device):
            if self._host is None:
                import cupyx

                self._host = cupyx.empty_pinned(self._shape, dtype=self._dtype)
            if array.flags.c_contiguous:
                contiguous = array
            else:
                if self._packed is None:
                    self._packed = cupy.empty(self._shape, dtype=self._dtype)
                contiguous = self._packed
            self._device = device
            self._in_use = True
            try:
                yield self._host, contiguous
            finally:
                self._in_use = False


def mpi_buffer(
    array: Any,
    *,
    send: bool = True,
    recv: bool = False,
    cuda_aware: bool | None = None,
    staging: MPIStaging | None = None,
    stream: Any = None,
    event: Any = None,
) -> AbstractContextManager[Any]:
    """Yield what to hand to mpi4py for ``array``: the array itself or a host copy of it.

    A host array is yielded as it is. A CuPy array is yielded as it is, after
    ``synchronize_for_mpi``, when MPI is CUDA-aware; otherwise it is copied to pinned host
    memory before the block (if `send`) and back to the device after it (if `recv`),
    finished when the block ends. Both copies go to the transfer log
    (``cunumpy.profiling``). With nonblocking MPI calls, wait for them inside the block.

    Parameters
    ----------
    array : array
        The buffer of the MPI call: a NumPy or CuPy array (other host buffers pass as
        they are).
    send : bool, optional
        MPI reads the buffer: copy it to the host before the block.
    recv : bool, optional
        MPI writes the buffer: copy the host memory back to the device after the block.
    cuda_aware : bool, optional
        Whether MPI takes device buffers; ``None`` uses the recorded answer
        (``mpi_is_cuda_aware``, ``set_mpi_cuda_aware``), then ``CUNUMPY_MPI_CUDA_AWARE``,
        then ``is_cuda_aware()``. The serial stand-in takes device buffers.
    staging : MPIStaging, optional
        Reusable host memory; new pinned memory for each call otherwise.
    stream : cupy.cuda.Stream, optional
        The producer stream to wait for; all work on the array's GPU by default.
    event : cupy.cuda.Event, optional
        The producer event to wait for instead; at most one of `stream` and `event`.

    Returns
    -------
    context manager
        Entering it gives the buffer to pass to MPI.

    Raises
    ------
    TypeError
        If `send`, `recv` or `cuda_aware` is not a bool, or `staging` not an MPIStaging.
    ValueError
        If `staging` is for another shape, dtype or GPU.

    Examples
    --------
    >>> import numpy as np
    >>> from cunumpy import mpi
    >>> MPI = mpi.get_mpi()  # the serial stand-in without a launcher
    >>> rho = np.ones(3)
    >>> with mpi.mpi_buffer(rho, recv=True) as buf:
    ...     MPI.COMM_WORLD.Allreduce(MPI.IN_PLACE, buf, op=MPI.SUM)
    >>> rho
    array([1., 1., 1.])
    """
    _check_flags(send, recv, cuda_aware)
    if staging is not None:
        if not isinstance(staging, MPIStaging):
            msg = f"mpi_buffer: `staging` must be an MPIStaging or None, not {staging!r}."
            raise TypeError(msg)
        if hasattr(array, "shape") and hasattr(array, "dtype"):
            staging._check(array)
    if stream is not None and event is not None:
        msg = "mpi_buffer: pass at most one of `stream` and `event`, not both."
        raise ValueError(msg)
    if not is_cupy_array(array):
        return nullcontext(array)  # host memory: nothing to wait for, nothing to copy
    direct = device_buffers_direct("mpi_buffer") if cuda_aware is None else bool(cuda_aware)
    if direct:
        synchronize_for_mpi(array, stream=stream, event=event)
        return nullcontext(array)
    return _staged(array, send, recv, staging, stream, event)


def _check_flags(send: Any, recv: Any, cuda_aware: Any) -> None:
    for name, flag in (("send", send), ("recv", recv)):
        if not _is_bool(flag):
            msg = f"mpi_buffer: `{name}` must be True or False, not {flag!r}."
            raise TypeError(msg)
    if cuda_aware is not None and not _is_bool(cuda_aware):
        msg = f"mpi_buffer: `cuda_aware` must be True, False or None, not {cuda_aware!r}."
        raise TypeError(msg)


def _is_bool(flag: Any) -> bool:
    """Whether ``flag`` is a bool or a NumPy bool (identity first: the common, cheap case)."""
    return flag is True or flag is False or isinstance(flag, np.bool_)


@contextmanager
def _staged(
    array: Any, send: bool, recv: bool, staging: MPIStaging | None, stream: Any, event: Any
) -> Iterator[np.ndarray]:
    """Stage the CuPy ``array`` through pinned host memory around the MPI call."""
    if staging is None:
        staging = MPIStaging(tuple(array.shape), array.dtype)
    cupy = sys.modules["cupy"]
    # Receive-only buffers too: a kernel may still read or write the array.
    synchronize_for_mpi(array, stream=stream, event=event)
    with staging._lease(array) as (host, contiguous), cupy.cuda.Device(array.device.id):
        if send:
            if contiguous is not array:
                contiguous[...] = array
            contiguous.get(out=host)  # waits for the copy on the current stream
            if active():
                what = describe("mpi.mpi_buffer", array, "staged in pinned memory for MPI")
                note_transfer("to_host", what, nbytes=host.nbytes)
        yield host
        if recv:
            contiguous.set(host)
            if contiguous is not array:
                array[...] = contiguous
            cupy.cuda.get_current_stream().synchronize()  # host memory free for reuse
            if active():
                what = describe("mpi.mpi_buffer", array, "what MPI received, from pinned memory")
                note_transfer("to_device", what, nbytes=host.nbytes)
