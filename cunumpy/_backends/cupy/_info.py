"""The inspection API of the CuPy namespace (``__array_namespace_info__``)."""

from __future__ import annotations

from typing import Any

import cupy
import numpy as np

from ..._settings._cupy_probe import visible_gpu_count
from ..numpy._info import __array_namespace_info__ as _numpy_info
from ._device_copies import gpu

__all__ = ["__array_namespace_info__"]


class __array_namespace_info__(_numpy_info):
    """Inspection of the CuPy namespace: capabilities, GPUs and data types (as on NumPy)."""

    __module__ = "cunumpy._backends.cupy"

    def default_device(self) -> Any:
        """The current GPU, as a ``cupy.cuda.Device``."""
        return cupy.cuda.Device()

    def default_dtypes(self, *, device: Any = None) -> dict[str, np.dtype[Any]]:
        """The default data types, by kind, on ``device`` (the same on every GPU)."""
        if device is not None:
            gpu(device, "default_dtypes")
        return super().default_dtypes()

    def devices(self) -> tuple[Any, ...]:
        """Every visible GPU, as a tuple of ``cupy.cuda.Device``."""
        count = visible_gpu_count()
        return tuple(cupy.cuda.Device(index) for index in range(count))

    def dtypes(
        self, *, device: Any = None, kind: str | tuple[str, ...] | None = None
    ) -> dict[str, np.dtype[Any]]:
        """The data types supported on ``device`` (the same on every GPU), optionally of ``kind``."""
        if device is not None:
            gpu(device, "dtypes")
        return super().dtypes(kind=kind)
