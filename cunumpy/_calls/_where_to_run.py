"""The helpers every top-level function uses to find the namespace to run in.

A function that takes arrays runs in their namespace (``_namespace_of_one``, ``_two``,
``_pair``, ``_args``, ``_sequence``); a creation function runs on its ``device=``
(``_placement``) or, without one, on the current backend (``_current().namespace``).

The same helpers reject what is not an array where the standard asks for one: a
``TypeError`` that names the function, the argument and its type. Python scalars are
accepted where the standard allows them (``add(x, 1)``, ``where(c, x, 0.0)``,
``clip(x, 0, 1)``), and not in place of every array argument at once (``add(1, 2)``).
The lookups for arrays whose type was seen before are one dictionary access, so these
checks cost nothing on the paths that succeed.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType
from typing import Any, NoReturn

import numpy as np

from .._backend_choice._config import current as _current
from .._backends import numpy as _numpy_module
from .._moving._to_device import move_to as _move_to
from .._moving._to_device import to_device as _to_device
from .._namespaces._array_namespace import _NAMESPACE_BY_TYPE, namespace_of
from .._namespaces._array_namespace import refuse_subclass as _refuse_subclass
from .._namespaces._array_predicates import is_cupy_array
from .._placement._devices import DLPACK_CUDA, DLPACK_HOST, canonical_device, dlpack_device_type
from .._placement._keep_alive import OPEN as _OPEN_BLOCKS
from .._placement._keep_alive import note_use as _note_use
from ._kinds import ACCEPTS, KINDS, accepted

__all__ = [
    "_PYTHON_DATA",
    "_PY_SCALARS",
    "_PY_SCALARS_OR_NONE",
    "_current",
    "_dlpack_namespace",
    "_ndarray",
    "_is_array",
    "_moved",
    "_namespace_of_args",
    "_namespace_of_array",
    "_namespace_of_one",
    "_namespace_of_pair",
    "_namespace_of_sequence",
    "_namespace_of_two",
    "_numpy_namespace",
    "_placement",
    "_move_to",
    "_refuse_copy",
    "_refuse_subclass",
    "_to_current_backend",
    "_to_device",
]

_by_type = _NAMESPACE_BY_TYPE

#: The exact type the generated functions test for their NumPy fast path.
_ndarray = np.ndarray

#: The NumPy namespace, typed loosely: calls through it are checked at run time, like every
#: other namespace the dispatchers reach.
_numpy_namespace: Any = _numpy_module

#: Python scalars: they mix with arrays of any backend where the standard allows them.
_PY_SCALARS = frozenset({bool, int, float, complex})
_PY_SCALARS_OR_NONE = frozenset({bool, int, float, complex, type(None)})

# Argument kinds, one letter each (the generator writes them for each function): their
# meaning is the one table of ``_kinds``.
_TAKES_NONE = frozenset(k for k, kind in KINDS.items() if kind.accepts & ACCEPTS.NONE)
_TAKES_SCALAR = frozenset(k for k, kind in KINDS.items() if kind.accepts & ACCEPTS.SCALAR)
# Plain Python containers and text: never arrays, though NumPy would convert them.
_NOT_ARRAYS = (list, tuple, dict, set, frozenset, str, bytes)


def _not_an_array(func: str, name: str, x: Any, kind: str = "a") -> TypeError:
    """The ``TypeError`` for argument ``name`` of ``func``, which is not an array."""
    hint = " (convert it with asarray first)" if isinstance(x, (list, tuple)) or (
        type(x) in _PY_SCALARS and kind not in _TAKES_SCALAR
    ) else ""  # fmt: skip
    shown = "None" if x is None else f"{type(x).__qualname__} {x!r:.80}"
    msg = f"{func}: `{name}` must be {accepted(kind)}, not {shown}{hint}."
    return TypeError(msg)


def _lookup(x: Any, func: str) -> ModuleType | None:
    """The namespace of array argument ``x`` whose type is not cached, or None: the slow path.

    None for what is not an array (a Python or NumPy scalar, a list, a string, ...): the
    call is not the standard's, and the caller hands it to ``numpy_call``. NumPy's
    subclasses that the standard's functions would get wrong (masked arrays) raise.
    """
    if type(x) in _PY_SCALARS_OR_NONE or isinstance(x, _NOT_ARRAYS):
        return None
    if not isinstance(x, (np.ndarray, np.generic)) and not _is_array(x):
        return None
    return namespace_of((x,), func)  # NumPy scalars count as 0-D NumPy arrays


def _namespace_of_one(x: Any, func: str, name: str = "x") -> ModuleType | None:
    """The namespace of one argument that the standard wants an array; None if it is not one."""
    namespace = _by_type.get(type(x))
    if namespace is None:
        namespace = _lookup(x, func)
    if _OPEN_BLOCKS:  # inside a stream() block: GPU inputs live until it has run
        _note_use((x,))
    return namespace


def _namespace_of_array(x: Any, func: str, name: str = "x") -> ModuleType:
    """The namespace of one argument that must be an array, or a ``TypeError``."""
    namespace = _namespace_of_one(x, func, name)
    if namespace is None:
        raise _not_an_array(func, name, x)
    return namespace


def _namespace_of_two(x1: Any, x2: Any, func: str) -> ModuleType | None:
    """The namespace of ``x1`` and ``x2``, arrays or Python scalars but not both scalars."""
    if _OPEN_BLOCKS:  # inside a stream() block: GPU inputs live until it has run
        _note_use((x1, x2))
    kind = type(x1)
    if kind is type(x2) or type(x2) in _PY_SCALARS:
        namespace = _by_type.get(kind)
        if namespace is not None:
            return namespace
    return _namespace_of_args((x1, x2), "ss", ("x1", "x2"), func)


def _namespace_of_pair(x1: Any, x2: Any, func: str, name1: str, name2: str) -> ModuleType | None:
    """The namespace of two arguments that the standard wants arrays."""
    if _OPEN_BLOCKS:  # inside a stream() block: GPU inputs live until it has run
        _note_use((x1, x2))
    kind = type(x1)
    if kind is type(x2):
        namespace = _by_type.get(kind)
        if namespace is not None:
            return namespace
    return _namespace_of_args((x1, x2), "aa", (name1, name2), func)


def _namespace_of_args(
    values: tuple[Any, ...], kinds: str, names: tuple[str, ...], func: str
) -> ModuleType | None:
    """The common namespace of array arguments of the given kinds (see ``_kinds.KINDS``).

    None when an argument is not what the standard takes there, or when no argument is an
    array (``add(1, 2)``): NumPy's call, for ``numpy_call``.
    """
    if _OPEN_BLOCKS:  # inside a stream() block: GPU inputs live until it has run
        _note_use(values)
    for x, kind in zip(values, kinds):
        kind_of_x = type(x)
        if kind_of_x in _by_type:
            continue
        if x is None:
            if kind in _TAKES_NONE:
                continue
        elif kind_of_x in _PY_SCALARS and kind in _TAKES_SCALAR:
            continue
        if _lookup(x, func) is None:
            return None
    return namespace_of(values, func)  # the one library of the arrays, or a TypeError


def _namespace_of_sequence(
    arrays: Sequence[Any], func: str, name: str, *, allow_empty: bool = False
) -> ModuleType | None:
    """The common namespace of a tuple or list of arrays (``concat``, ``*arrays``), or None."""
    if _OPEN_BLOCKS and isinstance(arrays, (tuple, list)):  # inside a stream() block
        _note_use(arrays)
    if isinstance(arrays, (tuple, list)) and arrays:  # the common case, decided quickly
        kind = type(arrays[0])
        namespace = _by_type.get(kind)
        if namespace is not None:
            for x in arrays:
                if type(x) is not kind:
                    break
            else:
                return namespace
    if not isinstance(arrays, (tuple, list)):
        return None
    if not arrays:
        if allow_empty:
            return _current().namespace
        msg = f"{func}: `{name}` is empty; pass at least one array."
        raise ValueError(msg)
    for x in arrays:
        if type(x) not in _by_type and _lookup(x, func) is None:
            return None
    return namespace_of(arrays, func)


def _placement(device: Any, func: str) -> tuple[ModuleType, Any]:
    """The namespace that creates arrays on ``device``, and the device in its own form."""
    canonical = canonical_device(device, func)
    if canonical == "cpu":
        return _numpy_namespace, "cpu"
    from .._backends import cupy as cupy_namespace

    return cupy_namespace, canonical


#: Python data, never an array: ``_is_array`` answers for them without a look-up.
_PYTHON_DATA = frozenset({list, tuple, bool, int, float, complex, str, bytes, type(None)})


def _is_array(obj: Any) -> bool:
    """Whether ``obj`` is an array of a library cunumpy knows (not a scalar or a list)."""
    kind = type(obj)
    if kind in _PYTHON_DATA:  # the common case of NumPy's calls, decided in one look-up
        return False
    return (
        kind in _by_type
        or is_cupy_array(obj)
        or (kind is not type and hasattr(obj, "__array_namespace__"))
    )


def _moved(
    obj: Any, namespace: ModuleType, device: Any, copy: bool | None
) -> tuple[Any, bool | None]:
    """For ``asarray(obj, device=...)``: move an array of another backend, honouring ``copy``."""
    if not _is_array(obj) or _namespace_of_array(obj, "asarray", "obj") is namespace:
        return obj, copy
    if copy is False:
        _refuse_copy("asarray", obj, device)
    return _move_to(obj, device, None, "asarray"), None


def _refuse_copy(func: str, obj: Any, device: Any) -> NoReturn:
    """``copy=False`` where ``obj`` must be copied to ``device`` to make the array there.

    NumPy's and the standard's answer (CuPy 14 itself copies host data to the GPU
    whatever ``copy`` says).
    """
    where = f"on {obj.device!r}" if _is_array(obj) else "on the host"
    msg = (
        f"{func}: copy=False cannot be honoured: unable to avoid copying the "
        f"{type(obj).__name__} {where} to {device!r}; pass copy=None or copy=True."
    )
    raise ValueError(msg)


def _to_current_backend(obj: Any, copy: bool | None) -> tuple[Any, bool | None, ModuleType]:
    """For ``asarray(obj)`` without ``device=``: where ``obj`` is to be made.

    An array stays where it lives, as the standard says: a CuPy array on its GPU, also on
    the NumPy backend, and arrays of other libraries in their own namespace. The one
    exception is 0.7.1's path: a NumPy array on the CuPy backend is host data, copied to
    the current GPU (counted by ``count_transfers``; ``copy=False`` raises). Returns the
    array, the ``copy`` left to pass on, and the namespace to call ``asarray`` in.
    """
    namespace = _current().namespace
    if isinstance(obj, np.matrix):  # NumPy's asarray takes its data as a plain ndarray
        obj = np.asarray(obj)
    own = _namespace_of_array(obj, "asarray", "obj")
    if own is namespace or own is not _numpy_namespace:  # only host data moves
        return obj, copy, own
    moved, copy = _moved(obj, namespace, "cuda", copy)
    return moved, copy, namespace


def _dlpack_namespace(x: Any) -> ModuleType:
    """The namespace ``from_dlpack(x)`` creates in: where the producer's memory lives."""
    known = _by_type.get(type(x))
    if known is not None:
        return known
    device_type = dlpack_device_type(x, "from_dlpack")
    if device_type in DLPACK_HOST:
        return _numpy_namespace
    if device_type in DLPACK_CUDA:
        from .._backends import cupy as cupy_namespace

        return cupy_namespace
    return _current().namespace
