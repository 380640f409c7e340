"""Which backends running code may see, and who is told when that changes.

Code sees the process default (``set_backend``) unless its context is inside a
``use_backend`` block, whose backend is an *override token* held by a
``contextvars.ContextVar``. A token lives as long as some context holds it: the block's
own, and the copies taken by asyncio tasks and ``contextvars.copy_context`` while the block
was open, which may outlive the block. So the backends code may see are the default's
and those of the live tokens, counted here: a token counts itself in when it is made and
out when it is collected.

Listeners (``add_listener``) are told ``(default, others)``, the default backend's
namespace and the namespaces of live tokens that differ from it, whenever that pair
changes. They run under ``lock``, one change at a time, in the thread that made the
change. A token collected while the lock is held (by another thread, or by the garbage
collector inside a locked section) is counted out by whoever holds the lock, before it
lets go, so no change is lost and no thread waits in a finalizer.
"""

from __future__ import annotations

from _thread import RLock  # threading's RLock, without importing threading
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import Any

__all__ = [
    "Listener",
    "add_listener",
    "born",
    "change_default",
    "died",
    "lock",
    "locked",
    "others",
]

#: ``listener(default, others)``: the default's namespace and the other live ones.
Listener = Callable[[ModuleType, frozenset[ModuleType]], None]

#: Held while what code may see changes and while listeners run (reentrant: a listener
#: may read cunumpy's names, which may remember one, under the same lock).
lock = RLock()

_listeners: list[Listener] = []
#: Live tokens per namespace; changed only by ``_publish``, from the two queues below
#: (appending to a deque is atomic, so a finalizer never waits for the lock).
_live: dict[ModuleType, int] = {}
_born: deque[ModuleType] = deque()
_died: deque[ModuleType] = deque()
#: The ``_Backend`` whose namespace is the process default (set once by ``_config``).
_default: Any = None
#: The namespace becoming the default while ``change_default`` runs (counted as live).
_coming: ModuleType | None = None
#: The pair the listeners were last told.
_told: tuple[ModuleType, frozenset[ModuleType]] | None = None
_publishing = False
_dirty = False


def _state() -> tuple[ModuleType, frozenset[ModuleType]]:
    default = _default.namespace
    live = {namespace for namespace, count in _live.items() if count}
    if _coming is not None:
        live.add(_coming)
    live.discard(default)
    return default, frozenset(live)


def _publish() -> None:
    """Count tokens in and out and tell the listeners of a change; call with ``lock`` held."""
    global _publishing, _dirty, _told
    if _publishing:  # a listener made a change: the running loop takes it up
        _dirty = True
        return
    _publishing = True
    try:
        while True:
            _dirty = False
            while _born:
                namespace = _born.popleft()
                _live[namespace] = _live.get(namespace, 0) + 1
            while _died:
                namespace = _died.popleft()
                _live[namespace] -= 1
            state = _state()
            if state != _told:
                _told = state
                for listener in _listeners:
                    listener(*state)
            if not _dirty:
                return
    finally:
        _publishing = False


def _settle() -> None:
    """Publish what the queues hold, unless the lock is taken (its holder will).

    The lock is reentrant: a finalizer run in the thread that is publishing (the garbage
    collector inside a listener) gets it, and leaves the queue to that thread's loop.
    """
    while _dirty and lock.acquire(blocking=False):
        try:
            if _publishing:  # this thread's own loop, further up the stack, takes it up
                return
            _publish()
        finally:
            lock.release()


@contextmanager
def locked() -> Iterator[None]:
    """Hold ``lock``, then publish what finalizers queued meanwhile."""
    with lock:
        yield
    _settle()


def born(namespace: ModuleType) -> None:
    """Count in a new token of ``namespace``; listeners are told before this returns."""
    _born.append(namespace)
    with lock:
        _publish()
    _settle()


def died(namespace: ModuleType) -> None:
    """Count out a collected token (from its finalizer: never waits for the lock)."""
    global _dirty
    _died.append(namespace)
    _dirty = True
    _settle()


def change_default(namespace: ModuleType) -> None:
    """Make ``namespace`` the process default.

    Listeners see both backends as live while the default changes, so code that follows
    the default never sees a name of the old backend after the default has changed.
    """
    global _coming
    with locked():
        _coming = namespace
        try:
            _publish()
            _default.namespace = namespace
        finally:
            _coming = None
        _publish()


def others() -> frozenset[ModuleType]:
    """The namespaces of live tokens that differ from the default, now."""
    with locked():
        _publish()
        return _state()[1]


def add_listener(listener: Listener) -> None:
    """Call ``listener(default, others)`` now and whenever that pair changes.

    ``default`` is the namespace of the process default (``set_backend``), ``others`` the
    namespaces of the live ``use_backend`` blocks (and of asyncio tasks or copied contexts
    that still hold one) that differ from it. The listener runs under ``lock``, in the
    thread that made the change, before that change takes effect for code that follows the
    default (``set_backend``) or before the block's code runs (``use_backend``); when the
    last differing block is collected it is told afterwards. It must not raise.
    """
    with locked():
        _publish()
        _listeners.append(listener)
        listener(*_state())
