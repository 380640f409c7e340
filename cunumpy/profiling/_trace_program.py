"""Recording a whole program: ``CUNUMPY_TRACE=path`` at import, ``python -m cunumpy trace``.

``record_program`` starts a recording when ``import cunumpy`` finds ``CUNUMPY_TRACE`` set,
and ends it at the interpreter's exit (``atexit``); mpi4py finalizes MPI later (its
handler is a C-level ``Py_AtExit``, which runs after every ``atexit`` handler), so that
the ranks of an MPI job still meet to merge their timelines. ``run_program`` runs a
script or module under a recording, as ``python -m cunumpy trace`` does.
"""

from __future__ import annotations

import argparse
import atexit
import os
import runpy
import sys
from collections.abc import Sequence

from .._trace import _recorder
from ._trace import Trace, trace

__all__ = ["DEFAULT_PATH", "ENV_VAR", "record_program", "run_program"]

ENV_VAR = "CUNUMPY_TRACE"
"""The environment variable that records a whole program: the JSON file to write."""

DEFAULT_PATH = "cunumpy-trace.json"
"""Where a whole program's recording goes when ``CUNUMPY_TRACE`` is ``1``."""


def _path_from_environment() -> str:
    value = os.environ.get(ENV_VAR, "").strip()
    return DEFAULT_PATH if value.lower() in ("1", "true", "yes", "on") else value


def _stop(recording: Trace) -> None:
    if recording._recorder is not None:  # not stopped by the program itself
        # An uncaught exception (Python keeps it in sys.last_value before the exit
        # handlers run) ends this rank alone: the others may never reach their exit.
        recording.stop(alone=hasattr(sys, "last_value") or hasattr(sys, "last_exc"))


def record_program() -> Trace:
    """Start recording the whole program into the file ``CUNUMPY_TRACE`` names (at import)."""
    try:
        recording = trace(_path_from_environment())
    except (TypeError, ValueError) as exc:
        msg = f"{ENV_VAR}={os.environ.get(ENV_VAR)!r} is not a file to write the trace to: {exc}"
        raise ValueError(msg) from exc
    recording.start()
    atexit.register(_stop, recording)
    return recording


def run_program(argv: Sequence[str]) -> int:
    """``python -m cunumpy trace [options] script.py args...``: run under a recording."""
    parser = argparse.ArgumentParser(
        prog="python -m cunumpy trace",
        description=(
            "Run a Python program and record a timeline of its regions, copies, waits, "
            "kernels and MPI calls (Chrome trace JSON and an offline HTML page)."
        ),
    )
    parser.add_argument(
        "-o", "--output", default=DEFAULT_PATH, help=f"the JSON file to write ({DEFAULT_PATH})"
    )
    parser.add_argument("--no-html", action="store_true", help="write the JSON file only")
    parser.add_argument(
        "--capacity", type=int, default=_recorder.DEFAULT_CAPACITY,
        help="the most timeline events kept per rank",
    )  # fmt: skip
    parser.add_argument(
        "-m", dest="module", help="run a module, as python -m does (what follows: its arguments)"
    )
    parser.add_argument(
        "program", nargs="?", help="the script to run (or the module's first argument)"
    )
    parser.add_argument("args", nargs=argparse.REMAINDER, help="its arguments")
    options = parser.parse_args(list(argv))
    if options.module is None and options.program is None:
        parser.error("give a script to run, or -m and a module")
    running = _recorder.RECORDER
    recording = None
    if running is None:
        recording = trace(options.output, html=not options.no_html, capacity=options.capacity)
    else:
        print(f"python -m cunumpy trace: {ENV_VAR} records already; {options.output} is not used")
    if options.module is not None:
        sys.argv = [options.module, *([options.program] if options.program else []), *options.args]
    else:
        sys.argv = [options.program, *options.args]
        sys.path.insert(0, os.path.dirname(os.path.abspath(options.program)))
    code = 0
    if recording is not None:
        recording.start()
    try:
        if options.module is not None:
            runpy.run_module(options.module, run_name="__main__", alter_sys=True)
        else:
            runpy.run_path(options.program, run_name="__main__")
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    finally:
        if recording is not None:
            recording.stop()
    return code
