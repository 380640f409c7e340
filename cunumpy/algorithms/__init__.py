"""Particle algorithms on either backend, with identical results on NumPy and CuPy.

- Morton (Z-order) keys: :func:`morton_keys` of positions in a box, :func:`morton_encode`
  and :func:`morton_decode` of integer cells, :func:`morton_scales` for kernels.
- :func:`sort_by_key`: one stable sort of several arrays by one key.
- :func:`segment_boundaries` and :func:`cell_offsets`: the ranges of sorted keys.
- :func:`segment_sum` and :class:`SegmentPlan`: sums per key, deterministic.
- :func:`compact_by_mask`: the live rows of particle arrays to the front, in place.

Every function runs where its input arrays live, with the library's own operations:
integer work is exact, sorts are stable, and the sums add in one fixed order, so the
results are the same on both backends (see :doc:`/algorithms`).
"""

from .._settings._homes import set_public_homes as _set_public_homes
from ._morton import MAX_MORTON_LEVELS, morton_decode, morton_encode, morton_keys, morton_scales
from ._segments import cell_offsets, segment_boundaries
from ._sorting import compact_by_mask, sort_by_key
from ._sums import SegmentPlan, segment_sum

__all__ = [
    "MAX_MORTON_LEVELS",
    "SegmentPlan",
    "cell_offsets",
    "compact_by_mask",
    "morton_decode",
    "morton_encode",
    "morton_keys",
    "morton_scales",
    "segment_boundaries",
    "segment_sum",
    "sort_by_key",
]


_set_public_homes(__name__, __all__, globals())  # tracebacks name the public module


def __dir__() -> list[str]:
    """The public names only (``__all__``), not the private submodules."""
    return list(__all__)
