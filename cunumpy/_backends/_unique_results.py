"""The named results of ``unique_all``, ``unique_counts`` and ``unique_inverse``.

One set of classes for every backend: the NumPy and CuPy namespaces both return these,
so ``isinstance(xp.unique_all(x), xp.UniqueAllResult)`` holds wherever ``x`` lives, and
CuNumpy 0.7.1's top-level names (``xp.UniqueAllResult``, ...) mean what they meant
there: the type of the result, a named tuple with the standard's field names.
"""

from __future__ import annotations

from typing import Any, NamedTuple

__all__ = ["UniqueAllResult", "UniqueCountsResult", "UniqueInverseResult"]


class UniqueAllResult(NamedTuple):
    """The result of ``unique_all``: ``values, indices, inverse_indices, counts``.

    Examples
    --------
    >>> import cunumpy as xp
    >>> result = xp.unique_all(xp.asarray([2, 1, 2]))
    >>> isinstance(result, xp.UniqueAllResult), result.counts.tolist()
    (True, [1, 2])
    """

    values: Any
    indices: Any
    inverse_indices: Any
    counts: Any


class UniqueCountsResult(NamedTuple):
    """The result of ``unique_counts``: ``values, counts``.

    Examples
    --------
    >>> import cunumpy as xp
    >>> values, counts = xp.unique_counts(xp.asarray([2, 1, 2]))
    >>> values.tolist(), counts.tolist()
    ([1, 2], [1, 2])
    """

    values: Any
    counts: Any


class UniqueInverseResult(NamedTuple):
    """The result of ``unique_inverse``: ``values, inverse_indices``.

    Examples
    --------
    >>> import cunumpy as xp
    >>> result = xp.unique_inverse(xp.asarray([2, 1, 2]))
    >>> result.values[result.inverse_indices].tolist()
    [2, 1, 2]
    """

    values: Any
    inverse_indices: Any


for _result in (UniqueAllResult, UniqueCountsResult, UniqueInverseResult):
    _result.__module__ = "cunumpy"
del _result
