"""Counting Dask's graph executions: the check behind "no hidden compute".

A Dask scheduler callback (``dask.callbacks.Callback``) sees each execution of a graph on
the local schedulers (``compute()``, ``persist()``, ``__bool__``, ``__float__``,
``numpy.asarray`` of a Dask array, ...). Building a graph, including Dask's inference of
dtypes on empty metas, executes none. Dask is imported only when counting starts.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

__all__ = ["ComputeCounter", "counting_computes"]


@dataclass
class ComputeCounter:
    """How many Dask graphs ran while counting, and the number of tasks of each."""

    count: int = 0
    tasks: list[int] = field(default_factory=list)

    def _started(self, dsk: Any) -> None:
        self.count += 1
        self.tasks.append(len(dsk))


@contextmanager
def counting_computes() -> Iterator[ComputeCounter]:
    """Count the Dask graphs that run inside the block.

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
    """
    from dask.callbacks import Callback

    counter = ComputeCounter()
    with Callback(start=counter._started):
        yield counter
