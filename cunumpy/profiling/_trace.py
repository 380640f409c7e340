"""``trace``: record a timeline of regions, copies, waits, kernels and MPI calls to files.

A recording turns on the hooks of ``cunumpy._trace._recorder``; when it ends, the events
of every rank are gathered to rank 0 (under MPI), which writes one Chrome trace JSON file
and one self-contained HTML timeline, and prints the summary.
"""

from __future__ import annotations

import functools
import os
import socket
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import IO, Any, ParamSpec, TypeVar

from .._trace import _recorder
from .._trace._buffer import Recorder, Tee
from ._regions import cupy_holds_work
from ._trace_files import write_chrome_json, write_html
from ._trace_ranks import RankTrace
from ._trace_summary import summary_text

__all__ = ["Trace", "trace"]

_P = ParamSpec("_P")
_R = TypeVar("_R")


def _world() -> Any:
    """MPI's ``COMM_WORLD`` when mpi4py is imported and MPI runs with several ranks, else None.

    Never imports mpi4py: a program that does not use MPI is traced as one process.
    """
    mpi = sys.modules.get("mpi4py.MPI")
    if mpi is None:
        return None
    try:
        if not mpi.Is_initialized() or mpi.Is_finalized():
            return None
        world = mpi.COMM_WORLD
        return world if world.Get_size() > 1 else None
    except Exception:  # an MPI that cannot answer: this process records alone
        return None


class Trace:
    """A recording of a timeline; made by :func:`trace`, used as a ``with`` block or decorator.

    After the recording, ``files`` lists the files written (on rank 0 only, under MPI),
    and ``summary`` holds the summary text (on every rank: rank 0's covers all ranks).

    Attributes
    ----------
    path : pathlib.Path
        The Chrome trace JSON file; the HTML timeline is beside it, with ``.html``.
    html : bool
        Whether the HTML timeline is written.
    capacity : int
        Timeline events kept per rank; later ones are counted as dropped.
    files : list of pathlib.Path
        The files written by the last recording.
    summary : str or None
        The summary of the last recording.

    Examples
    --------
    Started and stopped by hand, where a ``with`` block does not fit the program:

    >>> import tempfile, pathlib
    >>> from cunumpy import profiling
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> recording = profiling.trace(folder / "steps.json", html=False, summary=False)
    >>> recording
    <Trace '...steps.json': 0 file(s)>
    >>> _ = recording.start()
    >>> with profiling.timed_region("step"):
    ...     pass
    >>> [f.name for f in recording.stop()]
    ['steps.json']

    As a decorator, each call is recorded and rewrites the files:

    >>> @profiling.trace(folder / "solve.json", summary=False)
    ... def solve():
    ...     with profiling.timed_region("solve"):
    ...         return 42
    >>> solve()
    42
    >>> sorted(f.name for f in folder.iterdir())
    ['solve.html', 'solve.json', 'steps.json']
    """

    def __init__(
        self,
        path: Path,
        html: bool,
        capacity: int,
        stream: IO[str] | bool,
    ) -> None:
        self.path = path
        self.html = html
        self.capacity = capacity
        self._out = stream
        self.files: list[Path] = []
        self.summary: str | None = None
        self._recorder: Recorder | None = None
        self._outer: Any = None  # the recording this one started inside, if any
        self._world: Any = None

    def __repr__(self) -> str:
        state = "recording" if self._recorder is not None else f"{len(self.files)} file(s)"
        return f"<Trace {str(self.path)!r}: {state}>"

    def start(self) -> Trace:
        """Start recording (what entering the ``with`` block does)."""
        if self._recorder is not None:
            msg = f"trace: the recording for {str(self.path)!r} is already running."
            raise RuntimeError(msg)
        recorder = Recorder(self.capacity)
        self._world = _world()
        if self._world is not None:  # every rank enters: the clocks meet at the start
            self._world.Barrier()
            recorder.start = recorder.sync_point = _recorder.clock() or recorder.start
        self._recorder = recorder
        self._outer = _recorder.RECORDER  # a recording running already goes on: both record
        _recorder.RECORDER = recorder if self._outer is None else Tee(self._outer, recorder)
        if cupy_holds_work():  # the pool's bytes wherever CuPy holds work
            recorder.memory(recorder.start)
        return self

    def stop(self, *, alone: bool = False) -> list[Path]:
        """Stop recording, gather the ranks and write the files; returns the files written.

        ``alone=True`` (what the end of a whole program by an uncaught exception does) does
        not meet the other ranks, which may never arrive: under MPI, such a rank writes its
        own files, named ``<name>.rank<N>.json`` and ``.html``.
        """
        recorder = self._recorder
        if recorder is None:
            msg = f"trace: the recording for {str(self.path)!r} is not running; start it first."
            raise RuntimeError(msg)
        if cupy_holds_work():  # the pool's bytes wherever CuPy holds work
            recorder.memory(_recorder.clock())
        _recorder.RECORDER = self._outer
        self._recorder = self._outer = None
        recorder.finish()
        world = self._world if self._world is not None else _world()
        mine = _rank_trace(recorder, 0 if world is None else world.Get_rank())
        target = self.path
        if world is not None and alone:
            target = self.path.with_name(f"{self.path.stem}.rank{mine.rank}.json")
            world = None
        if world is not None:
            if recorder.sync_point is None:  # started alone (CUNUMPY_TRACE): meet now
                world.Barrier()
                mine.sync = time.perf_counter_ns()
            ranks = world.gather(mine, root=0)
            if world.Get_rank() != 0:
                self.summary = summary_text([mine])
                self.files = []
                return self.files
        else:
            ranks = [mine]
        self.files = self._write(ranks, target)
        self.summary = summary_text(ranks)
        if self._out is not False:
            out = sys.stderr if self._out is True else self._out
            names = ", ".join(str(f) for f in self.files)
            print(f"{self.summary}\ncunumpy trace: wrote {names}", file=out)
        return self.files

    def _write(self, ranks: list[RankTrace], target: Path) -> list[Path]:
        target.parent.mkdir(parents=True, exist_ok=True)
        written = [write_chrome_json(ranks, target)]
        if self.html:
            written.append(write_html(ranks, target.with_suffix(".html")))
        return written

    def __enter__(self) -> Trace:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()  # also after an exception: the other ranks wait in the gather

    def __call__(self, fn: Callable[_P, _R]) -> Callable[_P, _R]:
        """Decorate ``fn``: each call is recorded (and rewrites the files)."""
        if not callable(fn):
            msg = f"trace: can only decorate a callable, not {fn!r}."
            raise TypeError(msg)

        @functools.wraps(fn)
        def traced(*args: _P.args, **kwargs: _P.kwargs) -> _R:
            with self:
                return fn(*args, **kwargs)

        return traced


def _rank_trace(recorder: Recorder, rank: int) -> RankTrace:
    from .._backend_choice._config import get_backend

    return RankTrace(
        rank=rank,
        host=socket.gethostname(),
        pid=os.getpid(),
        backend=get_backend() + (" (fake CuPy)" if _fake_cupy() else ""),
        events=recorder.events,
        totals=recorder.totals,
        start=recorder.start,
        end=recorder.end or recorder.start,
        sync=recorder.sync_point if recorder.sync_point is not None else recorder.start,
        dropped=recorder.dropped,
        first_drop=recorder.first_drop,
        capacity=recorder.capacity,
    )


def _fake_cupy() -> bool:
    cupy = sys.modules.get("cupy")
    return cupy is not None and bool(getattr(cupy, "__cunumpy_fake__", False))


def _check_path(path: object) -> Path:
    if not isinstance(path, (str, os.PathLike)):
        msg = f"trace: `path` must be a str or os.PathLike (the JSON file to write), not {path!r}."
        raise TypeError(msg)
    result = Path(os.fspath(path))
    if not str(result) or result.name in ("", ".", ".."):
        msg = f"trace: `path` must name a file, not {str(path)!r}."
        raise ValueError(msg)
    if result.suffix != ".json":
        result = result.with_name(result.name + ".json")
    return result


def trace(
    path: str | os.PathLike[str] = "cunumpy-trace.json",
    *,
    html: bool = True,
    capacity: int = _recorder.DEFAULT_CAPACITY,
    summary: IO[str] | bool = True,
) -> Trace:
    """Record a timeline of a block or of each call of a function, to files opened offline.

    The recording holds every ``timed_region`` and ``nvtx_range`` (host intervals, with
    their nesting), and where CuPy holds work each region's device interval from CUDA
    events on its stream and the CuPy pool's bytes at its boundaries; every copy cunumpy
    makes between host and device (direction, bytes, pinned or pageable, stream, the call
    site in your code, duration); every wait of the host for the device (synchronizations,
    copies to the host, ``to_host_async(...).result()``, ``synchronize_for_mpi``); the
    launches of ``cunumpy.kernels`` kernels (name, grid, stream, device interval); and
    ``cunumpy.mpi`` collectives and point-to-point calls with the time each rank spent in
    them.

    When it ends, it writes ``path``, a Chrome trace event file (JSON; open it in
    https://ui.perfetto.dev, ``chrome://tracing`` or Speedscope), and beside it a
    self-contained HTML timeline (``.html``; no network needed), then prints the summary
    to ``summary``. Under MPI (mpi4py imported and more than one rank), every rank must
    enter and leave the recording: the clocks are aligned by a barrier at the start, the
    events gathered to rank 0, and rank 0 writes one file with a process track per rank.
    A rank that leaves the block by an exception still takes part (the others wait for it).

    A recording started inside another (a ``trace`` block in a program run with
    ``CUNUMPY_TRACE``, or nested blocks) records alongside it: both get the events of the
    inner block, each writes its own files. Off (outside a recording), the hooks cost one
    attribute read each. On, a region costs about 6 µs more and a copy about 10 µs more
    (``benchmarks/bench_profiling.py``; docs/tracing.md gives the figures).
    ``CUNUMPY_TRACE=path python app.py`` and ``python -m cunumpy trace app.py`` record a
    whole program without changing it.

    Parameters
    ----------
    path : str or os.PathLike, default "cunumpy-trace.json"
        The JSON file to write (``.json`` is appended when the name lacks it); the HTML
        timeline gets the same name with ``.html``. Folders are created.
    html : bool, default True
        Whether to write the HTML timeline too.
    capacity : int, default 1_000_000
        The most timeline events kept per rank. When the buffer is full, later events are
        not kept but counted: the files and the summary say how many were dropped and
        from when, and the summary's totals still count every event.
    summary : bool or file-like, default True
        Where rank 0 prints the summary and the names of the files: ``True`` for
        ``sys.stderr``, a text file, or ``False`` for nowhere (the text stays in
        ``Trace.summary``).

    Returns
    -------
    Trace
        Use it as a context manager (it yields itself) or as a decorator.

    Raises
    ------
    TypeError
        If ``path`` is not a str or path, ``html`` not a bool or ``capacity`` not an int.
    ValueError
        If ``path`` names no file or ``capacity`` is below 1.
    RuntimeError
        When entered while it records already (another ``Trace`` may: both record).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from cunumpy import profiling
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> with profiling.trace(folder / "run.json", summary=False) as recording:
    ...     with profiling.timed_region("step"):
    ...         pass
    >>> [f.name for f in recording.files]
    ['run.json', 'run.html']
    >>> "step" in recording.summary
    True
    """
    target = _check_path(path)
    if not isinstance(html, bool):
        msg = f"trace: `html` must be a bool (True or False), not {html!r}."
        raise TypeError(msg)
    if isinstance(capacity, bool) or not isinstance(capacity, int):
        msg = f"trace: `capacity` must be an int (events kept per rank), not {capacity!r}."
        raise TypeError(msg)
    if capacity < 1:
        msg = f"trace: `capacity` must be >= 1, not {capacity!r}."
        raise ValueError(msg)
    if not isinstance(summary, bool) and not callable(getattr(summary, "write", None)):
        msg = f"trace: `summary` must be a bool or a writable text file, not {summary!r}."
        raise TypeError(msg)
    return Trace(target, html, capacity, summary)
