"""Counting Dask's graph executions: the check behind "no hidden compute".

A Dask scheduler callback (``dask.callbacks.Callback``) sees each execution of a graph on
the local schedulers (``compute()``, ``persist()``, ``__bool__``, ``__float__``,
``numpy.asarray`` of a Dask array, ...). Building a graph, including Dask's inference of
dtypes on empty metas, executes none. Dask is imported only when counting starts.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from .._settings._user_frames import call_site

__all__ = ["ComputeCounter", "counting_computes"]


@dataclass
class ComputeCounter:
    """How many Dask graphs ran while counting, the number of tasks of each, and where.

    ``where`` holds the ``"file:line"`` of the call that ran each graph: the innermost line
    of the stack outside Dask and cunumpy (``float(y)``, ``y.compute()``, ...). With a
    ``limit``, the graph beyond it raises ``AssertionError`` at that call, naming it.
    """

    count: int = 0
    tasks: list[int] = field(default_factory=list)
    where: list[str] = field(default_factory=list)
    limit: int | None = None
    declared: str = "the limit"

    def _started(self, dsk: Any) -> None:
        import dask

        self.count += 1
        self.tasks.append(len(dsk))
        self.where.append(call_site(also_skip=(os.path.dirname(dask.__file__) + os.sep,)))
        if self.limit is not None and self.count > self.limit:
            msg = (
                f"Dask graph {self.count} (of {self.tasks[-1]} tasks) ran at {self.where[-1]}, "
                f"more than {self.declared}."
            )
            raise AssertionError(msg)


@contextmanager
def counting_computes(
    *, limit: int | None = None, declared: str | None = None
) -> Iterator[ComputeCounter]:
    """Count the Dask graphs that run inside the block.

    Parameters
    ----------
    limit : int, optional
        The most graphs that may run: the one beyond it raises ``AssertionError`` at the
        call that ran it, whose file and line the message names.
    declared : str, optional
        What allows that many, for that message (default: ``counting_computes(limit=n)``).

    Examples
    --------
    >>> import dask.array as da
    >>> from cunumpy.testing import counting_computes
    >>> x = da.ones(4, chunks=2)
    >>> with counting_computes() as computes:
    ...     y = (x + 1).sum()  # builds a graph: nothing runs
    ...     value = float(y)  # runs it once
    >>> computes.count, value
    (1, 8.0)
    >>> with counting_computes(limit=0):
    ...     float(y)
    Traceback (most recent call last):
    ...
    AssertionError: Dask graph 1 (of ... tasks) ran at <doctest ...>:2, more than counting_computes(limit=0).
    """
    from dask.callbacks import Callback

    counter = ComputeCounter(limit=limit, declared=declared or f"counting_computes(limit={limit})")
    with Callback(start=counter._started):
        yield counter
