"""cunumpy's own conformance harness for the Python Array API standard 2025.12.

Run it against any namespace with ``python -m array_api_tests --module NAME`` (default
``cunumpy``) or set ``CUNUMPY_CONFORMANCE_MODULE`` and run pytest on this package.
Expected departures of a namespace are listed in ``xfails/<module>.txt``.
"""

from __future__ import annotations

import os

ENV_VAR = "CUNUMPY_CONFORMANCE_MODULE"
DEFAULT_MODULE = "cunumpy"


def module_name() -> str:
    """The name of the namespace module under test."""
    return os.environ.get(ENV_VAR, "").strip() or DEFAULT_MODULE
