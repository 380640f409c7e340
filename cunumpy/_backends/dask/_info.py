"""The inspection API of the Dask namespace (``__array_namespace_info__``)."""

from __future__ import annotations

from typing import Any

from .. import numpy as _numpy_namespace
from ._chunks import like

__all__ = ["__array_namespace_info__"]


def _chunk_info(device: Any, func: str) -> Any:
    meta = like(device, func)
    if meta is None:
        return _numpy_namespace.__array_namespace_info__()
    from .. import cupy as cupy_namespace

    return cupy_namespace.__array_namespace_info__()


class __array_namespace_info__:
    """Inspection of the Dask namespace: capabilities, devices and data types.

    The dtypes are those of the chunks: NumPy's on ``"cpu"``, CuPy's on a CUDA device.

    Examples
    --------
    >>> import cunumpy.dask as xp
    >>> info = xp.__array_namespace_info__()
    >>> info.default_device()
    'cpu'
    >>> info.capabilities()["data-dependent shapes"]
    True
    """

    __module__ = "cunumpy.dask"

    def capabilities(self) -> dict[str, Any]:
        """Optional features: boolean indexing and data-dependent shapes give ``nan`` lengths."""
        return {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": 64}

    def default_device(self) -> str:
        """The device arrays are created on when none is given: ``"cpu"`` (NumPy chunks)."""
        return "cpu"

    def default_dtypes(self, *, device: Any = None) -> dict[str, Any]:
        """The default data types, by kind, on ``device``."""
        return dict(_chunk_info(device, "default_dtypes").default_dtypes(device=None))

    def devices(self) -> tuple[Any, ...]:
        """``"cpu"``, then the CUDA devices when CuPy can use a GPU."""
        from ..._settings._cupy_probe import cupy_available

        if not cupy_available():
            return ("cpu",)
        from .. import cupy as cupy_namespace

        return ("cpu", *cupy_namespace.__array_namespace_info__().devices())

    def dtypes(self, *, device: Any = None, kind: Any = None) -> dict[str, Any]:
        """The data types supported on ``device``, optionally only those of ``kind``."""
        return dict(_chunk_info(device, "dtypes").dtypes(device=None, kind=kind))
