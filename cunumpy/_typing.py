"""Type names used in cunumpy's signatures.

cunumpy returns the arrays of its backends (``numpy.ndarray``, ``cupy.ndarray``) and never
wraps them, so ``Array`` is any such array; ``DType`` and ``Device`` likewise name what the
backends use.
"""

from __future__ import annotations

from typing import Any, Protocol, TypeVar

__all__ = [
    "Array",
    "DType",
    "Device",
    "NestedSequence",
    "SupportsBufferProtocol",
    "finfo_object",
    "iinfo_object",
    "inf",
]

Array = Any
DType = Any
Device = Any
SupportsBufferProtocol = Any

_T_co = TypeVar("_T_co", covariant=True)


class NestedSequence(Protocol[_T_co]):
    """A sequence of sequences (of any depth) of ``_T_co``."""

    def __getitem__(self, key: int, /) -> _T_co | NestedSequence[_T_co]: ...

    def __len__(self, /) -> int: ...


from ._backends.numpy._dtypes import finfo_object, iinfo_object  # noqa: E402

#: Positive infinity, as named in ``vector_norm``'s ``ord`` annotation.
inf = float("inf")
