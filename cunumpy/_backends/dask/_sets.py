"""Set functions and ``nonzero`` of the Dask namespace: results of unknown length.

The number of unique values (or of nonzero elements) depends on the data, so, as in Dask,
these results have ``nan`` lengths until computed; nothing is computed here. NaNs are
distinct values, as the standard asks (each NaN is its own unique value).
"""

from __future__ import annotations

from typing import NamedTuple

import dask.array as da

__all__ = [
    "UniqueAllResult", "UniqueCountsResult", "UniqueInverseResult", "nonzero", "unique_all",
    "unique_counts", "unique_inverse", "unique_values",
]  # fmt: skip


class UniqueAllResult(NamedTuple):
    """The four arrays ``unique_all`` returns."""

    values: da.Array
    indices: da.Array
    inverse_indices: da.Array
    counts: da.Array


class UniqueCountsResult(NamedTuple):
    """The two arrays ``unique_counts`` returns."""

    values: da.Array
    counts: da.Array


class UniqueInverseResult(NamedTuple):
    """The two arrays ``unique_inverse`` returns."""

    values: da.Array
    inverse_indices: da.Array


def unique_values(x: da.Array, /) -> da.Array:
    """The unique elements of ``x`` (length unknown until computed)."""
    return da.unique(da.ravel(x))


def unique_counts(x: da.Array, /) -> UniqueCountsResult:
    """The unique elements of ``x`` and how often each occurs."""
    values, counts = da.unique(da.ravel(x), return_counts=True)
    return UniqueCountsResult(values, counts)


def unique_inverse(x: da.Array, /) -> UniqueInverseResult:
    """The unique elements of ``x`` and, for each element of ``x``, the index of its value."""
    values, inverse = da.unique(da.ravel(x), return_inverse=True)
    return UniqueInverseResult(values, da.reshape(inverse, x.shape))


def unique_all(x: da.Array, /) -> UniqueAllResult:
    """The unique elements of ``x``, their first indices, the inverse and the counts."""
    values, indices, inverse, counts = da.unique(
        da.ravel(x), return_index=True, return_inverse=True, return_counts=True
    )
    return UniqueAllResult(values, indices, da.reshape(inverse, x.shape), counts)


def nonzero(x: da.Array, /) -> tuple[da.Array, ...]:
    """The indices of the nonzero elements of ``x``, one array per axis (lengths unknown)."""
    if x.ndim == 0:
        msg = (
            "nonzero: `x` must have at least one dimension (the standard's rule); got a 0-d array."
        )
        raise ValueError(msg)
    return tuple(da.nonzero(x))
