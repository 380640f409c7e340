"""The helpers every top-level function uses to find the namespace to run in.

A function that takes arrays runs in their namespace (``_namespace_of_one``, ``_two``,
``_all``); a creation function runs on its ``device=`` (``_placement``) or, without one,
on the current backend (``_state.namespace``).
"""

from __future__ import annotations

from collections.abc import Iterable
from types import ModuleType
from typing import Any

import numpy as np

from ._backends import numpy as _numpy_module
from ._config import _state
from ._devices import DLPACK_CUDA, DLPACK_HOST, canonical_device, dlpack_device_type
from ._namespace import _NAMESPACE_BY_TYPE, _SCALAR_TYPES, namespace_of
from ._transfer import to_device as _to_device

__all__ = [
    "_SCALAR_TYPES",
    "_dlpack_namespace",
    "_ndarray",
    "_is_array",
    "_moved",
    "_namespace_of_all",
    "_namespace_of_one",
    "_namespace_of_two",
    "_numpy_namespace",
    "_placement",
    "_state",
    "_to_device",
]

_by_type = _NAMESPACE_BY_TYPE

#: The exact type the generated functions test for their NumPy fast path.
_ndarray = np.ndarray

#: The NumPy namespace, typed loosely: calls through it are checked at run time, like every
#: other namespace the dispatchers reach.
_numpy_namespace: Any = _numpy_module


def _namespace_of_one(x: Any, func: str) -> ModuleType:
    """The namespace of one array argument (the current backend's for a Python scalar)."""
    namespace = _by_type.get(type(x))
    if namespace is None:
        namespace = namespace_of((x,), func) or _state.namespace
    return namespace


def _namespace_of_two(x1: Any, x2: Any, func: str) -> ModuleType:
    """The common namespace of two array arguments, either of which may be a scalar."""
    kind = type(x1)
    if kind is type(x2) or type(x2) in _SCALAR_TYPES:
        namespace = _by_type.get(kind)
        if namespace is not None:
            return namespace
    return namespace_of((x1, x2), func) or _state.namespace


def _namespace_of_all(arrays: Iterable[Any], func: str) -> ModuleType:
    """The common namespace of a sequence of array arguments."""
    kind = type(arrays)
    if kind is tuple or kind is list:  # arrays of known types only, in one namespace: inline
        found = None
        for x in arrays:
            namespace = _by_type.get(type(x))
            if namespace is None or (found is not None and namespace is not found):
                break
            found = namespace
        else:
            if found is not None:
                return found
    return namespace_of(arrays, func) or _state.namespace


def _placement(device: Any, func: str) -> tuple[ModuleType, Any]:
    """The namespace that creates arrays on ``device``, and the device in its own form."""
    canonical = canonical_device(device, func)
    if canonical == "cpu":
        return _numpy_namespace, "cpu"
    from ._backends import cupy as cupy_namespace

    return cupy_namespace, canonical


def _is_array(obj: Any) -> bool:
    """Whether ``obj`` is an array of a library cunumpy knows (not a scalar or a list)."""
    kind = type(obj)
    return kind in _by_type or (kind is not type and hasattr(obj, "__array_namespace__"))


def _moved(
    obj: Any, namespace: ModuleType, device: Any, copy: bool | None
) -> tuple[Any, bool | None]:
    """For ``asarray(obj, device=...)``: move an array of another backend, honouring ``copy``."""
    if not _is_array(obj) or _namespace_of_one(obj, "asarray") is namespace:
        return obj, copy
    if copy is False:
        msg = (
            f"asarray: copy=False cannot be honoured: the array is on {obj.device!r} and "
            f"moving it to {device!r} needs a copy; pass copy=None or copy=True."
        )
        raise ValueError(msg)
    return _to_device(obj, device), None


def _dlpack_namespace(x: Any) -> ModuleType:
    """The namespace ``from_dlpack(x)`` creates in: where the producer's memory lives."""
    known = _by_type.get(type(x))
    if known is not None:
        return known
    device_type = dlpack_device_type(x, "from_dlpack")
    if device_type in DLPACK_HOST:
        return _numpy_namespace
    if device_type in DLPACK_CUDA:
        from ._backends import cupy as cupy_namespace

        return cupy_namespace
    return _state.namespace
