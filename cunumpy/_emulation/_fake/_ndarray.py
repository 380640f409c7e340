"""The fake CuPy's ``ndarray``: host memory behind a type that is no NumPy array.

Implicit conversion to NumPy raises ``TypeError`` as CuPy's does (``numpy.asarray``,
``float`` of a big array, mixing with NumPy arrays in arithmetic); ``.get()`` copies out.
Results of operations are fake arrays again; reductions and scalar indexing give 0-d arrays.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import numpy as np

from . import _pool
from ._gpus import Device, current_device, enter_context

__all__ = ["IMPLICIT", "Device", "ndarray", "unwrap", "wrap"]

IMPLICIT = (
    "Implicit conversion to a NumPy array is not allowed. Please use `.get()` to construct "
    "a NumPy array explicitly."
)


class _Memory:
    def __init__(self, array: np.ndarray, device: int) -> None:
        self.ptr = int(array.ctypes.data)
        self.device_id = device


def unwrap(value: Any, func: str) -> Any:
    """``value`` with fake arrays replaced by their host buffers; NumPy arrays raise."""
    if type(value) is ndarray:
        if _pool.STACK:
            _pool.used(value._a)
        return value._a
    if isinstance(value, np.ndarray):
        msg = f"{func}: Unsupported type <class 'numpy.ndarray'>. {IMPLICIT.split('. ')[0]} (fake CuPy: pass a cupy.ndarray; use cupy.asarray to copy to the device)."
        raise TypeError(msg)
    if isinstance(value, (list, tuple)):
        items = [unwrap(v, func) for v in value]
        return type(value)(items) if isinstance(value, tuple) else items
    return value


def _read(array: ndarray, *, write: bool = False) -> np.ndarray:
    """The host buffer of ``array``, noted as used by the current stream's work."""
    if _pool.STACK:
        _pool.used(array._a, write=write)
    return array._a


def _host_read() -> None:
    """A value read on the host: CuPy waits for the current stream first."""
    if _pool.STACK:
        _pool.finish(_pool.STACK[-1])


def wrap(value: Any) -> Any:
    """Host results as fake arrays (NumPy scalars as 0-d arrays, as CuPy returns them)."""
    if isinstance(value, np.ndarray):
        return ndarray._of(value)
    if isinstance(value, np.generic):
        return ndarray._of(np.asarray(value))
    if isinstance(value, tuple):
        return tuple(wrap(v) for v in value)
    if isinstance(value, list):
        return [wrap(v) for v in value]
    return value


def _binary(op: Callable[[Any, Any], Any], name: str) -> Callable[[ndarray, Any], Any]:
    def method(self: ndarray, other: Any) -> Any:
        return wrap(op(_read(self), unwrap(other, f"cupy.ndarray.{name}")))

    method.__name__ = name
    return method


def _reflected(op: Callable[[Any, Any], Any], name: str) -> Callable[[ndarray, Any], Any]:
    def method(self: ndarray, other: Any) -> Any:
        return wrap(op(unwrap(other, f"cupy.ndarray.{name}"), _read(self)))

    method.__name__ = name
    return method


def _inplace(op: Callable[[Any, Any], Any], name: str) -> Callable[[ndarray, Any], Any]:
    def method(self: ndarray, other: Any) -> ndarray:
        op(_read(self, write=True), unwrap(other, f"cupy.ndarray.{name}"))
        return self

    method.__name__ = name
    return method


class ndarray:
    """A fake ``cupy.ndarray``: a NumPy buffer that NumPy code cannot take implicitly."""

    __module__ = "cupy"
    __slots__ = ("__weakref__", "_a", "_device")
    __array_priority__ = 100

    def __init__(
        self,
        shape: Any,
        dtype: Any = float,
        memptr: Any = None,
        strides: Any = None,
        order: str = "C",
    ) -> None:
        if memptr is not None or strides is not None:
            msg = "cupy.ndarray(memptr=, strides=) is not supported by the fake CuPy."
            raise NotImplementedError(msg)
        self._a = np.empty(shape, dtype=dtype, order=order)  # type: ignore[call-overload]
        self._device = current_device()
        enter_context(self._device)  # an allocation needs the device's context
        _pool.allocated(self._a)

    @classmethod
    def _of(cls, array: np.ndarray) -> ndarray:
        new = cls.__new__(cls)
        new._a = array
        new._device = current_device()
        enter_context(new._device)  # an allocation needs the device's context
        if array.base is None:  # new memory, from the pool (a view shares its base's)
            _pool.allocated(array)
        return new

    # what CuPy refuses
    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        raise TypeError(IMPLICIT)

    def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, **kwargs: Any) -> Any:
        func = f"numpy.{ufunc.__name__}"
        args = [unwrap(v, func) for v in inputs]
        kwargs = {k: unwrap(v, func) for k, v in kwargs.items()}
        return wrap(getattr(ufunc, method)(*args, **kwargs))

    def __array_function__(self, func: Any, types: Any, args: Any, kwargs: Any) -> Any:
        name = f"numpy.{func.__name__}"
        return wrap(
            func(*unwrap(list(args), name), **{k: unwrap(v, name) for k, v in kwargs.items()})
        )

    # attributes
    @property
    def shape(self) -> tuple[int, ...]:
        return self._a.shape

    @shape.setter
    def shape(self, value: Any) -> None:
        # CuPy reshapes in place (no copy) and refuses a shape that needs one
        try:
            self._a = self._a.reshape(value, copy=False)
        except ValueError as exc:
            msg = f"cupy.ndarray.shape: cannot set the shape {value!r} on an array of shape {self._a.shape} without a copy ({exc}); use reshape() (fake CuPy)."
            raise AttributeError(msg) from exc

    dtype = property(lambda self: self._a.dtype)
    ndim = property(lambda self: self._a.ndim)
    size = property(lambda self: self._a.size)
    nbytes = property(lambda self: self._a.nbytes)
    itemsize = property(lambda self: self._a.itemsize)
    strides = property(lambda self: self._a.strides)
    flags = property(lambda self: self._a.flags)
    T = property(lambda self: ndarray._of(self._a.T))
    mT = property(lambda self: ndarray._of(np.swapaxes(self._a, -1, -2)))
    real = property(lambda self: ndarray._of(self._a.real))
    imag = property(lambda self: ndarray._of(self._a.imag))
    device = property(lambda self: Device(self._device))
    data = property(lambda self: _Memory(self._a, self._device))
    base = property(lambda self: None if self._a.base is None else ndarray._of(self._a.base))

    @property
    def __cuda_array_interface__(self) -> dict[str, Any]:
        interface = dict(self._a.__array_interface__)
        interface["version"] = 3
        interface["stream"] = None
        return interface

    def get(
        self, stream: Any = None, order: str = "C", out: Any = None, blocking: bool = True
    ) -> np.ndarray:
        """A NumPy copy (the explicit device-to-host copy), on ``stream`` or the current one;
        ``blocking`` waits for that stream (see ``_pool``)."""
        if stream is not None or _pool.STACK:
            _pool.used(self._a, stream=stream)
        if out is not None:
            out[...] = self._a
            if not blocking:
                _pool.made_on(out, stream)
            elif stream is not None:
                _pool.finish(stream)
            else:
                _host_read()
            return out
        if stream is not None:
            _pool.finish(stream)
        else:
            _host_read()
        return np.array(self._a, order=order)  # type: ignore[call-overload]

    def set(self, arr: np.ndarray, stream: Any = None) -> None:
        """Copy the NumPy array ``arr`` in (the explicit host-to-device copy)."""
        if not isinstance(arr, np.ndarray):
            msg = f"cupy.ndarray.set: expected a numpy.ndarray, got {type(arr).__name__}."
            raise TypeError(msg)
        if arr.shape != self._a.shape:
            msg = f"Shape mismatch. Old shape: {self._a.shape}, new shape: {arr.shape}"
            raise ValueError(msg)
        if stream is not None or _pool.STACK:
            _pool.used(self._a, write=True, stream=stream)
        self._a[...] = arr

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        attribute = getattr(_read(self), name)
        if not callable(attribute):
            return wrap(attribute)
        func = f"cupy.ndarray.{name}"

        def method(*args: Any, **kwargs: Any) -> Any:
            return wrap(
                attribute(
                    *unwrap(list(args), func), **{k: unwrap(v, func) for k, v in kwargs.items()}
                )
            )

        return method

    def __getitem__(self, key: Any) -> Any:
        return wrap(_read(self)[unwrap(key, "cupy.ndarray.__getitem__")])

    def __setitem__(self, key: Any, value: Any) -> None:
        target = _read(self, write=True)
        target[unwrap(key, "cupy.ndarray.__setitem__")] = unwrap(value, "cupy.ndarray.__setitem__")

    def __len__(self) -> int:
        return len(self._a)

    def __iter__(self) -> Any:
        if self._a.ndim == 0:
            msg = "iteration over a 0-d array"
            raise TypeError(msg)
        return (self[i] for i in range(len(self._a)))

    def __bool__(self) -> bool:
        _host_read()
        return bool(self._a)

    def __float__(self) -> float:
        _host_read()
        return float(self._a)

    def __int__(self) -> int:
        _host_read()
        return int(self._a)

    def __complex__(self) -> complex:
        _host_read()
        return complex(self._a)

    def __index__(self) -> int:
        return operator.index(self._a)

    def __repr__(self) -> str:
        # as CuNumpy 0.7.1's fake prints: a result left on the host shows in every output
        return "fakecupy." + repr(self._a)

    def __str__(self) -> str:
        return str(self._a)

    def __format__(self, format_spec: str) -> str:
        return format(self._a, format_spec)  # CuPy: format(self.get(), format_spec)

    def __neg__(self) -> Any:
        return wrap(-_read(self))

    def __pos__(self) -> Any:
        return wrap(+_read(self))

    def __abs__(self) -> Any:
        return wrap(abs(_read(self)))

    def __invert__(self) -> Any:
        return wrap(~_read(self))

    def __copy__(self) -> ndarray:
        return ndarray._of(self._a.copy())

    def __deepcopy__(self, memo: Any) -> ndarray:
        return ndarray._of(self._a.copy())

    __hash__ = None  # type: ignore[assignment]

    __add__ = _binary(operator.add, "__add__")
    __sub__ = _binary(operator.sub, "__sub__")
    __mul__ = _binary(operator.mul, "__mul__")
    __truediv__ = _binary(operator.truediv, "__truediv__")
    __floordiv__ = _binary(operator.floordiv, "__floordiv__")
    __mod__ = _binary(operator.mod, "__mod__")
    __pow__ = _binary(operator.pow, "__pow__")
    __matmul__ = _binary(operator.matmul, "__matmul__")
    __and__ = _binary(operator.and_, "__and__")
    __or__ = _binary(operator.or_, "__or__")
    __xor__ = _binary(operator.xor, "__xor__")
    __lshift__ = _binary(operator.lshift, "__lshift__")
    __rshift__ = _binary(operator.rshift, "__rshift__")
    __eq__ = _binary(operator.eq, "__eq__")
    __ne__ = _binary(operator.ne, "__ne__")
    __lt__ = _binary(operator.lt, "__lt__")
    __le__ = _binary(operator.le, "__le__")
    __gt__ = _binary(operator.gt, "__gt__")
    __ge__ = _binary(operator.ge, "__ge__")
    __radd__ = _reflected(operator.add, "__radd__")
    __rsub__ = _reflected(operator.sub, "__rsub__")
    __rmul__ = _reflected(operator.mul, "__rmul__")
    __rtruediv__ = _reflected(operator.truediv, "__rtruediv__")
    __rfloordiv__ = _reflected(operator.floordiv, "__rfloordiv__")
    __rmod__ = _reflected(operator.mod, "__rmod__")
    __rpow__ = _reflected(operator.pow, "__rpow__")
    __rmatmul__ = _reflected(operator.matmul, "__rmatmul__")
    __rand__ = _reflected(operator.and_, "__rand__")
    __ror__ = _reflected(operator.or_, "__ror__")
    __rxor__ = _reflected(operator.xor, "__rxor__")
    __rlshift__ = _reflected(operator.lshift, "__rlshift__")
    __rrshift__ = _reflected(operator.rshift, "__rrshift__")
    __iadd__ = _inplace(operator.iadd, "__iadd__")
    __isub__ = _inplace(operator.isub, "__isub__")
    __imul__ = _inplace(operator.imul, "__imul__")
    __itruediv__ = _inplace(operator.itruediv, "__itruediv__")
    __ifloordiv__ = _inplace(operator.ifloordiv, "__ifloordiv__")
    __imod__ = _inplace(operator.imod, "__imod__")
    __ipow__ = _inplace(operator.ipow, "__ipow__")
    __iand__ = _inplace(operator.iand, "__iand__")
    __ior__ = _inplace(operator.ior, "__ior__")
    __ixor__ = _inplace(operator.ixor, "__ixor__")
    __ilshift__ = _inplace(operator.ilshift, "__ilshift__")
    __irshift__ = _inplace(operator.irshift, "__irshift__")
