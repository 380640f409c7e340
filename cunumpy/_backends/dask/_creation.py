"""Creation functions of the Dask namespace: the standard's signatures over ``dask.array``.

Each takes ``device=``: ``"cpu"`` (or None) gives NumPy chunks, a CUDA device CuPy chunks
(through Dask's ``like=``/``meta=``). Data given to ``asarray`` is converted by the chunk
namespace first, so dtypes, ``copy=`` and errors are those of cunumpy's NumPy or CuPy
namespace, then wrapped in one Dask array without a copy.
"""

from __future__ import annotations

from typing import Any

import dask.array as da
import numpy as np

from ..._namespaces._array_predicates import is_cupy_array
from .. import numpy as _numpy_namespace
from ._chunks import like

__all__ = [
    "arange", "asarray", "empty", "empty_like", "eye", "from_dlpack", "full", "full_like",
    "linspace", "ones", "ones_like", "tril", "triu", "zeros", "zeros_like",
]  # fmt: skip


def _chunk_namespace_for(device: Any, func: str, data: Any = None) -> Any:
    """cunumpy's namespace for chunks on ``device``: NumPy's for the CPU, else CuPy's;
    without ``device``, CuPy's for CuPy ``data`` (creation follows the data it is given)."""
    on_cpu = not is_cupy_array(data) if device is None else like(device, func) is None
    if on_cpu:
        return _numpy_namespace
    from .. import cupy as cupy_namespace

    return cupy_namespace


def _wrap(chunk: Any) -> da.Array:
    return da.from_array(chunk, chunks="auto", asarray=False)


# Standard: copy= and device=; a Dask array is returned as it is (or cast), other data is
# converted by the chunk namespace, then wrapped without a copy.
def asarray(
    obj: Any, /, *, dtype: Any = None, device: Any = None, copy: bool | None = None
) -> da.Array:
    """Convert ``obj`` to a Dask array (NumPy chunks, or CuPy chunks on a CUDA ``device``)."""
    if isinstance(obj, da.Array):
        if dtype is not None and obj.dtype != dtype:
            if copy is False:
                msg = f"asarray: casting {obj.dtype} to {dtype!r} needs a copy, and copy=False."
                raise ValueError(msg)
            return obj.astype(dtype)
        return obj.copy() if copy else obj
    namespace = _chunk_namespace_for(device, "asarray", obj)
    return _wrap(namespace.asarray(obj, dtype=dtype, copy=copy))


def from_dlpack(x: Any, /, *, device: Any = None, copy: bool | None = None) -> da.Array:
    """A Dask array of the DLPack capsule holder ``x`` (a Dask array is returned as it is)."""
    if isinstance(x, da.Array):
        return asarray(x, device=device, copy=copy)
    namespace = _chunk_namespace_for(device, "from_dlpack", x)
    return _wrap(namespace.from_dlpack(x, device=device, copy=copy))


# Standard: `stop` is positional; Dask takes it positionally too, with like= for CuPy.
def arange(
    start: float, /, stop: float | None = None, step: float = 1, *, dtype: Any = None,
    device: Any = None,
) -> da.Array:  # fmt: skip
    """Evenly spaced values in [``start``, ``stop``) (``start`` is the stop if it is alone)."""
    if stop is None:
        start, stop = 0, start
    if dtype is None:
        dtype = np.result_type(start, stop, step)  # int64 or float64, as the standard says
    return da.arange(start, stop, step, dtype=dtype, like=like(device, "arange"))


def empty(shape: Any, *, dtype: Any = None, device: Any = None) -> da.Array:
    """An uninitialized array of ``shape``."""
    return da.empty(shape, dtype=dtype or np.float64, meta=like(device, "empty"))


def zeros(shape: Any, *, dtype: Any = None, device: Any = None) -> da.Array:
    """An array of ``shape`` filled with zeros."""
    return da.zeros(shape, dtype=dtype or np.float64, meta=like(device, "zeros"))


def ones(shape: Any, *, dtype: Any = None, device: Any = None) -> da.Array:
    """An array of ``shape`` filled with ones."""
    return da.ones(shape, dtype=dtype or np.float64, meta=like(device, "ones"))


def full(shape: Any, fill_value: Any, *, dtype: Any = None, device: Any = None) -> da.Array:
    """An array of ``shape`` filled with ``fill_value``."""
    if dtype is None:
        dtype = _numpy_namespace.full((), fill_value).dtype  # bool, int64, float64, complex128
    return da.full(shape, fill_value, dtype=dtype, meta=like(device, "full"))


def empty_like(x: da.Array, /, *, dtype: Any = None, device: Any = None) -> da.Array:
    """An uninitialized array of ``x``'s shape."""
    return da.empty_like(_on(x, device), dtype=dtype)


def zeros_like(x: da.Array, /, *, dtype: Any = None, device: Any = None) -> da.Array:
    """Zeros of ``x``'s shape."""
    return da.zeros_like(_on(x, device), dtype=dtype)


def ones_like(x: da.Array, /, *, dtype: Any = None, device: Any = None) -> da.Array:
    """Ones of ``x``'s shape."""
    return da.ones_like(_on(x, device), dtype=dtype)


def full_like(
    x: da.Array, /, fill_value: Any, *, dtype: Any = None, device: Any = None
) -> da.Array:
    """``fill_value`` in an array of ``x``'s shape."""
    return da.full_like(_on(x, device), fill_value, dtype=dtype)


def _on(x: da.Array, device: Any) -> da.Array:
    if device is None:
        return x
    from ._chunks import to_device

    return to_device(x, device)  # lazy: only the meta is used by the *_like functions


def eye(
    n_rows: int, n_cols: int | None = None, /, *, k: int = 0, dtype: Any = None,
    device: Any = None,
) -> da.Array:  # fmt: skip
    """A 2-D array with ones on the ``k``-th diagonal."""
    n_cols = n_rows if n_cols is None else n_cols
    meta = like(device, "eye")
    rows = da.arange(n_rows, like=meta)[:, None]
    cols = da.arange(n_cols, like=meta)[None, :]
    return (cols - rows == k).astype(dtype or np.float64)  # Dask's eye has no like=


def linspace(
    start: Any, stop: Any, /, num: int, *, dtype: Any = None, device: Any = None,
    endpoint: bool = True,
) -> da.Array:  # fmt: skip
    """``num`` evenly spaced values from ``start`` to ``stop``."""
    if dtype is None:
        dtype = _numpy_namespace.linspace(start, stop, 0).dtype  # float64 or complex128
    result = da.linspace(start, stop, num, endpoint=endpoint, dtype=dtype)
    return result if like(device, "linspace") is None else _on(result, device)


# Standard: stacks of matrices too (dask.array.tril takes 2-D arrays only).
def tril(x: da.Array, /, *, k: int = 0) -> da.Array:
    """Zero the elements above the ``k``-th diagonal of each matrix in ``x``."""
    if x.ndim == 2:
        return da.tril(x, k)
    mask = da.tri(*x.shape[-2:], k=k, dtype=bool, chunks=x.chunks[-2:])
    return da.where(mask, x, da.zeros_like(x, shape=()))


def triu(x: da.Array, /, *, k: int = 0) -> da.Array:
    """Zero the elements below the ``k``-th diagonal of each matrix in ``x``."""
    if x.ndim == 2:
        return da.triu(x, k)
    mask = da.tri(*x.shape[-2:], k=k - 1, dtype=bool, chunks=x.chunks[-2:])
    return da.where(mask, da.zeros_like(x, shape=()), x)
