"""NumPy's own docstring examples, run with ``np`` as cunumpy: does ours answer as NumPy does?

Usage::

    python tools/numpy_corpus.py [--071 PYTHON] [--only NAME ...] [-v]

The corpus is the ``>>>`` examples of NumPy's public functions (``numpy``,
``numpy.linalg``, ``numpy.fft``) and of its ufuncs' methods (``ufunc.reduce``, ...):
programs we did not write. Each function's examples run
twice in one process, in order and in a fresh namespace: once as written (NumPy), once with
``import numpy as np`` read as ``import cunumpy as np`` (on the NumPy backend). A function
matches when every example prints the same text, and raises an exception of the same class
(ours may raise a subclass), as NumPy. Examples whose NumPy output shows an object address
are run but not compared; functions whose examples draw random numbers, plot, or touch
files or the environment are left out, so the figures are deterministic.

The same runs in CuNumpy 0.7.1's interpreter (``--071``; it has the same import name, so
it is a separate process, started isolated so that this checkout is not imported). The
report lists, per function, whether ours and 0.7.1 match NumPy, then the functions where
0.7.1 matches and ours does not. The exit status is the number of those.
"""

from __future__ import annotations

import argparse
import contextlib
import doctest
import io
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

#: Examples with any of these are left out: random output, plots, files, the environment.
SKIP_SOURCE = re.compile(
    r"random|rng|matplotlib|plt\.|tempfile|TemporaryFile|open\(|tofile|fromfile|memmap|"
    r"\bsave|savetxt|savez|\bload\(|os\.|sys\.|getbufsize|setbufsize|show_config|"
    r"show_runtime|\binfo\(|datetime64\('today'\)|datetime64\('now'\)|import time\b|\bid\("
)
#: Functions left out by name: they print the environment, NumPy's sources or uninitialized memory.
SKIP_NAMES = frozenset({"show_config", "show_runtime", "info", "source", "test", "who", "empty",
                        "empty_like"})  # fmt: skip
#: NumPy's output that differs between two identical runs (an object's address).
ADDRESS = re.compile(r"0x[0-9a-fA-F]{6,}")
TIMEOUT_S = 10


def collect() -> dict[str, Any]:
    """NumPy's public functions and ufunc methods with examples: ``name -> object`` (aliases once)."""
    import numpy

    found: dict[str, Any] = {}
    seen: set[int] = set()
    modules = (("", numpy, sorted(dir(numpy))), ("linalg.", numpy.linalg, numpy.linalg.__all__),
               ("fft.", numpy.fft, numpy.fft.__all__),
               ("ufunc.", numpy.ufunc, ["accumulate", "at", "outer", "reduce", "reduceat"]))  # fmt: skip
    for prefix, module, names in modules:
        for name in names:
            obj = getattr(module, name, None)
            if name.startswith("_") or name in SKIP_NAMES or not callable(obj):
                continue
            if isinstance(obj, type) or id(obj) in seen or ">>>" not in (obj.__doc__ or ""):
                continue
            seen.add(id(obj))
            found[prefix + name] = obj
    return found


def _examples(name: str, obj: Any) -> list[str] | None:
    """The sources of the examples of ``obj``, or None when they are left out."""
    finder = doctest.DocTestFinder(recurse=False)
    tests = finder.find(obj, name, module=False, globs={})
    sources = [example.source for test in tests for example in test.examples]
    if not sources or any(SKIP_SOURCE.search(source) for source in sources):
        return None
    return sources


def _on_timeout(signum: int, frame: Any) -> None:
    msg = f"the examples ran longer than {TIMEOUT_S} s"
    raise TimeoutError(msg)


def _run(sources: list[str], module: Any, rewrite: bool) -> list[list[Any]]:
    """Run the examples in order: per example, ``[printed text, exception class names]``."""
    import numpy

    namespace: dict[str, Any] = {"np": module, "__name__": "__corpus__"}
    records: list[list[Any]] = []
    numpy.random.seed(0)  # noqa: NPY002 - the global state some functions' examples read
    with contextlib.ExitStack() as stack:
        stack.enter_context(numpy.printoptions())
        stack.enter_context(numpy.errstate())
        stack.enter_context(warnings.catch_warnings())
        warnings.simplefilter("ignore")
        previous = signal.signal(signal.SIGALRM, _on_timeout)
        signal.alarm(TIMEOUT_S)
        try:
            for source in sources:
                if rewrite:
                    source = source.replace("import numpy as np", "import cunumpy as np")
                printed, raised = io.StringIO(), []
                try:
                    with contextlib.redirect_stdout(printed):
                        exec(compile(source, "<example>", "single"), namespace)
                except TimeoutError:
                    raise
                except Exception as exc:  # compared with NumPy's, never hidden
                    raised = [cls.__name__ for cls in type(exc).__mro__]
                records.append([printed.getvalue(), raised])
        except TimeoutError:
            records.append(["", ["TimeoutError"]])
        finally:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, previous)
    return records


def _difference(expected: list[list[Any]], got: list[list[Any]]) -> int | None:
    """The index of the first example where ``got`` differs from NumPy's, else None."""
    for index, (numpy_record, our_record) in enumerate(zip(expected, got)):
        text, raised = numpy_record
        if ADDRESS.search(text):
            continue
        if text != our_record[0] or bool(raised) != bool(our_record[1]):
            return index
        if raised and raised[0] not in our_record[1]:
            return index
    return None if len(expected) == len(got) else min(len(expected), len(got))


def worker(only: list[str] | None) -> dict[str, Any]:
    """In this interpreter: each function's result, ``match`` or the first difference."""
    os.environ["CUNUMPY_BACKEND"] = "numpy"
    import numpy

    import cunumpy

    cunumpy.set_backend("numpy")
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as scratch:
        os.chdir(scratch)  # an example that writes a file writes it here
        for name, obj in collect().items():
            if only and name not in only:
                continue
            sources = _examples(name, obj)
            if sources is None:
                continue
            expected = _run(sources, numpy, rewrite=False)
            got = _run(sources, cunumpy, rewrite=True)
            index = _difference(expected, got)
            if index is None:
                results[name] = {"match": True}
                continue
            at = min(index, len(sources) - 1)
            results[name] = {
                "match": False,
                "source": sources[at].strip(),
                "numpy": expected[index] if index < len(expected) else None,
                "ours": got[index] if index < len(got) else None,
            }
    return results


def _results_of(python: str, only: list[str] | None, ours: bool) -> dict[str, Any]:
    """The worker's results in another interpreter (ours from this checkout, 0.7.1 isolated)."""
    command = [python, *([] if ours else ["-I"]), str(Path(__file__).resolve()), "--worker"]
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    if ours:
        env["PYTHONPATH"] = str(ROOT)
    with tempfile.TemporaryDirectory() as cwd:
        done = subprocess.run(
            [*command, *(["--only", *only] if only else [])],
            capture_output=True, text=True, cwd=cwd, env=env, timeout=1800, check=False,
        )  # fmt: skip
    if done.returncode != 0:
        msg = f"numpy_corpus: the worker in {python} failed:\n{done.stderr[-4000:]}"
        raise RuntimeError(msg)
    results: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return results


def _shown(record: list[Any] | None) -> str:
    if record is None:
        return "(no example)"
    text, raised = record
    return (text.strip() or "(nothing)")[:200] + (f" [raised {raised[0]}]" if raised else "")


def report(ours: dict[str, Any], old: dict[str, Any] | None, verbose: bool) -> int:
    """Print the table, the figures and the functions where only 0.7.1 matches NumPy."""
    names = sorted(set(ours) & set(old) if old is not None else ours)
    print(f"{'function':<32} {'ours':<6} {'0.7.1' if old is not None else ''}")
    for name in names:
        mark = "match" if ours[name]["match"] else "DIFFER"
        old_mark = "" if old is None else ("match" if old[name]["match"] else "DIFFER")
        print(f"{name:<32} {mark:<6} {old_mark}")
    matched = sum(ours[name]["match"] for name in names)
    print(f"\n{len(names)} functions compared; ours matches NumPy on {matched}", end="")
    regressions = []
    if old is not None:
        old_matched = sum(old[name]["match"] for name in names)
        regressions = [n for n in names if old[n]["match"] and not ours[n]["match"]]
        print(f", 0.7.1 on {old_matched}", end="")
    print(".")
    if old is not None:
        print(f"\n0.7.1 matches NumPy and ours does not ({len(regressions)}):")
    shown = regressions if not verbose else [n for n in names if not ours[n]["match"]]
    for name in shown:
        result = ours[name]
        print(f"  {name}: >>> {result['source'][:160]}")
        print(f"      numpy: {_shown(result['numpy'])}")
        print(f"      ours:  {_shown(result['ours'])}")
    return len(regressions)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--071", dest="python071", help="the Python of a CuNumpy 0.7.1 venv")
    parser.add_argument("--only", nargs="+", help="these functions only (numpy's names)")
    parser.add_argument("-v", action="store_true", help="show every difference of ours")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        print(json.dumps(worker(args.only), sort_keys=True))
        return 0
    ours = _results_of(sys.executable, args.only, ours=True)
    old = _results_of(args.python071, args.only, ours=False) if args.python071 else None
    return report(ours, old, args.v)


if __name__ == "__main__":
    sys.exit(main())
