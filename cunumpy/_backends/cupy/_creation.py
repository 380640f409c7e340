"""Creation functions of the CuPy namespace: each honours ``device=`` (a GPU, never the CPU).

With ``device=None`` arrays go to the current GPU, and ``*_like`` arrays to the GPU of
their input. CuPy's own creation functions take no ``device=`` (it is the current GPU).
"""

from __future__ import annotations

from contextlib import nullcontext
from typing import Any

import cupy
import numpy

from ..._placement._devices import DLPACK_HOST, dlpack_device_type
from ..._placement._transfer_log import active, describe, note_transfer
from ..._trace._recorder import copy_start
from ._device_copies import gpu, host_buffer_is_pinned, move, wait_for_host_copy

__all__ = [
    "arange",
    "asarray",
    "copy_from_host",
    "empty",
    "empty_like",
    "eye",
    "from_dlpack",
    "full",
    "full_like",
    "linspace",
    "ones",
    "ones_like",
    "zeros",
    "zeros_like",
]


# Standard: arange takes `device=`.
def arange(
    start: int | float,
    /,
    stop: int | float | None = None,
    step: int | float = 1,
    *,
    dtype: Any = None,
    device: Any = None,
) -> cupy.ndarray:
    """Evenly spaced values in [``start``, ``stop``) on ``device`` (default: the current GPU)."""
    if device is None:
        return cupy.arange(start, stop, step, dtype=dtype)
    with gpu(device, "arange"):
        return cupy.arange(start, stop, step, dtype=dtype)


_HOST_SCALARS = (float, complex, numpy.inexact, numpy.ndarray)


def _negative_zero_scalar(obj: Any, dtype: Any) -> cupy.ndarray | None:
    """``obj`` as a 0-D CuPy array when it is a 0-D host zero with a sign bit set, else None.

    CuPy builds a 0-D array from a host value with ``ndarray.fill``, which writes zero
    values with a memset: ``cupy.asarray(-0.0)`` is +0.0 (CuPy 14.2, ``core.pyx``). A
    one-element copy keeps the bits.
    """
    if not isinstance(obj, _HOST_SCALARS) or numpy.ndim(obj) != 0 or obj != 0:
        return None
    host = numpy.asarray(obj, dtype=dtype)
    if host.dtype.kind not in "fc" or not (numpy.signbit(host.real) or numpy.signbit(host.imag)):
        return None
    return cupy.asarray(host.reshape(1)).reshape(())


def _asarray_here(obj: Any, dtype: Any, copy: bool | None, func: str = "asarray") -> cupy.ndarray:
    if copy is not False:
        if host_buffer_is_pinned(obj):  # the call returns when the buffer may be refilled
            result = _copy_to_gpu(obj, dtype, copy, func)
            wait_for_host_copy()
            return result
        return _copy_to_gpu(obj, dtype, copy, func)
    zero_copy = isinstance(obj, cupy.ndarray) or hasattr(obj, "__cuda_array_interface__")
    if zero_copy:
        result = cupy.asarray(obj)
        # CuPy copies silently when the producer is on another GPU than the current one.
        if (dtype is None or result.dtype == dtype) and _shares_memory(obj, result):
            return result
    msg = (
        f"asarray: copy=False cannot be honoured for a {type(obj).__name__}"
        f"{'' if dtype is None else f' as {dtype!r}'}: it needs a copy (to the GPU or to "
        f"another dtype); pass copy=None or copy=True."
    )
    raise ValueError(msg)


def _copy_to_gpu(obj: Any, dtype: Any, copy: bool | None, func: str) -> cupy.ndarray:
    started = copy_start()
    result = _negative_zero_scalar(obj, dtype)
    if result is None:
        if copy is None:
            result = cupy.asarray(obj, dtype=dtype)
        else:
            result = cupy.array(obj, dtype=dtype, copy=True)
    if active():
        _note_copy(obj, result, func, started)
    return result


def _note_copy(obj: Any, result: cupy.ndarray, func: str, started: Any = 0) -> None:
    """Tell the transfer counters of the copy ``result`` of ``obj``: from the host, or on GPUs."""
    where = f"to cuda:{result.device.id}"
    if isinstance(obj, cupy.ndarray) or hasattr(obj, "__cuda_array_interface__"):
        if not _shares_memory(obj, result):  # a dtype conversion or copy on the GPU
            note_transfer("device_copy", describe(func, obj, where), nbytes=int(result.nbytes))
        return
    if isinstance(obj, _KERNEL_ARGUMENTS):
        return  # CuPy fills a 0-D array from a host scalar with a kernel argument, not a copy
    if _device_sequence(obj):  # CuPy concatenates a sequence of device arrays on the GPU
        note_transfer("device_copy", describe(func, obj, where), nbytes=int(result.nbytes))
        return
    note_transfer(
        "to_device",
        describe(func, obj, where),
        nbytes=int(result.nbytes),
        started=started,
        pinned=host_buffer_is_pinned(obj),
    )


_KERNEL_ARGUMENTS = (bool, int, float, complex, numpy.generic)


def _device_sequence(obj: Any) -> bool:
    """Whether ``obj`` is a non-empty (nested) list or tuple of CuPy arrays only."""
    if not isinstance(obj, (list, tuple)) or not obj:
        return False
    return all(isinstance(item, cupy.ndarray) or _device_sequence(item) for item in obj)


def copy_from_host(obj: Any, func: str) -> cupy.ndarray:
    """``obj`` (host data) copied to the current GPU, as ``asarray`` does; ``func`` names the caller."""
    return _asarray_here(obj, None, None, func)


def _shares_memory(obj: Any, result: cupy.ndarray) -> bool:
    if result is obj:
        return True
    interface = getattr(obj, "__cuda_array_interface__", None)
    return interface is not None and int(interface["data"][0]) == result.data.ptr


# Standard: asarray takes `device=` and `copy=` (copy=False that needs a copy is a ValueError).
def asarray(
    obj: Any, /, *, dtype: Any = None, device: Any = None, copy: bool | None = None
) -> cupy.ndarray:
    """``obj`` as a CuPy array on ``device`` (default: where it is, or the current GPU)."""
    unchanged = type(obj) is cupy.ndarray and device is None and not copy
    if unchanged and (dtype is None or obj.dtype == dtype):
        return obj  # already what was asked for: the common case, kept cheap
    target = None if device is None else gpu(device, "asarray")
    if isinstance(obj, cupy.ndarray):
        if target is not None and obj.device.id != target.id:
            moved = move(obj, target, copy, "asarray")
            with target:
                return moved if dtype is None else moved.astype(dtype, copy=False)
        return _asarray_here(obj, dtype, copy)  # obj's GPU is current (see _guard)
    with target if target is not None else nullcontext():
        return _asarray_here(obj, dtype, copy)


# Standard: empty takes `device=`.
def empty(shape: int | tuple[int, ...], *, dtype: Any = None, device: Any = None) -> cupy.ndarray:
    """An uninitialized array on ``device`` (default: the current GPU)."""
    if device is None:
        return cupy.empty(shape, dtype=dtype)
    with gpu(device, "empty"):
        return cupy.empty(shape, dtype=dtype)


# Standard: empty_like takes `device=`; CuPy takes no `device=`.
def empty_like(x: cupy.ndarray, /, *, dtype: Any = None, device: Any = None) -> cupy.ndarray:
    """An uninitialized array shaped like ``x``, on ``device`` (default: where ``x`` is)."""
    if device is None:  # x's GPU is current (see _guard)
        return cupy.empty_like(x, dtype=dtype)
    with gpu(device, "empty_like"):
        return cupy.empty_like(x, dtype=dtype)


# Standard: eye takes `device=` and `k=` keyword only.
def eye(
    n_rows: int,
    n_cols: int | None = None,
    /,
    *,
    k: int = 0,
    dtype: Any = None,
    device: Any = None,
) -> cupy.ndarray:
    """A 2-D array with ones on the ``k``-th diagonal, on ``device``."""
    if device is None:
        return cupy.eye(n_rows, n_cols, k=k, dtype=dtype)
    with gpu(device, "eye"):
        return cupy.eye(n_rows, n_cols, k=k, dtype=dtype)


# Standard: from_dlpack takes `device=` and `copy=`. CuPy's `device=` is a DLPack tuple it
# does not support, its `copy=True` fails for GPU producers (cupy.ndarray.__dlpack__ copies
# only to the host), and it rejects host producers even when a GPU copy is asked for.
def from_dlpack(x: Any, /, *, device: Any = None, copy: bool | None = None) -> cupy.ndarray:
    """A CuPy array sharing (or, when needed or asked, copying) the memory of ``x``."""
    target = None if device is None else gpu(device, "from_dlpack")
    if not isinstance(x, cupy.ndarray) and dlpack_device_type(x, "from_dlpack") in DLPACK_HOST:
        return _from_host_producer(x, target, copy)
    if isinstance(x, cupy.ndarray):
        shared = x.view()
    else:  # a GPU producer: import without a copy unless the producer must make one
        with target if target is not None else nullcontext():
            shared = cupy.from_dlpack(x, copy=False) if copy is False else cupy.from_dlpack(x)
    if target is not None and shared.device.id != target.id:
        return move(shared, target, copy, "from_dlpack")
    if copy:
        with shared.device:
            return shared.copy()
    return shared


def _from_host_producer(x: Any, target: Any, copy: bool | None) -> cupy.ndarray:
    """A host-memory producer's data copied to GPU ``target``."""
    if target is None:
        msg = (
            f"from_dlpack: the {type(x).__name__} lives in host memory and the CuPy namespace "
            f"creates arrays on GPUs only; pass device= a GPU, or use the NumPy namespace."
        )
        raise ValueError(msg)
    if copy is False:
        msg = (
            f"from_dlpack: copy=False cannot be honoured: the {type(x).__name__} lives in host "
            f"memory and GPU {target.id} needs a copy; pass copy=None or copy=True."
        )
        raise ValueError(msg)
    with target:
        return _asarray_here(numpy.from_dlpack(x), None, True, "from_dlpack")


# Standard: full takes `device=`.
def full(
    shape: int | tuple[int, ...],
    fill_value: bool | int | float | complex,
    *,
    dtype: Any = None,
    device: Any = None,
) -> cupy.ndarray:
    """An array filled with ``fill_value`` on ``device`` (default: the current GPU)."""
    if device is None:
        return cupy.full(shape, fill_value, dtype=dtype)
    with gpu(device, "full"):
        return cupy.full(shape, fill_value, dtype=dtype)


# Standard: full_like takes `device=`; CuPy takes no `device=`.
def full_like(
    x: cupy.ndarray,
    /,
    fill_value: bool | int | float | complex,
    *,
    dtype: Any = None,
    device: Any = None,
) -> cupy.ndarray:
    """An array shaped like ``x`` filled with ``fill_value``, on ``device`` (default: where ``x`` is)."""
    if device is None:  # x's GPU is current (see _guard)
        return cupy.full_like(x, fill_value, dtype=dtype)
    with gpu(device, "full_like"):
        return cupy.full_like(x, fill_value, dtype=dtype)


# Standard: linspace takes `device=`, and `num` and `endpoint` by keyword.
def linspace(
    start: int | float | complex,
    stop: int | float | complex,
    /,
    num: int,
    *,
    dtype: Any = None,
    device: Any = None,
    endpoint: bool = True,
) -> cupy.ndarray:
    """``num`` evenly spaced values from ``start`` to ``stop``, on ``device``."""
    if device is None:
        return _linspace(start, stop, num, dtype, endpoint)
    with gpu(device, "linspace"):
        return _linspace(start, stop, num, dtype, endpoint)


def _linspace(start: Any, stop: Any, num: int, dtype: Any, endpoint: bool) -> cupy.ndarray:
    complex_dtype = dtype is not None and numpy.dtype(dtype).kind == "c"
    if not (complex_dtype or isinstance(start, complex) or isinstance(stop, complex)):
        return cupy.linspace(start, stop, num, endpoint=endpoint, dtype=dtype)
    # CuPy's scalar path calls float(stop - start): space the two parts separately.
    start, stop = complex(start), complex(stop)
    result = cupy.empty(num, dtype=numpy.complex128 if dtype is None else dtype)
    part = result.real.dtype
    result.real[...] = cupy.linspace(start.real, stop.real, num, endpoint=endpoint, dtype=part)
    result.imag[...] = cupy.linspace(start.imag, stop.imag, num, endpoint=endpoint, dtype=part)
    return result


# Standard: ones takes `device=`.
def ones(shape: int | tuple[int, ...], *, dtype: Any = None, device: Any = None) -> cupy.ndarray:
    """An array of ones on ``device`` (default: the current GPU)."""
    if device is None:
        return cupy.ones(shape, dtype=dtype)
    with gpu(device, "ones"):
        return cupy.ones(shape, dtype=dtype)


# Standard: ones_like takes `device=`; CuPy takes no `device=`.
def ones_like(x: cupy.ndarray, /, *, dtype: Any = None, device: Any = None) -> cupy.ndarray:
    """An array of ones shaped like ``x``, on ``device`` (default: where ``x`` is)."""
    if device is None:  # x's GPU is current (see _guard)
        return cupy.ones_like(x, dtype=dtype)
    with gpu(device, "ones_like"):
        return cupy.ones_like(x, dtype=dtype)


# Standard: zeros takes `device=`.
def zeros(shape: int | tuple[int, ...], *, dtype: Any = None, device: Any = None) -> cupy.ndarray:
    """An array of zeros on ``device`` (default: the current GPU)."""
    if device is None:
        return cupy.zeros(shape, dtype=dtype)
    with gpu(device, "zeros"):
        return cupy.zeros(shape, dtype=dtype)


# Standard: zeros_like takes `device=`; CuPy takes no `device=`.
def zeros_like(x: cupy.ndarray, /, *, dtype: Any = None, device: Any = None) -> cupy.ndarray:
    """An array of zeros shaped like ``x``, on ``device`` (default: where ``x`` is)."""
    if device is None:  # x's GPU is current (see _guard)
        return cupy.zeros_like(x, dtype=dtype)
    with gpu(device, "zeros_like"):
        return cupy.zeros_like(x, dtype=dtype)
