"""Where one array lives, and converting to the current backend: CuNumpy 0.7.1's helpers.

``get_array_backend`` answers for one array (``"cupy"`` for a CuPy array, ``"numpy"`` for
anything else), whatever the current backend; ``get_backend`` answers for the creation
functions. ``to_cunumpy`` converts to the current backend, ``as_device_array`` builds a
device argument once ("reference or copy once"), and the ``is_*``/``same_backend``
predicates check boundaries. None of them imports CuPy: a CuPy array can exist only once
CuPy is imported.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any, Literal

import numpy as np

from .._backend_choice._config import current
from .._namespaces._array_predicates import is_cupy_array
from .._placement._transfer_log import active, note_transfer
from ._to_device import to_cupy, to_numpy

__all__ = [
    "as_device_array",
    "assert_same_backend",
    "default_float_dtype",
    "get_array_backend",
    "get_array_module",
    "is_cpu",
    "is_gpu",
    "same_backend",
    "to_cunumpy",
]

_ndarray = np.ndarray


def get_array_backend(array: Any) -> Literal["numpy", "cupy"]:
    """Return the backend ``array`` lives on, whatever the current backend is.

    Parameters
    ----------
    array : object
        Any object; only a CuPy array counts as ``"cupy"``.

    Returns
    -------
    {"numpy", "cupy"}
        ``"cupy"`` for a CuPy array, ``"numpy"`` for anything else.

    Examples
    --------
    >>> import numpy as np
    >>> import cunumpy as xp
    >>> xp.get_array_backend(np.zeros(3))
    'numpy'
    >>> xp.get_array_backend([1, 2])
    'numpy'
    """
    if type(array) is _ndarray:
        return "numpy"
    return "cupy" if is_cupy_array(array) else "numpy"


def get_array_module(array: Any) -> ModuleType:
    """Return the namespace of ``array``'s own backend, to write code that follows its input.

    It is what ``array_namespace(array)`` returns for a NumPy or CuPy array (the Array API
    standard's functions, every other NumPy or CuPy name falling through to the library),
    and the NumPy namespace for anything else (lists, scalars).

    Parameters
    ----------
    array : object
        A NumPy or CuPy array, or any other object.

    Returns
    -------
    module
        cunumpy's CuPy namespace for a CuPy array, its NumPy namespace otherwise.

    Examples
    --------
    >>> import numpy as np
    >>> import cunumpy as xp
    >>> values = np.asarray([3.0, 4.0])
    >>> mod = xp.get_array_module(values)
    >>> mod is xp.array_namespace(values)
    True
    >>> float(mod.sqrt(mod.sum(values * values)))
    5.0
    """
    if get_array_backend(array) == "cupy":
        from .._backends import cupy as cupy_namespace

        return cupy_namespace
    from .._backends import numpy as numpy_namespace

    return numpy_namespace


def is_gpu(array: Any) -> bool:
    """Return whether ``array`` is a CuPy (GPU) array.

    Examples
    --------
    >>> import numpy as np
    >>> import cunumpy as xp
    >>> xp.is_gpu(np.zeros(3))
    False
    """
    return get_array_backend(array) == "cupy"


def is_cpu(array: Any) -> bool:
    """Return whether ``array`` is not a CuPy array (it is on the host).

    Examples
    --------
    >>> import numpy as np
    >>> import cunumpy as xp
    >>> xp.is_cpu(np.zeros(3))
    True
    """
    return get_array_backend(array) == "numpy"


def same_backend(*arrays: Any) -> bool:
    """Return whether all ``arrays`` live on the same backend (``True`` for none or one).

    Examples
    --------
    >>> import numpy as np
    >>> import cunumpy as xp
    >>> xp.same_backend(np.zeros(2), np.ones(3))
    True
    >>> xp.same_backend()
    True
    """
    return len({get_array_backend(array) for array in arrays}) <= 1


def assert_same_backend(*arrays: Any) -> None:
    """Raise ``TypeError`` unless all ``arrays`` live on the same backend.

    Use it at the boundary of a function: it names the backends of the arguments, where
    mixing them would fail later inside NumPy or CuPy.

    Raises
    ------
    TypeError
        If the arrays live on different backends; the message lists them in order.

    Examples
    --------
    >>> import numpy as np
    >>> import cunumpy as xp
    >>> xp.assert_same_backend(np.zeros(2), np.ones(2))
    """
    if not same_backend(*arrays):
        backends = [get_array_backend(array) for array in arrays]
        msg = (
            f"assert_same_backend: the arrays live on different backends {backends!r}; "
            f"move them to one with xp.to_cunumpy(), xp.to_numpy() or xp.to_cupy() first."
        )
        raise TypeError(msg)


def to_cunumpy(array: Any) -> Any:
    """Return ``array`` on the current backend: ``to_cupy`` on CuPy, ``to_numpy`` on NumPy.

    An array already there is returned as it is; otherwise one copy is made (and noted
    by the transfer counters, as ``to_cupy`` and ``to_numpy`` note theirs). Neither the
    backend nor ``array`` changes.

    Parameters
    ----------
    array : array-like
        A NumPy or CuPy array, or anything ``numpy.asarray`` accepts.

    Returns
    -------
    array
        A NumPy array on the NumPy backend, a CuPy array on the CuPy backend.

    Examples
    --------
    >>> import cunumpy as xp
    >>> xp.to_cunumpy([1.0, 2.0])
    array([1., 2.])
    """
    if current().name == "cupy":
        return to_cupy(array)
    return to_numpy(array)


def default_float_dtype() -> Any:
    """Return the current backend's ``float64`` (the same object on NumPy and CuPy).

    Examples
    --------
    >>> import cunumpy as xp
    >>> xp.asarray([0.1, 0.2], dtype=xp.default_float_dtype()).dtype
    dtype('float64')
    """
    return current().namespace.float64


def as_device_array(
    value: Any, dtype: Any = None, ndim: int | None = None, *, name: str | None = None
) -> Any:
    """Return ``value`` as a C-contiguous CuPy array, copying only when needed.

    For arguments of CUDA kernels, built once (not per call): a C-contiguous CuPy array
    of ``dtype`` is returned itself, so a kernel writes into the caller's array; anything
    else (a tuple, a host array, another dtype, a strided view) is copied to the current
    GPU, and each copy is noted by the transfer counters. Host data is never copied to
    the device behind the back of a NumPy program: with a value that is not a CuPy array,
    the current backend must be CuPy.

    Parameters
    ----------
    value : array-like
        A CuPy array, a NumPy array or a sequence of numbers.
    dtype : dtype-like, optional
        The dtype the kernel expects; ``None`` keeps the dtype of ``value``.
    ndim : int, optional
        The number of dimensions the result must have.
    name : str, optional
        The argument's name, for error messages.

    Returns
    -------
    cupy.ndarray
        ``value`` itself, or a C-contiguous device copy of dtype ``dtype``.

    Raises
    ------
    RuntimeError
        If ``value`` is not a CuPy array and the current backend is NumPy
        (``CupyUnavailableError`` when CuPy is not usable at all).
    ValueError
        If ``ndim`` is given and the result has another number of dimensions.

    Examples
    --------
    >>> import cunumpy as xp
    >>> with xp.use_backend("auto"):
    ...     if xp.get_backend() == "cupy":
    ...         degree = xp.as_device_array((3, 3, 3), "int32", 1, name="degree")
    ...         assert degree.dtype == xp.int32 and degree.shape == (3,)
    """
    what = f"as_device_array: device argument {name!r}" if name else "as_device_array"
    on_device = is_cupy_array(value)
    if not on_device:
        from .._settings._cupy_probe import require_cupy

        require_cupy(what)
        if current().name != "cupy":
            msg = (
                f"{what}: the current backend is 'numpy' and {type(value).__name__} is not "
                f"a CuPy array; host data is never copied to the device implicitly. Select "
                f"the CuPy backend, or pass a CuPy array."
            )
            raise RuntimeError(msg)
    import cupy

    wanted = None if dtype is None else np.dtype(dtype)
    if on_device and value.flags.c_contiguous and (wanted is None or value.dtype == wanted):
        result = value
    else:
        result = cupy.ascontiguousarray(cupy.asarray(value, dtype=wanted))
        if active():
            kind = "device_copy" if on_device else "to_device"
            note_transfer(kind, f"{what}({type(value).__name__})", nbytes=int(result.nbytes))
    if ndim is not None and result.ndim != ndim:
        msg = f"{what}: expected {ndim} dimension(s), got {result.ndim} (shape {result.shape})."
        raise ValueError(msg)
    return result
