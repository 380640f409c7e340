"""Stream arguments turned into CuPy streams, checked against the device they are used on."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from typing import Any

__all__ = ["as_cupy_stream", "on_device_and_stream"]

_ACCEPTED = (
    "None, a stream from cunumpy.cuda.stream(), a cupy.cuda.Stream, or an int CUDA stream handle"
)


def _stream_device(stream: Any) -> int | None:
    device_id = getattr(stream, "device_id", None)
    return None if device_id is None or device_id < 0 else int(device_id)


class _Handle:
    """A raw stream handle, offered through the CUDA stream protocol."""

    def __init__(self, ptr: int) -> None:
        self.ptr = ptr

    def __cuda_stream__(self) -> tuple[int, int]:
        return (0, self.ptr)


def _wrap_handle(cupy: Any, ptr: int, device_index: int) -> Any:
    """A CuPy stream for handle ``ptr`` on GPU ``device_index``; it never destroys the stream.

    CuPy 14 deprecates ``ExternalStream`` (a ``DeprecationWarning``) for
    ``Stream.from_external``, which records no device; CuPy 13 has only the former.
    """
    from_external = getattr(cupy.cuda.Stream, "from_external", None)
    if from_external is None:
        return cupy.cuda.ExternalStream(ptr, device_index)
    wrapped = from_external(_Handle(ptr))
    wrapped.device_id = device_index
    return wrapped


def as_cupy_stream(stream: Any, device_index: int, func: str) -> Any:
    """Return ``stream`` as a CuPy stream usable on GPU ``device_index`` (or None).

    An int is a raw CUDA stream handle (the DLPack convention) and is wrapped in a CuPy
    stream recorded on ``device_index`` that does not own it. A stream that belongs to
    another GPU raises ``ValueError``.
    """
    if stream is None:
        return None
    cupy = sys.modules.get("cupy")
    if isinstance(stream, bool):
        msg = f"{func}: `stream` cannot be a bool ({stream!r}); expected {_ACCEPTED}."
        raise TypeError(msg)
    if isinstance(stream, int):
        from ._cupy import require_cupy

        cupy = require_cupy(func)
        if stream < 0:
            msg = f"{func}: a CUDA stream handle cannot be negative ({stream!r})."
            raise ValueError(msg)
        return _wrap_handle(cupy, stream, device_index)
    if cupy is None or not isinstance(stream, (cupy.cuda.Stream, cupy.cuda.ExternalStream)):
        msg = f"{func}: cannot use {stream!r} as a stream; expected {_ACCEPTED}."
        raise TypeError(msg)
    owner = _stream_device(stream)
    if owner is not None and owner != device_index:
        msg = (
            f"{func}: the stream {stream!r} belongs to GPU {owner}, but the work runs on "
            f"GPU {device_index}; use a stream created on GPU {device_index}."
        )
        raise ValueError(msg)
    return stream


@contextmanager
def on_device_and_stream(device_index: int, stream: Any, func: str) -> Iterator[None]:
    """Make GPU ``device_index`` current and, when given, ``stream`` current, for a block."""
    import cupy

    resolved = as_cupy_stream(stream, device_index, func)
    with cupy.cuda.Device(device_index), resolved if resolved is not None else nullcontext():
        yield
