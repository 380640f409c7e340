"""Which namespace an array belongs to, found by its type without importing CuPy.

The answer for each array type is cached in ``_NAMESPACE_BY_TYPE``, so after the first
call for a type, finding its namespace is one dictionary look-up. Only the default
request (no ``api_version``, no ``use_compat``) takes that path; the others are resolved
in full on every call.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from types import ModuleType
from typing import Any

import numpy as np

from .._backends import numpy as _numpy_namespace
from ._array_predicates import (
    _is_jax_zero_gradient_array,
    _subclass_of,
    is_cupy_array,
    is_numpy_array,
)

# is_cupy_array and is_numpy_array are re-exported for the modules that import them from here.
__all__ = [
    "array_namespace",
    "get_namespace",
    "is_cupy_array",
    "is_numpy_array",
    "namespace_of",
    "refuse_subclass",
    "renamed",
]

_SUPPORTED_VERSIONS = ("2021.12", "2022.12", "2023.12", "2024.12", "2025.12")

# Python scalars mix with arrays of any backend and say nothing about the namespace.
_SCALAR_TYPES = frozenset({bool, int, float, complex, type(None)})
_ndarray = np.ndarray
_generic = np.generic

_NAMESPACE_BY_TYPE: dict[type, ModuleType] = {np.ndarray: _numpy_namespace}

# Libraries array-api-compat wraps (and cunumpy does not): their namespace is compat's.
_COMPAT_WRAPPED = (("torch", "Tensor"),)
_DASK_ARRAY = ("dask.array", "Array")

_ACCEPTED = (
    "NumPy and CuPy arrays, or arrays of any library with `__array_namespace__` "
    "(array-api-strict, PyTorch, JAX, Dask, ...)"
)


def _library_name(x: object) -> str:
    module = type(x).__module__.partition(".")[0]
    return f"{module}.{type(x).__qualname__}"


def _rejected_subclass(x: Any, func: str) -> TypeError | None:
    """The error for NumPy subclasses whose semantics the standard's functions ignore."""
    kind = type(x)
    if _subclass_of(kind, "numpy.ma", "MaskedArray"):
        msg = (
            f"{func}: masked arrays are not supported (the standard's functions would "
            f"ignore the mask); got one of shape {x.shape}. Convert with "
            f"`x.filled(fill_value)` or `np.asarray(x)` first."
        )
        return TypeError(msg)
    if issubclass(kind, np.matrix):
        msg = (
            f"{func}: numpy.matrix is not supported (its operators and reductions keep "
            f"two dimensions); got one of shape {x.shape}. Convert with `np.asarray(x)` "
            f"first."
        )
        return TypeError(msg)
    return None


def refuse_subclass(x: Any, func: str) -> None:
    """Raise for a masked array or ``numpy.matrix`` (the NumPy subclasses refused everywhere).

    Conversions and kernels call this where they would otherwise take any
    ``numpy.ndarray``: a masked array's data would be taken and its mask dropped.
    """
    if type(x) is not np.ndarray and isinstance(x, np.ndarray):
        rejected = _rejected_subclass(x, func)
        if rejected is not None:
            raise rejected


def _not_an_array(x: object, func: str) -> TypeError:
    # The first words are array-api-compat's, which library test suites match.
    msg = (
        f"{func}: {type(x).__name__} is not a supported array type; got {x!r:.80} "
        f"({type(x).__module__}.{type(x).__qualname__}), expected {_ACCEPTED}."
    )
    return TypeError(msg)


def _lookup(x: object, func: str) -> ModuleType | None:
    """The default namespace for ``x``, cached by type; None for a Python scalar."""
    kind = type(x)
    namespace: ModuleType
    if isinstance(x, (np.ndarray, np.generic)):
        rejected = _rejected_subclass(x, func)
        if rejected is not None:
            raise rejected
        namespace = _numpy_namespace
    elif isinstance(x, (int, float, complex)):  # subclasses of Python scalars
        return None
    elif is_cupy_array(x):
        from .._backends import cupy as cupy_namespace

        namespace = cupy_namespace
    elif _subclass_of(kind, *_DASK_ARRAY):
        from .._backends import dask as dask_namespace  # NumPy or CuPy chunks alike

        namespace = dask_namespace
    elif any(_subclass_of(kind, module, name) for module, name in _COMPAT_WRAPPED):
        import array_api_compat

        namespace = array_api_compat.array_namespace(x)
    elif kind.__module__.partition(".")[0] == "array_api_strict":
        namespace = _own_namespace(x, None, func)
    else:  # a library whose namespace may depend on the array: asked every time
        return _own_namespace(x, None, func)
    _NAMESPACE_BY_TYPE[kind] = namespace
    return namespace


def _own_namespace(x: Any, api_version: str | None, func: str) -> ModuleType:
    """The namespace ``x.__array_namespace__`` gives, with its errors naming ``func``."""
    get = getattr(x, "__array_namespace__", None)
    if get is None:
        raise _not_an_array(x, func)
    try:
        namespace: ModuleType = get(api_version=api_version)
    except (TypeError, ValueError) as exc:
        msg = f"{func}: {_library_name(x)}.__array_namespace__(api_version={api_version!r}) failed: {exc}"
        raise renamed(exc, msg) from exc
    return namespace


def renamed(exc: Exception, msg: str) -> Exception:
    """An exception of ``exc``'s type with message ``msg`` (a ``RuntimeError`` for an
    exception class whose constructor takes something else)."""
    try:
        return type(exc)(msg)
    except Exception:
        return RuntimeError(msg)


def namespace_of(
    arrays: Iterable[Any], func: str, *, numpy_scalars_are_arrays: bool = False
) -> ModuleType | None:
    """The one namespace of ``arrays`` (scalars and None ignored), or None if there are none.

    For the top level's functions (the default), a NumPy scalar (``numpy.float64(1.0)``,
    ``numpy.int64(3)``, ``numpy.bool_(True)``) is a scalar beside the arrays of any library,
    as a Python scalar is (CuPy's functions take it so); only where no argument is an array
    does it give the NumPy namespace. With ``numpy_scalars_are_arrays``, array-api-compat's
    rule, which ``array_namespace`` keeps: a NumPy scalar is a NumPy array, so beside
    another library's array it is a second namespace.
    """
    found: ModuleType | None = None
    first: object = None
    numpy_scalar = False
    for x in arrays:
        kind = type(x)
        namespace = _NAMESPACE_BY_TYPE.get(kind)
        if namespace is None:
            if kind in _SCALAR_TYPES:
                continue
            namespace = _lookup(x, func)
            if namespace is None:
                continue
        if kind is not _ndarray and isinstance(x, _generic) and not numpy_scalars_are_arrays:
            numpy_scalar = True
        elif found is None:
            found, first = namespace, x
        elif namespace is not found:
            raise _mixed(first, x, func)
    if found is None and numpy_scalar:
        return _numpy_namespace
    return found


def _mixed(first: object, x: object, func: str) -> TypeError:
    msg = (
        f"{func}: Multiple namespaces for array inputs: the arrays belong to different "
        f"backends ({_library_name(first)} and {_library_name(x)}); convert them to one "
        f'library first: to_numpy(x) or asarray(x, device="cpu") gives a NumPy array, '
        f"to_cupy(x) a CuPy array (to_device moves an array between the devices of its "
        f"own library only)."
    )
    return TypeError(msg)


def _no_arrays(arrays: tuple[Any, ...]) -> TypeError:
    got = ", ".join(f"{x!r:.40}" for x in arrays) or "no arguments"
    msg = (
        f"array_namespace requires at least one non-scalar array input; got {got}, and "
        f"Python scalars and None say nothing about the namespace (expected {_ACCEPTED})."
    )
    return TypeError(msg)


def array_namespace(
    *arrays: Any, api_version: str | None = None, use_compat: bool | None = None
) -> ModuleType:
    """Return the Array API namespace of ``arrays``.

    NumPy arrays give cunumpy's NumPy namespace, CuPy arrays cunumpy's CuPy namespace,
    Dask arrays (of NumPy or CuPy chunks) ``cunumpy.dask``: every standard name there is
    a conforming function, and every other name is NumPy's (CuPy's, ``dask.array``'s) own
    (``xp.pad``, ``xp.einsum``, ...). PyTorch arrays give array-api-compat's wrapper;
    arrays of any other library give what their ``__array_namespace__`` returns
    (array-api-strict, JAX, ...).

    Parameters
    ----------
    *arrays : array, Python scalar, NumPy scalar or None
        The arrays a function received; Python scalars and ``None`` are skipped. A NumPy
        scalar counts as a NumPy array, as in array-api-compat (so beside another
        library's array it is a second namespace); the top level's functions, by
        contrast, take it as a scalar beside an array of any library.
    api_version : str, optional
        The version of the standard the caller needs, ``"2021.12"`` to ``"2025.12"``.
        cunumpy's namespaces implement 2025.12, which contains the earlier versions;
        other libraries receive it through their ``__array_namespace__``.
    use_compat : bool, optional
        ``None`` (default) gives the conforming namespace as above. ``True`` asks for a
        wrapped namespace (cunumpy's for NumPy, CuPy and Dask, array-api-compat's for
        PyTorch; ``ValueError`` for libraries with none). ``False`` gives the library
        itself (``numpy``, ``cupy``, ``dask.array``, ``torch``, ...).

    Returns
    -------
    module
        The namespace whose functions take and return arrays of that library.

    Raises
    ------
    TypeError
        If no argument is an array, if an argument is neither an array nor a Python
        scalar (lists, masked arrays, ``numpy.matrix``), if the arrays (NumPy scalars
        among them) belong to two different libraries, or if ``api_version`` is not a str or ``use_compat`` not a
        bool or None.
    ValueError
        If ``api_version`` is not a version of the standard, or ``use_compat=True`` is
        asked for a library that has no wrapper.

    Examples
    --------
    >>> import numpy as np
    >>> import cunumpy
    >>> def normalize(x):
    ...     xp = cunumpy.array_namespace(x)
    ...     return x / xp.linalg.vector_norm(x)
    >>> normalize(np.asarray([3.0, 4.0]))
    array([0.6, 0.8])
    >>> cunumpy.array_namespace(np.ones(2), 2.0).pad(np.ones(1), 1)  # NumPy's own pad
    array([0., 1., 0.])
    """
    if api_version is not None or use_compat is not None:
        return _namespace_with_options(arrays, api_version, use_compat)
    found = namespace_of(arrays, "array_namespace", numpy_scalars_are_arrays=True)
    if found is None:
        raise _no_arrays(arrays)
    if found is _numpy_namespace and "jax" in sys.modules:
        for x in arrays:
            if _is_jax_zero_gradient_array(x):  # NumPy arrays that JAX owns
                return _compat_namespace(arrays, api_version, use_compat)
    return found


#: array-api-compat's name for the same function.
get_namespace = array_namespace


def _checked_options(api_version: object, use_compat: object) -> None:
    if api_version is not None and not isinstance(api_version, str):
        msg = (
            f"array_namespace: `api_version` must be a str such as '2025.12' or None, "
            f"not {type(api_version).__name__} {api_version!r}."
        )
        raise TypeError(msg)
    if api_version is not None and api_version not in _SUPPORTED_VERSIONS:
        msg = (
            f"array_namespace: unsupported `api_version` {api_version!r}; "
            f"use one of {_SUPPORTED_VERSIONS!r} or None."
        )
        raise ValueError(msg)
    if use_compat is not None and not isinstance(use_compat, bool):
        msg = f"array_namespace: `use_compat` must be True, False or None, not {use_compat!r}."
        raise TypeError(msg)


def _namespace_with_options(
    arrays: tuple[Any, ...], api_version: str | None, use_compat: bool | None
) -> ModuleType:
    _checked_options(api_version, use_compat)
    found: ModuleType | None = None
    first: object = None
    for x in arrays:
        namespace = _one_with_options(x, api_version, use_compat)
        if namespace is None:
            continue
        if found is None:  # a NumPy scalar is a NumPy array, as in array-api-compat
            found, first = namespace, x
        elif namespace is not found:
            raise _mixed(first, x, "array_namespace")
    if found is None:
        raise _no_arrays(arrays)
    return found


def _one_with_options(
    x: Any, api_version: str | None, use_compat: bool | None
) -> ModuleType | None:
    kind = type(x)
    if kind in _SCALAR_TYPES:
        return None
    if isinstance(x, (np.ndarray, np.generic)) and not _is_jax_zero_gradient_array(x):
        rejected = _rejected_subclass(x, "array_namespace")
        if rejected is not None:
            raise rejected
        return np if use_compat is False else _numpy_namespace
    if isinstance(x, (int, float, complex)):
        return None
    if is_cupy_array(x):
        if use_compat is False:
            return sys.modules["cupy"]
        from .._backends import cupy as cupy_namespace

        return cupy_namespace
    if _subclass_of(kind, *_DASK_ARRAY):
        if use_compat is False:
            return sys.modules["dask.array"]
        from .._backends import dask as dask_namespace

        return dask_namespace
    if _is_jax_zero_gradient_array(x) or any(
        _subclass_of(kind, module, name) for module, name in _COMPAT_WRAPPED
    ):
        return _compat_namespace((x,), api_version, use_compat)
    if not hasattr(x, "__array_namespace__"):
        raise _not_an_array(x, "array_namespace")
    if use_compat:
        msg = (
            f"array_namespace: use_compat=True, but {_library_name(x)} arrays have no "
            f"wrapped namespace (cunumpy wraps NumPy, CuPy and Dask, array-api-compat "
            f"PyTorch); pass use_compat=None."
        )
        raise ValueError(msg)
    return _own_namespace(x, api_version, "array_namespace")


def _compat_namespace(
    arrays: tuple[Any, ...], api_version: str | None, use_compat: bool | None
) -> ModuleType:
    """array-api-compat's answer for the libraries it wraps, its errors naming ours."""
    import array_api_compat

    try:
        namespace: ModuleType = array_api_compat.array_namespace(
            *arrays, api_version=api_version, use_compat=use_compat
        )
    except (TypeError, ValueError) as exc:
        msg = f"array_namespace: {exc}"
        raise renamed(exc, msg) from exc
    return namespace
