"""Counting the copies between host and device that cunumpy makes: counters and blocks.

Every copy cunumpy makes calls ``cunumpy._placement._transfer_log.note_transfer``; a
:func:`count_transfers` block listens there, in its own context only (thread or asyncio
task), and keeps each copy as a :class:`TransferEvent` with its call site and size.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from contextlib import AbstractContextManager
from types import TracebackType
from typing import ParamSpec, TypeVar

from .._placement._transfer_log import KINDS, call_site, listening
from ._transfer_events import TransferEvent, check_kind

__all__ = ["TransferCounter", "assert_no_transfers", "count_transfers"]

_P = ParamSpec("_P")
_R = TypeVar("_R")


class TransferCounter:
    """The copies between host and device recorded by a :func:`count_transfers` block.

    Attributes
    ----------
    events : list of TransferEvent
        Every recorded copy, marker and sync, in the order they happened.

    Examples
    --------
    >>> from cunumpy import profiling
    >>> counter = profiling.TransferCounter()
    >>> counter.events.append(profiling.TransferEvent("to_host", "x", "step.py:12", nbytes=8))
    >>> counter.to_host, counter.bytes_to_host, counter.total
    (1, 8, 1)
    """

    def __init__(self) -> None:
        self.events: list[TransferEvent] = []
        self.listener = self._hear  # one object, so that a block adds it once

    def _hear(
        self,
        kind: str,
        description: str,
        nbytes: int | None,
        blocking: bool,
        implicit: bool,
    ) -> None:
        event = TransferEvent(kind, description, call_site(), nbytes, blocking, implicit)
        self.events.append(event)

    def count(self, kind: str) -> int:
        """Return the number of events of one kind.

        Parameters
        ----------
        kind : str
            One of ``"to_host"``, ``"to_device"``, ``"kernel_conversion"``,
            ``"fallback"``, ``"device_copy"``, ``"sync"``.

        Returns
        -------
        int
            How many events of ``kind`` were recorded.

        Raises
        ------
        TypeError, ValueError
            If ``kind`` is not a str, or not one of the kinds.
        """
        check_kind(kind, "TransferCounter.count")
        return sum(1 for event in self.events if event.kind == kind)

    def bytes(self, kind: str) -> int:
        """Return the bytes copied by the events of one kind (unknown sizes add 0).

        Parameters
        ----------
        kind : str
            One of the kinds, as for :meth:`count`.

        Returns
        -------
        int
            The sum of ``nbytes`` of the events of ``kind``.
        """
        check_kind(kind, "TransferCounter.bytes")
        return sum(event.nbytes or 0 for event in self.events if event.kind == kind)

    @property
    def to_host(self) -> int:
        """Copies from a GPU to the host."""
        return self.count("to_host")

    @property
    def to_device(self) -> int:
        """Copies from the host to a GPU."""
        return self.count("to_device")

    @property
    def kernel_conversions(self) -> int:
        """Kernel calls that copied device arrays to the host and back (markers)."""
        return self.count("kernel_conversion")

    @property
    def kernel_conversion_calls(self) -> list[TransferEvent]:
        """The ``kernel_conversion`` events, with the kernel and call site of each."""
        return [event for event in self.events if event.kind == "kernel_conversion"]

    @property
    def fallbacks(self) -> int:
        """Kernel calls that ran their host version on device data (markers)."""
        return self.count("fallback")

    @property
    def device_copies(self) -> int:
        """Copies that stay on GPUs (between GPUs, or a conversion on one)."""
        return self.count("device_copy")

    @property
    def syncs(self) -> int:
        """Times the host waited for a GPU."""
        return self.count("sync")

    @property
    def total(self) -> int:
        """Every event except the syncs (markers included)."""
        return sum(1 for event in self.events if event.kind != "sync")

    @property
    def bytes_to_host(self) -> int:
        """Bytes copied from GPUs to the host."""
        return self.bytes("to_host")

    @property
    def bytes_to_device(self) -> int:
        """Bytes copied from the host to GPUs."""
        return self.bytes("to_device")

    def report(self) -> str:
        """Return a summary: the counts per kind, then each call site and what it copied.

        Returns
        -------
        str
            A header line, then per kind the lines ``"file:line: description"``, with
            ``" (xN)"`` when the same call site made the same copy ``N`` times.

        Examples
        --------
        >>> from cunumpy import profiling
        >>> counter = profiling.TransferCounter()
        >>> event = profiling.TransferEvent("to_host", "to_numpy(...)", "step.py:12", 8)
        >>> counter.events += [event, event]
        >>> print(counter.report())
        2 transfer(s) through cunumpy: 2 to_host, 0 to_device, 0 kernel_conversion, 0 fallback, 0 device_copy, 0 sync
          to_host (2, 16 bytes):
            step.py:12: to_numpy(...) (x2)
        """
        counts = ", ".join(f"{self.count(kind)} {kind}" for kind in KINDS)
        lines = [f"{self.total} transfer(s) through cunumpy: {counts}"]
        for kind in KINDS:
            groups: dict[tuple[str, str], int] = {}
            for event in self.events:
                if event.kind == kind:
                    key = (event.where, event.label)
                    groups[key] = groups.get(key, 0) + 1
            if not groups:
                continue
            size = self.bytes(kind)
            lines.append(f"  {kind} ({sum(groups.values())}{f', {size} bytes' if size else ''}):")
            for (where, label), n in groups.items():
                lines.append(f"    {where}: {label}{f' (x{n})' if n > 1 else ''}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        counts = ", ".join(f"{kind}={self.count(kind)}" for kind in KINDS)
        return f"TransferCounter({counts})"


class _CountingBlock:
    """A ``with`` block (or decorated function) that counts into one counter, and may check it."""

    __slots__ = ("_func", "_into", "_open", "_syncs")

    def __init__(self, into: TransferCounter | None, func: str, syncs: bool) -> None:
        self._into = into
        self._func = func  # "count_transfers", or "assert_no_transfers" (which checks)
        self._syncs = syncs
        self._open: list[tuple[TransferCounter, AbstractContextManager[None]]] = []

    def __enter__(self) -> TransferCounter:
        counter = self._into if self._into is not None else TransferCounter()
        block = listening(counter.listener)
        block.__enter__()
        self._open.append((counter, block))
        return counter

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        counter, block = self._open.pop()
        block.__exit__(exc_type, exc, tb)
        if self._func == "assert_no_transfers" and exc_type is None:
            allowed = ("device_copy",) if self._syncs else ("device_copy", "sync")
            if any(event.kind not in allowed for event in counter.events):
                msg = (
                    "assert_no_transfers: the block copied between host and device "
                    f"(allowed: {', '.join(allowed)}):\n{counter.report()}"
                )
                raise AssertionError(msg)

    def __call__(self, fn: Callable[_P, _R]) -> Callable[_P, _R]:
        """Decorate ``fn``: each call runs in a block of its own."""
        if not callable(fn):
            msg = f"{self._func}: can only decorate a callable, not {fn!r}."
            raise TypeError(msg)
        into, func, syncs = self._into, self._func, self._syncs

        @functools.wraps(fn)
        def counted(*args: _P.args, **kwargs: _P.kwargs) -> _R:
            with _CountingBlock(into, func, syncs):
                return fn(*args, **kwargs)

        return counted

    def __repr__(self) -> str:
        return f"<{self._func} block>"


def count_transfers(into: TransferCounter | None = None) -> _CountingBlock:
    """Count the copies between host and device that cunumpy makes in a block.

    Every copy cunumpy makes while the block runs is recorded, with its call site and
    size: ``to_numpy``, ``to_cupy``, ``to_device``, ``asarray`` across devices, pinned
    copies, MPI staging, and the host's waits for a GPU (``sync``). Calls that copy
    nothing record nothing (``to_numpy`` of a NumPy array). Only copies made in this
    thread or asyncio task are seen. Blocks nest: each open counter sees the copies made
    inside it. Copies that bypass cunumpy (``cupy.asarray``, ``cupy.ndarray.get()``,
    another library's conversions) are not seen: use Nsight Systems for those.

    Parameters
    ----------
    into : TransferCounter, optional
        Add the events to this counter instead of a new one, e.g. to accumulate over
        several blocks or calls. A counter already counting here is not added twice.

    Returns
    -------
    context manager and decorator
        As a ``with`` block it yields the :class:`TransferCounter`. As a decorator each
        call counts in a block of its own (pass ``into=`` to keep the counts).

    Raises
    ------
    TypeError
        If ``into`` is not a TransferCounter or None.

    See Also
    --------
    assert_no_transfers : fail when a block copies.
    TransferBudget : count and check the copies of each phase of a program.

    Examples
    --------
    >>> import numpy as np
    >>> import cunumpy as xp
    >>> from cunumpy import profiling
    >>> with profiling.count_transfers() as counter:
    ...     y = xp.to_numpy(np.ones(3))  # already on the host: no copy
    >>> counter.total, counter.to_host
    (0, 0)
    >>> totals = profiling.TransferCounter()
    >>> @profiling.count_transfers(into=totals)
    ... def step():
    ...     return xp.to_numpy(np.ones(3))
    >>> _ = step()
    >>> totals.total
    0
    """
    if into is not None and not isinstance(into, TransferCounter):
        msg = f"count_transfers: `into` must be a TransferCounter or None, not {into!r}."
        raise TypeError(msg)
    return _CountingBlock(into, "count_transfers", False)


def assert_no_transfers(*, syncs: bool = False) -> _CountingBlock:
    """Fail when the block copies between host and device through cunumpy.

    A :func:`count_transfers` block that raises ``AssertionError`` on exit if it
    recorded a copy between host and device or a kernel conversion/fallback marker.
    Copies that stay on GPUs (``device_copy``) are allowed, and so are the host's waits
    for a GPU unless ``syncs=True``. An exception raised inside the block propagates
    unchanged, without the check. Also a decorator.

    Parameters
    ----------
    syncs : bool, default False
        Reject the host's waits for a GPU too, e.g. in a time step that must never stall.

    Returns
    -------
    context manager and decorator
        As a ``with`` block it yields the block's :class:`TransferCounter`.

    Raises
    ------
    AssertionError
        On exit, when the block copied; the message is the counter's report, with the
        call site of each copy.
    TypeError
        If ``syncs`` is not a bool.

    Examples
    --------
    >>> import cunumpy as xp
    >>> from cunumpy import profiling
    >>> with profiling.assert_no_transfers():
    ...     y = 2.0 * xp.ones(3)
    >>> @profiling.assert_no_transfers(syncs=True)
    ... def step(x):
    ...     return x + 1
    >>> step(xp.zeros(2)).tolist()
    [1.0, 1.0]
    """
    if not isinstance(syncs, bool):
        msg = f"assert_no_transfers: `syncs` must be a bool (True or False), not {syncs!r}."
        raise TypeError(msg)
    return _CountingBlock(None, "assert_no_transfers", syncs)
