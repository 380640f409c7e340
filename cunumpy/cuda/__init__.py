"""Devices, memory, synchronization and streams, safe to call on every backend.

On the CuPy backend these helpers act on the current GPU. On the NumPy backend, called
without a GPU device, they are no-ops or return a neutral value (``"cpu"``, ``None``)
and do not import CuPy, so portable code can call them unconditionally. Asking for a GPU
explicitly (an int index, ``"cuda:N"``, a ``cupy.cuda.Device`` or a CuPy array's
``.device``) needs a usable CuPy and raises ``RuntimeError`` with the reason otherwise;
``set_device`` is the one exception (see its docstring). ``create_stream`` and
``create_event`` give host stand-ins (``HostStream``, ``HostEvent``) on the NumPy backend,
so that code ordering work with events runs there too.

It also holds the CUDA C tools of :class:`cunumpy.kernels.CudaKernel`, which need no
GPU: the shipped headers (:func:`cuda_include_dir`), signature parsing
(:func:`parse_cuda_signature`) and the debug mode (:func:`set_cuda_debug`).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .._settings._cupy_probe import cupy_available, cupy_unavailable_reason
from .._settings._homes import set_public_homes as _set_public_homes

# read at import: a bad CUNUMPY_CUDA_DEBUG is an error of `import cunumpy.cuda`
from ._debug import (
    DEBUG_OPTIONS,
    DEFAULT_SHARED_MEMORY_PER_BLOCK,
    cuda_debug,
    get_cuda_debug,
    is_hip,
    max_shared_memory_per_block,
    set_cuda_debug,
)
from ._events import HostEvent, HostStream, create_event, create_stream, record_event, wait_event
from ._memory import MemoryStats, free_memory, memory_info, memory_stats
from ._streams import current_stream, stream, streams, synchronize

if TYPE_CHECKING:  # loaded on first use (below): ``import cunumpy`` does not need them
    from ._bind import bind_local_device
    from ._device import current_device, device, device_count, set_device, set_device_for_rank
    from ._pinned import pin_memory
    from ._signature import CudaParameter, ctype_of, cuda_kernel_names, parse_cuda_signature
    from ._sources import cuda_include_dir, include_hash, resolve_includes

#: The names loaded on first use, and their module: the device settings, pinned
#: memory and the CUDA C tools, which ``import cunumpy`` (it needs the streams) does not.
_LAZY = {
    "bind_local_device": "_bind",
    **dict.fromkeys(
        ("current_device", "device", "device_count", "set_device", "set_device_for_rank"),
        "_device",
    ),
    "pin_memory": "_pinned",
    **dict.fromkeys(("CudaParameter", "ctype_of", "cuda_kernel_names", "parse_cuda_signature"), "_signature"),
    **dict.fromkeys(("cuda_include_dir", "include_hash", "resolve_includes"), "_sources"),
}  # fmt: skip


def _lazy_attribute(name: str) -> Any:
    """A name of ``_LAZY``, imported from its module on first use and kept as a global
    (a class takes its public home then, as the eager names do at import)."""
    module = _LAZY.get(name)
    if module is None:
        msg = f"module {__name__!r} has no attribute {name!r}"
        raise AttributeError(msg)
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    _set_public_homes(__name__, (name,), globals())
    return value


if not TYPE_CHECKING:  # type checkers see the imports above, and no other name
    __getattr__ = _lazy_attribute


__all__ = [
    "DEBUG_OPTIONS",
    "DEFAULT_SHARED_MEMORY_PER_BLOCK",
    "CudaParameter",
    "HostEvent",
    "HostStream",
    "MemoryStats",
    "bind_local_device",
    "create_event",
    "create_stream",
    "ctype_of",
    "cuda_debug",
    "cuda_include_dir",
    "cuda_kernel_names",
    "cupy_available",
    "cupy_unavailable_reason",
    "current_device",
    "current_stream",
    "device",
    "device_count",
    "free_memory",
    "get_cuda_debug",
    "include_hash",
    "is_hip",
    "max_shared_memory_per_block",
    "memory_info",
    "memory_stats",
    "parse_cuda_signature",
    "pin_memory",
    "record_event",
    "resolve_includes",
    "set_cuda_debug",
    "set_device",
    "set_device_for_rank",
    "stream",
    "streams",
    "synchronize",
    "wait_event",
]


_set_public_homes(__name__, __all__, globals())  # tracebacks name the public module


def __dir__() -> list[str]:
    """The public names only (``__all__``), not the imports and private submodules."""
    return list(__all__)
