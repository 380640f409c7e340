"""The chunks of a Dask array: their namespace, their device, and moving them.

A Dask array holds NumPy or CuPy chunks; which, is read from its ``_meta`` (an empty
array of the chunk type that Dask carries with every array), so nothing is computed.
Functions that Dask lacks or gets wrong run per chunk with cunumpy's own namespace for
that chunk type, so a fix made for NumPy or CuPy arrays holds for their Dask arrays too.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import dask.array as da

from ..._namespaces._array_predicates import is_cupy_array
from ..._placement._devices import canonical_device
from .. import numpy as _numpy_namespace

__all__ = ["chunk_namespace", "chunk_namespace_of", "device", "like", "to_device"]

_map_blocks: Any = da.map_blocks  # typed by Dask as a decorated method


def chunk_namespace(x: Any) -> ModuleType:
    """cunumpy's namespace for the chunks of the Dask array ``x`` (NumPy or CuPy)."""
    if is_cupy_array(getattr(x, "_meta", None)):
        from .. import cupy as cupy_namespace

        return cupy_namespace
    return _numpy_namespace


def chunk_namespace_of(*args: Any) -> ModuleType:
    """The chunk namespace of the first Dask array among ``args`` (NumPy's if none)."""
    for x in args:
        if isinstance(x, da.Array):
            return chunk_namespace(x)
    return _numpy_namespace


def like(device: Any, func: str) -> Any:
    """An empty chunk for ``device`` (``like=``/``meta=`` of Dask), or None for the CPU.

    Devices are read as everywhere in cunumpy (``canonical_device``), errors naming ``func``.
    """
    if device is None:
        return None
    target = canonical_device(device, func)
    if target == "cpu":
        return None
    from .. import cupy as cupy_namespace

    return cupy_namespace.empty((0,), device=target)


def device(x: Any, /) -> Any:
    """The device of ``x``'s chunks: ``"cpu"`` for NumPy chunks, the CUDA device of CuPy's.

    Examples
    --------
    >>> import dask.array as da
    >>> import cunumpy.dask as xp
    >>> xp.device(da.ones(3))
    'cpu'
    """
    meta: Any = getattr(x, "_meta", None)
    if is_cupy_array(meta):
        return meta.device
    if not isinstance(x, da.Array):
        msg = f"device: `x` must be a Dask array, not {type(x).__qualname__} {x!r:.60}."
        raise TypeError(msg)
    return "cpu"


def to_device(x: Any, device: Any, /, *, stream: Any = None) -> Any:
    """Return ``x`` with its chunks on ``device`` (lazily: each chunk moves when computed).

    Examples
    --------
    >>> import dask.array as da
    >>> import cunumpy.dask as xp
    >>> xp.to_device(da.ones(3), "cpu").compute()
    array([1., 1., 1.])
    """
    if not isinstance(x, da.Array):
        msg = f"to_device: `x` must be a Dask array, not {type(x).__qualname__} {x!r:.60}."
        raise TypeError(msg)
    if stream is not None:
        msg = f"to_device: `stream` is not supported for Dask arrays (got {stream!r}); pass None."
        raise ValueError(msg)
    source = globals()["device"](x)
    if device is None or device == source:
        return x
    if canonical_device(device, "to_device") == "cpu":
        host_meta = _numpy_namespace.empty((0,) * x.ndim, dtype=x.dtype)
        return _map_blocks(_chunk_to_host, x, meta=host_meta)
    meta = like(device, "to_device").reshape((0,) * x.ndim).astype(x.dtype)
    return _map_blocks(_chunk_to_gpu, x, canonical_device(device, "to_device"), meta=meta)


# One chunk's move, through the CuPy backend's copies (counted like every other copy):
# the backends' floor, so cunumpy.to_device, which hands Dask arrays here, is not imported.
def _chunk_to_host(chunk: Any) -> Any:
    if not is_cupy_array(chunk):
        return chunk
    from ..cupy._device_copies import to_host

    return to_host(chunk, None, "to_device")


def _chunk_to_gpu(chunk: Any, target: int) -> Any:
    import cupy

    if is_cupy_array(chunk):
        if int(chunk.device.id) == target:
            return chunk
        from ..cupy._device_copies import copy_from_other_gpu

        with cupy.cuda.Device(target):
            return copy_from_other_gpu(chunk, "to_device")
    from ..cupy._creation import copy_from_host

    with cupy.cuda.Device(target):
        return copy_from_host(chunk, "to_device")
