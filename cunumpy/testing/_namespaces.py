"""The namespaces the ``xp`` fixture runs tests on: their names, whether each is usable
(and why not), how a test enters it, and its devices. No pytest here, and nothing is
imported until a namespace is asked for.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import Any

__all__ = [
    "DEFAULT",
    "KNOWN",
    "OPTIONAL",
    "activated",
    "default_names",
    "devices",
    "unusable_reason",
]

#: Every namespace name the plugin knows, with what the test receives as ``xp``.
KNOWN: dict[str, str] = {
    "numpy": "cunumpy's NumPy namespace; cunumpy's backend is 'numpy' during the test",
    "cupy": "cunumpy's CuPy namespace; cunumpy's backend is 'cupy' during the test",
    "array_api_strict": "array-api-strict, the standard's strict reference implementation",
    "cunumpy": "the top-level cunumpy namespace, on the backend that is current",
    "cunumpy:cupy": "the top-level cunumpy namespace with the CuPy backend (ask for it)",
    "torch": "PyTorch through array-api-compat",
    "jax": "jax.numpy, with 64-bit types enabled during the test",
    "dask": "cunumpy.dask, Dask arrays of NumPy chunks (ask for it: --cunumpy-xp or the xp marker)",
}

#: Tested unless ``--cunumpy-xp`` or a marker says otherwise (an unusable one is skipped, with why).
DEFAULT = ("numpy", "cupy", "array_api_strict", "cunumpy")

#: Also tested by default, but only where the library is installed.
OPTIONAL = ("torch", "jax")

_INSTALL = {
    "array_api_strict": ("array_api_strict", "array-api-strict"),
    "torch": ("torch", "torch"),
    "jax": ("jax", "jax"),
    "dask": ("dask", "dask[array]"),
}


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def default_names() -> tuple[str, ...]:
    """The namespaces tested by default: :data:`DEFAULT` and the installed :data:`OPTIONAL`."""
    return DEFAULT + tuple(name for name in OPTIONAL if _installed(_INSTALL[name][0]))


def unusable_reason(name: str) -> str | None:
    """Why namespace ``name`` cannot be tested here, or ``None`` when it can.

    Only CuPy needs a real probe (it imports fine without a GPU); the answer is cached by
    ``cunumpy.cupy_available``.
    """
    if name in ("numpy", "cunumpy"):
        return None
    if name in ("cupy", "cunumpy:cupy"):
        from .._settings._cupy_probe import cupy_unavailable_reason

        return cupy_unavailable_reason()
    module, package = _INSTALL[name]
    if not _installed(module):
        return f"{package} is not installed (pip install {package})"
    return None


@contextmanager
def activated(name: str) -> Iterator[ModuleType]:
    """Enter namespace ``name`` for one test and yield it; restore the state on exit.

    Raises ``RuntimeError`` with the reason when the namespace is not usable.
    """
    reason = unusable_reason(name)
    if reason is not None:
        msg = f"the namespace {name!r} is not usable: {reason}"
        raise RuntimeError(msg)
    import cunumpy

    if name in ("numpy", "cupy"):
        with cunumpy.use_backend(name, strict=True) as namespace:
            yield namespace
    elif name == "cunumpy":
        yield cunumpy
    elif name == "cunumpy:cupy":
        with cunumpy.use_backend("cupy", strict=True):
            yield cunumpy
    elif name == "array_api_strict":
        yield importlib.import_module("array_api_strict")
    elif name == "torch":
        yield importlib.import_module("array_api_compat.torch")
    elif name == "dask":
        yield importlib.import_module("cunumpy.dask")
    else:
        with _jax_x64() as namespace:
            yield namespace


@contextmanager
def _jax_x64() -> Iterator[ModuleType]:
    jax: Any = importlib.import_module("jax")
    previous = bool(jax.config.read("jax_enable_x64"))
    jax.config.update("jax_enable_x64", True)
    try:
        yield importlib.import_module("jax.numpy")
    finally:
        jax.config.update("jax_enable_x64", previous)


def devices(name: str) -> tuple[Any, ...]:
    """The devices of namespace ``name`` (it must be usable), as its inspection API lists them.

    Left out: ``None`` entries (JAX lists one for "not committed to a device"), and devices
    that hold no data, whose arrays cannot be compared (torch's ``meta`` device).
    """
    with activated(name) as namespace:
        listed = namespace.__array_namespace_info__().devices()
    return tuple(one for one in listed if one is not None and str(one) not in _NO_DATA)


#: Devices that hold no data, by ``str``: an array there has a shape and a dtype only.
_NO_DATA = frozenset({"meta"})
