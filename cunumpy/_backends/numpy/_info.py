"""The inspection API of the NumPy namespace (``__array_namespace_info__``)."""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["__array_namespace_info__"]

_DTYPES_BY_KIND: dict[str, tuple[str, ...]] = {
    "bool": ("bool",),
    "signed integer": ("int8", "int16", "int32", "int64"),
    "unsigned integer": ("uint8", "uint16", "uint32", "uint64"),
    "integral": ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"),
    "real floating": ("float32", "float64"),
    "complex floating": ("complex64", "complex128"),
    "numeric": (
        "int8",
        "int16",
        "int32",
        "int64",
        "uint8",
        "uint16",
        "uint32",
        "uint64",
        "float32",
        "float64",
        "complex64",
        "complex128",
    ),
}
_ALL_DTYPES = ("bool", *_DTYPES_BY_KIND["numeric"])


def _check_device(device: Any, func: str) -> None:
    if device is not None and device != "cpu":
        msg = f"{func}: the NumPy namespace has only the device 'cpu', not {device!r}."
        raise ValueError(msg)


class __array_namespace_info__:
    """Inspection of the NumPy namespace: capabilities, devices and data types.

    Examples
    --------
    >>> import cunumpy as xp
    >>> info = xp.__array_namespace_info__()
    >>> info.devices()
    ('cpu',)
    >>> info.default_dtypes()["real floating"]
    dtype('float64')
    """

    __module__ = "cunumpy"

    def capabilities(self) -> dict[str, Any]:
        """Optional features this namespace supports."""
        return {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": 64}

    def default_device(self) -> str:
        """The device arrays are created on when none is given: ``"cpu"``."""
        return "cpu"

    def default_dtypes(self, *, device: Any = None) -> dict[str, np.dtype[Any]]:
        """The default data types, by kind, on ``device``."""
        _check_device(device, "default_dtypes")
        return {
            "real floating": np.dtype(np.float64),
            "complex floating": np.dtype(np.complex128),
            "integral": np.dtype(np.int64),
            "indexing": np.dtype(np.intp),
        }

    def devices(self) -> tuple[str, ...]:
        """All devices of this namespace, as a tuple."""
        return ("cpu",)

    def dtypes(
        self, *, device: Any = None, kind: str | tuple[str, ...] | None = None
    ) -> dict[str, np.dtype[Any]]:
        """The data types supported on ``device``, optionally only those of ``kind``."""
        _check_device(device, "dtypes")
        if kind is None:
            names: tuple[str, ...] = _ALL_DTYPES
        elif isinstance(kind, str):
            names = _names_of_kind(kind)
        elif isinstance(kind, tuple):
            seen: dict[str, None] = {}
            for one in kind:
                seen.update(dict.fromkeys(_names_of_kind(one)))
            names = tuple(seen)
        else:
            msg = f"dtypes: `kind` must be None, a str or a tuple of str, not {kind!r}."
            raise TypeError(msg)
        return {name: np.dtype(name) for name in names}


def _names_of_kind(kind: object) -> tuple[str, ...]:
    if not isinstance(kind, str):
        msg = f"dtypes: each `kind` must be a str, not {kind!r}."
        raise TypeError(msg)
    try:
        return _DTYPES_BY_KIND[kind]
    except KeyError:
        msg = f"dtypes: unknown kind {kind!r}; the kinds are {tuple(_DTYPES_BY_KIND)!r}."
        raise ValueError(msg) from None
