"""Random numbers on either backend: generators, reproducible parallel streams, Philox.

- :func:`get_rng` returns a new ``Generator`` of the current backend (NumPy or CuPy).
- :data:`random_streams` (a :class:`RandomStreams`) is one seeded generator per backend
  for the process, with an independent stream per MPI rank or task:
  ``random_streams.seed(seed, rank=rank)``.
- The ``philox_*`` functions are the counter-based Philox4x32-10 generator: every number
  is a function of (seed, stream, counter), and NumPy and CuPy give the same numbers.

Named ``rng`` so that ``cunumpy.random`` stays the backend library's ``random`` module.
"""

from .._settings._homes import set_public_homes as _set_public_homes
from ._philox import (
    philox4x32_10,
    philox_normal,
    philox_normal2,
    philox_uniform,
    philox_uniform2,
)
from ._random_streams import BIT_GENERATORS, RandomStreams, get_rng, random_streams

__all__ = [
    "BIT_GENERATORS",
    "RandomStreams",
    "get_rng",
    "philox4x32_10",
    "philox_normal",
    "philox_normal2",
    "philox_uniform",
    "philox_uniform2",
    "random_streams",
]


_set_public_homes(__name__, __all__, globals())  # tracebacks name the public module


def __dir__() -> list[str]:
    """The public names only (``__all__``), not the private submodules."""
    return list(__all__)
