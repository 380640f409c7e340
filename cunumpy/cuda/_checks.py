"""Checking one value against one parsed CUDA parameter, and packing it for the launch.

One checker per parameter is built once (when the kernel or struct is defined) so that a
call only runs closures: arrays must be CuPy arrays (never copied) of the declared dtype,
C-contiguous behind a pointer; array views are packed into pointer, shape and strides;
scalars are cast to the declared C type, integers within its range; struct values must
be of the declared struct. Errors name ``owner`` (the kernel or struct), the parameter
and the value.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .._namespaces._array_predicates import is_cupy_array
from .._settings._errors import with_article
from ._signature import CudaParameter, view_dtype

__all__ = ["Checker", "accept_device_type", "checker", "describe"]

Checker = Callable[[Any], Any]

# The CuPy array types seen so far (the classes of one CuPy, or a stand-in's): one set
# lookup instead of the subclass test per argument.
_DEVICE_TYPES: set[type] = set()


def accept_device_type(cls: type) -> None:
    """Take arrays of `cls` as device arrays (the host stand-ins of emulated launches)."""
    _DEVICE_TYPES.add(cls)


def describe(param: CudaParameter, index: int, owner: str) -> str:
    """``owner``'s parameter ``index`` as in the source: ``axpy: parameter 1 (const double* x)``."""
    return f"{owner}: parameter {index} ({param.ctype}{'*' if param.pointer else ''} {param.name})"


def _short(value: Any) -> str:
    if is_cupy_array(value) or isinstance(value, np.ndarray):
        return f"{type(value).__module__.split('.')[0]}.ndarray of shape {tuple(value.shape)} and dtype {value.dtype}"
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _device_array(param: CudaParameter, where: str, value: Any) -> None:
    if type(value) in _DEVICE_TYPES and value.dtype is param.dtype:  # the common case
        return
    if type(value) not in _DEVICE_TYPES and not is_cupy_array(value):
        host = isinstance(value, np.ndarray)
        hint = (
            "; CUDA kernels never copy host data to the GPU: move it first "
            "(cunumpy.to_device, cunumpy.as_device_array) or call the host kernel"
            if host
            else ""
        )
        msg = f"{where} takes a CuPy array, not {_short(value)}{hint}."
        raise TypeError(msg)
    _DEVICE_TYPES.add(type(value))
    if param.dtype is not None and value.dtype != param.dtype:
        msg = f"{where} takes dtype {param.dtype}, not the {_short(value)}; cast it with .astype()."
        raise TypeError(msg)


def _pointer(param: CudaParameter, where: str) -> Checker:
    def check(value: Any) -> Any:
        _device_array(param, where, value)
        if not value.flags.c_contiguous:
            msg = (
                f"{where} reads a flat buffer, but got a non-contiguous array with strides "
                f"{tuple(value.strides)}; pass cupy.ascontiguousarray(...) or declare the "
                f"parameter as Array{value.ndim}D<{param.ctype}> to take strided views."
            )
            raise TypeError(msg)
        return value

    return check


def _view(param: CudaParameter, where: str) -> Checker:
    ndim = param.view_ndim or 0
    contiguous = param.contiguous
    packed_dtype = view_dtype(ndim, contiguous)

    def check(value: Any) -> Any:
        _device_array(param, where, value)
        if value.ndim != ndim:
            msg = f"{where} takes {with_article(f'{ndim}-D')} array, not the {_short(value)}."
            raise TypeError(msg)
        itemsize = value.dtype.itemsize
        if contiguous and not value.flags.c_contiguous:
            msg = (
                f"{where} takes a C-contiguous array, not one with strides "
                f"{tuple(value.strides)}; declare it Array{ndim}D to take strided views."
            )
            raise TypeError(msg)
        if any(s % itemsize for s in value.strides):
            msg = f"{where}: the strides {tuple(value.strides)} are not multiples of the item size {itemsize}."
            raise TypeError(msg)
        packed = np.zeros((), dtype=packed_dtype)
        packed["data"] = value.data.ptr
        packed["shape"] = value.shape
        if not contiguous:
            packed["strides"] = [s // itemsize for s in value.strides]
        return packed[()]

    return check


def _scalar(param: CudaParameter, where: str) -> Checker:
    dtype = param.dtype
    assert dtype is not None
    kind, cast = dtype.kind, dtype.type
    low, high = (int(np.iinfo(dtype).min), int(np.iinfo(dtype).max)) if kind in "iu" else (0, 0)

    def from_int(value: int) -> Any:
        if kind in "iu" and not low <= value <= high:
            msg = f"{where}: {value!r} is out of the range [{low}, {high}] of {param.ctype}."
            raise OverflowError(msg)
        if kind == "b":
            msg = f"{where} takes a bool, not the int {value!r}."
            raise TypeError(msg)
        return cast(value)

    takes_float, is_integer = kind in "fc", kind in "iu"

    def check(value: Any) -> Any:
        kind_of_value = type(value)
        if kind_of_value is cast:  # already the declared type: the common case
            return value
        if kind_of_value is int:
            if is_integer and low <= value <= high:
                return cast(value)
            return from_int(value)
        if kind_of_value is float and takes_float:
            return cast(value)
        if isinstance(value, (bool, np.bool_)):
            if kind in "biu":
                return cast(value)
        elif isinstance(value, (int, np.integer)):
            if kind in "iufc":
                return from_int(int(value))
        elif isinstance(value, (float, np.floating)):
            if kind in "fc" and (
                kind_of_value is float or np.can_cast(np.result_type(value), dtype)
            ):
                return cast(value)
        elif (
            isinstance(value, (complex, np.complexfloating))
            and kind == "c"
            and (kind_of_value is complex or np.can_cast(np.result_type(value), dtype))
        ):
            return cast(value)
        msg = (
            f"{where} takes {with_article(param.ctype)} ({dtype}), not {_short(value)} of type "
            f"{kind_of_value.__name__}; pass a value that converts without loss."
        )
        raise TypeError(msg)

    return check


def _struct(param: CudaParameter, where: str) -> Checker:
    dtype = param.dtype

    def check(value: Any) -> Any:
        if isinstance(value, np.void) and value.dtype == dtype:
            return value
        msg = (
            f"{where} takes a value of struct {param.ctype} (made by its CudaStruct or a "
            f"CudaStructArguments), not {_short(value)}."
        )
        raise TypeError(msg)

    return check


def checker(param: CudaParameter, index: int, owner: str) -> Checker:
    """The function that checks and converts a value for ``param``."""
    where = describe(param, index, owner)
    if param.struct is not None:
        return _struct(param, where)
    if param.view_ndim is not None:
        return _view(param, where)
    if param.pointer:
        return _pointer(param, where)
    return _scalar(param, where)
