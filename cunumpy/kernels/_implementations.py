"""Which host (and device) implementation a kernel runs: the settings, and the holders.

Each setting is a process default (``set_*``; ``CUNUMPY_HOST_KERNEL_IMPLEMENTATION`` and
``CUNUMPY_DEVICE_KERNEL_IMPLEMENTATION`` set it at import, as in CuNumpy 0.7.1) with a
context-local override (``use_*``), like the backend: a ``use_*`` block in one thread or
asyncio task does not change what another runs.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

__all__ = [
    "DEVICE_IMPLEMENTATIONS",
    "HOST_IMPLEMENTATIONS",
    "HostImplementations",
    "get_device_kernel_implementation",
    "get_host_kernel_implementation",
    "set_device_kernel_implementation",
    "set_host_kernel_implementation",
    "use_device_kernel_implementation",
    "use_host_kernel_implementation",
]

HOST_IMPLEMENTATIONS = ("pyccel", "numba", "numpy", "python")
"""The host implementations a kernel can have, in the order of preference."""

DEVICE_IMPLEMENTATIONS = ("cuda",)
"""The device implementations a kernel can have."""


def _checked(name: str | None, known: tuple[str, ...], func: str) -> str | None:
    if name is not None and name not in known:
        msg = f"{func}: implementation {name!r} is not one of {known} or None."
        raise ValueError(msg)
    return name


def _from_environment(variable: str, known: tuple[str, ...]) -> str | None:
    value = os.environ.get(variable, "").strip().lower() or None
    return _checked(value, known, variable)


class _Setting:
    """A process default with a context-local override (``None`` in both: the default rule)."""

    def __init__(self, variable: str, known: tuple[str, ...]) -> None:
        self.known = known
        self.default = _from_environment(variable, known)
        self.override: ContextVar[tuple[str | None] | None] = ContextVar(variable, default=None)

    def get(self) -> str | None:
        override = self.override.get()
        return self.default if override is None else override[0]

    @contextmanager
    def use(self, name: str | None, func: str) -> Iterator[None]:
        token = self.override.set((_checked(name, self.known, func),))
        try:
            yield
        finally:
            self.override.reset(token)


_HOST = _Setting("CUNUMPY_HOST_KERNEL_IMPLEMENTATION", HOST_IMPLEMENTATIONS)
_DEVICE = _Setting("CUNUMPY_DEVICE_KERNEL_IMPLEMENTATION", DEVICE_IMPLEMENTATIONS)


def set_host_kernel_implementation(name: str | None) -> None:
    """Choose the host implementation every kernel runs (``None``: the default rule).

    A kernel that lacks the chosen implementation, or cannot load it, raises
    ``LookupError`` instead of running another. Device calls are not affected.

    Parameters
    ----------
    name : str or None
        One of :data:`HOST_IMPLEMENTATIONS`, or ``None``.

    Raises
    ------
    ValueError
        If `name` is not a known implementation.

    Examples
    --------
    >>> import cunumpy as xp
    >>> xp.kernels.set_host_kernel_implementation("numpy")
    >>> xp.kernels.get_host_kernel_implementation()
    'numpy'
    >>> xp.kernels.set_host_kernel_implementation(None)
    """
    _HOST.default = _checked(name, HOST_IMPLEMENTATIONS, "set_host_kernel_implementation")


def get_host_kernel_implementation() -> str | None:
    """Return the host implementation that is set, or ``None`` for the default rule.

    Examples
    --------
    >>> import cunumpy as xp
    >>> xp.kernels.get_host_kernel_implementation() is None
    True
    """
    return _HOST.get()


@contextmanager
def use_host_kernel_implementation(name: str | None) -> Iterator[None]:
    """Choose the host implementation inside a ``with`` block, in this thread or task only.

    Parameters
    ----------
    name : str or None
        As for :func:`set_host_kernel_implementation`.

    Yields
    ------
    None

    Examples
    --------
    >>> import cunumpy as xp
    >>> with xp.kernels.use_host_kernel_implementation("python"):
    ...     xp.kernels.get_host_kernel_implementation()
    'python'
    """
    with _HOST.use(name, "use_host_kernel_implementation"):
        yield


def set_device_kernel_implementation(name: str | None) -> None:
    """Require a device implementation (``"cuda"``), or ``None`` for automatic selection.

    With ``"cuda"``, a :class:`Kernel` without a CUDA kernel raises ``LookupError`` on
    device data, even with ``missing_cuda="fallback"``.

    Parameters
    ----------
    name : str or None
        ``"cuda"`` or ``None``.

    Raises
    ------
    ValueError
        If `name` is not supported.

    Examples
    --------
    >>> import cunumpy as xp
    >>> xp.kernels.set_device_kernel_implementation("cuda")
    >>> xp.kernels.get_device_kernel_implementation()
    'cuda'
    >>> xp.kernels.set_device_kernel_implementation(None)
    """
    _DEVICE.default = _checked(name, DEVICE_IMPLEMENTATIONS, "set_device_kernel_implementation")


def get_device_kernel_implementation() -> str | None:
    """Return the required device implementation, or ``None`` for automatic selection.

    Examples
    --------
    >>> import cunumpy as xp
    >>> xp.kernels.get_device_kernel_implementation() is None
    True
    """
    return _DEVICE.get()


@contextmanager
def use_device_kernel_implementation(name: str | None) -> Iterator[None]:
    """Require a device implementation inside a ``with`` block, in this thread or task only.

    Parameters
    ----------
    name : str or None
        As for :func:`set_device_kernel_implementation`.

    Yields
    ------
    None

    Examples
    --------
    >>> import cunumpy as xp
    >>> with xp.kernels.use_device_kernel_implementation("cuda"):
    ...     xp.kernels.get_device_kernel_implementation()
    'cuda'
    """
    with _DEVICE.use(name, "use_device_kernel_implementation"):
        yield


class HostImplementations:
    """The host implementations of one kernel, loaded on first use; a call runs the selected.

    The selected one is :func:`get_host_kernel_implementation` when set, else the first
    that loads of ``"pyccel"``, ``"numba"`` and ``"numpy"``, else ``"python"`` with a
    ``RuntimeWarning`` (once).

    Parameters
    ----------
    name : str
        The kernel's name.
    loaders : mapping of str to callable
        For each implementation name, a function that returns the implementation (or
        raises when it is unavailable). ``"python"`` is required.

    Attributes
    ----------
    errors : dict of str to Exception
        Why implementations failed to load.

    Raises
    ------
    ValueError
        If `loaders` names an unknown implementation or lacks ``"python"``.

    Examples
    --------
    >>> import cunumpy as xp
    >>> def push(x):
    ...     return x + 1
    >>> host = xp.kernels.HostImplementations("push", {"numpy": lambda: push, "python": lambda: push})
    >>> host.selected(), host(1)
    ('numpy', 2)
    """

    def __init__(self, name: str, loaders: Mapping[str, Callable[[], Callable[..., Any]]]) -> None:
        unknown = sorted(set(loaders) - set(HOST_IMPLEMENTATIONS))
        if unknown:
            msg = f"HostImplementations {name!r}: unknown implementations {unknown}; expected names from {HOST_IMPLEMENTATIONS}."
            raise ValueError(msg)
        if "python" not in loaders:
            msg = f"HostImplementations {name!r}: the 'python' implementation is required."
            raise ValueError(msg)
        self.__name__ = name
        self._loaders = dict(loaders)
        self._loaded: dict[str, Callable[..., Any]] = {}
        self.errors: dict[str, BaseException] = {}
        self._default: str | None = None

    def __repr__(self) -> str:
        return f"HostImplementations({self.__name__!r}, {list(self.names)})"

    @property
    def names(self) -> tuple[str, ...]:
        """The implementations this kernel has, loaded or not."""
        return tuple(n for n in HOST_IMPLEMENTATIONS if n in self._loaders)

    @property
    def python(self) -> Callable[..., Any]:
        """The uncompiled Python function (signatures, reference results)."""
        return self.get("python")

    def available(self, name: str) -> bool:
        """Return whether implementation `name` exists and loads (it is loaded now)."""
        if name not in self._loaders:
            return False
        try:
            self.get(name)
        except LookupError:
            return False
        return True

    def get(self, name: str) -> Callable[..., Any]:
        """Return implementation `name`, loading it on first use (``LookupError`` if it cannot)."""
        function = self._loaded.get(name)
        if function is not None:
            return function
        if name not in self._loaders:
            msg = f"kernel {self.__name__!r} has no {name!r} implementation (it has {', '.join(self.names)})."
            raise LookupError(msg)
        error = self.errors.get(name)
        if error is None:
            try:
                function = self._loaders[name]()
            except Exception as exc:
                self.errors[name] = error = exc
            else:
                self._loaded[name] = function
                return function
        msg = f"the {name!r} implementation of kernel {self.__name__!r} is unavailable: {error!r}"
        raise LookupError(msg) from error

    def selected(self) -> str:
        """Return the name of the implementation a call runs now."""
        setting = _HOST.get()
        if setting is not None:
            return setting
        if self._default is None:
            for name in ("pyccel", "numba", "numpy"):
                if self.available(name):
                    self._default = name
                    break
            else:
                warnings.warn(
                    f"kernel {self.__name__!r}: no compiled or NumPy implementation loads "
                    f"({self.errors!r}); running the uncompiled Python version.",
                    RuntimeWarning,
                    stacklevel=3,
                )
                self._default = "python"
        return self._default

    def build(self) -> str:
        """Load the selected implementation now (e.g. compile at setup); return its name."""
        name = self.selected()
        self.get(name)
        return name

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Run the selected implementation."""
        return self.get(self.selected())(*args, **kwargs)
