"""Device placement for the CuPy namespace: a ``device=`` argument turned into a ``cupy.cuda.Device``."""

from __future__ import annotations

from typing import Any

import cupy

from ..._devices import canonical_device

__all__ = ["CUPY_MAJOR", "copy_from_other_gpu", "gpu", "move"]

CUPY_MAJOR = int(cupy.__version__.partition(".")[0])


def gpu(device: Any, func: str) -> Any:
    """The ``cupy.cuda.Device`` for ``device``; the CPU is a ``ValueError`` naming ``func``."""
    index = canonical_device(device, func)
    if index == "cpu":
        msg = (
            f"{func}: the CuPy namespace creates arrays on GPUs only, not on {device!r}; "
            f"use the NumPy namespace (or cunumpy.{func} with device='cpu') for the CPU."
        )
        raise ValueError(msg)
    return cupy.cuda.Device(index)


def move(x: Any, target: Any, copy: bool | None, func: str) -> Any:
    """``x`` (a CuPy array) on GPU ``target``, copied there only when it lives elsewhere."""
    if x.device.id == target.id:
        return x
    if copy is False:
        msg = (
            f"{func}: copy=False cannot be honoured: the array is on GPU {x.device.id} and "
            f"moving it to GPU {target.id} needs a copy; pass copy=None or copy=True."
        )
        raise ValueError(msg)
    with target:
        return copy_from_other_gpu(x)


def copy_from_other_gpu(x: Any) -> Any:
    """A copy of ``x`` on the current GPU, queued on its current stream.

    The copy first waits (on the device, not the host) for the work already queued on the
    current stream of ``x``'s GPU, which may still be writing ``x``; a strided ``x`` is
    made contiguous there first, and that GPU does not reuse the temporary before the copy
    is done. CuPy copies between GPUs peer to peer, or through the host.
    """
    with x.device:
        source = cupy.ascontiguousarray(x)
        ready = cupy.cuda.get_current_stream().record()
    stream = cupy.cuda.get_current_stream()
    stream.wait_event(ready)
    result = source.copy()
    if source is not x:
        done = stream.record()
        with x.device:
            cupy.cuda.get_current_stream().wait_event(done)
    return result
