"""Array views and structs of an emulated launch, packed as the GPU receives them.

A kernel parameter declared as an array view (``Array2D<double> markers``, from
``cunumpy/array_view.cuh`` or a client's own header of the same layout) is a struct
of pointer, shape and strides in elements; a struct parameter may hold such views.
On the emulator the pointer is the host buffer's address: a NumPy array, or the host
buffer of a fake CuPy array (whose ``data.ptr`` is that address already).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..cuda._signature import CudaParameter, view_dtype

__all__ = ["pack_declared"]


def _host(value: Any) -> Any:
    from .._emulation._fake._ndarray import ndarray

    return value._a if type(value) is ndarray else value


def _array(where: str, param: CudaParameter, value: Any, what: str) -> np.ndarray:
    value = _host(value)
    if not isinstance(value, np.ndarray):
        msg = f"{where}: {what} {param.name!r} ({param.ctype}) takes an array, not {type(value).__name__} ({value!r})."
        raise TypeError(msg)
    if param.dtype is not None and value.dtype != param.dtype:
        msg = f"{where}: {what} {param.name!r} ({param.ctype}) takes {param.dtype} elements, not {value.dtype}."
        raise TypeError(msg)
    return value


def _view(where: str, param: CudaParameter, value: Any, what: str) -> Any:
    array = _array(where, param, value, what)
    ndim = param.view_ndim or 0
    if array.ndim != ndim:
        msg = f"{where}: {what} {param.name!r} ({param.ctype}) takes a {ndim}-D array, not {array.ndim}-D."
        raise TypeError(msg)
    if param.contiguous and not array.flags.c_contiguous:
        msg = f"{where}: {what} {param.name!r} ({param.ctype}) takes a C-contiguous array."
        raise TypeError(msg)
    packed = np.zeros((), dtype=view_dtype(ndim, param.contiguous))
    packed["data"] = array.ctypes.data
    packed["shape"] = array.shape
    if not param.contiguous:
        packed["strides"] = [s // array.itemsize for s in array.strides]
    return packed[()]


def _field(where: str, struct: Any, value: Any, field: CudaParameter) -> Any:
    if isinstance(value, Mapping):
        if field.name in value:
            return value[field.name]
    elif hasattr(value, field.name):
        return getattr(value, field.name)
    msg = (
        f"{where}: the value of struct {struct.name} ({type(value).__name__}) has no field "
        f"{field.name!r}; pass a mapping or an object with the fields {[f.name for f in struct.fields]!r}."
    )
    raise TypeError(msg)


def _struct(where: str, param: CudaParameter, value: Any) -> Any:
    struct = param.struct
    packed_value = getattr(value, "packed", value)  # a CudaStructValue holds its packed bytes
    if isinstance(packed_value, np.void) and packed_value.dtype == param.dtype:
        return packed_value
    packed = np.zeros((), dtype=param.dtype)
    for field in struct.fields:
        item = _field(where, struct, value, field)
        if field.view_ndim is not None:
            packed[field.name] = _view(where, field, item, f"field of {struct.name}")
        elif field.pointer:
            packed[field.name] = _array(where, field, item, f"field of {struct.name}").ctypes.data
        else:
            packed[field.name] = _host(item)
    return packed[()]


def pack_declared(
    where: str, signature: Sequence[CudaParameter] | None, args: Sequence[Any]
) -> list[Any]:
    """``args`` with array views and structs packed for the parameters that declare them."""
    if signature is None or len(signature) != len(args):
        return list(args)
    packed = []
    for param, value in zip(signature, args):
        if param.view_ndim is not None:
            value = _view(where, param, value, "parameter")
        elif param.struct is not None:
            value = _struct(where, param, value)
        packed.append(value)
    return packed
