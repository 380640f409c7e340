"""``xp.scipy``: SciPy on the NumPy backend, ``cupyx.scipy`` on the CuPy backend.

Each attribute access resolves on the backend of the running context (``use_backend``
blocks included), so a backend switch takes effect at once; nothing is imported before
a name is used, and neither SciPy nor CuPy is a dependency. Like the top level's names
from the backend, the function is the current backend's: it does not follow its
arguments (SciPy's functions take NumPy arrays, ``cupyx.scipy``'s CuPy arrays). The
subpackages forwarded are those ``cupyx.scipy`` provides too (``SCIPY_SUBMODULES``, in
``_settings/_backend_names.py``, which the fake CuPy's ``cupyx.scipy`` reads as well).
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from .._backend_choice._config import current
from .._settings._backend_names import SCIPY_SUBMODULES

__all__ = ["ScipyNamespace", "scipy"]

_ROOTS = {"numpy": "scipy", "cupy": "cupyx.scipy"}


class ScipyNamespace:
    """A SciPy (sub)package of the current backend: ``xp.scipy``, ``xp.scipy.sparse``, ...

    Attribute access imports and forwards to ``scipy.<path>`` on the NumPy backend and
    to ``cupyx.scipy.<path>`` on the CuPy backend. A subpackage of ``SCIPY_SUBMODULES``
    gives another ``ScipyNamespace``, so ``linalg = xp.scipy.sparse.linalg`` keeps
    following the backend too.

    Parameters
    ----------
    path : str, optional
        The dotted path below the SciPy root, one of ``SCIPY_SUBMODULES``; ``""`` for the
        root.

    Raises
    ------
    ValueError
        If ``path`` is not one of ``SCIPY_SUBMODULES``.

    Examples
    --------
    >>> import cunumpy as xp
    >>> xp.scipy.sparse.linalg
    <cunumpy scipy namespace 'sparse.linalg'>
    """

    __slots__ = ("_path",)

    def __init__(self, path: str = "") -> None:
        if path and path not in SCIPY_SUBMODULES:
            msg = f"ScipyNamespace: `path` {path!r} is not one of {SCIPY_SUBMODULES!r} (or '')."
            raise ValueError(msg)
        self._path = path

    def __repr__(self) -> str:
        return f"<cunumpy scipy namespace {self._path!r}>" if self._path else "<cunumpy scipy>"

    def resolve(self) -> ModuleType:
        """Import and return the module this namespace stands for on the current backend.

        Raises
        ------
        ImportError
            If SciPy (NumPy backend) or ``cupyx.scipy`` (CuPy backend) cannot be
            imported; the message says what to install.

        Examples
        --------
        >>> import cunumpy as xp
        >>> try:
        ...     name = xp.scipy.special.resolve().__name__
        ... except ImportError:  # SciPy is not installed
        ...     name = "scipy.special"
        >>> name if xp.get_backend() == "numpy" else None
        'scipy.special'
        """
        backend = current().name
        name = _ROOTS[backend] + (f".{self._path}" if self._path else "")
        try:
            return importlib.import_module(name)
        except ImportError as exc:
            how = "pip install scipy" if backend == "numpy" else "install CuPy with cupyx.scipy"
            msg = f"xp.scipy: {name} cannot be imported on the {backend} backend ({exc}); {how}."
            raise ImportError(msg) from exc

    def available(self, name: str) -> bool:
        """Return whether ``name`` exists here on the current backend; never raises.

        ``False`` also where the backend's SciPy cannot be imported.

        Examples
        --------
        >>> import cunumpy as xp
        >>> xp.scipy.special.available("no_such_name")
        False
        """
        path = f"{self._path}.{name}" if self._path else name
        try:
            if path in SCIPY_SUBMODULES:
                return ScipyNamespace(path).resolve() is not None
            return hasattr(self.resolve(), name)
        except ImportError:
            return False

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        path = f"{self._path}.{name}" if self._path else name
        if path in SCIPY_SUBMODULES:
            return ScipyNamespace(path)
        module = self.resolve()
        try:
            return getattr(module, name)
        except AttributeError:
            msg = (
                f"xp.scipy: {module.__name__} has no attribute {name!r} "
                f"(the current backend is {current().name!r})."
            )
            raise AttributeError(msg) from None

    def __dir__(self) -> list[str]:
        prefix = f"{self._path}." if self._path else ""
        below = [p[len(prefix) :] for p in SCIPY_SUBMODULES if p.startswith(prefix)]
        try:
            names = [n for n in dir(self.resolve()) if not n.startswith("_")]
        except ImportError:
            names = []
        return sorted({*names, *(p for p in below if "." not in p), "available", "resolve"})


#: SciPy for the current backend: ``scipy`` on NumPy, ``cupyx.scipy`` on CuPy.
scipy = ScipyNamespace()
