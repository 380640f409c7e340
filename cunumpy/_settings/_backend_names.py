"""The backends' names: which names ``set_backend``, ``use_backend`` and ``CUNUMPY_BACKEND``
accept (``_canonical_name`` checks one), and the SciPy subpackages that both backends have.

Pure constants, for the floors below the namespaces too (the fake CuPy's ``cupyx.scipy``);
the namespace module a name stands for, and the state, are ``_backend_choice._config``'s.
"""

from __future__ import annotations

__all__ = ["ACCEPTED", "BACKENDS", "ENV_VAR", "SCIPY_SUBMODULES"]

#: The backends cunumpy knows, in the order ``auto`` tries them in reverse.
BACKENDS = ("numpy", "cupy")

#: The names ``set_backend``, ``use_backend`` and ``CUNUMPY_BACKEND`` accept.
ACCEPTED = (*BACKENDS, "auto")

#: The environment variable read once, when cunumpy is imported.
ENV_VAR = "CUNUMPY_BACKEND"

#: The SciPy subpackages that ``cupyx.scipy`` has as well: those ``xp.scipy`` forwards, and
#: the fake CuPy's ``cupyx.scipy``.
SCIPY_SUBMODULES = (
    "fft",
    "fftpack",
    "interpolate",
    "linalg",
    "ndimage",
    "signal",
    "sparse",
    "sparse.csgraph",
    "sparse.linalg",
    "spatial",
    "special",
    "stats",
)


def _canonical_name(name: object, func: str) -> str:
    """``name`` as one of ``ACCEPTED`` (case and surrounding spaces ignored), or raise."""
    if not isinstance(name, str):
        msg = f"{func}: `name` must be a str, one of {ACCEPTED!r}, not {name!r}."
        raise TypeError(msg)
    canonical = name.strip().lower()
    if canonical not in ACCEPTED:
        msg = f"{func}: unknown backend {name!r}; the valid names are {ACCEPTED!r}."
        raise ValueError(msg)
    return canonical
