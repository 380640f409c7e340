"""Which library a namespace belongs to: the ``is_<library>_namespace`` predicates.

A namespace is recognised by its module name, so no predicate imports a library.
``is_numpy_namespace`` and ``is_cupy_namespace`` are true for cunumpy's NumPy and CuPy
namespaces (what ``array_namespace`` returns for their arrays): they are supersets of
NumPy and CuPy, so code that takes a NumPy fast path on them keeps working. They are
false for the top-level ``cunumpy`` module, which runs wherever its inputs live and has
only the standard's names. Names ending in ``array_api_compat.numpy`` (and so on) are
array-api-compat's wrappers, also when another package vendors array-api-compat.
"""

from __future__ import annotations

__all__ = [
    "is_array_api_strict_namespace",
    "is_cupy_namespace",
    "is_dask_namespace",
    "is_dpnp_namespace",
    "is_jax_namespace",
    "is_mparray_namespace",
    "is_ndonnx_namespace",
    "is_numpy_namespace",
    "is_pydata_sparse_namespace",
    "is_torch_namespace",
]

_NUMPY_NAMES = frozenset({"numpy", "cunumpy._backends.numpy"})
_CUPY_NAMES = frozenset({"cupy", "cunumpy._backends.cupy"})
_DASK_NAMES = frozenset({"dask.array", "cunumpy._backends.dask"})


def _name(xp: object) -> str:
    name = getattr(xp, "__name__", None)
    return name if isinstance(name, str) else ""


def _is_compat_wrapper(name: str, library: str) -> bool:
    """Whether ``name`` is array-api-compat's wrapper of ``library`` (vendored or not)."""
    suffix = f"array_api_compat.{library}"
    return name == suffix or name.endswith(f".{suffix}")


def is_numpy_namespace(xp: object) -> bool:
    """Return whether ``xp`` is a NumPy namespace.

    True for NumPy itself, cunumpy's NumPy namespace (``array_namespace`` of a NumPy
    array) and array-api-compat's ``numpy``; false for the top-level ``cunumpy``, which
    is not tied to a backend.

    Examples
    --------
    >>> import numpy as np
    >>> import cunumpy
    >>> xp = cunumpy.array_namespace(np.zeros(2))
    >>> cunumpy.is_numpy_namespace(xp), cunumpy.is_numpy_namespace(np)
    (True, True)
    >>> cunumpy.is_numpy_namespace(cunumpy)
    False
    """
    name = _name(xp)
    return name in _NUMPY_NAMES or _is_compat_wrapper(name, "numpy")


def is_cupy_namespace(xp: object) -> bool:
    """Return whether ``xp`` is a CuPy namespace.

    True for CuPy itself, cunumpy's CuPy namespace (``array_namespace`` of a CuPy
    array) and array-api-compat's ``cupy``; false for the top-level ``cunumpy``.

    Examples
    --------
    >>> import numpy as np
    >>> import cunumpy
    >>> cunumpy.is_cupy_namespace(cunumpy.array_namespace(np.zeros(2)))
    False
    """
    name = _name(xp)
    return name in _CUPY_NAMES or _is_compat_wrapper(name, "cupy")


def is_torch_namespace(xp: object) -> bool:
    """Return whether ``xp`` is PyTorch or array-api-compat's wrapper of it.

    Examples
    --------
    >>> import numpy as np
    >>> import cunumpy
    >>> cunumpy.is_torch_namespace(np)
    False
    """
    name = _name(xp)
    return name == "torch" or _is_compat_wrapper(name, "torch")


def is_dask_namespace(xp: object) -> bool:
    """Return whether ``xp`` is ``dask.array``, ``cunumpy.dask`` or array-api-compat's wrapper.

    ``cunumpy.dask`` is what ``array_namespace`` returns for Dask arrays.

    Examples
    --------
    >>> import numpy as np
    >>> import cunumpy
    >>> cunumpy.is_dask_namespace(np)
    False
    """
    name = _name(xp)
    return name in _DASK_NAMES or _is_compat_wrapper(name, "dask.array")


def is_jax_namespace(xp: object) -> bool:
    """Return whether ``xp`` is ``jax.numpy`` (or the older ``jax.experimental.array_api``).

    Examples
    --------
    >>> import numpy as np
    >>> import cunumpy
    >>> cunumpy.is_jax_namespace(np)
    False
    """
    return _name(xp) in ("jax.numpy", "jax.experimental.array_api")


def is_pydata_sparse_namespace(xp: object) -> bool:
    """Return whether ``xp`` is the ``sparse`` package's namespace.

    Examples
    --------
    >>> import numpy as np
    >>> import cunumpy
    >>> cunumpy.is_pydata_sparse_namespace(np)
    False
    """
    return _name(xp) == "sparse"


def is_ndonnx_namespace(xp: object) -> bool:
    """Return whether ``xp`` is the ndonnx namespace.

    Examples
    --------
    >>> import numpy as np
    >>> import cunumpy
    >>> cunumpy.is_ndonnx_namespace(np)
    False
    """
    return _name(xp) == "ndonnx"


def is_dpnp_namespace(xp: object) -> bool:
    """Return whether ``xp`` is ``dpnp`` or ``dpnp.tensor``.

    Examples
    --------
    >>> import numpy as np
    >>> import cunumpy
    >>> cunumpy.is_dpnp_namespace(np)
    False
    """
    return _name(xp) in ("dpnp", "dpnp.tensor")


def is_mparray_namespace(xp: object) -> bool:
    """Return whether ``xp`` is the mparray namespace.

    Examples
    --------
    >>> import numpy as np
    >>> import cunumpy
    >>> cunumpy.is_mparray_namespace(np)
    False
    """
    return _name(xp) == "mparray"


def is_array_api_strict_namespace(xp: object) -> bool:
    """Return whether ``xp`` is array-api-strict.

    Examples
    --------
    >>> import numpy as np
    >>> import cunumpy
    >>> cunumpy.is_array_api_strict_namespace(np)
    False
    """
    return _name(xp) == "array_api_strict"
