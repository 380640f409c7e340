"""Which namespace an array belongs to, found by its type without importing CuPy.

The answer for each array type is cached in ``_NAMESPACE_BY_TYPE``, so after the first
call for a type, finding its namespace is one dictionary look-up.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from types import ModuleType
from typing import Any

import numpy as np

from . import _config
from ._backends import numpy as _numpy_namespace

__all__ = ["array_namespace", "is_cupy_array", "is_numpy_array"]

_SUPPORTED_VERSIONS = ("2021.12", "2022.12", "2023.12", "2024.12", "2025.12")

# Python scalars mix with arrays of any backend and say nothing about the namespace.
_SCALAR_TYPES = frozenset({bool, int, float, complex, type(None)})

_NAMESPACE_BY_TYPE: dict[type, ModuleType] = {np.ndarray: _numpy_namespace}


def is_numpy_array(x: object) -> bool:
    """Return whether ``x`` is a NumPy array (or a NumPy scalar, which NumPy treats as 0-D).

    Examples
    --------
    >>> import numpy as np
    >>> import cunumpy as xp
    >>> xp.is_numpy_array(np.zeros(2)), xp.is_numpy_array([0.0, 1.0])
    (True, False)
    """
    return isinstance(x, (np.ndarray, np.generic))


def is_cupy_array(x: object) -> bool:
    """Return whether ``x`` is a CuPy array; never imports CuPy.

    Examples
    --------
    >>> import numpy as np
    >>> import cunumpy as xp
    >>> xp.is_cupy_array(np.zeros(2))
    False
    """
    cupy = sys.modules.get("cupy")
    return cupy is not None and isinstance(x, cupy.ndarray)


def _library_name(x: object) -> str:
    module = type(x).__module__.partition(".")[0]
    return f"{module}.{type(x).__qualname__}"


def _lookup(x: object, func: str) -> ModuleType:
    """Find (and cache) the namespace for the type of ``x``; the slow path."""
    kind = type(x)
    namespace: ModuleType
    if is_numpy_array(x):
        namespace = _numpy_namespace
    elif is_cupy_array(x):
        from ._backends import cupy as cupy_namespace

        namespace = cupy_namespace
    elif kind.__module__.partition(".")[0] == "array_api_strict":
        namespace = sys.modules["array_api_strict"]
    else:
        namespace = _compat_namespace(x, func)
    _NAMESPACE_BY_TYPE[kind] = namespace
    return namespace


def _compat_namespace(x: object, func: str) -> ModuleType:
    import array_api_compat

    try:
        namespace: ModuleType = array_api_compat.array_namespace(x)
    except TypeError:
        msg = (
            f"{func}: {type(x).__module__}.{type(x).__qualname__} is not an array of a "
            f"supported library (NumPy, CuPy, array-api-strict, or one array-api-compat "
            f"knows); got {x!r:.80}."
        )
        raise TypeError(msg) from None
    return namespace


def namespace_of(arrays: Iterable[Any], func: str) -> ModuleType | None:
    """The one namespace of ``arrays`` (scalars and None ignored), or None if there are none."""
    found: ModuleType | None = None
    first: object = None
    for x in arrays:
        kind = type(x)
        if kind in _SCALAR_TYPES:
            continue
        namespace = _NAMESPACE_BY_TYPE.get(kind)
        if namespace is None:
            namespace = _lookup(x, func)
        if found is None:
            found, first = namespace, x
        elif namespace is not found:
            msg = (
                f"{func}: the arrays belong to different backends ({_library_name(first)} "
                f"and {_library_name(x)}); move them to one with to_device, to_numpy or "
                f"to_cupy first."
            )
            raise TypeError(msg)
    return found


def array_namespace(*arrays: Any, api_version: str | None = None) -> ModuleType:
    """Return the Array API namespace of ``arrays``.

    NumPy arrays give cunumpy's NumPy namespace, CuPy arrays cunumpy's CuPy namespace,
    ``array_api_strict`` arrays that library itself, and arrays of other libraries that
    array-api-compat knows (PyTorch, JAX, Dask, ...) array-api-compat's namespace.
    Python scalars and ``None`` are ignored; with no arrays at all, the namespace of the
    current backend is returned.

    Parameters
    ----------
    *arrays : array, Python scalar or None
        The arrays a function received.
    api_version : str, optional
        The version of the standard the caller needs; one of ``"2021.12"`` to
        ``"2025.12"``. cunumpy's namespaces implement 2025.12, which includes the earlier
        versions.

    Returns
    -------
    module
        The namespace whose functions take and return arrays of that library.

    Raises
    ------
    TypeError
        If an argument is not an array of a supported library, or if the arrays belong to
        two different libraries.
    ValueError
        If ``api_version`` is not a known version of the standard.

    Examples
    --------
    >>> import numpy as np
    >>> import cunumpy
    >>> def normalize(x):
    ...     xp = cunumpy.array_namespace(x)
    ...     return x / xp.linalg.vector_norm(x)
    >>> normalize(np.asarray([3.0, 4.0]))
    array([0.6, 0.8])
    """
    if api_version is not None and api_version not in _SUPPORTED_VERSIONS:
        msg = (
            f"array_namespace: unsupported `api_version` {api_version!r}; "
            f"use one of {_SUPPORTED_VERSIONS!r} or None."
        )
        raise ValueError(msg)
    namespace = namespace_of(arrays, "array_namespace")
    if namespace is None:
        return _config._state.namespace
    return namespace
