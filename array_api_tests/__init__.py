"""cunumpy's own conformance harness for the Python Array API standard 2025.12.

Run it against any namespace with ``python -m array_api_tests --module NAME`` (default
``cunumpy``) or set ``CUNUMPY_CONFORMANCE_MODULE`` and run pytest on this package.
Expected departures of a namespace are listed in ``xfails/<module>.txt``; for cunumpy on the
CuPy backend (``CUNUMPY_BACKEND=cupy``), whose arrays are ``cupy.ndarray``, in
``xfails/cunumpy-cupy.txt``.
"""

from __future__ import annotations

import os

ENV_VAR = "CUNUMPY_CONFORMANCE_MODULE"
DEFAULT_MODULE = "cunumpy"


def module_name() -> str:
    """The name of the namespace module under test."""
    return os.environ.get(ENV_VAR, "").strip() or DEFAULT_MODULE


def xfail_name() -> str:
    """The stem of the expected-failure file for the namespace (and backend) under test."""
    name = module_name()
    if name == "cunumpy":
        import cunumpy

        if cunumpy.get_backend() == "cupy":
            return "cunumpy-cupy"
    return name
