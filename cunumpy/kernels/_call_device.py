"""Where a kernel call runs: on the CPU for NumPy arrays, on the GPU that holds CuPy arrays.

Compute follows data. Arrays of both libraries in one call raise ``TypeError``; CuPy
arrays on two GPUs, or a stream of another GPU, raise ``ValueError``. A call with only
scalars runs on the current backend (on CuPy, the current GPU).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Literal

import numpy as np

from .._backend_choice._config import get_backend
from .._namespaces._array_namespace import is_cupy_array, refuse_subclass
from .._placement._keep_alive import OPEN, RETAINED, note_use, release_finished, retain
from .._settings._cupy_probe import require_cupy
from .._settings._errors import with_article
from .._trace._recorder import launching
from ..cuda._streams import _check_stream_type, as_cupy_stream

__all__ = ["Where", "locate", "normalize_out", "on_gpu"]

Where = Literal["cpu"] | int

_SCALARS = (bool, int, float, complex, np.generic)


def normalize_out(out: Any, nout: int, func: str) -> tuple[Any, ...] | None:
    """``out`` as a tuple of ``nout`` arrays (a single array is accepted for one output)."""
    if out is None:
        return None
    outs = out if isinstance(out, tuple) else (out,)
    if len(outs) != nout:
        msg = f"{func}: `out` must hold {nout} array(s), one per result, not {len(outs)}."
        raise ValueError(msg)
    for i, o in enumerate(outs):
        if not (isinstance(o, np.ndarray) or is_cupy_array(o)):
            msg = (
                f"{func}: `out` {i} must be a NumPy or CuPy array, not {type(o).__name__} ({o!r})."
            )
            raise TypeError(msg)
        refuse_subclass(o, func)
        if isinstance(o, np.ndarray) and not o.flags.writeable:
            msg = f"{func}: `out` {i} is a read-only NumPy array; pass a writable one."
            raise ValueError(msg)
    return outs


def locate(
    values: Sequence[Any], outs: Sequence[Any], stream: Any, func: str, *, strict: bool = True
) -> Where:
    """The device a call runs on; checks the arguments' libraries, GPUs and ``stream``.

    With ``strict``, arguments other than arrays and scalars raise ``TypeError``; without,
    they are passed over (raw kernels take other things too).
    """
    numpy_found = cupy_found = False
    devices: set[int] = set()
    for i, v in enumerate((*values, *outs)):
        if isinstance(v, np.ndarray):
            refuse_subclass(v, func)
            numpy_found = True
        elif is_cupy_array(v):
            cupy_found = True
            devices.add(int(v.device.id))
        elif strict and (not isinstance(v, _SCALARS) or i >= len(values)):
            msg = (
                f"{func}: argument {i} is {with_article(type(v).__name__)} ({v!r}); expected a NumPy or "
                "CuPy array, a NumPy scalar or a Python bool, int, float or complex."
            )
            raise TypeError(msg)
    if numpy_found and cupy_found:
        msg = (
            f"{func}: the arguments mix NumPy (numpy.ndarray) and CuPy (cupy.ndarray) arrays; "
            "move them to one device first (cunumpy.to_device)."
        )
        raise TypeError(msg)
    if cupy_found:
        if len(devices) > 1:
            msg = (
                f"{func}: the arguments live on GPUs {sorted(devices)}; a kernel runs on one "
                "GPU: move them to one device first (cunumpy.to_device)."
            )
            raise ValueError(msg)
        device = devices.pop()
        as_cupy_stream(stream, device, func)  # TypeError, or ValueError for another GPU
        return device
    if not numpy_found and get_backend() == "cupy":
        device = int(require_cupy(func).cuda.runtime.getDevice())
        as_cupy_stream(stream, device, func)
        return device
    if stream is not None:
        _check_stream_type(stream, func)  # TypeError for what is no stream at all
        msg = (
            f"{func}: `stream` {stream!r} cannot be honoured for a call that runs on the CPU "
            "(NumPy arrays); pass stream=None (what cunumpy.cuda.stream() yields on NumPy)."
        )
        raise ValueError(msg)
    return "cpu"


@contextmanager
def on_gpu(device: int, stream: Any, func: str, reads: Sequence[Any] = ()) -> Iterator[Any]:
    """GPU ``device`` current, and the stream a kernel is queued on current; yields that stream.

    Without ``stream``, it is the current stream of the GPU. With another stream, that
    stream first waits (on the GPU, through an event) for the work already queued on the
    current stream, which may still be producing the kernel's inputs; the kernel's results
    are then ready on ``stream``. The arrays in ``reads`` are kept alive until the kernel
    has run, so that their memory is not reused under it (rule 7 of the stream-ordering
    model): until an event recorded after it has completed, with ``stream``, or until the
    ``stream()`` block it is queued in has run; the host does not wait for that.
    """
    cupy = sys.modules["cupy"]
    if RETAINED:
        release_finished()
    with cupy.cuda.Device(device):
        current = cupy.cuda.get_current_stream()
        resolved = as_cupy_stream(stream, device, func)
        if resolved is None or resolved.ptr == current.ptr:
            if OPEN:
                note_use(reads)
            with launching(func, current):
                yield current
            return
        ready = cupy.cuda.Event(disable_timing=True)
        ready.record(current)
        resolved.wait_event(ready)
        try:
            with resolved, launching(func, resolved):
                yield resolved
        finally:  # also when the launch failed: some of the work may be queued
            arrays = tuple(a for a in reads if is_cupy_array(a))
            if arrays:
                done = cupy.cuda.Event(disable_timing=True)
                done.record(resolved)
                retain(done, arrays)
