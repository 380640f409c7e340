"""The public modules of cunumpy: the API reference gives each a page (``api_pages.py``).

A plain list, without Sphinx, so that the tests that go over every public module
(``tests/test_layout.py``, ``tests/test_messages.py``) run where the docs extra is not
installed. To give a new public module a page and those checks, add its name here.
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
