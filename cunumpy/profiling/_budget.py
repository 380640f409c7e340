"""``TransferBudget``: the copies between host and device of each phase of a program, checked."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, ParamSpec, TypeVar

from .._placement._transfer_log import call_site, listening
from ._transfer_events import TransferEvent, check_kind
from ._transfers import TransferCounter

__all__ = ["TransferBudget"]

_P = ParamSpec("_P")
_R = TypeVar("_R")

_LIMITS = ("max_nbytes", "max_count", "max_total_bytes", "blocking", "implicit")


@dataclass(frozen=True)
class _Rule:
    allow: dict[str, dict[str, Any]]
    ignore: tuple[str, ...]
    calls: int | None


def _check_limits(phase: str, kind: str, limits: Mapping[str, Any]) -> dict[str, Any]:
    unknown = sorted(set(limits) - set(_LIMITS))
    if unknown:
        msg = f"TransferBudget.require: unknown limits {unknown} for {kind!r} in phase {phase!r}; expected some of {_LIMITS}."
        raise ValueError(msg)
    for name, value in limits.items():
        if name in ("blocking", "implicit"):
            if not isinstance(value, bool):
                msg = f"TransferBudget.require: limit `{name}` of {kind!r} must be a bool, not {value!r}."
                raise TypeError(msg)
            continue
        if isinstance(value, bool) or not isinstance(value, int):
            msg = f"TransferBudget.require: limit `{name}` of {kind!r} must be an int >= 0, not {value!r}."
            raise TypeError(msg)
        if value < 0:
            msg = f"TransferBudget.require: limit `{name}` of {kind!r} must be an int >= 0, not {value!r}."
            raise ValueError(msg)
    return dict(limits)


class TransferBudget:
    """Count the copies between host and device per phase of a program, and check rules.

    Mark the phases of a program with :meth:`phase` (a ``with`` block) or :meth:`count`
    (a decorator), set what each phase may copy with :meth:`require`, and call
    :meth:`check`; for example: the time step copies nothing, the diagnostics a few
    scalars, the output each array once. The events of a phase accumulate over its
    calls. Phases nest: a copy counts in the innermost open phase only, and a phase
    entered again inside itself (recursion) counts its calls and copies once. Like
    :func:`count_transfers`, a budget sees the copies of the thread or task it runs in.

    Parameters
    ----------
    started : bool, default True
        Count from the start; with ``False`` the phases run uncounted until :meth:`start`
        (e.g. to skip warm-up steps).

    Attributes
    ----------
    phases : dict of str to TransferCounter
        The events of each phase, over all its calls.
    calls : dict of str to int
        How many times each phase was entered while counting.
    started : bool
        Whether phases are counted.

    Examples
    --------
    >>> import cunumpy as xp
    >>> from cunumpy import profiling
    >>> budget = profiling.TransferBudget()
    >>> for _ in range(3):
    ...     with budget.phase("step"):
    ...         x = 2.0 * xp.ones(4)
    >>> budget.require("step", allow={"to_host": {"max_nbytes": 8}}, calls=3)
    >>> budget.check()
    >>> budget.violations()
    []
    >>> budget.require("step", calls=2)
    >>> budget.violations()
    ['step: 3 call(s), expected 2']
    """

    def __init__(self, *, started: bool = True) -> None:
        if not isinstance(started, bool):
            msg = f"TransferBudget: `started` must be a bool (True or False), not {started!r}."
            raise TypeError(msg)
        self.phases: dict[str, TransferCounter] = {}
        self.calls: dict[str, int] = {}
        self.started = started
        self._rules: dict[str, _Rule] = {}
        self._open: ContextVar[tuple[str, ...]] = ContextVar("cunumpy_budget_phases", default=())
        self._listener = self._route  # one object, so that nested phases add it once

    def __getitem__(self, phase: str) -> TransferCounter:
        """The counter of ``phase`` (an empty one when it has not run)."""
        return self.phases.setdefault(phase, TransferCounter())

    def start(self) -> None:
        """Count the phases from now on."""
        self.started = True

    def stop(self) -> None:
        """Stop counting: phases run uncounted until :meth:`start`."""
        self.started = False

    def _route(
        self,
        kind: str,
        description: str,
        nbytes: int | None,
        blocking: bool,
        implicit: bool,
    ) -> None:
        innermost = self._open.get()[-1]
        event = TransferEvent(kind, description, call_site(), nbytes, blocking, implicit)
        self[innermost].events.append(event)

    @contextmanager
    def phase(self, name: str) -> Iterator[TransferCounter]:
        """Count the copies of a ``with`` block in the phase ``name``.

        Parameters
        ----------
        name : str
            The phase; its events accumulate over its calls.

        Yields
        ------
        TransferCounter
            The counter of the phase (``budget[name]``).

        Raises
        ------
        TypeError
            If ``name`` is not a str.
        """
        if not isinstance(name, str):
            msg = f"TransferBudget.phase: `name` must be a str, not {name!r}."
            raise TypeError(msg)
        counter = self[name]
        if not self.started:
            yield counter
            return
        open_phases = self._open.get()
        if name not in open_phases:
            self.calls[name] = self.calls.get(name, 0) + 1
        token = self._open.set((*open_phases, name))
        try:
            with listening(self._listener):
                yield counter
        finally:
            self._open.reset(token)

    def count(self, name: str) -> Callable[[Callable[_P, _R]], Callable[_P, _R]]:
        """Return a decorator that runs each call of a function in the phase ``name``.

        Parameters
        ----------
        name : str
            The phase.

        Returns
        -------
        callable
            The decorator: ``step = budget.count("step")(step)``.

        Examples
        --------
        >>> from cunumpy import profiling
        >>> budget = profiling.TransferBudget()
        >>> @budget.count("step")
        ... def step():
        ...     return 1
        >>> step() + step(), budget.calls["step"]
        (2, 2)
        """
        if not isinstance(name, str):
            msg = f"TransferBudget.count: `name` must be a str, not {name!r}."
            raise TypeError(msg)

        def decorate(fn: Callable[_P, _R]) -> Callable[_P, _R]:
            @functools.wraps(fn)
            def counted(*args: _P.args, **kwargs: _P.kwargs) -> _R:
                with self.phase(name):
                    return fn(*args, **kwargs)

            return counted

        return decorate

    def require(
        self,
        phase: str,
        allow: Mapping[str, Mapping[str, Any] | None] | None = None,
        *,
        ignore: Sequence[str] = ("device_copy", "sync"),
        calls: int | None = None,
    ) -> None:
        """Set the rule of a phase, which :meth:`check` enforces (replacing an earlier one).

        Parameters
        ----------
        phase : str
            The phase.
        allow : mapping of str to mapping, optional
            The kinds of event the phase may have, each with its limits (``None`` or
            ``{}``: any number). Other kinds are forbidden unless in ``ignore``. Limits:
            ``max_nbytes`` (each event; an event of unknown size breaks it),
            ``max_count`` and ``max_total_bytes`` (the whole phase), ``blocking`` and
            ``implicit`` (the value the events must have). Example:
            ``{"to_host": {"max_nbytes": 8, "blocking": False}}``.
        ignore : sequence of str, default ("device_copy", "sync")
            Kinds that are not checked unless they are in ``allow``.
        calls : int, optional
            How many times the phase must have been entered.

        Raises
        ------
        TypeError
            If an argument has the wrong type.
        ValueError
            If ``allow`` or ``ignore`` names an unknown kind or limit.
        """
        if not isinstance(phase, str):
            msg = f"TransferBudget.require: `phase` must be a str, not {phase!r}."
            raise TypeError(msg)
        if allow is not None and not isinstance(allow, Mapping):
            msg = f"TransferBudget.require: `allow` must be a mapping of kind to limits or None, not {allow!r}."
            raise TypeError(msg)
        if isinstance(ignore, str) or not isinstance(ignore, Sequence):
            msg = f"TransferBudget.require: `ignore` must be a sequence of kinds, not {ignore!r}."
            raise TypeError(msg)
        if calls is not None and (isinstance(calls, bool) or not isinstance(calls, int)):
            msg = f"TransferBudget.require: `calls` must be an int or None, not {calls!r}."
            raise TypeError(msg)
        rules: dict[str, dict[str, Any]] = {}
        for kind, limits in (allow or {}).items():
            check_kind(kind, "TransferBudget.require")
            if limits is not None and not isinstance(limits, Mapping):
                msg = f"TransferBudget.require: the limits of {kind!r} must be a mapping or None, not {limits!r}."
                raise TypeError(msg)
            rules[kind] = _check_limits(phase, kind, limits or {})
        ignored = tuple(check_kind(kind, "TransferBudget.require") for kind in ignore)
        self._rules[phase] = _Rule(rules, ignored, calls)

    def violations(self) -> list[str]:
        """Return the broken rules, one line each, naming the phase and the event.

        Returns
        -------
        list of str
            Empty when every rule holds.
        """
        found: list[str] = []
        for name, rule in self._rules.items():
            events = self[name].events
            entered = self.calls.get(name, 0)
            if rule.calls is not None and entered != rule.calls:
                found.append(f"{name}: {entered} call(s), expected {rule.calls}")
            for event in events:
                limits = rule.allow.get(event.kind)
                if limits is None:  # not allowed: a violation unless ignored
                    if event.kind not in rule.ignore:
                        found.append(f"{name}: not allowed: {event}")
                    continue
                most = limits.get("max_nbytes")
                if most is not None and (event.nbytes is None or event.nbytes > most):
                    found.append(f"{name}: {event.nbytes} bytes > max_nbytes={most}: {event}")
                for flag in ("blocking", "implicit"):
                    if flag in limits and getattr(event, flag) != limits[flag]:
                        found.append(f"{name}: {flag}={getattr(event, flag)} not allowed: {event}")
            for kind, limits in rule.allow.items():
                of_kind = [event for event in events if event.kind == kind]
                most = limits.get("max_count")
                if most is not None and len(of_kind) > most:
                    found.append(f"{name}: {len(of_kind)} {kind} > max_count={most}")
                most = limits.get("max_total_bytes")
                size = sum(event.nbytes or 0 for event in of_kind)
                if most is not None and size > most:
                    found.append(f"{name}: {size} bytes of {kind} > max_total_bytes={most}")
        return found

    def report(self) -> str:
        """Return the report of every phase, then the broken rules.

        Returns
        -------
        str
            Per phase its calls and :meth:`TransferCounter.report`, then the
            :meth:`violations` when there are any.
        """
        lines: list[str] = []
        for name, counter in self.phases.items():
            lines.append(f"{name} ({self.calls.get(name, 0)} call(s)):")
            lines += [f"  {line}" for line in counter.report().splitlines()]
        broken = self.violations()
        if broken:
            lines.append("broken rules:")
            lines += [f"  {line}" for line in broken]
        return "\n".join(lines)

    def check(self) -> None:
        """Raise ``AssertionError`` with :meth:`report` when a rule is broken."""
        if self.violations():
            msg = f"TransferBudget.check: the transfer budget is exceeded:\n{self.report()}"
            raise AssertionError(msg)

    def __repr__(self) -> str:
        state = "counting" if self.started else "stopped"
        return (
            f"<TransferBudget {state}: phases {list(self.phases)}, rules for {list(self._rules)}>"
        )
