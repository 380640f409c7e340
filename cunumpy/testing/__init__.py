"""Testing code that must give the same answer on every array namespace.

- Assertions for arrays of any namespace: :func:`assert_equal`, :func:`assert_close`,
  :func:`assert_less`. They compare namespace, shape, dtype and device, then copy both
  arrays to the host once to compare the values, and say precisely what differs.
- A pytest plugin, ``cunumpy.testing.plugin`` (enable it with ``-p cunumpy.testing.plugin``
  or ``pytest_plugins = ["cunumpy.testing.plugin"]``): an ``xp`` fixture over every usable
  namespace, a ``device`` fixture, the ``--xp`` option and the ``xp``, ``skip_xp`` and
  ``xfail_xp`` markers.
- Hypothesis strategies, ``cunumpy.testing.strategies``: ``arrays``, ``dtypes`` and
  ``shapes`` for any namespace and device.

Importing this module imports neither pytest, hypothesis nor CuPy.
"""

from __future__ import annotations

from ._assertions import assert_close, assert_equal, assert_less

__all__ = ["assert_close", "assert_equal", "assert_less"]


def __dir__() -> list[str]:
    """The public names only (``__all__``), not the imports and private submodules."""
    return list(__all__)
