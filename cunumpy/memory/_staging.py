"""``HostStaging``: copy large device arrays to the host in the background, for output.

Each ``copy`` takes a snapshot of the array on the GPU (so later steps may overwrite it),
then copies the snapshot to the next of a few pinned host buffers on a copy stream of its
own, and returns a ``StagedCopy`` at once. The program waits only when a buffer is needed
again while its previous copy still runs. Host arrays are copied at once into the same
kind of buffers, so the code is the same on both backends.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from .._calls._arguments import checked_shape
from .._namespaces._array_predicates import is_cupy_array
from .._placement._transfer_log import active, describe, note_transfer

__all__ = ["HostStaging", "StagedCopy"]


class _Slot:
    """One host buffer, its device snapshot and the event of its last copy."""

    __slots__ = ("device", "event", "host", "uses")

    def __init__(self, host: np.ndarray) -> None:
        self.host = host
        self.device: Any = None
        self.event: Any = None
        self.uses = 0

    def wait(self) -> None:
        if self.event is not None:
            self.event.synchronize()


class StagedCopy:
    """A background copy started by ``HostStaging.copy``; not made directly.

    Its host buffer stays valid until the staging reuses it, ``buffers`` copies later.

    Parameters
    ----------
    slot : object
        The staging buffer (internal).
    use : int
        The buffer's use count when this copy started.
    """

    def __init__(self, slot: _Slot, use: int) -> None:
        self._slot = slot
        self._use = use

    def __repr__(self) -> str:
        return f"StagedCopy(shape={self._slot.host.shape}, dtype={self._slot.host.dtype})"

    def _check(self, func: str) -> None:
        if self._slot.uses != self._use:
            msg = (
                f"StagedCopy.{func}: this copy's host buffer was reused by a later copy; "
                f"call result() before starting more copies than the staging has buffers, "
                f"or keep result().copy()."
            )
            raise RuntimeError(msg)

    def ready(self) -> bool:
        """Whether the copy has finished; never waits.

        Raises
        ------
        RuntimeError
            If the buffer was reused by a later copy.
        """
        self._check("ready")
        return self._slot.event is None or bool(self._slot.event.done)

    def result(self) -> np.ndarray:
        """Wait for the copy and return the host array.

        Returns
        -------
        numpy.ndarray
            The staging buffer itself, valid until it is reused: keep
            ``result().copy()`` to hold the values longer.

        Raises
        ------
        RuntimeError
            If the buffer was reused by a later copy.
        """
        self._check("result")
        self._slot.wait()
        return self._slot.host


class HostStaging:
    """Host buffers that arrays of one shape and dtype are copied to in the background.

    Parameters
    ----------
    shape : int or tuple of int
        The shape of the arrays to copy.
    dtype : dtype-like
        Their dtype; not object.
    buffers : int, optional
        How many host buffers (and device snapshots) are used in turn, so how many copies
        may be in flight. With 2, one copy runs while the last result is written out.

    Raises
    ------
    TypeError
        For a shape or `buffers` that is not an int, or an object dtype.
    ValueError
        If `buffers` < 1 or the shape is negative.

    See Also
    --------
    cunumpy.to_host_async : A one-off copy of a scalar or small array.

    Notes
    -----
    The device snapshots live on the GPU of the first device array copied; later arrays
    must be on that GPU. Host memory is pinned once a device array has been copied.

    Examples
    --------
    >>> import numpy as np
    >>> from cunumpy import memory
    >>> staging = memory.HostStaging((2, 3), np.float64)
    >>> copy = staging.copy(np.ones((2, 3)))  # returns at once on the GPU
    >>> copy.ready()
    True
    >>> copy.result()
    array([[1., 1., 1.],
           [1., 1., 1.]])
    """

    def __init__(self, shape: int | tuple[int, ...], dtype: Any, buffers: int = 2) -> None:
        if not isinstance(buffers, (int, np.integer)) or isinstance(buffers, bool):
            msg = f"HostStaging: `buffers` must be an int, not {buffers!r}."
            raise TypeError(msg)
        if buffers < 1:
            msg = f"HostStaging: `buffers` must be at least 1, not {buffers!r}."
            raise ValueError(msg)
        self._shape = checked_shape(shape, "HostStaging")
        self._dtype = np.dtype(dtype)
        if self._dtype.hasobject:
            msg = f"HostStaging: `dtype` must not be object, got {dtype!r}."
            raise TypeError(msg)
        self._buffers = int(buffers)
        self._slots: list[_Slot] = []
        self._pinned = False
        self._next = 0
        self._device_id: int | None = None
        self._stream: Any = None

    def __repr__(self) -> str:
        return f"HostStaging(shape={self._shape}, dtype={self._dtype}, buffers={self._buffers})"

    @property
    def shape(self) -> tuple[int, ...]:
        """The shape of the arrays copied."""
        return self._shape

    @property
    def dtype(self) -> np.dtype:
        """The dtype of the arrays copied."""
        return self._dtype

    @property
    def buffers(self) -> int:
        """How many host buffers are used in turn."""
        return self._buffers

    def _take(self, pinned: bool) -> _Slot:
        if not self._slots or (pinned and not self._pinned):
            if pinned:
                import cupyx

                hosts = [cupyx.empty_pinned(self._shape, self._dtype) for _ in range(self._buffers)]
            else:
                hosts = [np.empty(self._shape, self._dtype) for _ in range(self._buffers)]
            self._slots = [_Slot(host) for host in hosts]  # earlier copies keep theirs
            self._pinned, self._next = pinned, 0
        slot = self._slots[self._next]
        self._next = (self._next + 1) % self._buffers
        return slot

    def _check(self, array: Any, stream: Any, event: Any) -> None:
        if stream is not None and event is not None:
            msg = "HostStaging.copy: pass at most one of `stream` and `event`, not both."
            raise ValueError(msg)
        if not hasattr(array, "shape") or not hasattr(array, "dtype"):
            msg = f"HostStaging.copy: `array` must be a NumPy or CuPy array, not {array!r}."
            raise TypeError(msg)
        if tuple(array.shape) != self._shape or np.dtype(array.dtype) != self._dtype:
            msg = (
                f"HostStaging.copy: the staging is for shape {self._shape} and dtype "
                f"{str(self._dtype)!r}, not shape {tuple(array.shape)} and dtype "
                f"{str(array.dtype)!r}."
            )
            raise ValueError(msg)

    def copy(self, array: Any, *, stream: Any = None, event: Any = None) -> StagedCopy:
        """Start copying ``array`` to the host and return at once.

        Parameters
        ----------
        array : array
            A NumPy or CuPy array of the staging's shape and dtype. The snapshot is taken
            on the producer stream: later writes on another stream must wait for it.
        stream : cupy.cuda.Stream, optional
            The producer stream to take the snapshot on; the current stream by default.
        event : cupy.cuda.Event, optional
            A producer event the snapshot waits for. At most one of `stream` and `event`;
            host arrays are copied at once.

        Returns
        -------
        StagedCopy
            ``ready()`` tells whether the copy has finished, ``result()`` waits for it
            and returns the host array.

        Raises
        ------
        TypeError
            If `array` is not an array.
        ValueError
            For another shape or dtype, both `stream` and `event`, or a device array on
            another GPU than the staging's.
        """
        self._check(array, stream, event)
        on_gpu = is_cupy_array(array)
        if on_gpu:
            device_id = int(array.device.id)
            if self._device_id is not None and device_id != self._device_id:
                msg = (
                    f"HostStaging.copy: the staging's snapshots are on GPU {self._device_id}, "
                    f"but the array is on GPU {device_id}; make one HostStaging per GPU."
                )
                raise ValueError(msg)
            self._device_id = device_id
        slot = self._take(on_gpu)
        slot.wait()  # the buffer's previous copy has finished
        slot.uses += 1
        if not on_gpu:
            np.copyto(slot.host, np.asarray(array))
            slot.event = None
            return StagedCopy(slot, slot.uses)
        self._copy_from_device(slot, array, stream, event)
        return StagedCopy(slot, slot.uses)

    def _copy_from_device(self, slot: _Slot, array: Any, stream: Any, event: Any) -> None:
        cupy = sys.modules["cupy"]
        with cupy.cuda.Device(self._device_id):
            if self._stream is None:
                self._stream = cupy.cuda.Stream(non_blocking=True)
            producer = cupy.cuda.get_current_stream() if stream is None else stream
            with producer:
                if event is not None:
                    producer.wait_event(event)
                if slot.device is None:
                    slot.device = cupy.empty(self._shape, dtype=self._dtype)
                slot.device[...] = array  # the snapshot, in the producer's order
                taken = producer.record()
            self._stream.wait_event(taken)
            try:
                slot.device.get(stream=self._stream, out=slot.host, blocking=False)
            finally:
                slot.event = self._stream.record()  # even if the copy failed once queued
        if active():
            note_transfer(
                "to_host",
                describe("memory.HostStaging.copy", slot.host, "in the background"),
                nbytes=int(slot.host.nbytes),
                blocking=False,
            )

    def synchronize(self) -> None:
        """Wait for every copy in flight.

        Examples
        --------
        >>> import numpy as np
        >>> from cunumpy import memory
        >>> staging = memory.HostStaging(3, np.float32)
        >>> _ = staging.copy(np.zeros(3, np.float32))
        >>> staging.synchronize()  # host copies have finished already
        """
        for slot in self._slots:
            slot.wait()
