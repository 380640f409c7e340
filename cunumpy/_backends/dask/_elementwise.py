"""Elementwise and data-type functions of the Dask namespace where Dask's differ.

Where the chunk library's function departs from the standard (NumPy's ``floor_divide``,
``expm1``, ``tanh``, ``clip``), the fix is cunumpy's own namespace function, run on each
chunk with ``dask.array.elemwise``: one task per chunk, as Dask's ufunc would build.
The data-type functions read ``.dtype`` of Dask arrays, which NumPy's would convert
(computing them).
"""

from __future__ import annotations

from typing import Any

import dask.array as da
from dask.array.core import elemwise

from .. import numpy as _numpy_namespace
from ._chunks import chunk_namespace, chunk_namespace_of

__all__ = [
    "astype", "can_cast", "clip", "expm1", "floor_divide", "result_type", "tanh",
]  # fmt: skip


def _per_chunk(function: Any, *args: Any) -> da.Array:
    """``function`` on each chunk, its dtype read from a call on the chunks' empty ``_meta``.

    Without ``dtype=``, ``elemwise`` infers it by calling ``function`` on NumPy arrays,
    which CuPy's functions refuse (Dask then returns ``NotImplemented``); the metas are
    arrays of the chunks' own library, so the call works for NumPy and CuPy chunks alike.
    """
    metas = [x._meta if isinstance(x, da.Array) else x for x in args]
    return elemwise(function, *args, dtype=function(*metas).dtype)


def floor_divide(x1: Any, x2: Any, /) -> da.Array:
    """Floor division, with the standard's special cases for infinite operands."""
    return _per_chunk(chunk_namespace_of(x1, x2).floor_divide, x1, x2)


def expm1(x: da.Array, /) -> da.Array:
    """``exp(x) - 1``, with the standard's special cases for complex infinities."""
    return _per_chunk(chunk_namespace(x).expm1, x)


def tanh(x: da.Array, /) -> da.Array:
    """Hyperbolic tangent, with the standard's special cases for complex infinities."""
    return _per_chunk(chunk_namespace(x).tanh, x)


# Standard: min=/max= may be None, and the result keeps the dtype of x.
def clip(x: da.Array, /, min: Any = None, max: Any = None) -> da.Array:
    """Clamp each element of ``x`` to [``min``, ``max``]."""
    namespace = chunk_namespace(x)
    return elemwise(namespace.clip, x, min, max, dtype=x.dtype)


# Standard: copy= and device= (Dask's astype has neither).
def astype(x: da.Array, dtype: Any, /, *, copy: bool = True, device: Any = None) -> da.Array:
    """``x`` cast to ``dtype``."""
    if device is not None:
        from ._chunks import to_device

        x = to_device(x, device)
    if not copy and x.dtype == dtype:
        return x
    return x.astype(dtype)


def _dtype_of(value: Any) -> Any:
    return value.dtype if isinstance(value, da.Array) else value


def result_type(*arrays_and_dtypes: Any) -> Any:
    """The dtype the standard's promotion gives for ``arrays_and_dtypes`` (nothing computed)."""
    return _numpy_namespace.result_type(*(_dtype_of(value) for value in arrays_and_dtypes))


def can_cast(from_: Any, to: Any, /) -> bool:
    """Whether ``from_`` (a dtype or array) casts to ``to`` by the standard's rules."""
    return bool(_numpy_namespace.can_cast(_dtype_of(from_), to))
