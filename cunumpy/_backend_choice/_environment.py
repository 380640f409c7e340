"""The environment: ``CUNUMPY_BACKEND`` (the process default backend, read once when cunumpy is
imported), ``CUNUMPY_FAKE_CUPY`` (the fake CuPy, installed first) and
``CUNUMPY_REQUIRE_CUDA`` (a GPU job's guard)."""

from __future__ import annotations

import os
import sys
import warnings

from . import _config

__all__ = ["backend_from_environment", "cuda_required"]


def _launched_as_report() -> bool:
    """Whether this process is ``python -m cunumpy`` or the ``cunumpy`` script.

    That is the diagnostic tool a user runs when the environment is wrong, so it must
    start and report a bad ``CUNUMPY_BACKEND`` instead of dying at import.
    """
    argv = list(getattr(sys, "orig_argv", ()))
    for index, arg in enumerate(argv):
        if arg == "-m" and index + 1 < len(argv):
            return argv[index + 1] in ("cunumpy", "cunumpy.__main__")
        if arg.startswith("-m") and len(arg) > 2:
            return arg[2:] in ("cunumpy", "cunumpy.__main__")
    script = os.path.basename(sys.argv[0]) if sys.argv else ""
    return script.removesuffix(".exe").removesuffix("-script.py") == "cunumpy"


def backend_from_environment() -> None:
    """Apply ``CUNUMPY_BACKEND`` (read once, when cunumpy is imported).

    An invalid value raises, naming the variable, unless this process is the report
    (``python -m cunumpy``), which keeps NumPy and reports the error as a failed check.
    ``cupy`` where CuPy is not usable warns (``CupyUnavailableWarning``, at the user's line
    that imported cunumpy) and keeps NumPy; the report says so in its output instead.
    ``CUNUMPY_FAKE_CUPY=1`` first installs the fake CuPy of ``cunumpy.kernel_testing``.
    """
    if os.environ.get("CUNUMPY_FAKE_CUPY", "").strip().lower() in ("1", "true", "yes"):
        from .._emulation._fake import install  # before anything looks for CuPy

        install()
    try:
        _apply_environment()
    except (ValueError, RuntimeError) as exc:
        if not _launched_as_report():
            raise
        _config.environment_error = str(exc)


def _apply_environment() -> None:
    raw = os.environ.get(_config.ENV_VAR)
    if raw is None or raw.strip() == "":
        return
    value = raw.strip().lower()
    if value == "auto":
        from .._settings._cupy_probe import cupy_available

        if cupy_available():
            _config.set_backend("cupy")
        return
    if value not in _config.BACKENDS:
        msg = (
            f"cunumpy: the environment variable {_config.ENV_VAR}={raw!r} is not valid; "
            f"use one of 'numpy', 'cupy' or 'auto'."
        )
        raise ValueError(msg)
    if value == "cupy":
        from .._settings._cupy_probe import (
            CupyUnavailableWarning,
            cupy_available,
            cupy_unavailable_reason,
        )
        from .._settings._user_frames import user_stacklevel

        if not cupy_available():  # as CuNumpy 0.7.1: the program runs on NumPy, told why
            msg = (
                f"cunumpy: {_config.ENV_VAR}={raw!r} asks for CuPy, which is not usable here "
                f"({cupy_unavailable_reason()}); staying on NumPy. Set {_config.ENV_VAR}=auto to "
                f"use CuPy only where it is usable, without this warning."
            )
            if _launched_as_report():  # no user's line to point at: the report says it
                _config.environment_note = msg
            else:
                warnings.warn(msg, CupyUnavailableWarning, stacklevel=user_stacklevel())
            return
    _config.set_backend(value)


def cuda_required() -> bool:
    """Return whether ``CUNUMPY_REQUIRE_CUDA`` demands a real GPU (a GPU CI job's guard).

    Then the tests that need CuPy fail instead of skipping, and fail on the fake CuPy.

    Returns
    -------
    bool
        ``True`` when ``CUNUMPY_REQUIRE_CUDA`` is ``1``, ``true`` or ``yes``.

    Examples
    --------
    >>> import cunumpy
    >>> cunumpy.kernel_testing.cuda_required() in (True, False)
    True
    """
    return os.environ.get("CUNUMPY_REQUIRE_CUDA", "").strip().lower() in ("1", "true", "yes")
