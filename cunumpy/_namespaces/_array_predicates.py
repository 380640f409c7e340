"""Which library an object's array belongs to, and what kind of array it is.

Each ``is_<library>_array`` predicate tests the object's class against the library's
array class found in ``sys.modules``, so none of them imports a library: an object cannot
be a PyTorch tensor unless PyTorch is already imported. The semantics are those of
array-api-compat 1.16, which these helpers replace one for one.
"""

from __future__ import annotations

import math
import sys
from typing import Any

import numpy as np
from numpy.exceptions import AxisError
from numpy.lib.array_utils import normalize_axis_tuple

__all__ = [
    "is_array_api_obj",
    "is_cupy_array",
    "is_dask_array",
    "is_dpnp_array",
    "is_jax_array",
    "is_lazy_array",
    "is_mparray_array",
    "is_ndonnx_array",
    "is_numpy_array",
    "is_pydata_sparse_array",
    "is_torch_array",
    "is_writeable_array",
    "size",
]


# (class, module, class name) -> answer; bounded, as classes can be made at run time.
_SUBCLASS_CACHE: dict[tuple[type, str, str], bool] = {}
_SUBCLASS_CACHE_SIZE = 1024


def _subclass_of(cls: type, module: str, name: str) -> bool:
    """Whether ``cls`` derives from ``module.name``, without importing ``module``.

    Caching is safe: a class cannot derive from a class whose module is not imported yet.
    """
    key = (cls, module, name)
    answer = _SUBCLASS_CACHE.get(key)
    if answer is None:
        library = sys.modules.get(module)
        parent = getattr(library, name, None)
        answer = isinstance(parent, type) and issubclass(cls, parent)
        if len(_SUBCLASS_CACHE) < _SUBCLASS_CACHE_SIZE:
            _SUBCLASS_CACHE[key] = answer
    return answer


def _is_jax_zero_gradient_array(x: object) -> bool:
    """JAX's zero-gradient arrays are NumPy arrays of dtype ``jax.float0``."""
    if "jax" not in sys.modules:
        return False
    dtype = getattr(x, "dtype", None)
    if not isinstance(dtype, np.dtype) or dtype.kind != "V":
        return False
    float0 = getattr(sys.modules["jax"], "float0", None)
    return float0 is not None and bool(dtype == float0)


def is_numpy_array(x: object) -> bool:
    """Return whether ``x`` is a NumPy array, an ndarray subclass or a NumPy scalar.

    NumPy scalars count, as NumPy treats them as 0-D arrays; JAX's zero-gradient arrays
    (NumPy arrays of dtype ``jax.float0``) do not.

    Examples
    --------
    >>> import numpy as np
    >>> import cunumpy as xp
    >>> xp.is_numpy_array(np.zeros(2)), xp.is_numpy_array([0.0, 1.0])
    (True, False)
    """
    if not isinstance(x, (np.ndarray, np.generic)):
        return False
    return not _is_jax_zero_gradient_array(x)


def is_cupy_array(x: object) -> bool:
    """Return whether ``x`` is a CuPy array (or a subclass); never imports CuPy.

    Examples
    --------
    >>> import numpy as np
    >>> import cunumpy as xp
    >>> xp.is_cupy_array(np.zeros(2))
    False
    """
    return _subclass_of(type(x), "cupy", "ndarray")


def is_torch_array(x: object) -> bool:
    """Return whether ``x`` is a PyTorch tensor; never imports PyTorch.

    Examples
    --------
    >>> import numpy as np
    >>> import cunumpy as xp
    >>> xp.is_torch_array(np.zeros(2))
    False
    """
    return _subclass_of(type(x), "torch", "Tensor")


def is_jax_array(x: object) -> bool:
    """Return whether ``x`` is a JAX array, a JAX tracer or a zero-gradient array.

    Never imports JAX.

    Examples
    --------
    >>> import numpy as np
    >>> import cunumpy as xp
    >>> xp.is_jax_array(np.zeros(2))
    False
    """
    cls = type(x)
    return (
        _subclass_of(cls, "jax", "Array")
        or _subclass_of(cls, "jax.core", "Tracer")
        or _is_jax_zero_gradient_array(x)
    )


def is_dask_array(x: object) -> bool:
    """Return whether ``x`` is a ``dask.array.Array``; never imports Dask.

    Examples
    --------
    >>> import numpy as np
    >>> import cunumpy as xp
    >>> xp.is_dask_array(np.zeros(2))
    False
    """
    return _subclass_of(type(x), "dask.array", "Array")


def is_pydata_sparse_array(x: object) -> bool:
    """Return whether ``x`` is an array of the ``sparse`` package; never imports it.

    Examples
    --------
    >>> import numpy as np
    >>> import cunumpy as xp
    >>> xp.is_pydata_sparse_array(np.zeros(2))
    False
    """
    return _subclass_of(type(x), "sparse", "SparseArray")


def is_ndonnx_array(x: object) -> bool:
    """Return whether ``x`` is an ndonnx array; never imports ndonnx.

    Examples
    --------
    >>> import numpy as np
    >>> import cunumpy as xp
    >>> xp.is_ndonnx_array(np.zeros(2))
    False
    """
    return _subclass_of(type(x), "ndonnx", "Array")


def is_dpnp_array(x: object) -> bool:
    """Return whether ``x`` is a dpnp array (or a ``dpnp.tensor.usm_ndarray``).

    Never imports dpnp.

    Examples
    --------
    >>> import numpy as np
    >>> import cunumpy as xp
    >>> xp.is_dpnp_array(np.zeros(2))
    False
    """
    cls = type(x)
    return _subclass_of(cls, "dpnp", "ndarray") or _subclass_of(cls, "dpnp.tensor", "usm_ndarray")


def is_mparray_array(x: object) -> bool:
    """Return whether ``x`` is an mparray array; never imports mparray.

    Examples
    --------
    >>> import numpy as np
    >>> import cunumpy as xp
    >>> xp.is_mparray_array(np.zeros(2))
    False
    """
    return _subclass_of(type(x), "mparray", "MPArray")


# The array classes known without asking the object for ``__array_namespace__``.
_KNOWN_ARRAY_CLASSES = (
    ("numpy", "ndarray"),
    ("numpy", "generic"),
    ("cupy", "ndarray"),
    ("torch", "Tensor"),
    ("dask.array", "Array"),
    ("sparse", "SparseArray"),
    ("jax", "Array"),
    ("jax.core", "Tracer"),
)


def _is_known_array_class(cls: type) -> bool:
    return any(_subclass_of(cls, module, name) for module, name in _KNOWN_ARRAY_CLASSES)


def is_array_api_obj(x: object) -> bool:
    """Return whether ``x`` is an array of a library that follows the Array API.

    True for NumPy (arrays and scalars), CuPy, PyTorch, Dask, JAX and sparse arrays, and
    for any object with ``__array_namespace__``; false for Python scalars, lists and
    ``numpy.matrix``.

    Examples
    --------
    >>> import numpy as np
    >>> import cunumpy as xp
    >>> xp.is_array_api_obj(np.zeros(2)), xp.is_array_api_obj([1.0]), xp.is_array_api_obj(1.0)
    (True, False, False)
    """
    cls = type(x)
    if cls is np.ndarray:
        return True
    if issubclass(cls, np.matrix):
        return False
    return hasattr(x, "__array_namespace__") or _is_known_array_class(cls)


def is_writeable_array(x: object) -> bool:
    """Return whether ``x[...] = value`` is expected to work.

    False for read-only NumPy arrays, NumPy scalars, JAX and sparse arrays, and for
    objects that are not arrays. True for other arrays: the standard has no way to ask,
    so arrays of unknown libraries are assumed writeable.

    Examples
    --------
    >>> import numpy as np
    >>> import cunumpy as xp
    >>> x = np.zeros(2)
    >>> xp.is_writeable_array(x)
    True
    >>> x.flags.writeable = False
    >>> xp.is_writeable_array(x), xp.is_writeable_array(np.float64(1.0))
    (False, False)
    """
    if isinstance(x, np.ndarray):
        return bool(x.flags.writeable)
    cls = type(x)
    if (
        issubclass(cls, np.generic)
        or _subclass_of(cls, "jax", "Array")
        or _subclass_of(cls, "jax.core", "Tracer")
        or _subclass_of(cls, "sparse", "SparseArray")
    ):
        return False
    return _is_known_array_class(cls) or hasattr(x, "__array_namespace__")


_EAGER = (
    ("numpy", "ndarray"),
    ("numpy", "generic"),
    ("cupy", "ndarray"),
    ("torch", "Tensor"),
    ("sparse", "SparseArray"),
    ("mparray", "MPArray"),
)
_LAZY = (("jax", "Array"), ("jax.core", "Tracer"), ("dask.array", "Array"), ("ndonnx", "Array"))


def is_lazy_array(x: object) -> bool:
    """Return whether reading the values of ``x`` may be impossible or expensive.

    True for JAX, Dask and ndonnx arrays (they may be traced or computed on demand),
    false for NumPy, CuPy, PyTorch, sparse and mparray arrays and for non-arrays. An
    array of another library is lazy when its size is unknown or when ``bool()`` of one
    of its elements raises.

    Examples
    --------
    >>> import numpy as np
    >>> import cunumpy as xp
    >>> xp.is_lazy_array(np.zeros(2))
    False
    """
    cls = type(x)
    if cls is np.ndarray or any(_subclass_of(cls, m, n) for m, n in _EAGER):
        return False
    if any(_subclass_of(cls, m, n) for m, n in _LAZY):
        return True
    if not hasattr(x, "__array_namespace__"):
        return False
    count = size(x)
    if count is None:
        return True
    xp = x.__array_namespace__()  # its own namespace (array_namespace would be a circle)
    first = xp.reshape(x, (-1,))[0] if count > 1 else x
    try:
        bool(xp.any(first))
    except Exception:  # lazy libraries raise what they like; the standard says TypeError
        return True
    return False


class _Missing:
    """The default of ``size``'s two spellings of its input: NumPy's ``a`` and compat's ``x``."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<required>"


_MISSING: Any = _Missing()


def size(
    a: Any = _MISSING, axis: int | tuple[int, ...] | None = None, *, x: Any = _MISSING
) -> int | None:
    """Return the number of elements of ``a``, or None when its shape is not known.

    The standard's ``a.size``, for libraries that spell it differently (PyTorch's
    ``size`` is a method) or report an unknown size as NaN (Dask), as array-api-compat's
    ``size`` gives it. Otherwise it is ``numpy.size`` (CuNumpy 0.7.1's ``xp.size`` was
    NumPy's): with ``axis``, the length of that axis (or the product of those axes), and
    for what has no ``shape`` (a list, a scalar), the size of NumPy's array of it.

    Parameters
    ----------
    a : array or array_like
        An array of any library (anything with a ``shape``), or what ``numpy.asarray``
        takes.
    axis : int or tuple of ints, optional
        The axis whose length to return, or the axes whose lengths to multiply (as NumPy
        2's ``numpy.size``); ``None`` for the number of elements.
    x : array, optional
        array-api-compat's name for ``a`` (``size(x=arr)``), keyword only; give one of
        ``a`` and ``x``.

    Returns
    -------
    int or None
        The product of the shape (or the length of ``axis``), or None if unknown.

    Raises
    ------
    numpy.exceptions.AxisError
        If ``axis`` is out of range, as NumPy raises.

    Examples
    --------
    >>> import numpy as np
    >>> import cunumpy as xp
    >>> xp.size(np.zeros((2, 3)))
    6
    >>> xp.size(np.zeros((2, 3)), 1)
    3
    >>> xp.size(np.zeros((2, 3, 4)), axis=(0, 2))
    8
    >>> xp.size([[1, 2, 3], [4, 5, 6]])  # no shape: NumPy's answer
    6
    >>> xp.size(x=np.zeros(4))  # array-api-compat's keyword
    4
    """
    if x is not _MISSING:
        if a is not _MISSING:
            msg = "size: give the array once, as `a` (NumPy's name) or `x` (array-api-compat's), not both"
            raise TypeError(msg)
        a = x
    elif a is _MISSING:
        msg = "size: missing the array: pass it by position, as `a=` (NumPy's name) or as `x=` (array-api-compat's)"
        raise TypeError(msg)
    try:
        shape = a.shape
    except AttributeError:  # a list, a scalar, ...: NumPy's call
        try:
            result: int = np.size(a, axis)
        except AxisError as exc:  # NumPy's class, naming the function
            raise AxisError(f"size: {exc}") from None
        except IndexError as exc:  # NumPy before 2.4: shape[axis] out of range
            raise IndexError(f"size: {exc}") from None
        return result
    if axis is not None:
        try:
            axes = normalize_axis_tuple(axis, len(shape), allow_duplicate=False)
        except AxisError as exc:  # NumPy's class, naming the function
            raise AxisError(f"size: {exc}") from None
        shape = tuple(shape[i] for i in axes)
    if None in shape:
        return None
    count = math.prod(shape)
    if isinstance(count, float) and math.isnan(count):  # Dask's unknown dimensions
        return None
    return int(count)
