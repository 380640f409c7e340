"""``DeviceMirror``: a host buffer that another library owns, with a copy on the GPU.

A library may own a host array and keep using it (a solver's vector exchanged over MPI,
an I/O buffer) while kernels accumulate into it on the GPU. The mirror makes the one copy
each way explicit and keeps the host array's identity, so the owner sees the new values.
On the NumPy backend the "device" array is the host array itself and the copies are
no-ops, so the same code runs on both backends.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from .._backend_choice import _config
from .._placement._transfer_log import active, describe, note_transfer

__all__ = ["DeviceMirror"]


def _check_producer(stream: Any, event: Any, func: str) -> None:
    if stream is not None and event is not None:
        msg = f"{func}: pass at most one of `stream` and `event`, not both."
        raise ValueError(msg)


class DeviceMirror:
    """A host NumPy array paired with a device copy that kernels write into.

    Where the copy lives is decided when the mirror is made: on the CuPy backend, a CuPy
    array on the current GPU, made as a copy of the host array on first use (or as zeros
    by ``zero``); on the NumPy backend, the host array itself. ``to_device`` and
    ``to_host`` copy in place (no-ops on NumPy) and go to the transfer log
    (``cunumpy.profiling``). The mirror's operations run on its own GPU, whichever GPU is
    current.

    Parameters
    ----------
    host : numpy.ndarray
        The host buffer, owned by the caller or another library.

    Raises
    ------
    TypeError
        If `host` is not a NumPy array, or has an object dtype.

    Examples
    --------
    >>> import numpy as np
    >>> from cunumpy import memory
    >>> data = np.ones((4, 3))  # owned by another library
    >>> mirror = memory.DeviceMirror(data)
    >>> mirror.zero().device[0, 0] += 2.5  # kernels accumulate into mirror.device
    >>> mirror.to_host().host is data  # the same object, with the new values
    True
    >>> float(data[0, 0]), float(data.sum())
    (2.5, 2.5)
    """

    def __init__(self, host: np.ndarray) -> None:
        self._host = self._checked(host, "DeviceMirror")
        self._shape: tuple[int, ...] = host.shape
        self._dtype = host.dtype
        self._device: Any = None
        self._device_id: int | None = None
        if _config.get_backend() == "cupy":
            from .._settings._cupy_probe import require_cupy

            cupy = require_cupy("DeviceMirror")
            self._device_id = int(cupy.cuda.runtime.getDevice())

    @staticmethod
    def _checked(host: Any, func: str) -> np.ndarray:
        if not isinstance(host, np.ndarray):
            msg = (
                f"{func}: `host` must be a numpy.ndarray (the buffer another library owns), "
                f"not {type(host).__module__}.{type(host).__qualname__}."
            )
            raise TypeError(msg)
        if host.dtype.hasobject:
            msg = f"{func}: `host` must not have an object dtype; got {host.dtype}."
            raise TypeError(msg)
        return host

    def __repr__(self) -> str:
        where = "cpu" if self._device_id is None else f"cuda:{self._device_id}"
        return f"DeviceMirror(shape={self._shape}, dtype={self._dtype}, device={where!r})"

    @property
    def host(self) -> np.ndarray:
        """The host array: the very object that was passed in (or to ``rebind``)."""
        return self._host

    @property
    def shape(self) -> tuple[int, ...]:
        """The shape of the mirrored array."""
        return self._shape

    @property
    def dtype(self) -> np.dtype:
        """The dtype of the mirrored array."""
        return self._dtype

    @property
    def device(self) -> Any:
        """The array kernels write into: the GPU copy (made from the host on first use), or
        the host array itself on the NumPy backend."""
        self._check_bound("device")
        if self._device_id is None:
            return self._host
        if self._device is None:
            cupy = sys.modules["cupy"]
            with cupy.cuda.Device(self._device_id):
                self._device = cupy.array(self._host, order="C")
            self._note("to_device", "memory.DeviceMirror.device")
        return self._device

    def _note(self, kind: str, what: str) -> None:
        if active():
            note_transfer(kind, describe(what, self._host), nbytes=self._host.nbytes)

    def _check_bound(self, func: str) -> None:
        """Raise if the host array no longer has the shape and dtype the mirror was made for."""
        if self._host.shape != self._shape or self._host.dtype != self._dtype:
            msg = (
                f"DeviceMirror.{func}: the host array now has shape {self._host.shape} and "
                f"dtype {self._host.dtype}, but the mirror was made for {self._shape} and "
                f"{self._dtype}; call rebind(new_host_array)."
            )
            raise ValueError(msg)

    def rebind(self, host: np.ndarray) -> DeviceMirror:
        """Pair the mirror with a new host array, e.g. after its owner reallocated it.

        The device array is kept (not refreshed: call ``to_device``) when the shape and
        dtype are unchanged, and made again on next use otherwise.

        Parameters
        ----------
        host : numpy.ndarray
            The new host buffer.

        Returns
        -------
        DeviceMirror
            This mirror, for chaining.

        Raises
        ------
        TypeError
            If `host` is not a NumPy array.
        """
        self._host = self._checked(host, "DeviceMirror.rebind")
        if host.shape != self._shape or host.dtype != self._dtype:
            self._device = None
        self._shape, self._dtype = host.shape, host.dtype
        return self

    def to_device(self) -> DeviceMirror:
        """Copy the host array into the device array, in place (no-op on NumPy).

        Returns
        -------
        DeviceMirror
            This mirror, for chaining.

        Raises
        ------
        ValueError
            If the host array was reallocated with another shape or dtype.
        """
        self._check_bound("to_device")
        if self._device_id is None:
            return self
        if self._device is None:
            _ = self.device  # made as a copy of the host array
            return self
        cupy = sys.modules["cupy"]
        with cupy.cuda.Device(self._device_id):
            self._device.set(np.ascontiguousarray(self._host))  # a copy only for a view
        self._note("to_device", "memory.DeviceMirror.to_device")
        return self

    def to_host(self, *, stream: Any = None, event: Any = None) -> DeviceMirror:
        """Copy the device array into the host array, in place, and wait for the copy.

        The host array keeps its identity, so its owner sees the new values. A no-op on
        the NumPy backend (the kernels wrote into the host array) and before the device
        array exists.

        Parameters
        ----------
        stream : cupy.cuda.Stream, optional
            The producer stream to copy on; the current stream by default.
        event : cupy.cuda.Event, optional
            A producer event the copy waits for. At most one of `stream` and `event`.

        Returns
        -------
        DeviceMirror
            This mirror, for chaining.

        Raises
        ------
        ValueError
            If the host array was reallocated, or both `stream` and `event` are given.
        """
        _check_producer(stream, event, "DeviceMirror.to_host")
        self._check_bound("to_host")
        if self._device_id is None or self._device is None:
            return self
        cupy = sys.modules["cupy"]
        with cupy.cuda.Device(self._device_id):
            if event is not None:
                cupy.cuda.get_current_stream().wait_event(event)
            contiguous = self._host.flags.c_contiguous  # get(out=) needs C order
            out = self._host if contiguous else np.empty(self._shape, self._dtype)
            if stream is None:
                self._device.get(out=out)
            else:
                self._device.get(out=out, stream=stream)  # waits for the copy
            if not contiguous:
                np.copyto(self._host, out)
        self._note("to_host", "memory.DeviceMirror.to_host")
        return self

    def zero(self) -> DeviceMirror:
        """Set the array kernels write into to zero (the device array, or the host on NumPy).

        A device array that does not exist yet is made as zeros, without copying the host.

        Returns
        -------
        DeviceMirror
            This mirror, for chaining.
        """
        self._check_bound("zero")
        if self._device_id is None:
            self._host.fill(0)
            return self
        cupy = sys.modules["cupy"]
        with cupy.cuda.Device(self._device_id):
            if self._device is None:
                self._device = cupy.zeros(self._shape, dtype=self._dtype)
            else:
                self._device.fill(0)
        return self
