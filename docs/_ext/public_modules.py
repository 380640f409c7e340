"""The public modules of cunumpy, in the order of the API reference's table of contents.

``api_pages.py`` gives each a page; the tests read the list too (every public class names
its public home), so it lives here, importing nothing: no Sphinx needed (the docs extra).
"""

from __future__ import annotations

__all__ = ["MODULES"]

#: The public modules, one page each, in the order of the table of contents.
MODULES = [
    "cunumpy",
    "cunumpy.linalg",
    "cunumpy.fft",
    "cunumpy.cuda",
    "cunumpy.kernels",
    "cunumpy.arguments",
    "cunumpy.kernel_testing",
    "cunumpy.profiling",
    "cunumpy.mpi",
    "cunumpy.memory",
    "cunumpy.rng",
    "cunumpy.algorithms",
    "cunumpy.integrate",
    "cunumpy.optimize",
    "cunumpy.testing",
    "cunumpy.testing.plugin",
    "cunumpy.testing.strategies",
    "cunumpy.xp",
]
