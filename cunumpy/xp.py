"""CuNumpy 0.7.1's ``cunumpy.xp`` module: backend selection, inspection and conversion.

Kept at the same path so that ``from cunumpy.xp import to_numpy`` keeps working; every
function here is the top level's own object (``cunumpy.xp.to_numpy is
cunumpy.to_numpy``), so use them from the top level in new code. ``xp.xp`` is the
namespace of the running context's backend, and ``numpy_backend`` / ``cupy_backend``
tell which backend that is; all three are read at each access. ``array_backend``, 0.7.x's
backend state object (``array_backend.backend``, ``.xp``, ``.set``, ``.use_backend``,
``.add_listener``), is a view of the same context-local state (see ``use_backend``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from ._backend_choice._config import current, get_backend, set_backend, use_backend
from ._backend_choice._versions import MIN_CUPY_VERSION, backend_info, cupy_version_supported
from ._moving._backend_conversion import (
    as_device_array,
    assert_same_backend,
    default_float_dtype,
    get_array_backend,
    get_array_module,
    is_cpu,
    is_gpu,
    same_backend,
    to_cunumpy,
)
from ._moving._to_device import to_cupy, to_numpy
from ._namespaces._array_backend_view import ArrayBackend
from ._settings._cupy_probe import cupy_available
from ._settings._homes import set_public_homes as _set_public_homes
from .cuda import synchronize

__all__ = [
    "MIN_CUPY_VERSION",
    "ArrayBackend",
    "BackendType",
    "array_backend",
    "as_device_array",
    "assert_same_backend",
    "backend_info",
    "cupy_available",
    "cupy_backend",
    "cupy_version_supported",
    "default_float_dtype",
    "get_array_backend",
    "get_array_module",
    "get_backend",
    "is_cpu",
    "is_gpu",
    "numpy_backend",
    "same_backend",
    "set_backend",
    "synchronize",
    "to_cunumpy",
    "to_cupy",
    "to_numpy",
    "use_backend",
    "xp",
]

#: The running context's backend with CuNumpy 0.7.x's interface (``array_backend.backend``).
array_backend = ArrayBackend()

#: The backend names, ``"numpy"`` or ``"cupy"`` (a type for annotations).
BackendType = Literal["numpy", "cupy"]


_set_public_homes(__name__, __all__, globals())  # tracebacks name the public module


if TYPE_CHECKING:
    # What ``__getattr__`` below gives, declared for type checkers, which do not see the
    # ``__getattr__`` (so that a misspelt name of this module is an error). ``xp`` is the
    # running backend's namespace: its functions are the top level's standard functions
    # and NumPy's names, typed as the top level types them (docs/typing.md).
    import cunumpy as xp

    #: Whether the running context's backend is NumPy.
    numpy_backend: bool
    #: Whether the running context's backend is CuPy.
    cupy_backend: bool


def _context_attribute(name: str) -> Any:
    """``xp``, ``numpy_backend`` and ``cupy_backend``, read from the running context."""
    if name == "xp":
        return current().namespace
    if name == "numpy_backend":
        return current().name == "numpy"
    if name == "cupy_backend":
        return current().name == "cupy"
    msg = f"module 'cunumpy.xp' has no attribute {name!r}"
    raise AttributeError(msg)


if not TYPE_CHECKING:  # the declarations above are what a type checker sees
    __getattr__ = _context_attribute


def __dir__() -> list[str]:
    """The public names only (``__all__``)."""
    return sorted(__all__)
