"""Devices, memory, synchronization and streams, safe to call on every backend.

On the CuPy backend these helpers act on the current GPU. On the NumPy backend, called
without a GPU device, they are no-ops or return a neutral value (``"cpu"``, ``None``)
and do not import CuPy, so portable code can call them unconditionally. Asking for a GPU
explicitly (an int index, ``"cuda:N"``, a ``cupy.cuda.Device`` or a CuPy array's
``.device``) needs a usable CuPy and raises ``RuntimeError`` with the reason otherwise;
``set_device`` is the one exception (see its docstring).
"""

from __future__ import annotations

from .._cupy import cupy_available, cupy_unavailable_reason
from ._device import current_device, device, device_count, set_device
from ._memory import MemoryStats, free_memory, memory_info, memory_stats
from ._pinned import pin_memory
from ._streams import current_stream, stream, streams, synchronize

__all__ = [
    "MemoryStats",
    "cupy_available",
    "cupy_unavailable_reason",
    "current_device",
    "current_stream",
    "device",
    "device_count",
    "free_memory",
    "memory_info",
    "memory_stats",
    "pin_memory",
    "set_device",
    "stream",
    "streams",
    "synchronize",
]


def __dir__() -> list[str]:
    """The public names only (``__all__``), not the imports and private submodules."""
    return list(__all__)
