"""The inspection API of the top-level ``cunumpy`` namespace, which spans both backends."""

from __future__ import annotations

from typing import Any

from .._backend_choice import _config
from .._backends.numpy._info import __array_namespace_info__ as _NumPyInfo
from .._placement._devices import canonical_device
from .._settings._cupy_probe import cupy_available

__all__ = ["__array_namespace_info__"]


class __array_namespace_info__(_NumPyInfo):
    """Inspection of the top-level namespace: every device it can create arrays on.

    ``devices()`` lists ``"cpu"`` and, when CuPy is usable, every visible GPU (as
    ``cupy.cuda.Device``); ``default_device()`` is where creation functions put arrays
    without ``device=``: ``"cpu"`` on the NumPy backend, the current GPU on CuPy.

    Examples
    --------
    >>> import cunumpy as xp
    >>> info = xp.__array_namespace_info__()
    >>> info.devices()[0], info.default_device()
    ('cpu', 'cpu')
    >>> sorted(info.dtypes(kind="real floating"))
    ['float32', 'float64']
    """

    __module__ = "cunumpy"

    def default_device(self) -> Any:
        """Where creation functions put arrays without ``device=``."""
        namespace: Any = _config._state.namespace
        return namespace.__array_namespace_info__().default_device()

    def devices(self) -> tuple[Any, ...]:
        """``"cpu"`` and every usable GPU, as a tuple."""
        if not cupy_available():
            return ("cpu",)
        from .._backends import cupy

        cupy_namespace: Any = cupy
        return ("cpu", *cupy_namespace.__array_namespace_info__().devices())

    def default_dtypes(self, *, device: Any = None) -> dict[str, Any]:
        """The default data types, by kind; the same on every device."""
        if device is not None:
            canonical_device(device, "default_dtypes")
        return super().default_dtypes()

    def dtypes(
        self, *, device: Any = None, kind: str | tuple[str, ...] | None = None
    ) -> dict[str, Any]:
        """The data types supported on ``device`` (the same on every device), optionally of ``kind``."""
        if device is not None:
            canonical_device(device, "dtypes")
        return super().dtypes(kind=kind)
