"""NumPy's conversions at the top level: ``array``, ``asanyarray``, ``ascontiguousarray``.

They are not the standard's names, but they create arrays, so they follow the rule of
``asarray`` (docs/guide.md, "Creation follows the request"): given Python data, or an
array of the other backend (NumPy or CuPy), they create on the current backend, and the
copy between host and GPU is counted by ``count_transfers``, as in CuNumpy 0.7.1. Every
other argument is NumPy's (and CuPy's): the call is the library's own function. The
input takes NumPy's name too (``array(object=...)``, ``asanyarray(a=...)``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._calls._fast_path import compile_function, fast_path
from .._calls._numpy_calls import library_of
from .._calls._shown_signatures import shows_numpys
from .._calls._where_to_run import (
    _PYTHON_DATA,
    _current,
    _is_array,
    _namespace_of_array,
    _numpy_namespace,
    _refuse_copy,
)
from .._moving._to_device import move_to

__all__ = ["array", "asanyarray", "ascontiguousarray"]


def _on_current_backend(obj: Any, func: str, copy: Any = None) -> tuple[Any, Any]:
    """``obj`` where it is to be made, and the library that makes it there: an array
    stays where it lives (a CuPy array on its GPU, whatever the backend); host data (a
    NumPy array included) goes to the current backend, copied and counted on CuPy, as
    in 0.7.1. A copy with ``copy=False`` raises, as NumPy does."""
    namespace = _current().namespace
    if namespace is _numpy_namespace and type(obj) in _PYTHON_DATA:  # NumPy's call as it is
        return obj, np
    if isinstance(obj, np.matrix):  # NumPy's subclass: NumPy's call, or its data to the GPU
        if namespace is _numpy_namespace:
            return obj, np
        obj = np.asarray(obj)
    if _is_array(obj):
        own = _namespace_of_array(obj, func, "object")
        if own is not namespace and own.__name__.startswith("cunumpy._backends."):
            if own.__name__ == "cunumpy._backends.cupy":  # a GPU array stays on its GPU
                return obj, library_of(own)
            target = "cpu" if namespace is _numpy_namespace else "cuda"
            if copy is False:
                _refuse_copy(func, obj, target)
            obj = move_to(obj, target, None, func)
    elif namespace is not _numpy_namespace:  # host data: copied to the GPU, counted
        if copy is False:
            _refuse_copy(func, obj, "cuda")
        obj = namespace.asarray(obj)
    return obj, library_of(namespace)


# In C on the NumPy backend: an ndarray or Python data, with any host values after it,
# is NumPy's own call, as ``_on_current_backend`` leaves it.
@fast_path(_numpy_namespace.array, "a", placed=True, extras=2, restate=None)
@shows_numpys(np.array)
def array(object: Any, *args: Any, **kwargs: Any) -> Any:
    """NumPy's ``array`` (CuPy's on the CuPy backend), creating on the current backend.

    Parameters
    ----------
    object : array_like
        Python data, or an array of either backend (moved to the current one, counted).
    *args, **kwargs : Any
        NumPy's call: ``dtype``, ``copy``, ``order``, ``ndmin``, ... as ``numpy.array``
        takes them.

    Returns
    -------
    out : array
        An array of the current backend.

    Examples
    --------
    >>> import cunumpy as xp
    >>> xp.array([1, 2], ndmin=2)
    array([[1, 2]])
    """
    obj, library = _on_current_backend(object, "array", kwargs.get("copy"))
    return library.array(obj, *args, **kwargs)


# In C on the NumPy backend: an ndarray or Python data, with any host values after it,
# is NumPy's own call, as ``_on_current_backend`` leaves it.
@fast_path(_numpy_namespace.asanyarray, "a", placed=True, extras=2, restate=None)
@shows_numpys(np.asanyarray)
def asanyarray(a: Any, *args: Any, **kwargs: Any) -> Any:
    """NumPy's ``asanyarray`` (CuPy's on the CuPy backend), creating on the current backend.

    Parameters
    ----------
    a : array_like
        Python data, or an array of either backend (moved to the current one, counted).
    *args, **kwargs : Any
        NumPy's call: ``dtype``, ``order``, ... as ``numpy.asanyarray`` takes them.

    Returns
    -------
    out : array
        An array of the current backend.

    Examples
    --------
    >>> import cunumpy as xp
    >>> xp.asanyarray((1.0, 2.0))
    array([1., 2.])
    """
    obj, library = _on_current_backend(a, "asanyarray", kwargs.get("copy"))
    return library.asanyarray(obj, *args, **kwargs)


# In C on the NumPy backend: an ndarray or Python data, with any host values after it,
# is NumPy's own call, as ``_on_current_backend`` leaves it.
@fast_path(_numpy_namespace.ascontiguousarray, "a", placed=True, extras=2, restate=None)
@shows_numpys(np.ascontiguousarray)
def ascontiguousarray(a: Any, *args: Any, **kwargs: Any) -> Any:
    """NumPy's ``ascontiguousarray`` (CuPy's on the CuPy backend), on the current backend.

    Parameters
    ----------
    a : array_like
        Python data, or an array of either backend (moved to the current one, counted).
    *args, **kwargs : Any
        NumPy's call: ``dtype``, ... as ``numpy.ascontiguousarray`` takes them.

    Returns
    -------
    out : array
        A C-contiguous array of the current backend.

    Examples
    --------
    >>> import cunumpy as xp
    >>> xp.ascontiguousarray(xp.asarray([[1, 2], [3, 4]]).T).flags.c_contiguous
    True
    """
    obj, library = _on_current_backend(a, "ascontiguousarray")
    return library.ascontiguousarray(obj, *args, **kwargs)


# The NumPy namespace's creation functions (``array_namespace(x).zeros``) in C too: each
# checks ``device`` in Python and then calls NumPy's own (``_backends/numpy/_creation.py``),
# so a call without ``device`` is NumPy's own call, made from C. Their module is on a floor
# below the fast path's, so their records are made here, as ``astype``'s is in data_types.
# Each: its kinds, and the keywords (those its Python function takes) C passes on.
_NAMESPACE_CREATION = {
    "arange": ("p", ("dtype", "like")),
    "asarray": ("a", ("dtype", "order", "copy", "like")),
    **dict.fromkeys(("empty", "ones", "zeros"), ("p", ("dtype", "order", "like"))),
    "eye": ("p", ("M", "k", "dtype", "order", "like")),
    "full": ("px", ("dtype", "order", "like")),
    "linspace": ("pp", ("num", "endpoint", "retstep", "dtype", "axis")),
    **dict.fromkeys(
        ("empty_like", "ones_like", "zeros_like"), ("a", ("dtype", "order", "subok", "shape"))
    ),
    "full_like": ("ax", ("dtype", "order", "subok", "shape")),
}
for _name, (_kinds, _keywords) in _NAMESPACE_CREATION.items():
    vars(_numpy_namespace)[_name] = compile_function(
        getattr(np, _name),
        getattr(_numpy_namespace, _name),
        _kinds,
        (getattr, (_numpy_namespace, _name)),
        keywords=dict.fromkeys(_keywords, "any"),
        data=True,
        extras=1,
        identity=_name == "asarray",  # asarray(ndarray) is the array, as NumPy's
    )
