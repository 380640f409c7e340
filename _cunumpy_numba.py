"""Numba's entry points into cunumpy (``numba_extensions`` and ``numba_cuda_extensions``).

Numba runs every installed ``numba_extensions`` entry point, and numba-cuda every
``numba_cuda_extensions`` one, when it first compiles, in every program of the
environment. This module imports nothing itself: a program that never imported cunumpy
does not import it here. Where cunumpy is imported, ``init`` lets each Numba typing
imported by now type cunumpy's names as NumPy's (``cunumpy/_numba_names.py``); a typing
imported later has its own entry point, and ``import cunumpy`` registers with those
already imported.
"""

from __future__ import annotations

import sys

__all__ = ["init"]


def init() -> None:
    """Register cunumpy's names with the Numba typings imported by now, if cunumpy is."""
    if "cunumpy" in sys.modules:
        from cunumpy._numba_names import register

        register()
