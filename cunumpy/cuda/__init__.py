"""Devices, memory, synchronization and streams, safe to call on every backend.

On the CuPy backend these helpers act on the current GPU. On the NumPy backend, called
without a GPU device, they are no-ops or return a neutral value (``"cpu"``, ``None``)
and do not import CuPy, so portable code can call them unconditionally. Asking for a GPU
explicitly (an int index, ``"cuda:N"``, a ``cupy.cuda.Device`` or a CuPy array's
``.device``) needs a usable CuPy and raises ``RuntimeError`` with the reason otherwise;
``set_device`` is the one exception (see its docstring). ``create_stream`` and
``create_event`` give host stand-ins (``HostStream``, ``HostEvent``) on the NumPy backend,
so that code ordering work with events runs there too.
"""

from __future__ import annotations

from .._cupy import cupy_available
from ._bind import bind_local_device
from ._device import current_device, device, device_count, set_device, set_device_for_rank
from ._events import HostEvent, HostStream, create_event, create_stream, record_event, wait_event
from ._memory import MemoryStats, free_memory, memory_info, memory_stats
from ._pinned import pin_memory
from ._streams import current_stream, stream, streams, synchronize

__all__ = [
    "HostEvent",
    "HostStream",
    "MemoryStats",
    "bind_local_device",
    "create_event",
    "create_stream",
    "cupy_available",
    "current_device",
    "current_stream",
    "device",
    "device_count",
    "free_memory",
    "memory_info",
    "memory_stats",
    "pin_memory",
    "record_event",
    "set_device",
    "set_device_for_rank",
    "stream",
    "streams",
    "synchronize",
    "wait_event",
]


def __dir__() -> list[str]:
    """The public names only (``__all__``), not the imports and private submodules."""
    return list(__all__)
