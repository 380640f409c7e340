"""Moving data between host and device without stalling, the same code on both backends.

``DeviceMirror`` pairs a host buffer that another library owns with a device copy that
kernels write into, with explicit in-place copies each way. ``HostStaging`` copies device
arrays to the host in the background (for output), and ``cunumpy.to_host_async`` does it
once for a scalar or small array (a ``HostCopy``)::

    staging = memory.HostStaging(rho.shape, rho.dtype)
    copy = staging.copy(rho)         # returns at once
    ...                              # more steps on the GPU
    save(copy.result())              # a NumPy array

On the NumPy backend the mirror's device array is the host array and copies are made at
once, so nothing changes in the code. Every copy goes to the transfer log
(``cunumpy.profiling``). Pinned host memory on its own is ``cunumpy.cuda.pin_memory``.
Importing this module imports no CuPy.
"""

from __future__ import annotations

from .._moving._host_copy_async import HostCopy
from .._settings._homes import set_public_homes as _set_public_homes
from ._mirror import DeviceMirror
from ._staging import HostStaging, StagedCopy

__all__ = ["DeviceMirror", "HostCopy", "HostStaging", "StagedCopy"]


_set_public_homes(__name__, __all__, globals())  # tracebacks name the public module


def __dir__() -> list[str]:
    """The public names only (``__all__``), not the imports and private submodules."""
    return list(__all__)
