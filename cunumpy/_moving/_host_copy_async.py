"""``to_host_async``: start a device-to-host copy of a small array and return at once.

``array.get()`` waits for the GPU to finish all queued work and then for the copy, while
no kernel is queued. ``to_host_async`` queues the copy on a copy stream of its own, after
the work queued so far, and returns a ``HostCopy`` to read later (a convergence test read
one iteration late, a diagnostic). Host arrays are copied at once, so the code is the
same on both backends.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from .._namespaces._array_predicates import is_cupy_array
from .._placement._keep_alive import retain
from .._placement._transfer_log import active, describe, note_transfer
from .._trace._recorder import copy_start, waiting

__all__ = ["HostCopy", "copy_stream", "to_host_async"]


class HostCopy:
    """A device-to-host copy started by ``cunumpy.to_host_async``; not made directly.

    Parameters
    ----------
    host : numpy.ndarray
        The host memory the copy writes into.
    event : cupy.cuda.Event, optional
        Recorded after the copy; ``None`` for a copy that has finished.
    source : array, optional
        The device array the copy reads. It and ``host`` are kept alive until the copy
        has finished, also when the ``HostCopy`` is dropped before ``result()``.

    Examples
    --------
    >>> import numpy as np
    >>> import cunumpy
    >>> pending = cunumpy.to_host_async(np.arange(3))
    >>> pending.ready(), pending.result()
    (True, array([0, 1, 2]))
    """

    def __init__(self, host: np.ndarray, event: Any = None, source: Any = None) -> None:
        self._host = host
        self._event = event
        self._source = source

    def __repr__(self) -> str:
        state = "done" if self._event is None else "in flight"
        return f"HostCopy(shape={self._host.shape}, dtype={self._host.dtype}, {state})"

    def ready(self) -> bool:
        """Whether the copy has finished; never waits."""
        return self._event is None or bool(self._event.done)

    def result(self) -> Any:
        """The value on the host, waiting for the copy only if it has not finished.

        A wait goes to the transfer log as a ``sync``.

        Returns
        -------
        numpy scalar or numpy.ndarray
            A NumPy scalar for a 0-D array, else the host array (pinned on the GPU path).
        """
        if self._event is not None:
            if not self._event.done:
                if active():
                    note_transfer("sync", "to_host_async(...).result() waited for the copy")
                with waiting("to_host_async(...).result"):
                    self._event.synchronize()
            self._event = self._source = None
        return self._host[()] if self._host.ndim == 0 else self._host


_copy_streams: dict[int, Any] = {}  # one non-blocking copy stream per GPU


def copy_stream(device_id: int) -> Any:
    """The copy stream of GPU ``device_id`` (made on first use)."""
    stream = _copy_streams.get(device_id)
    if stream is None:
        cupy = sys.modules["cupy"]
        with cupy.cuda.Device(device_id):
            stream = cupy.cuda.Stream(non_blocking=True)
        _copy_streams[device_id] = stream
    return stream


def to_host_async(array: Any) -> HostCopy:
    """Start copying a device scalar or small array to the host, without waiting.

    The copy runs on a separate stream into pinned host memory, after the work queued so
    far on the current stream, so the host can go on queueing kernels. Its value is that
    of the array once the queued work is done, even if later kernels overwrite the array
    (the copy reads a snapshot). A NumPy array or Python/NumPy scalar is copied at once.
    The copy goes to the transfer log as a non-blocking ``to_host``.

    Parameters
    ----------
    array : array or scalar
        A NumPy or CuPy array, or a scalar.

    Returns
    -------
    HostCopy
        ``ready()`` tells whether the copy has finished (never waits); ``result()``
        returns the value.

    See Also
    --------
    cunumpy.memory.HostStaging : For large arrays copied repeatedly.

    Examples
    --------
    >>> import numpy as np
    >>> import cunumpy
    >>> pending = cunumpy.to_host_async(np.float64(3.5))  # e.g. a residual norm
    >>> pending.ready()
    True
    >>> pending.result()
    np.float64(3.5)
    """
    if not is_cupy_array(array):
        return HostCopy(np.array(array))
    import cupyx

    cupy = sys.modules["cupy"]
    device_id = int(array.device.id)
    with cupy.cuda.Device(device_id):
        snapshot = cupy.array(array, order="C")  # on the current stream, after its work
        host = cupyx.empty_pinned(snapshot.shape, dtype=snapshot.dtype)
        queued = cupy.cuda.get_current_stream().record()
        stream = copy_stream(device_id)
        stream.wait_event(queued)
        started = copy_start(stream)
        snapshot.get(stream=stream, out=host, blocking=False)
        event = stream.record()
    retain(event, (snapshot, host))  # both live until the copy has run, even if dropped
    if active():
        note_transfer(
            "to_host",
            describe("to_host_async", array, "in the background"),
            nbytes=int(host.nbytes),
            blocking=False,
            started=started,
            stream=stream,
            pinned=True,
        )
    return HostCopy(host, event, snapshot)
