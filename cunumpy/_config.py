"""The only global state of cunumpy: which backend creation functions use.

``set_backend`` changes it for the whole process, ``use_backend`` changes it for a
``with`` block, and ``CUNUMPY_BACKEND`` sets it once, when cunumpy is imported.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType

__all__ = ["BACKENDS", "ENV_VAR", "get_backend", "set_backend", "use_backend"]

#: The backends cunumpy knows, in the order ``auto`` tries them in reverse.
BACKENDS = ("numpy", "cupy")

#: The environment variable read once, when cunumpy is imported.
ENV_VAR = "CUNUMPY_BACKEND"


class _State:
    """The current backend's name and its namespace module (kept together)."""

    __slots__ = ("name", "namespace")

    def __init__(self) -> None:
        self.name = "numpy"
        self.namespace: ModuleType = _numpy_namespace()


def _numpy_namespace() -> ModuleType:
    from ._backends import numpy as numpy_namespace

    return numpy_namespace


def _namespace_for(name: str, func: str) -> ModuleType:
    """Return the namespace module of backend ``name``, or raise why it cannot be used."""
    if not isinstance(name, str):
        msg = f"{func}: `name` must be a str, one of {BACKENDS!r}, not {name!r}."
        raise TypeError(msg)
    if name == "numpy":
        return _numpy_namespace()
    if name == "cupy":
        from ._cupy import require_cupy

        require_cupy(func)
        from ._backends import cupy as cupy_namespace

        return cupy_namespace
    msg = f"{func}: unknown backend {name!r}; the valid names are {BACKENDS!r}."
    raise ValueError(msg)


_state = _State()


def get_backend() -> str:
    """Return the name of the current backend.

    Returns
    -------
    str
        ``"numpy"`` or ``"cupy"``.

    Examples
    --------
    >>> import cunumpy as xp
    >>> xp.get_backend()
    'numpy'
    """
    return _state.name


def set_backend(name: str) -> None:
    """Make ``name`` the backend of the whole process.

    Creation functions called without ``device=`` create their arrays on the current
    backend (and, on CuPy, on the current GPU). Functions that take arrays always
    compute where their inputs live, whatever the current backend.

    Parameters
    ----------
    name : {"numpy", "cupy"}
        The backend to use.

    Raises
    ------
    ValueError
        If ``name`` is not a known backend.
    RuntimeError
        If ``name`` is ``"cupy"`` and CuPy is not usable; the message says why.

    Examples
    --------
    >>> import cunumpy as xp
    >>> xp.set_backend("numpy")
    >>> type(xp.zeros(3))
    <class 'numpy.ndarray'>
    """
    namespace = _namespace_for(name, "set_backend")
    _state.name = name
    _state.namespace = namespace


@contextmanager
def use_backend(name: str) -> Iterator[ModuleType]:
    """Use backend ``name`` inside a ``with`` block, then restore the previous one.

    The previous backend is restored on exit, also when the block raises.

    Parameters
    ----------
    name : {"numpy", "cupy"}
        The backend to use inside the block.

    Yields
    ------
    module
        The namespace of that backend (what ``array_namespace`` returns for its arrays).

    Examples
    --------
    >>> import cunumpy as xp
    >>> with xp.use_backend("numpy") as np_xp:
    ...     x = np_xp.ones(2)
    >>> xp.get_backend()
    'numpy'
    """
    namespace = _namespace_for(name, "use_backend")
    previous = (_state.name, _state.namespace)
    _state.name, _state.namespace = name, namespace
    try:
        yield namespace
    finally:
        _state.name, _state.namespace = previous


def _backend_from_environment() -> None:
    """Apply ``CUNUMPY_BACKEND`` (read once, when cunumpy is imported)."""
    raw = os.environ.get(ENV_VAR)
    if raw is None or raw.strip() == "":
        return
    value = raw.strip().lower()
    if value == "auto":
        from ._cupy import cupy_available

        if cupy_available():
            set_backend("cupy")
        return
    if value not in BACKENDS:
        msg = (
            f"cunumpy: the environment variable {ENV_VAR}={raw!r} is not valid; "
            f"use one of 'numpy', 'cupy' or 'auto'."
        )
        raise ValueError(msg)
    try:
        set_backend(value)
    except RuntimeError as exc:
        msg = f"cunumpy: {ENV_VAR}={raw!r} asks for CuPy, which is not usable: {exc}"
        raise RuntimeError(msg) from None
