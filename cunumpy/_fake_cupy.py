"""CuNumpy 0.7.x's private module of the fake CuPy, where its clients' tests import it.

``from cunumpy import _fake_cupy`` then ``_fake_cupy.is_active()`` (feectools' tests);
use ``cunumpy.kernel_testing.fake_cupy_active`` and ``install_fake_cupy`` in new code.
"""

from __future__ import annotations

from ._emulation._fake import install, is_active

__all__ = ["install", "is_active"]
