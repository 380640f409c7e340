"""Bringing a kernel's arguments to the side of its main array, and reading its outputs.

:func:`as_kernel_array` gives an input array on the side (host or device) of ``like``,
:func:`kernel_output` and :func:`kernel_outputs` give output buffers that are written back
into the caller's arrays when the block ends; :func:`outputs_from_annotations` reads which
parameters a kernel writes from its annotations. Every copy between host and device is
noted through :func:`cunumpy._placement._transfer_log.note_transfer`.
"""

from __future__ import annotations

import inspect
import sys
from collections.abc import Callable
from types import TracebackType
from typing import Any

import numpy as np

from .._namespaces._array_predicates import is_cupy_array
from .._placement._transfer_log import active, note_transfer
from .._trace._recorder import clock

__all__ = ["as_kernel_array", "kernel_output", "kernel_outputs", "outputs_from_annotations"]


def _to_host(value: Any, func: str) -> np.ndarray:
    if is_cupy_array(value):
        started = clock()
        host: np.ndarray = value.get()
        if active():
            note_transfer(
                "to_host",
                f"{func}: {value.dtype} array of shape {value.shape}",
                nbytes=int(host.nbytes),
                started=started,
            )
        return host
    return np.asarray(value)


def _to_device(value: Any, like: Any, func: str) -> Any:
    cupy = sys.modules["cupy"]
    if is_cupy_array(value):
        return value
    host = np.asarray(value)
    if active():
        note_transfer(
            "to_device",
            f"{func}: {host.dtype} array of shape {host.shape}",
            nbytes=int(host.nbytes),
        )
    with like.device:
        return cupy.asarray(host)


def _c_ordered(array: np.ndarray) -> bool:
    """Whether ``array`` is in C order, possibly with gaps (``storage[:, :n]``)."""
    extent = array.itemsize
    for length, stride in zip(reversed(array.shape), reversed(array.strides)):
        if length == 1:
            continue
        if stride < extent:
            return False
        extent = stride * length
    return True


def as_kernel_array(value: Any, like: Any, dtype: Any = None, *, strided: bool = False) -> Any:
    """Return `value` as an input array for the kernel chosen for `like`.

    ``value`` itself when it already fits (same side as `like`, `dtype`, C-contiguous),
    else one copy: moved between host and device when needed.

    Parameters
    ----------
    value : array_like
        The array.
    like : array
        A CuPy array for a device kernel; anything else for a host kernel.
    dtype : data type, optional
        The dtype the kernel needs; default: any.
    strided : bool, optional
        Also take a NumPy array in C order with gaps (such as ``storage[:, :n]``)
        unchanged; a kernel that needs contiguous memory must not use it.

    Returns
    -------
    array
        On the side of `like`, C-contiguous (or C-ordered with `strided`), of `dtype`.

    Examples
    --------
    >>> import numpy as np
    >>> import cunumpy as xp
    >>> grid = np.zeros((2, 3))
    >>> xp.kernels.as_kernel_array(grid, like=grid) is grid
    True
    >>> xp.kernels.as_kernel_array([1, 2], like=grid, dtype=float)
    array([1., 2.])
    """
    if is_cupy_array(like):
        cupy = sys.modules["cupy"]
        device_value = _to_device(value, like, "as_kernel_array")
        return cupy.ascontiguousarray(device_value, dtype=dtype)
    host = _to_host(value, "as_kernel_array")
    if (
        strided
        and host.ndim > 0
        and (dtype is None or host.dtype == np.dtype(dtype))
        and _c_ordered(host)
    ):
        return host
    return np.ascontiguousarray(host, dtype=dtype)


def _copy_back(buffer: Any, out: Any) -> None:
    """Write `buffer` into `out`, on the side of `out`, unless they are the same memory."""
    if buffer is out:
        return
    if is_cupy_array(out) and not is_cupy_array(buffer):
        out[...] = _to_device(buffer, out, "kernel_output")
    elif is_cupy_array(buffer) and not is_cupy_array(out):
        out[...] = _to_host(buffer, "kernel_output")
    else:
        out[...] = buffer


class _KernelOutputs:
    """The context manager of :func:`kernel_output` and :func:`kernel_outputs`."""

    __slots__ = ("_buffers", "_outs", "_single")

    def __init__(self, outs: tuple[Any, ...], buffers: tuple[Any, ...], single: bool) -> None:
        self._outs = outs
        self._buffers = buffers
        self._single = single

    def __enter__(self) -> Any:
        return self._buffers[0] if self._single else self._buffers

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if exc_type is None:
            for buffer, out in zip(self._buffers, self._outs):
                _copy_back(buffer, out)


def kernel_output(
    out: Any, like: Any, dtype: Any = None, *, strided: bool = False
) -> _KernelOutputs:
    """Give the output buffer for the kernel chosen for `like`; it is copied into `out`.

    The buffer is `out` itself when :func:`as_kernel_array` takes it unchanged, else a
    converted copy written into `out` (on its own side) when the block ends without error.

    Parameters
    ----------
    out : array
        The array the kernel should write.
    like : array
        A CuPy array for a device kernel; anything else for a host kernel.
    dtype : data type, optional
        The dtype the kernel needs.
    strided : bool, optional
        As for :func:`as_kernel_array`.

    Returns
    -------
    context manager
        Yields the buffer to pass to the kernel.

    Examples
    --------
    >>> import numpy as np
    >>> import cunumpy as xp
    >>> out = np.zeros(2, dtype=np.float32)
    >>> with xp.kernels.kernel_output(out, like=out, dtype=float) as buffer:
    ...     buffer[:] = 1.5
    >>> out
    array([1.5, 1.5], dtype=float32)
    """
    return _KernelOutputs((out,), (as_kernel_array(out, like, dtype, strided=strided),), True)


def kernel_outputs(
    *outs: Any, like: Any, dtype: Any = None, strided: bool = False
) -> _KernelOutputs:
    """Give the output buffers of several arrays in one block (see :func:`kernel_output`).

    Parameters
    ----------
    *outs : array
        The arrays the kernel should write.
    like : array
        A CuPy array for a device kernel; anything else for a host kernel.
    dtype : data type, optional
        The dtype of every buffer.
    strided : bool, optional
        As for :func:`as_kernel_array`.

    Returns
    -------
    context manager
        Yields the tuple of buffers, in the order of `outs`.

    Examples
    --------
    >>> import numpy as np
    >>> import cunumpy as xp
    >>> x, counts = np.zeros(2), np.zeros(2, dtype=np.float32)
    >>> with xp.kernels.kernel_outputs(x, counts, like=x, dtype=float) as (a, b):
    ...     a[:] = 1.0
    ...     b[:] = 2.5
    >>> x, counts
    (array([1., 1.]), array([2.5, 2.5], dtype=float32))
    """
    buffers = tuple(as_kernel_array(o, like, dtype, strided=strided) for o in outs)
    return _KernelOutputs(outs, buffers, False)


_SCALARS = {"int", "float", "bool", "complex", "str"}


def outputs_from_annotations(function: Callable[..., Any]) -> tuple[str, ...] | None:
    """Return the parameters a kernel may write, read from its annotations.

    A parameter is an output unless it is annotated ``Final[...]`` (Pyccel's read-only
    mark), ``const ...`` or a scalar type (``int``, ``float``, ``bool``, ``complex``,
    ``str``); an unannotated one may be written.

    Parameters
    ----------
    function : callable
        The Python kernel function.

    Returns
    -------
    tuple of str or None
        The names in order; ``None`` without a signature or without any annotation.

    Examples
    --------
    >>> import cunumpy as xp
    >>> def push(x: "Final[float[:]]", dt: float, v: "float[:]"):
    ...     v[:] += dt * x
    >>> xp.kernels.outputs_from_annotations(push)
    ('v',)
    """
    try:
        parameters = list(inspect.signature(function).parameters.values())
    except (TypeError, ValueError):
        return None
    empty = inspect.Parameter.empty
    if all(p.annotation is empty for p in parameters):
        return None
    outputs = []
    for p in parameters:
        annotation = p.annotation
        text = annotation.__name__ if isinstance(annotation, type) else str(annotation)
        text = text.replace("typing.", "").strip().strip("'\"")
        if annotation is not empty and (
            text.startswith(("Final[", "Final ", "const ")) or text in _SCALARS
        ):
            continue
        outputs.append(p.name)
    return tuple(outputs)
