"""Making GPU work visible to MPI: ``synchronize_for_mpi`` waits for what produces the buffers.

Binding a rank to its GPU is ``cuda._bind``'s and the node-local rank
``cunumpy._mpi_job._local_rank``'s; ``cunumpy.mpi`` exports both.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from .._backend_choice import _config
from .._namespaces._array_predicates import is_cupy_array
from .._placement._transfer_log import active, note_transfer
from .._trace._recorder import waiting

__all__ = ["synchronize_for_mpi"]


def _device_ids(arrays: tuple[Any, ...]) -> set[int]:
    """The GPUs holding the CuPy arrays among ``arrays`` (mpi4py ``[buf, type]`` specs too)."""
    found: set[int] = set()
    for i, a in enumerate(arrays):
        buf = a[0] if isinstance(a, (list, tuple)) and a else a
        if is_cupy_array(buf):
            found.add(int(buf.device.id))
            continue
        if buf is None or isinstance(buf, (np.ndarray, np.generic)):
            continue
        try:
            memoryview(buf)  # other host buffers (bytearray, array.array, ...) are fine
        except TypeError:
            msg = (
                f"synchronize_for_mpi: `arrays[{i}]` must be a NumPy or CuPy array, a host "
                f"buffer, an mpi4py buffer specification [array, datatype] or None, not "
                f"{type(buf).__module__}.{type(buf).__qualname__}."
            )
            raise TypeError(msg) from None
    return found


def _check_producer(obj: Any, name: str, devices: set[int]) -> None:
    """``stream=``/``event=`` must be CuPy's, of the one GPU that holds the buffers."""
    cupy = sys.modules["cupy"]
    kinds = (cupy.cuda.Event,) if name == "event" else (cupy.cuda.Stream, cupy.cuda.ExternalStream)
    if not isinstance(obj, kinds):
        msg = (
            f"synchronize_for_mpi: `{name}` must be a cupy.cuda.{kinds[0].__name__} for "
            f"device buffers, not {type(obj).__module__}.{type(obj).__qualname__}."
        )
        raise TypeError(msg)
    device = getattr(obj, "device_id", None)
    if name == "stream" and device is not None and device >= 0 and {device} != devices:
        msg = (
            f"synchronize_for_mpi: `stream` belongs to device {device}, but the device "
            f"buffers are on device(s) {sorted(devices)}; pass a stream of their device, "
            f"or no stream to wait for whole devices."
        )
        raise ValueError(msg)


def synchronize_for_mpi(*arrays: Any, stream: Any = None, event: Any = None) -> None:
    """Wait until the GPU work that produces ``arrays`` is done, so that MPI sees it.

    CuPy returns before kernels and copies finish; MPI reads and writes device memory
    without CuPy's knowledge. Call this before passing CuPy buffers to mpi4py yourself
    (the functions of this module do it for you). By default it waits for every stream
    of each GPU holding one of ``arrays``; with no arrays, for the current GPU where CuPy
    holds work (a CUDA context there: none is created, so a rank whose GPU runs nothing
    touches none). NumPy arrays (and the NumPy backend) need no waiting and cost nothing. Nothing is needed
    after MPI returns.

    Parameters
    ----------
    *arrays : array, mpi4py buffer specification or None
        The buffers about to be passed to MPI; ``None`` and host arrays need nothing.
    stream : cupy.cuda.Stream, optional
        Wait only for this producer stream, which must be on the buffers' GPU.
    event : cupy.cuda.Event, optional
        Wait only for this event. Pass at most one of `stream` and `event`.

    Raises
    ------
    ValueError
        If both `stream` and `event` are given, or `stream` is on another GPU.
    TypeError
        If an argument is not an array, or device buffers come with a `stream` or
        `event` that is not CuPy's.

    Examples
    --------
    >>> import numpy as np
    >>> from cunumpy import mpi
    >>> send, recv = np.ones(4), np.empty(4)
    >>> mpi.synchronize_for_mpi(send, recv)  # host arrays: nothing to wait for
    >>> mpi.synchronize_for_mpi()  # the current GPU; nothing on the NumPy backend
    """
    if stream is not None and event is not None:
        msg = "synchronize_for_mpi: pass at most one of `stream` and `event`, not both."
        raise ValueError(msg)
    if arrays:
        devices = _device_ids(arrays)
        if not devices:
            return
    else:
        if sys.modules.get("cupy") is None and _config.get_backend() == "numpy":
            return
        from .._settings._cupy_probe import loaded_cupy

        if loaded_cupy() is None:  # no work on the current GPU: nothing to wait for
            return
        devices = {int(sys.modules["cupy"].cuda.runtime.getDevice())}
    cupy = sys.modules["cupy"]
    if active():
        note_transfer("sync", "synchronize_for_mpi()")
    with waiting("synchronize_for_mpi"):
        if event is not None:
            _check_producer(event, "event", devices)
            event.synchronize()
        elif stream is not None:
            _check_producer(stream, "stream", devices)
            stream.synchronize()
        else:
            for device in sorted(devices):
                cupy.cuda.Device(device).synchronize()
