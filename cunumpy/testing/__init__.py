"""Testing code that must give the same answer on every array namespace.

- Assertions for arrays of any namespace: :func:`assert_equal`, :func:`assert_close`,
  :func:`assert_less`. They compare namespace, shape, dtype and device, then copy both
  arrays to the host once to compare the values, and say precisely what differs.
- A pytest plugin, ``cunumpy.testing.plugin`` (installing cunumpy enables it, through its
  ``pytest11`` entry point; ``pip install "cunumpy-xp[testing]"`` brings pytest, Hypothesis
  and array-api-strict): an ``xp`` fixture over every usable
  namespace, a ``device`` fixture, the ``--cunumpy-xp`` option (``--xp`` where no
  ``conftest.py`` has its own) and the ``xp``, ``skip_xp`` and
  ``xfail_xp`` markers.
- :func:`counting_computes`: counts the Dask graphs that run in a block (the plugin's
  ``dask_computes`` fixture fails a test that computes more often than it declares).
- Hypothesis strategies, ``cunumpy.testing.strategies``: ``arrays``, ``dtypes`` and
  ``shapes`` for any namespace and device.

Every other public name is the current backend library's ``testing`` module's
(``xp.testing.assert_allclose`` is NumPy's, or CuPy's on the CuPy backend), as the top
level's names are, so that CuNumpy 0.7.1's ``xp.testing`` keeps working.

Importing this module imports neither pytest, hypothesis, CuPy nor Dask.
"""

from __future__ import annotations

from typing import Any

from .._backend_choice._config import current as _current
from .._backends._superset import library_attribute as _library_attribute
from .._settings._homes import set_public_homes as _set_public_homes
from ._assertions import assert_close, assert_equal, assert_less
from ._dask_computes import ComputeCounter, counting_computes

__all__ = ["ComputeCounter", "assert_close", "assert_equal", "assert_less", "counting_computes"]


_set_public_homes(__name__, __all__, globals())  # tracebacks name the public module


def __getattr__(name: str) -> Any:
    """Every other name: the current backend library's ``testing`` module's, at each access."""
    return _library_attribute(_current().namespace.testing, __name__, name)


def __dir__() -> list[str]:
    """The public names only (``__all__``), not the imports and private submodules."""
    return list(__all__)
