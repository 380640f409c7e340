"""One Array API 2025.12 namespace module per backend: ``numpy`` and ``cupy``.

Importing ``cunumpy._backends.numpy`` never imports CuPy; ``cunumpy._backends.cupy``
imports CuPy and is loaded only when a CuPy array or the CuPy backend is asked for.
"""
