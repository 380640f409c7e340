"""CuPy 14's unique functions, returning the named results every backend returns.

CuPy 14 has the standard's ``unique_all``, ``unique_counts`` and ``unique_inverse``, with
its own named-tuple classes; these return cunumpy's (``cunumpy.UniqueAllResult``, ...),
so that one type check holds for the results of every backend.
"""

from __future__ import annotations

import cupy

from .._unique_results import UniqueAllResult, UniqueCountsResult, UniqueInverseResult

__all__ = ["unique_all", "unique_counts", "unique_inverse"]


# Standard: unique_all; CuPy's result, as cunumpy's named tuple.
def unique_all(x: cupy.ndarray, /) -> UniqueAllResult:
    """Unique values of ``x`` with first indices, inverse indices and counts."""
    return UniqueAllResult(*cupy.unique_all(x))


# Standard: unique_counts; CuPy's result, as cunumpy's named tuple.
def unique_counts(x: cupy.ndarray, /) -> UniqueCountsResult:
    """Unique values of ``x`` and how often each occurs."""
    return UniqueCountsResult(*cupy.unique_counts(x))


# Standard: unique_inverse; CuPy's result, as cunumpy's named tuple.
def unique_inverse(x: cupy.ndarray, /) -> UniqueInverseResult:
    """Unique values of ``x`` and the indices that rebuild ``x`` from them."""
    return UniqueInverseResult(*cupy.unique_inverse(x))
