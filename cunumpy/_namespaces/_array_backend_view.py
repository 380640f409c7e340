"""CuNumpy 0.7.x's ``ArrayBackend``, the type of ``cunumpy.xp.array_backend`` that clients import.

0.7.x kept the process-wide backend in one ``ArrayBackend`` object, and clients read it
(feectools: ``from cunumpy.xp import array_backend``, then ``array_backend.backend``).
Here it is a view of ``_config``'s context-local state: every attribute is read from the
running context at each access, and its methods are ``set_backend`` and ``use_backend``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import ModuleType

from .._backend_choice import _config

__all__ = ["ArrayBackend"]


class ArrayBackend:
    """The backend of the running context, with CuNumpy 0.7.x's ``array_backend`` interface.

    Every instance reads the same context-local state as ``get_backend``: inside a
    ``use_backend`` block it answers that block's backend, in the thread or asyncio task
    that entered it. Use the top-level functions in new code.

    Examples
    --------
    >>> import cunumpy as xp
    >>> from cunumpy.xp import array_backend
    >>> array_backend.backend
    'numpy'
    >>> with xp.use_backend("numpy"):
    ...     array_backend.backend == xp.get_backend()
    True
    """

    __slots__ = ()

    @property
    def backend(self) -> str:
        """The running context's backend name, ``"numpy"`` or ``"cupy"``."""
        return _config.current().name

    @property
    def xp(self) -> ModuleType:
        """The running context's backend namespace (``cunumpy.xp.xp``)."""
        return _config.current().namespace

    def __repr__(self) -> str:
        return f"ArrayBackend(backend={self.backend!r}, module={self.xp.__name__!r})"

    def add_listener(self, listener: Callable[[ModuleType], object]) -> None:
        """Call ``listener(namespace)`` now and whenever the backend changes.

        The listener runs in the thread or task whose backend changed (by
        ``set_backend``, or by entering or leaving a ``use_backend`` block), with the
        new backend's namespace; a change to the same backend calls nothing.

        Parameters
        ----------
        listener : callable
            Called with one argument, the backend namespace module.

        Raises
        ------
        TypeError
            If ``listener`` is not callable.

        Examples
        --------
        >>> import cunumpy as xp
        >>> from cunumpy.xp import array_backend
        >>> seen = []
        >>> array_backend.add_listener(seen.append)
        >>> seen == [xp.xp.xp]
        True
        >>> array_backend.remove_listener(seen.append)  # listeners live until removed
        """
        if not callable(listener):
            msg = f"ArrayBackend.add_listener: `listener` must be callable, not {listener!r}."
            raise TypeError(msg)
        _config.listeners.append(listener)
        listener(self.xp)

    def remove_listener(self, listener: Callable[[ModuleType], object]) -> None:
        """Stop calling ``listener`` (one added by :meth:`add_listener`); cunumpy's addition.

        A listener stays registered for the life of the process until it is removed, so
        code that adds one for a while (a test, a doctest) removes it afterwards.

        Parameters
        ----------
        listener : callable
            A listener given to :meth:`add_listener` (compared with ``==``, so the same
            bound method of the same object is found again).

        Raises
        ------
        ValueError
            If ``listener`` was not added.

        Examples
        --------
        >>> from cunumpy.xp import array_backend
        >>> heard = []
        >>> array_backend.add_listener(heard.append)
        >>> array_backend.remove_listener(heard.append)
        >>> array_backend.remove_listener(heard.append)
        Traceback (most recent call last):
        ...
        ValueError: ArrayBackend.remove_listener: <built-in method append of list object at ...> is not a listener; add_listener adds one.
        """
        try:
            _config.listeners.remove(listener)
        except ValueError:
            msg = f"ArrayBackend.remove_listener: {listener!r} is not a listener; add_listener adds one."
            raise ValueError(msg) from None

    def set(self, backend: str, *, strict: bool = False) -> None:
        """Make ``backend`` the process default: ``cunumpy.set_backend``.

        Parameters
        ----------
        backend : {"numpy", "cupy", "auto"}
            The backend to use.
        strict : bool, optional
            Raise rather than fall back to NumPy where CuPy is not usable.

        Examples
        --------
        >>> from cunumpy.xp import array_backend
        >>> array_backend.set("numpy")
        >>> array_backend.backend
        'numpy'
        """
        _config.set_backend(backend, strict=strict)

    @contextmanager
    def use_backend(self, backend: str, *, strict: bool = False) -> Iterator[None]:
        """Use ``backend`` inside a ``with`` block: ``cunumpy.use_backend``.

        Parameters
        ----------
        backend : {"numpy", "cupy", "auto"}
            The backend to use inside the block.
        strict : bool, optional
            Raise rather than fall back to NumPy where CuPy is not usable.

        Yields
        ------
        None
            As in CuNumpy 0.7.x (``cunumpy.use_backend`` yields the namespace).

        Examples
        --------
        >>> from cunumpy.xp import array_backend
        >>> with array_backend.use_backend("numpy"):
        ...     array_backend.backend
        'numpy'
        """
        with _config.use_backend(backend, strict=strict):
            yield
