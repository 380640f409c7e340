"""Versions and diagnostics: CuNumpy 0.7.1's ``backend_info``, ``require_version`` and CuPy minimum.

``backend_info()`` is the structured form of what ``python -m cunumpy`` prints: the
backend, whether CuPy is usable and why not, versions, and the current GPU.
"""

from __future__ import annotations

import os
import re
import sys
from typing import Any

from .._settings._cupy_probe import MIN_CUPY, cupy_available, cupy_unavailable_reason
from ._config import current

__all__ = [
    "CUNUMPY_071_API",
    "MIN_CUPY_VERSION",
    "backend_info",
    "cupy_version_supported",
    "require_version",
]

#: The release of CuNumpy (the earlier project named cunumpy) whose API this one provides.
CUNUMPY_071_API = "0.7.1"

#: The oldest CuPy release cunumpy supports (``from_dlpack(copy=)`` arrived in 13.4, and 13.5
#: is the first that installs with NumPy 2.3, cunumpy's oldest NumPy).
MIN_CUPY_VERSION = f"{MIN_CUPY[0]}.{MIN_CUPY[1]}.0"

_RELEASE = re.compile(r"\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?(.*)")


def _release(text: str) -> tuple[tuple[int, int, int], str] | None:
    """``(major, minor, micro)`` and the rest (``rc1``, ``.dev0``, ``+local``), or ``None``."""
    match = _RELEASE.fullmatch(text)
    if match is None:
        return None
    major, minor, micro, rest = match.groups()
    return (int(major), int(minor or 0), int(micro or 0)), rest


def cupy_version_supported(cupy_version: str) -> bool:
    """Return whether a CuPy version is ``MIN_CUPY_VERSION`` or newer.

    Pre-releases of the minimum itself (``13.5.0rc1``) are older than it; a string that
    is not a version gives ``False``.

    Parameters
    ----------
    cupy_version : str
        A version string, such as ``cupy.__version__``.

    Examples
    --------
    >>> import cunumpy as xp
    >>> xp.MIN_CUPY_VERSION
    '13.5.0'
    >>> xp.cupy_version_supported("13.3.0"), xp.cupy_version_supported("14.0.0")
    (False, True)
    >>> xp.cupy_version_supported("13.5.0rc1"), xp.cupy_version_supported("not a version")
    (False, False)
    """
    if not isinstance(cupy_version, str):
        msg = f"cupy_version_supported: `cupy_version` must be a str, not {cupy_version!r}."
        raise TypeError(msg)
    parsed, minimum = _release(cupy_version), _release(MIN_CUPY_VERSION)
    if parsed is None or minimum is None:
        return False
    release, rest = parsed
    if release != minimum[0]:
        return release > minimum[0]
    return re.match(r"\.?-?(a|b|c|rc|alpha|beta|pre|preview|dev)", rest.lower()) is None


def require_version(minimum: str) -> None:
    """Raise ``ImportError`` unless the installed cunumpy provides release ``minimum``'s API.

    It passes when ``xp.__version__`` is ``minimum`` or newer, or when ``minimum`` is a
    release of CuNumpy up to 0.7.1 (the project that published the name ``cunumpy``
    first), whose API this one provides (``CUNUMPY_071_API``): a program written for it
    that asks for ``"0.4.0"`` keeps running. Only the numeric release is compared
    (``0.1.0.dev1`` counts as ``0.1.0``).

    Parameters
    ----------
    minimum : str
        The oldest acceptable version, such as ``"0.4.0"``.

    Raises
    ------
    ImportError
        If neither ``xp.__version__`` nor the CuNumpy API provided reaches ``minimum``.
    ValueError
        If ``minimum`` is not a version.

    Examples
    --------
    >>> import cunumpy as xp
    >>> xp.require_version("0.4.0")
    >>> xp.require_version("99.0")
    Traceback (most recent call last):
    ...
    ImportError: require_version: cunumpy 99.0 or newer is required, but 0.1.0 is installed (with CuNumpy 0.7.1's API); upgrade it: in a newer source checkout of cunumpy, pip install .
    """
    __version__ = sys.modules["cunumpy"].__version__  # the package runs before its modules

    wanted = _release(minimum) if isinstance(minimum, str) else None
    if wanted is None:
        msg = (
            f"require_version: `minimum` must be a version string such as '0.1.0', not {minimum!r}."
        )
        raise ValueError(msg)
    provided = [_release(__version__), _release(CUNUMPY_071_API)]
    if not any(found is not None and found[0] >= wanted[0] for found in provided):
        msg = (
            f"require_version: cunumpy {minimum} or newer is required, but {__version__} is "
            f"installed (with CuNumpy {CUNUMPY_071_API}'s API); upgrade it: in a newer "
            f"source checkout of cunumpy, pip install ."
        )
        raise ImportError(msg)


def _distribution_version(name: str) -> str | None:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(name)
    except PackageNotFoundError:
        return None


def _device_details() -> dict[str, Any]:
    cupy = sys.modules["cupy"]
    runtime = cupy.cuda.runtime
    index = int(runtime.getDevice())
    properties = runtime.getDeviceProperties(index)
    name = properties["name"]
    return {
        "id": index,
        "name": name.decode() if isinstance(name, bytes) else str(name),
        "compute_capability": str(cupy.cuda.Device(index).compute_capability),
        "visible_devices": int(runtime.getDeviceCount()),
        "driver_version": int(runtime.driverGetVersion()),
        "runtime_version": int(runtime.runtimeGetVersion()),
    }


def backend_info() -> dict[str, Any]:
    """Return the backend, CuPy's usability and the versions, as JSON-compatible data.

    It changes nothing and never raises for the environment: an error while inspecting
    the GPU is reported under ``"cuda_inspection_error"``. Like ``cupy_available`` it
    probes CuPy (once per process).

    Returns
    -------
    dict
        ``backend`` (of the running context), ``cupy_available``,
        ``cuda_unavailable_reason`` (``None`` when usable), ``versions`` (cunumpy, numpy,
        array-api-compat, cupy; ``None`` when not installed), ``min_cupy_version``,
        ``device`` (``None`` without a usable GPU, else ``id``, ``name``,
        ``compute_capability``, ``visible_devices``, ``driver_version``,
        ``runtime_version``) and ``cuda_visible_devices`` (the environment variable).

    Examples
    --------
    >>> import json
    >>> import cunumpy as xp
    >>> info = xp.backend_info()
    >>> info["backend"], info["versions"]["cunumpy"] == xp.__version__
    ('numpy', True)
    >>> info["cupy_available"] == xp.cupy_available()
    True
    >>> json.loads(json.dumps(info)) == info
    True
    """
    __version__ = sys.modules["cunumpy"].__version__  # the package runs before its modules

    usable = cupy_available()
    info: dict[str, Any] = {
        "backend": current().name,
        "cupy_available": usable,
        "cuda_unavailable_reason": None if usable else cupy_unavailable_reason(),
        "versions": {
            "cunumpy": __version__,
            "numpy": _distribution_version("numpy"),
            "array-api-compat": _distribution_version("array-api-compat"),
            "cupy": getattr(sys.modules.get("cupy"), "__version__", None),
        },
        "min_cupy_version": MIN_CUPY_VERSION,
        "device": None,
        "cuda_visible_devices": os.environ.get("CUDA_VISIBLE_DEVICES"),
    }
    if usable:
        try:
            info["device"] = _device_details()
        except Exception as exc:  # diagnostics report what went wrong rather than raise
            info["cuda_inspection_error"] = f"{type(exc).__name__}: {exc}"
    return info
