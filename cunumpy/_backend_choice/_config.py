"""The only global state of cunumpy: which backend creation functions use.

Two layers, so that threads and asyncio tasks compose:

- the *process default*, set by ``set_backend`` (and once, at import, by
  ``CUNUMPY_BACKEND``), seen by every thread and task that has not chosen otherwise;
- a *context-local* choice, set by ``use_backend`` for a ``with`` block and kept in a
  ``contextvars.ContextVar``: it is seen only by the code running in that context (the
  thread, or the asyncio task, that entered the block) and restored when the block ends.

The hot paths read the current backend with ``current()``: one ``ContextVar.get`` (a C
call) that returns the context's ``_Backend`` or, when the context chose none, the
process default's. A block's ``_Backend`` is an override token, counted while some
context holds it (``_landscape``); ``add_listener`` tells who needs to know (the public
modules' names, ``_public_names``) which backends code may see.
"""

from __future__ import annotations

import sys
import warnings
from collections.abc import Callable
from contextlib import ContextDecorator
from contextvars import ContextVar
from types import ModuleType, TracebackType
from typing import Any

from .._backends import numpy as _numpy_module
from .._settings._backend_names import ACCEPTED, BACKENDS, ENV_VAR, _canonical_name
from .._settings._cupy_probe import (
    CupyUnavailableWarning,
    cupy_available,
    cupy_unavailable_reason,
    require_cupy,
)
from . import _landscape
from ._landscape import add_listener

__all__ = [
    "ACCEPTED",
    "BACKENDS",
    "ENV_VAR",
    "add_listener",
    "current",
    "get_backend",
    "set_backend",
    "use_backend",
]


#: The backend's name of each namespace module (CuPy's is added when it is first loaded).
_NAMES: dict[ModuleType, str] = {_numpy_module: "numpy"}


def _cupy_namespace() -> ModuleType:
    from .._backends import cupy as cupy_namespace  # loaded only when CuPy is asked for

    _NAMES[cupy_namespace] = "cupy"
    return cupy_namespace


def _namespace_for(
    name: object, func: str, *, strict: bool = True, stacklevel: int = 2
) -> ModuleType:
    """Return the namespace module of backend ``name`` (``"auto"`` resolved).

    ``"cupy"`` where CuPy is not usable raises ``CupyUnavailableError`` with the reason
    when ``strict``; otherwise it warns (``CupyUnavailableWarning``, with the reason) and
    gives NumPy, as CuNumpy 0.7.1 did. ``"auto"`` gives CuPy where usable, silently.
    ``stacklevel`` is the warning's stack level as seen from the caller.
    """
    canonical = _canonical_name(name, func)
    if canonical == "numpy":
        return _numpy_module
    if canonical == "auto":
        return _cupy_namespace() if cupy_available() else _numpy_module
    if strict or cupy_available():
        require_cupy(func)
        return _cupy_namespace()
    msg = (
        f"{func}: CuPy was asked for but is not usable here ({cupy_unavailable_reason()}); "
        f"staying on NumPy. Pass strict=True to raise instead, or 'auto' to take CuPy only "
        f"where it is usable."
    )
    warnings.warn(msg, CupyUnavailableWarning, stacklevel=stacklevel + 1)
    return _numpy_module


class _Backend:
    """A backend's namespace module; its name is the last part of the module's name.

    The namespace is one attribute, so replacing it is atomic: a thread reading the
    process default while another thread calls ``set_backend`` sees the old backend or
    the new one, never a mix.
    """

    __slots__ = ("namespace",)

    def __init__(self, namespace: ModuleType) -> None:
        self.namespace = namespace

    @property
    def name(self) -> str:
        return _NAMES[self.namespace]


class _Override(_Backend):
    """The backend of a ``use_backend`` block: an override token, counted while alive.

    Its namespace never changes. Contexts copied while the block was open (asyncio tasks)
    hold it after the block ends; it counts itself out when the last one lets it go.
    """

    __slots__ = ()

    def __init__(self, namespace: ModuleType) -> None:
        self.namespace = namespace
        _landscape.born(namespace)

    def __del__(self, died: Any = _landscape.died, finalizing: Any = sys.is_finalizing) -> None:
        if not finalizing():  # at exit, nobody is left to tell
            died(self.namespace)


#: The process default (``set_backend``); mutated in place, so the context variable's
#: default below always reaches the current one.
_default = _Backend(_numpy_module)
_landscape._default = _default

#: The context-local choice (``use_backend``); a context that made none gets ``_default``.
_context: ContextVar[_Backend] = ContextVar("cunumpy_backend", default=_default)

#: The ``use_backend`` blocks open in this context, innermost last: (the block, the
#: backend it found on entry, its backend's name). A tuple, so that threads and tasks
#: that copy the context never share an update.
_blocks: ContextVar[tuple[tuple[object, _Backend, str], ...]] = ContextVar(
    "cunumpy_backend_blocks", default=()
)


#: The backend of the running context: ``current().namespace``, ``current().name``.
current = _context.get


class _Current:
    """Read-only view of the running context's backend, for code that reads attributes."""

    __slots__ = ()

    @property
    def name(self) -> str:
        return current().name

    @property
    def namespace(self) -> ModuleType:
        return current().namespace


#: ``_state.namespace`` and ``_state.name``: the backend of the running context.
_state = _Current()

#: Called with the new namespace when the running context's backend changes
#: (``cunumpy.xp.array_backend.add_listener``).
listeners: list[Callable[[ModuleType], object]] = []


def _notify(before: ModuleType) -> None:
    for listener in tuple(listeners) if current().namespace is not before else ():
        listener(current().namespace)


#: Why ``CUNUMPY_BACKEND`` could not be applied, when ``python -m cunumpy`` deferred the
#: error to report it (``None`` otherwise).
environment_error: str | None = None
#: What ``python -m cunumpy`` reports instead of warning: ``CUNUMPY_BACKEND=cupy`` where
#: CuPy is not usable (``None`` otherwise; other processes get a ``CupyUnavailableWarning``).
environment_note: str | None = None


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
    return current().name


def set_backend(name: str, *, strict: bool = False) -> None:
    """Make ``name`` the default backend of the whole process.

    Creation functions called without ``device=`` create their arrays on the current
    backend (and, on CuPy, on the current GPU). Functions that take arrays always
    compute where their inputs live, whatever the current backend.

    Every thread and asyncio task that is not inside a ``use_backend`` block sees the
    new default at once. Called inside a ``use_backend`` block, it also switches that
    block (in this thread or task only) for the rest of the block; blocks of other
    threads and tasks keep their backend until they end.

    ``"cupy"`` where CuPy is not usable (no GPU, CuPy not installed, ...) keeps a program
    written for CuNumpy 0.7.1 running: the backend becomes NumPy and a
    ``CupyUnavailableWarning`` gives the reason; ``get_backend()`` then says ``"numpy"``.
    With ``strict=True`` it raises instead and the previous backend stays.

    Parameters
    ----------
    name : {"numpy", "cupy", "auto"}
        The backend to use; ``"auto"`` is CuPy where it is usable and NumPy elsewhere.
        Case and surrounding spaces are ignored, as in ``CUNUMPY_BACKEND``.
    strict : bool, optional
        Raise ``CupyUnavailableError`` rather than fall back to NumPy with a warning.

    Raises
    ------
    ValueError
        If ``name`` is not a known backend.
    CupyUnavailableError
        If ``strict`` and ``name`` is ``"cupy"`` and CuPy is not usable; the message says
        why. It is both a ``RuntimeError`` and an ``ImportError``.

    Warns
    -----
    CupyUnavailableWarning
        If ``name`` is ``"cupy"``, CuPy is not usable and ``strict`` is false.

    Examples
    --------
    >>> import cunumpy as xp
    >>> xp.set_backend("numpy")
    >>> type(xp.zeros(3))
    <class 'numpy.ndarray'>
    >>> xp.set_backend("auto")  # CuPy where a GPU is usable
    >>> xp.get_backend() == ("cupy" if xp.cupy_available() else "numpy")
    True
    >>> xp.set_backend("numpy")
    """
    namespace = _namespace_for(name, "set_backend", strict=strict)
    before = current().namespace
    _landscape.change_default(namespace)
    if current() is not _default:  # inside a use_backend block of this context
        _context.set(_Override(namespace))
    _notify(before)


def use_backend(name: str, *, strict: bool = False) -> _Block:
    """Use backend ``name`` inside a ``with`` block, then restore the previous one.

    The choice is context-local (a ``contextvars.ContextVar``): it holds for the code
    running in the thread, or the asyncio task, that entered the block, and for the
    asyncio tasks it creates inside the block; other threads and tasks keep their own
    backend. Blocks nest, and the previous backend is restored on exit, also when the
    block raises.

    ``"cupy"`` where CuPy is not usable gives NumPy with a ``CupyUnavailableWarning``,
    as ``set_backend`` does, unless ``strict``.
    Blocks are left innermost first. Generators that each yield inside a block share
    their caller's context, so finishing them in another order leaves a block while one
    entered after it is still open: that exit raises ``RuntimeError``, and the backends
    are set right (the open block keeps its backend, and when it ends, the backend from
    before the block that was left is restored), so no block's backend stays behind.
    A block left in another thread or task than the one that entered it raises
    ``RuntimeError`` and changes nothing.

    A ``use_backend(...)`` that is never entered changes nothing, so it warns
    (``RuntimeWarning``, naming the call and where it was made) when it is collected, as
    Python does for a coroutine that is never awaited. Each one is entered once; it can
    also decorate a function (each call of the function runs in a block of its own).

    Parameters
    ----------
    name : {"numpy", "cupy", "auto"}
        The backend to use inside the block; case and surrounding spaces are ignored.
    strict : bool, optional
        Raise ``CupyUnavailableError`` rather than fall back to NumPy with a warning.

    Returns
    -------
    context manager
        Entering it (``with``) gives the namespace of that backend (what
        ``array_namespace`` returns for its arrays). An unknown ``name`` raises there.

    Examples
    --------
    >>> import cunumpy as xp
    >>> with xp.use_backend("numpy") as np_xp:
    ...     x = np_xp.ones(2)
    >>> xp.get_backend()
    'numpy'
    """
    caller = sys._getframe(1)
    return _Block(name, strict, (caller.f_code.co_filename, caller.f_lineno))


class _Block(ContextDecorator):
    """The context manager ``use_backend`` returns: one block, entered once."""

    def __init__(self, name: str, strict: bool, site: tuple[str, int]) -> None:
        self._name, self._strict, self._site = name, strict, site
        self._state = "new"  # then "entered" and "left"

    def __repr__(self) -> str:
        return f"use_backend({self._name!r}, strict={self._strict!r})  # {self._state}"

    def __enter__(self) -> ModuleType:
        if self._state != "new":
            msg = (
                f"use_backend: this {self!r} block was entered already; each use_backend(...) "
                f"is entered once, so call use_backend({self._name!r}) again."
            )
            raise RuntimeError(msg)
        self._state = "entered"
        namespace = _namespace_for(self._name, "use_backend", strict=self._strict)
        token = _Override(namespace)  # the names follow contexts before the block runs
        _blocks.set((*_blocks.get(), (self, current(), _NAMES[namespace])))
        found = _blocks.get()[-1][1]
        _context.set(token)
        _notify(found.namespace)
        return namespace

    def __exit__(
        self, kind: type[BaseException] | None, value: object, traceback: TracebackType | None
    ) -> None:
        self._state = "left"
        _leave(self)

    def __call__(self, func: Any) -> Any:
        """Decorate ``func``: each of its calls runs in a block of its own."""
        self._state = "decorator"
        return super().__call__(func)

    def _recreate_cm(self) -> _Block:
        return _Block(self._name, self._strict, self._site)

    def __del__(
        self, warn: Any = warnings.warn_explicit, finalizing: Any = sys.is_finalizing
    ) -> None:
        if self._state != "new" or finalizing():
            return
        filename, line = self._site
        msg = (
            f"use_backend({self._name!r}) made at {filename}:{line} was never entered, so it "
            f"changed nothing; write `with xp.use_backend({self._name!r}):` around the code "
            f"it is for (set_backend({self._name!r}) changes the whole process's default)."
        )
        warn(msg, RuntimeWarning, filename, line)


def _leave(block: object) -> None:
    """End a ``use_backend`` block: restore what it found, or set right an out-of-order exit."""
    blocks = _blocks.get()
    index = next((i for i in range(len(blocks) - 1, -1, -1) if blocks[i][0] is block), None)
    if index is None:
        msg = (
            "use_backend: a block is left in another thread or asyncio task than the one "
            "that entered it; nothing was changed. Leave each block where it was entered."
        )
        raise RuntimeError(msg)
    _, found, name = blocks[index]
    if index == len(blocks) - 1:
        before = current().namespace
        _blocks.set(blocks[:-1])
        _context.set(found)
        _notify(before)
        return
    # A block entered after this one is still open (interleaved generators, or __exit__
    # called by hand): it stays in force, and restores what this block found when it ends.
    later, _, later_name = blocks[index + 1]
    _blocks.set((*blocks[:index], (later, found, later_name), *blocks[index + 2 :]))
    msg = (
        f"use_backend: the block using {name!r} was left while a block entered after it "
        f"(using {later_name!r}) is still open in the same thread or task, as happens "
        f"when generators that yield inside use_backend blocks finish in another order. "
        f"The {later_name!r} block stays in force until it ends, which then restores "
        f"{found.name!r}. Leave blocks innermost first: enter use_backend inside each "
        f"generator step, or pass device= to the creation functions."
    )
    raise RuntimeError(msg)
