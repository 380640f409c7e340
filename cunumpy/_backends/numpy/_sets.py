"""The standard's unique functions on NumPy, with sorted values.

The standard leaves the order of unique values unspecified; array-api-compat and
array-api-strict return them sorted, and generic code (``union1d``, ``setdiff1d`` in
array-api-extra and scikit-learn) relies on that. Since NumPy 2.3, ``unique_values``
returns them in hash order and the other three only happen to sort ("this may change"),
so each function here asks NumPy for sorted values explicitly. NumPy before 2.3 always
sorts, and its own functions are used.
"""

from __future__ import annotations

import numpy as np

from .._unique_results import UniqueAllResult, UniqueCountsResult, UniqueInverseResult

__all__ = [
    "UniqueAllResult",
    "UniqueCountsResult",
    "UniqueInverseResult",
    "unique_all",
    "unique_counts",
    "unique_inverse",
    "unique_values",
]

# NumPy 2.3 added `sorted=` to numpy.unique (and unsorted, hash-based unique values).
# NumPy's major and minor version (read without NumpyVersion, whose pattern costs import time).
_ASK_FOR_SORTED = tuple(int(part) for part in np.__version__.split(".")[:2]) >= (2, 3)


# Standard: unique_values; sorted here (NumPy >= 2.3 returns hash order).
def unique_values(x: np.ndarray, /) -> np.ndarray:
    """The unique values of ``x``, sorted, as a 1-D array (NaNs all distinct)."""
    if _ASK_FOR_SORTED:
        values: np.ndarray = np.unique(x, equal_nan=False, sorted=True)
        return values
    return np.unique_values(x)


# Standard: unique_counts; sorted explicitly (NumPy only happens to sort).
def unique_counts(x: np.ndarray, /) -> UniqueCountsResult:
    """The sorted unique values of ``x`` and how often each occurs."""
    if _ASK_FOR_SORTED:
        values, counts = np.unique(x, return_counts=True, equal_nan=False, sorted=True)
    else:
        values, counts = np.unique_counts(x)
    return UniqueCountsResult(values, counts)


# Standard: unique_inverse; sorted explicitly, inverse_indices with the shape of x.
def unique_inverse(x: np.ndarray, /) -> UniqueInverseResult:
    """The sorted unique values of ``x`` and the indices that rebuild ``x`` from them."""
    if _ASK_FOR_SORTED:
        values, inverse = np.unique(x, return_inverse=True, equal_nan=False, sorted=True)
    else:
        values, inverse = np.unique_inverse(x)
    return UniqueInverseResult(values, inverse.reshape(np.shape(x)))


# Standard: unique_all; sorted explicitly, inverse_indices with the shape of x.
def unique_all(x: np.ndarray, /) -> UniqueAllResult:
    """The sorted unique values of ``x``, first indices, inverse indices and counts."""
    if _ASK_FOR_SORTED:
        values, indices, inverse, counts = np.unique(
            x,
            return_index=True,
            return_inverse=True,
            return_counts=True,
            equal_nan=False,
            sorted=True,
        )
    else:
        values, indices, inverse, counts = np.unique_all(x)
    return UniqueAllResult(values, indices, inverse.reshape(np.shape(x)), counts)
