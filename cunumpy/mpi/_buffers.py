"""How one rank hands array memory to MPI: directly, or staged through pinned host memory.

NumPy arrays, and CuPy arrays under CUDA-aware MPI, go to MPI directly; CuPy arrays under
other MPI libraries are copied through pinned host memory. Either way the GPU is
synchronized before MPI or a staging copy reads device memory, so MPI and the copies see
the finished results of all work queued on every stream of the device.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._backend_choice import _config
from .._placement._transfer_log import active, describe, note_transfer
from .._settings._cupy_probe import require_cupy
from .._trace._recorder import clock, waiting
from ._aware import device_buffers_direct
from ._rank_checks import Error, error_of

__all__ = [
    "Staging",
    "allocate",
    "gather_buffers",
    "receiving_staging",
    "reduction_buffers",
    "send_ready",
]


class Staging:
    """How this rank hands arrays of one backend and device to MPI."""

    __slots__ = ("backend", "cupy", "device_id", "direct", "func")

    def __init__(self, backend: str, device_id: int | None, func: str) -> None:
        self.func = func  # the MPI helper, named to the transfer counters
        self.backend = backend
        self.device_id = device_id
        self.cupy: Any = None
        self.direct = True
        if backend == "cupy":
            self.cupy = require_cupy(func)
            self.direct = device_buffers_direct(func)
            if self.device_id is None:
                self.device_id = int(self.cupy.cuda.runtime.getDevice())

    @classmethod
    def for_array(cls, x: Any, func: str) -> Staging:
        """The staging for ``x`` (a checked NumPy or CuPy array)."""
        if isinstance(x, np.ndarray):
            return cls("numpy", None, func)
        return cls("cupy", int(x.device.id), func)

    @classmethod
    def for_current_backend(cls, func: str) -> Staging:
        """The staging for new arrays of the current backend, on the current GPU."""
        return cls(_config.get_backend(), None, func)

    def synchronize(self) -> None:
        """Wait until all queued GPU work on this device is done (no-op on NumPy)."""
        if self.cupy is not None:
            if active():
                note_transfer("sync", f"mpi.{self.func}: waits for cuda:{self.device_id}")
            with waiting(f"mpi.{self.func}: synchronize"):
                self.cupy.cuda.Device(self.device_id).synchronize()

    def send_buffer(self, x: Any) -> Any:
        """Return memory MPI may read with the contents of ``x``, once they are final.

        The device is synchronized first (all streams), so the work that produces ``x``
        has finished before MPI, or the staging copy to the host, reads it.
        """
        self.synchronize()
        if self.cupy is None or self.direct:
            return x
        import cupyx

        host = cupyx.empty_pinned(x.shape, dtype=x.dtype)
        started = clock()
        with self.cupy.cuda.Device(self.device_id):
            x.get(out=host)  # on the current stream; the device is idle after synchronize()
            self.cupy.cuda.get_current_stream().synchronize()
        if active():
            detail = f"from cuda:{self.device_id}, staged in pinned memory"
            note_transfer(
                "to_host",
                describe(f"mpi.{self.func}", x, detail),
                nbytes=host.nbytes,
                started=started,
                pinned=True,
            )
        return host

    def incoming(self, shape: tuple[int, ...], dtype: Any) -> tuple[Any, Any]:
        """Return ``(buffer MPI writes, array returned to the user)`` for a new result."""
        if self.cupy is None:
            result = np.empty(shape, dtype=dtype)
            return result, result
        with self.cupy.cuda.Device(self.device_id):
            result = self.cupy.empty(shape, dtype=dtype)
        if self.direct:
            return result, result
        import cupyx

        return cupyx.empty_pinned(shape, dtype=dtype), result

    def into(self, out: Any) -> Any:
        """Return the buffer MPI writes for the existing array ``out``."""
        if self.cupy is None or self.direct:
            return out
        import cupyx

        return cupyx.empty_pinned(out.shape, dtype=out.dtype)

    def finish(self, buffer: Any, result: Any) -> None:
        """Copy a staged ``buffer`` into ``result`` on the GPU (no-op when direct)."""
        if self.cupy is None or self.direct or buffer is result:
            return
        started = clock()
        with self.cupy.cuda.Device(self.device_id):
            result.set(buffer)
            self.cupy.cuda.get_current_stream().synchronize()
        if active():
            detail = f"to cuda:{self.device_id}, from pinned staging"
            note_transfer(
                "to_device",
                describe(f"mpi.{self.func}", result, detail),
                nbytes=buffer.nbytes,
                started=started,
                pinned=True,
            )


def send_ready(x: Any, func: str) -> tuple[Staging, Any]:
    """The staging of ``x`` and the memory MPI reads, ready (the GPU synchronized)."""
    staging = Staging.for_array(x, func)
    return staging, staging.send_buffer(x)


def receiving_staging(like: Any, func: str) -> Staging:
    """The staging for a result like ``like``, or of the current backend when it is None."""
    return Staging.for_current_backend(func) if like is None else Staging.for_array(like, func)


def reduction_buffers(x: Any, out: Any, func: str) -> tuple[Staging, Any, Any, Any]:
    """``(staging, send buffer, receive buffer, result)`` of ``allreduce``, ready for MPI.

    ``send_buffer`` synchronizes the device before it stages ``x`` to the host, so
    ``out=x`` (in place) reduces the finished values of ``x``, and work queued before the
    call that reads ``out`` has ended before MPI writes it.
    """
    staging, send = send_ready(x, func)
    if out is x:
        return staging, send, send, x
    if out is None:
        recv, result = staging.incoming(x.shape, x.dtype)
    else:
        recv, result = staging.into(out), out
    return staging, send, recv, result


def gather_buffers(x: Any, size: int, receives: bool, func: str) -> tuple[Staging, Any, Any, Any]:
    """``(staging, send buffer, receive buffer, result)`` of a gather of ``x``."""
    staging, send = send_ready(x, func)
    recv, result = staging.incoming((size, *x.shape), x.dtype) if receives else (None, None)
    return staging, send, recv, result


def allocate(
    staging: Staging, shape: tuple[int, ...], dtype: str, func: str
) -> tuple[Error | None, tuple[Any, Any]]:
    """``(error, (buffer MPI writes, result))`` for a result of the root's shape and dtype.

    The error is returned, not raised, for ``settle`` to share with the other ranks.
    """
    try:
        buffers = staging.incoming(shape, np.dtype(dtype))
        staging.synchronize()  # reused memory: no queued work may touch it once MPI writes
        return None, buffers
    except Exception as exc:
        return error_of(exc, func), (None, None)
