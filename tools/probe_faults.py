"""Try bad inputs against cunumpy as a hostile user would, and count how each is answered.

Every probe calls one public function with one bad argument and says what a good answer
is: the exception type the rules of the project give (``TypeError`` for a wrong type,
``ValueError`` for a bad value, ``RuntimeError`` for a missing capability, ...) and the
words the message must contain (the function's name and the bad value or its type).
Each answer is counted in one column:

- documented error: that exception type, with a message naming the function and value;
- wrong type: another exception type (``AttributeError``, ``IndexError``, ``BufferError``,
  ``ZeroDivisionError``, a raw ``mpi4py.MPI.Exception``, a traceback from the CLI ...);
- unclear message: the right type, but the message misses the function or the value;
- silently accepted: no exception at all;
- hang: no answer within the time limit (MPI probes run under ``mpiexec -n 2`` with a
  ``timeout``; the others under ``SIGALRM``).

Run ``python tools/probe_faults.py`` (add ``--list`` to see every probe that is not a
documented error, ``--no-mpi`` to skip the MPI probes). The script is not part of the
package; ``tests/test_faults.py`` holds the assertions the suite runs.
"""

from __future__ import annotations

import argparse
import ast
import os
import shutil
import signal
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from api_signatures import SIGNATURES  # noqa: E402

import cunumpy as xp  # noqa: E402

COLUMNS = ("documented error", "wrong type", "unclear message", "silently accepted", "hang")
HAND_WRITTEN = {"astype", "can_cast", "finfo", "iinfo", "isdtype", "result_type"}
NOT_ARRAY_TAKING = {
    "arange", "empty", "eye", "full", "linspace", "ones", "zeros", "asarray",
    "from_dlpack", "broadcast_shapes", "fftfreq", "rfftfreq",
}  # fmt: skip
Needle = str | tuple[str, ...]  # a word, or alternatives of which one must appear


class Probe:
    """One bad call, the exception it should raise, and what the message must name."""

    def __init__(
        self, label: str, call: Callable[[], Any], kind: type[BaseException],
        needles: tuple[Needle, ...], group: str,
    ) -> None:  # fmt: skip
        self.label, self.call, self.kind, self.needles, self.group = (
            label, call, kind, needles, group,
        )  # fmt: skip


class _Hang(BaseException):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise _Hang


def judge(kind: type[BaseException], needles: tuple[Needle, ...], exc: BaseException | None) -> str:
    if exc is None:
        return "silently accepted"
    if isinstance(exc, _Hang):
        return "hang"
    if not isinstance(exc, kind):
        return "wrong type"
    text = str(exc)
    for needle in needles:
        options = (needle,) if isinstance(needle, str) else needle
        if not any(option in text for option in options):
            return "unclear message"
    return "documented error"


def run_probe(probe: Probe, seconds: int = 20) -> tuple[str, str]:
    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(seconds)
    exc: BaseException | None = None
    try:
        probe.call()
    except _Hang as hang:
        exc = hang
    except BaseException as other:
        exc = other
    finally:
        signal.alarm(0)
    detail = "no exception" if exc is None else f"{type(exc).__name__}: {exc}"
    return judge(probe.kind, probe.needles, exc), detail


# --- dispatch: non-arrays where the standard asks for an array ---------------------------

SAMPLES = (
    lambda: np.asarray([2.0, 1.0, 3.0]),
    lambda: np.asarray([[2.0, 1.0], [1.0, 3.0]]),
    lambda: np.asarray([[2.0, 1.0]]),
    lambda: np.asarray([1, 0, 2]),
    lambda: np.asarray([True, False]),
    lambda: np.asarray([[[2.0, 1.0], [1.0, 3.0]]]),
)

FILLERS: dict[str, Any] = {
    "shape": (-1,), "fill_value": 1.0, "axis": 0, "source": 0, "destination": 0,
    "repeats": 1, "shift": 1, "repetitions": (1,), "axes": (0,), "num": 2, "n": 2,
}  # fmt: skip
AXES_DEFAULTS = {"permute_dims": None}


def _param_kinds(params: str) -> tuple[list[tuple[str, str, bool]], ast.arguments]:
    """(name, annotation, has default) of each parameter of a signature."""
    func = ast.parse(f"def f({params}): pass").body[0]
    assert isinstance(func, ast.FunctionDef)
    args = func.args
    positional = [*args.posonlyargs, *args.args]
    n_required = len(positional) - len(args.defaults)
    out = []
    for i, a in enumerate(positional):
        out.append((a.arg, ast.unparse(a.annotation) if a.annotation else "", i >= n_required))
    for a, d in zip(args.kwonlyargs, args.kw_defaults):
        out.append((a.arg, ast.unparse(a.annotation) if a.annotation else "", d is not None))
    return out, args


def _resolve(qualname: str) -> Callable[..., Any]:
    target: Any = xp
    for part in qualname.split("."):
        target = getattr(target, part)
    return target


def _valid_call(qualname: str, params: str) -> tuple[list[Any], dict[str, Any], list[str]] | None:
    """Arguments that make a valid call: positional values, keywords, array param names."""
    kinds, args = _param_kinds(params)
    func = _resolve(qualname)
    for sample in SAMPLES:
        positional: list[Any] = []
        keywords: dict[str, Any] = {}
        arrays: list[str] = []
        n_positional = len(args.posonlyargs) + len(args.args)
        for index, (name, annotation, has_default) in enumerate(kinds):
            if "array" in annotation:
                value: Any = sample()
                if annotation.startswith("Union[Tuple[array"):
                    value = [sample(), sample()]
                if name in ("indices",):
                    value = np.asarray([0])
                if qualname == "take_along_axis" and name == "indices":
                    value = np.zeros_like(sample(), dtype=np.int64)
                arrays.append(name)
                if has_default and not annotation.startswith(("Union", "array")):
                    continue  # optional arrays (prepend, sorter, rtol) are left out
            elif has_default:
                continue
            elif name == "shape" and qualname == "broadcast_to":
                value = sample().shape
            elif name in FILLERS:
                value = FILLERS[name]
            else:
                break
            if index < n_positional:
                positional.append(value)
            else:
                keywords[name] = value
        else:
            if args.vararg is not None:
                positional = [sample(), sample()]
                arrays = [args.vararg.arg]
            try:
                func(*positional, **keywords)
            except Exception:
                continue
            return positional, keywords, arrays
    return None


def _bad_values(annotation: str) -> list[Any]:
    if annotation == "array":
        return [None, 3, 2.5, [1.0, 2.0], "abc"]
    if annotation.startswith("Optional"):
        return ["abc", [1.0, 2.0]]
    return [None, [1.0, 2.0], "abc"]  # arrays or Python scalars


def dispatch_probes() -> list[Probe]:
    probes: list[Probe] = []
    for topic, entries in SIGNATURES.items():
        for name, entry in entries.items():
            if name in HAND_WRITTEN or name in NOT_ARRAY_TAKING:
                continue
            qualname = f"{topic}.{name}" if topic in ("linalg", "fft") else name
            valid = _valid_call(qualname, entry["params"])
            if valid is None:
                print(f"(no valid call found for {qualname}; not probed)", file=sys.stderr)
                continue
            positional, keywords, arrays = valid
            kinds, args = _param_kinds(entry["params"])
            annotations = {n: a for n, a, _ in kinds}
            func = _resolve(qualname)
            if args.vararg is not None or name in ("concat", "stack"):
                for bad in (None, 3, "abc"):
                    if name in ("concat", "stack"):
                        call: Callable[[], Any] = lambda f=func, b=bad: f([np.ones(2), b])  # noqa: E731
                    else:
                        call = lambda f=func, b=bad: f(np.ones(2), b)  # noqa: E731
                    probes.append(Probe(
                        f"{qualname}(..., {bad!r})", call, TypeError,
                        (name, (repr(bad), type(bad).__name__)), "dispatch",
                    ))  # fmt: skip
                if name in ("concat", "stack"):
                    probes.append(Probe(
                        f"{qualname}(None)", lambda f=func: f(None), TypeError,
                        (name, "None"), "dispatch",
                    ))  # fmt: skip
                continue
            n_positional = len(args.posonlyargs) + len(args.args)
            names = [n for n, _, _ in kinds]
            for param in arrays:
                annotation = annotations[param]
                bads = _bad_values(annotation)
                if param != arrays[0] and annotation == "array":
                    bads = [None, 3]
                for bad in bads:
                    pos, kw = list(positional), dict(keywords)
                    index = names.index(param)
                    if index < n_positional and index < len(pos):
                        pos[index] = bad
                    else:
                        kw[param] = bad
                    probes.append(Probe(
                        f"{qualname}({param}={bad!r})",
                        (lambda f=func, p=pos, k=kw: f(*p, **k)), TypeError,
                        (name, (repr(bad), type(bad).__name__)), "dispatch",
                    ))  # fmt: skip
            scalar_params = [p for p in arrays if annotations[p].startswith("Union[array")]
            if len(scalar_params) == 2 and len(arrays) == 2:
                probes.append(Probe(
                    f"{qualname}(1, 2)", (lambda f=func: f(1, 2)), TypeError,
                    (name, "array"), "dispatch",
                ))  # fmt: skip
    return probes


# --- the rest, written out ----------------------------------------------------------------


def _p(label: str, call: Callable[[], Any], kind: type[BaseException], *needles: Needle,
       group: str) -> Probe:  # fmt: skip
    return Probe(label, call, kind, needles, group)


def _report_to(file: Any) -> Any:
    from cunumpy import profiling

    with profiling.timed_region("probe"):
        pass
    return profiling.report(file=file)


def other_probes() -> list[Probe]:
    x = np.asarray([1.0, 2.0])
    c = "creation"
    probes = [
        _p("zeros(-1)", lambda: xp.zeros(-1), ValueError, "zeros", "-1", group=c),
        _p("zeros((2, -1))", lambda: xp.zeros((2, -1)), ValueError, "zeros", "-1", group=c),
        _p("ones(-3)", lambda: xp.ones(-3), ValueError, "ones", "-3", group=c),
        _p("empty(-1)", lambda: xp.empty(-1), ValueError, "empty", "-1", group=c),
        _p("full(-1, 1.0)", lambda: xp.full(-1, 1.0), ValueError, "full", "-1", group=c),
        _p("zeros('3')", lambda: xp.zeros("3"), TypeError, "zeros", "'3'", group=c),
        _p("zeros(2.5)", lambda: xp.zeros(2.5), TypeError, "zeros", "2.5", group=c),
        _p("zeros(None)", lambda: xp.zeros(None), TypeError, "zeros", "None", group=c),
        _p(
            "zeros(3, dtype='bogus')",
            lambda: xp.zeros(3, dtype="bogus"),
            TypeError,
            "zeros",
            "bogus",
            group=c,
        ),
        _p(
            "ones(3, dtype=list)",
            lambda: xp.ones(3, dtype=list),
            TypeError,
            "ones",
            "list",
            group=c,
        ),
        _p("full(3, None)", lambda: xp.full(3, None), TypeError, "full", "None", group=c),
        _p("full(3, 'x')", lambda: xp.full(3, "x"), TypeError, "full", "'x'", group=c),
        _p("eye(-1)", lambda: xp.eye(-1), ValueError, "eye", "-1", group=c),
        _p("eye(2.5)", lambda: xp.eye(2.5), TypeError, "eye", "2.5", group=c),
        _p("arange(0, 10, 0)", lambda: xp.arange(0, 10, 0), ValueError, "arange", "0", group=c),
        _p("arange('a')", lambda: xp.arange("a"), TypeError, "arange", "'a'", group=c),
        _p("arange(None)", lambda: xp.arange(None), TypeError, "arange", "None", group=c),
        _p(
            "linspace(0, 1, -1)",
            lambda: xp.linspace(0, 1, -1),
            ValueError,
            "linspace",
            "-1",
            group=c,
        ),
        _p(
            "linspace(0, 1, 2.5)",
            lambda: xp.linspace(0, 1, 2.5),
            TypeError,
            "linspace",
            "2.5",
            group=c,
        ),
        _p(
            "asarray([1, 2], copy=False)",
            lambda: xp.asarray([1, 2], copy=False),
            ValueError,
            "asarray",
            "copy",
            group=c,
        ),
        _p(
            "asarray(-1, dtype=uint8)",
            lambda: xp.asarray(-1, dtype=xp.uint8),
            ValueError,
            "asarray",
            "-1",
            group=c,
        ),
        _p(
            "asarray(300, dtype=int8)",
            lambda: xp.asarray(300, dtype=xp.int8),
            ValueError,
            "asarray",
            "300",
            group=c,
        ),
        _p(
            "asarray([1, [2]])",
            lambda: xp.asarray([1, [2]]),
            ValueError,
            "asarray",
            "[1, [2]]",
            group=c,
        ),
        _p(
            "asarray(1, dtype='bogus')",
            lambda: xp.asarray(1, dtype="bogus"),
            TypeError,
            "asarray",
            "bogus",
            group=c,
        ),
        _p(
            "asarray(x, copy='yes')",
            lambda: xp.asarray(x, copy="yes"),
            TypeError,
            "asarray",
            "'yes'",
            group=c,
        ),
        _p(
            "full_like(x, None)",
            lambda: xp.full_like(x, None),
            TypeError,
            "full_like",
            "None",
            group=c,
        ),
        _p(
            "zeros_like(x, dtype='bogus')",
            lambda: xp.zeros_like(x, dtype="bogus"),
            TypeError,
            "zeros_like",
            "bogus",
            group=c,
        ),
        _p(
            "astype(x, 'bogus')",
            lambda: xp.astype(x, "bogus"),
            TypeError,
            "astype",
            "bogus",
            group=c,
        ),
        _p("astype(x, None)", lambda: xp.astype(x, None), TypeError, "astype", "None", group=c),
        _p(
            "astype(None, float64)",
            lambda: xp.astype(None, xp.float64),
            TypeError,
            "astype",
            "None",
            group=c,
        ),
        _p(
            "astype(3, float64)",
            lambda: xp.astype(3, xp.float64),
            TypeError,
            "astype",
            ("int", "3"),
            group=c,
        ),
        _p(
            "astype(x, int8, copy='no')",
            lambda: xp.astype(x, xp.int8, copy="no"),
            TypeError,
            "astype",
            "'no'",
            group=c,
        ),
        _p("fft.fftfreq(0)", lambda: xp.fft.fftfreq(0), ValueError, "fftfreq", "0", group=c),
        _p("fft.rfftfreq(0)", lambda: xp.fft.rfftfreq(0), ValueError, "rfftfreq", "0", group=c),
        _p("fft.fftfreq(-2)", lambda: xp.fft.fftfreq(-2), ValueError, "fftfreq", "-2", group=c),
        _p("fft.fftfreq(2.5)", lambda: xp.fft.fftfreq(2.5), TypeError, "fftfreq", "2.5", group=c),
    ]
    d = "devices"
    for bad, kind in (("cuda:²", ValueError), ("cuda:x", ValueError), ("tpu", ValueError),
                      ("cuda:-1", ValueError), (-1, ValueError), (2.0, TypeError),
                      (True, TypeError), ([0], TypeError)):  # fmt: skip
        probes.append(_p(f"zeros(2, device={bad!r})", lambda b=bad: xp.zeros(2, device=b),
                         kind, "zeros", repr(bad), group=d))  # fmt: skip
        probes.append(_p(f"to_device(x, {bad!r})", lambda b=bad: xp.to_device(x, b), kind,
                         "to_device", repr(bad), group=d))  # fmt: skip
    probes += [
        _p("device(None)", lambda: xp.device(None), TypeError, "device", "None", group=d),
        _p("device(3)", lambda: xp.device(3), TypeError, "device", ("int", "3"), group=d),
        _p("device([1])", lambda: xp.device([1]), TypeError, "device", ("list", "[1]"), group=d),
        _p(
            "to_device(None, 'cpu')",
            lambda: xp.to_device(None, "cpu"),
            TypeError,
            "to_device",
            "None",
            group=d,
        ),
        _p(
            "to_device(3, 'cpu')",
            lambda: xp.to_device(3, "cpu"),
            TypeError,
            "to_device",
            ("int", "3"),
            group=d,
        ),
        _p(
            "to_device(x, 'cpu', stream='bogus')",
            lambda: xp.to_device(x, "cpu", stream="bogus"),
            TypeError,
            "to_device",
            "bogus",
            group=d,
        ),
        _p(
            "synchronize(stream='bogus')",
            lambda: xp.synchronize(stream="bogus"),
            TypeError,
            "synchronize",
            "bogus",
            group=d,
        ),
        _p(
            "synchronize('bogus')",
            lambda: xp.synchronize("bogus"),
            ValueError,
            "synchronize",
            "bogus",
            group=d,
        ),
        _p(
            "cuda.set_device('bogus')",
            lambda: xp.cuda.set_device("bogus"),
            ValueError,
            "set_device",
            "bogus",
            group=d,
        ),
        _p(
            "cuda.set_device(2.5)",
            lambda: xp.cuda.set_device(2.5),
            TypeError,
            "set_device",
            "2.5",
            group=d,
        ),
        _p(
            "cuda.device('bogus')",
            lambda: xp.cuda.device("bogus").__enter__(),
            ValueError,
            "device",
            "bogus",
            group=d,
        ),
        _p(
            "cuda.stream('bogus')",
            lambda: xp.cuda.stream("bogus").__enter__(),
            TypeError,
            "stream",
            "bogus",
            group=d,
        ),
        _p(
            "cuda.memory_info('bogus')",
            lambda: xp.cuda.memory_info("bogus"),
            ValueError,
            "memory_info",
            "bogus",
            group=d,
        ),
        _p(
            "cuda.free_memory(2.5)",
            lambda: xp.cuda.free_memory(2.5),
            TypeError,
            "free_memory",
            "2.5",
            group=d,
        ),
        _p(
            "cuda.pin_memory(object array)",
            lambda: xp.cuda.pin_memory(np.asarray([object()])),
            (TypeError if xp.cupy_available() else RuntimeError),
            "pin_memory",
            group=d,
        ),
    ]
    g = "config"
    probes += [
        _p(
            "set_backend('bogus')",
            lambda: xp.set_backend("bogus"),
            ValueError,
            "set_backend",
            "bogus",
            group=g,
        ),
        _p("set_backend(3)", lambda: xp.set_backend(3), TypeError, "set_backend", "3", group=g),
        _p(
            "set_backend(None)",
            lambda: xp.set_backend(None),
            TypeError,
            "set_backend",
            "None",
            group=g,
        ),
        _p(
            "use_backend('bogus')",
            lambda: xp.use_backend("bogus").__enter__(),
            ValueError,
            "use_backend",
            "bogus",
            group=g,
        ),
        _p(
            "use_backend(['numpy'])",
            lambda: xp.use_backend(["numpy"]).__enter__(),
            TypeError,
            "use_backend",
            "['numpy']",
            group=g,
        ),
    ]
    if not xp.cupy_available():
        probes.append(_p("set_backend('cupy', strict=True) without a GPU",
                         lambda: xp.set_backend("cupy", strict=True),
                         RuntimeError, "set_backend", ("cupy", "CuPy"), group=g))  # fmt: skip
    n = "namespace"
    probes += [
        _p(
            "array_namespace(masked)",
            lambda: xp.array_namespace(np.ma.masked_array([1.0])),
            TypeError,
            "array_namespace",
            "masked",
            group=n,
        ),
        _p(
            "array_namespace(np.matrix)",
            lambda: xp.array_namespace(np.asmatrix([[1.0]])),
            TypeError,
            "array_namespace",
            "matrix",
            group=n,
        ),
        _p(
            "array_namespace(x, api_version=2023.12)",
            lambda: xp.array_namespace(x, api_version=2023.12),
            TypeError,
            "array_namespace",
            "2023.12",
            group=n,
        ),
        _p(
            "array_namespace(x, api_version='2099.12')",
            lambda: xp.array_namespace(x, api_version="2099.12"),
            ValueError,
            "array_namespace",
            "2099.12",
            group=n,
        ),
        _p(
            "array_namespace([1.0])",
            lambda: xp.array_namespace([1.0]),
            TypeError,
            "array_namespace",
            "list",
            group=n,
        ),
        _p(
            "array_namespace('abc')",
            lambda: xp.array_namespace("abc"),
            TypeError,
            "array_namespace",
            "str",
            group=n,
        ),
    ]
    pr = "profiling"
    from cunumpy import profiling

    probes += [
        _p("profiling.report(file=5)", lambda: _report_to(5), TypeError, "report", "5", group=pr),
        _p(
            "profiling.report(file='out.txt')",
            lambda: _report_to("out.txt"),
            TypeError,
            "report",
            "out.txt",
            group=pr,
        ),
        _p(
            "profiling.timed_region(3)",
            lambda: profiling.timed_region(3),
            TypeError,
            "timed_region",
            "3",
            group=pr,
        ),
        _p(
            "profiling.timed_region('')",
            lambda: profiling.timed_region(""),
            ValueError,
            "timed_region",
            "''",
            group=pr,
        ),
        _p(
            "profiling.benchmark(f, n_repeat=0)",
            lambda: profiling.benchmark(lambda: None, n_repeat=0),
            ValueError,
            "benchmark",
            "0",
            group=pr,
        ),
        _p(
            "profiling.benchmark(None)",
            lambda: profiling.benchmark(None),
            TypeError,
            "benchmark",
            "None",
            group=pr,
        ),
    ]
    return probes


# --- second round: masks, use_backend state, dtypes, arguments, the namespaces' fixes ---


def _masked() -> Any:
    return np.ma.masked_array([1.0, 2.0, 3.0], mask=[0, 1, 0])


def _masked_kernel() -> Any:
    from cunumpy import kernels

    @kernels.elementwise(["float64(float64)"])
    def twice(x):  # type: ignore[no-untyped-def]
        return 2.0 * x

    return twice(_masked())


def _isolated(call: Callable[[], Any]) -> Callable[[], Any]:
    """``call`` run in a copy of the context, so that a backend it leaves behind stays there."""
    import contextvars

    return lambda: contextvars.copy_context().run(call)


def _interleaved_generators() -> None:
    from cunumpy._backend_choice import _config

    def blocks() -> Any:
        with xp.use_backend("numpy"):
            yield 1
            yield 2

    first, second = blocks(), blocks()
    next(first)
    next(second)
    try:
        list(first)  # finished before the generator whose block was entered after it
    finally:
        list(second)
        if _config.current() is not _config._default:
            raise AssertionError("use_backend left a block's backend behind")


def _blocks_left_by_hand() -> None:
    outer, inner = xp.use_backend("numpy"), xp.use_backend("numpy")
    outer.__enter__()
    inner.__enter__()
    try:
        outer.__exit__(None, None, None)
    finally:
        inner.__exit__(None, None, None)


def _block_left_in_another_thread() -> None:
    import threading

    block = xp.use_backend("numpy")
    block.__enter__()
    errors: list[BaseException] = []

    def leave() -> None:
        try:
            block.__exit__(None, None, None)
        except BaseException as exc:
            errors.append(exc)

    thread = threading.Thread(target=leave)
    thread.start()
    thread.join(timeout=10)
    if errors:
        raise errors[0]


def second_round_probes() -> list[Probe]:
    x, a, z = np.asarray([3.0, 1.0, 2.0]), np.arange(6.0).reshape(2, 3), np.asarray(3.0)
    ns = xp.array_namespace(x)
    m = "masks"
    probes = [
        _p("from_dlpack(masked)", lambda: xp.from_dlpack(_masked()), TypeError,
           "from_dlpack", "mask", group=m),
        _p("from_dlpack(masked, device='cpu')", lambda: xp.from_dlpack(_masked(), device="cpu"),
           TypeError, "from_dlpack", "mask", group=m),
        _p("to_device(masked, 'cpu')", lambda: xp.to_device(_masked(), "cpu"), TypeError,
           "to_device", "mask", group=m),
        _p("to_numpy(masked)", lambda: xp.to_numpy(_masked()), TypeError, "to_numpy", "mask",
           group=m),
        _p("asarray(masked)", lambda: xp.asarray(_masked()), TypeError, "asarray", "mask",
           group=m),
        _p("portable kernel(masked)", _masked_kernel, TypeError, "twice", "mask", group=m),
    ]  # fmt: skip
    st = "state"
    probes += [
        _p("use_backend in interleaved generators", _isolated(_interleaved_generators),
           RuntimeError, "use_backend", group=st),
        _p("use_backend blocks left out of order by hand", _isolated(_blocks_left_by_hand),
           RuntimeError, "use_backend", group=st),
        _p("use_backend block left in another thread", _isolated(_block_left_in_another_thread),
           RuntimeError, "use_backend", group=st),
    ]  # fmt: skip
    d = "dtypes"
    for label, call, kind, needles in [
        ("asarray(None)", lambda: xp.asarray(None), TypeError, ("asarray", "None")),
        ("asarray({})", lambda: xp.asarray({}), TypeError, ("asarray", "{}")),
        ("asarray(object())", lambda: xp.asarray(object()), TypeError, ("asarray", "object")),
        ("asarray('abc')", lambda: xp.asarray("abc"), TypeError, ("asarray", "'abc'")),
        ("asarray(2**64)", lambda: xp.asarray(2**64), ValueError, ("asarray", str(2**64))),
        ("to_numpy(None)", lambda: xp.to_numpy(None), TypeError, ("to_numpy", "None")),
        ("zeros(3, dtype=object)", lambda: xp.zeros(3, dtype=object), TypeError,
         ("zeros", "object")),
        ("zeros(3, dtype=[('a', 'f8')])", lambda: xp.zeros(3, dtype=[("a", "f8")]), TypeError,
         ("zeros", "'a'")),
        ("empty(2, dtype='datetime64[s]')", lambda: xp.empty(2, dtype="datetime64[s]"),
         TypeError, ("empty", "datetime64")),
        ("astype(x, object)", lambda: xp.astype(x, object), TypeError, ("astype", "object")),
        ("astype(complex, float64)", lambda: xp.astype(x.astype(complex), xp.float64),
         TypeError, ("astype", "complex128")),
        ("sqrt(bool)", lambda: xp.sqrt(np.asarray([True, False])), TypeError, ("sqrt", "bool")),
        ("sqrt(int8)", lambda: xp.sqrt(np.ones(2, np.int8)), TypeError, ("sqrt", "int8")),
        ("hypot(bool, bool)", lambda: xp.hypot(np.ones(2, bool), np.ones(2, bool)), TypeError,
         ("hypot", "bool")),
        ("result_type(int8, uint64)", lambda: xp.result_type(xp.int8, xp.uint64), TypeError,
         ("result_type", "uint64")),
        ("full(3, nan, dtype=int64)", lambda: xp.full(3, np.nan, dtype=xp.int64), ValueError,
         ("full", "nan")),
        ("full(3, 1.5, dtype=int32)", lambda: xp.full(3, 1.5, dtype=xp.int32), ValueError,
         ("full", "1.5")),
    ]:  # fmt: skip
        probes.append(_p(label, call, kind, *needles, group=d))
    ar = "arguments"
    for label, call, kind, needles in [
        ("sort(x, descending='x')", lambda: xp.sort(x, descending="x"), TypeError,
         ("sort", "'x'")),
        ("sort(x, stable='no')", lambda: xp.sort(x, stable="no"), TypeError, ("sort", "'no'")),
        ("isin(x, x, invert='yes')", lambda: xp.isin(x, x, invert="yes"), TypeError,
         ("isin", "'yes'")),
        ("cumulative_sum(x, include_initial='yes')",
         lambda: xp.cumulative_sum(x, include_initial="yes"), TypeError,
         ("cumulative_sum", "'yes'")),
        ("asarray(x, copy=0)", lambda: xp.asarray(x, copy=0), TypeError, ("asarray", "0")),
        ("roll(x, 1.5)", lambda: xp.roll(x, 1.5), TypeError, ("roll", "1.5")),
        ("repeat(x, 1.5)", lambda: xp.repeat(x, 1.5), TypeError, ("repeat", "1.5")),
        ("std(x, correction=-1)", lambda: xp.std(x, correction=-1), ValueError, ("std", "-1")),
        ("var(x, correction='a')", lambda: xp.var(x, correction="a"), TypeError,
         ("var", "'a'")),
        ("tensordot(a, a, axes=-1)", lambda: xp.tensordot(a, a, axes=-1), ValueError,
         ("tensordot", "-1")),
        ("tensordot(a, a, axes=5)", lambda: xp.tensordot(a, a, axes=5), ValueError,
         ("tensordot", "5")),
        ("sum(0-D, axis=0)", lambda: xp.sum(z, axis=0), ValueError, ("sum", "0")),
        ("sum(a, axis=1.0)", lambda: xp.sum(a, axis=1.0), TypeError, ("sum", "1.0")),
        ("take(2-D, indices) without axis", lambda: xp.take(a, np.asarray([0])), ValueError,
         ("take", "axis")),
        ("tril(1-D)", lambda: xp.tril(x), ValueError, ("tril", "(3,)")),
        ("where(float condition, ...)", lambda: xp.where(x, x, x), TypeError,
         ("where", "condition")),
        ("linalg.solve(eye(2), ones(3))", lambda: xp.linalg.solve(np.eye(2), np.ones(3)),
         ValueError, ("linalg.solve", "3")),
        ("fft.fft(x, axis=5)", lambda: xp.fft.fft(x, axis=5), ValueError, ("fft.fft", "5")),
        ("add(int8 array, 1000)", lambda: xp.add(np.ones(2, np.int8), 1000), ValueError,
         ("add", "1000")),
    ]:  # fmt: skip
        probes.append(_p(label, call, kind, *needles, group=ar))
    o = "overrides"
    for label, call, kind, needles in [
        ("namespace clip('a')", lambda: ns.clip("a"), TypeError, ("clip", "'a'")),
        ("namespace expm1(['a'])", lambda: ns.expm1(["a"]), TypeError, ("expm1", "['a']")),
        ("namespace linalg.eigvals(1-D)", lambda: ns.linalg.eigvals(x), ValueError,
         ("eigvals", "(3,)")),
        ("namespace fft.fftfreq(0)", lambda: ns.fft.fftfreq(0), ValueError, ("fftfreq", "0")),
        ("namespace sort(None)", lambda: ns.sort(None), TypeError, ("sort", "None")),
    ]:  # fmt: skip
        probes.append(_p(label, call, kind, *needles, group=o))
    return probes


# --- probes that need a fresh process ---------------------------------------------------


def _names_all(text: str, needles: tuple[Needle, ...]) -> bool:
    return all(any(o in text for o in ((n,) if isinstance(n, str) else n)) for n in needles)


def _subprocess_probe(label: str, command: list[str], env: dict[str, str], expect: str,
                      needles: tuple[Needle, ...], group: str) -> tuple[str, str, str, str]:  # fmt: skip
    """Run ``command`` and judge it.

    ``expect`` is an exception name that the code prints as ``EXC <name> <message>``, or
    ``"report"`` (exit status 1, the needles in the output, no traceback) or ``"help"``
    (exit status 0, a usage line, no traceback).
    """
    done = subprocess.run(
        command, capture_output=True, text=True, timeout=300, env={**os.environ, **env},
        cwd=ROOT,
    )  # fmt: skip
    out = done.stdout + done.stderr
    last = out.strip().splitlines()[-1] if out.strip() else ""
    if "Traceback (most recent call last)" in out:
        return group, label, "wrong type", last
    if expect == "report":
        ok = done.returncode == 1 and _names_all(out, needles)
        return group, label, "documented error" if ok else "unclear message", last
    if expect == "help":
        ok = done.returncode == 0 and "usage:" in out
        return group, label, "documented error" if ok else "unclear message", last
    for line in out.splitlines():
        if line.startswith("EXC "):
            _, name, message = line.split(" ", 2)
            if name != expect:
                return group, label, "wrong type", line
            verdict = "documented error" if _names_all(message, needles) else "unclear message"
            return group, label, verdict, line
    return group, label, "silently accepted", last


def _run_code(code: str) -> list[str]:
    catch = (
        "import sys\nimport numpy as np\n"
        "def run(call):\n"
        "    try:\n"
        "        call()\n"
        "    except Exception as exc:\n"
        "        print('EXC', type(exc).__name__, str(exc).replace('\\n', ' '))\n"
    )
    return [sys.executable, "-c", catch + code]


def process_probes() -> list[tuple[str, str, str, str]]:
    results = []
    main = [sys.executable, "-m", "cunumpy"]
    for value in ["bogus", "NumPy please"]:
        env = {"CUNUMPY_BACKEND": value}
        results.append(_subprocess_probe(
            f"CUNUMPY_BACKEND={value!r} python -m cunumpy", main, env, "report",
            ("CUNUMPY_BACKEND", value), "cli",
        ))  # fmt: skip
        results.append(_subprocess_probe(
            f"CUNUMPY_BACKEND={value!r} python -m cunumpy --help", [*main, "--help"], env,
            "help", (), "cli",
        ))  # fmt: skip
    results.append(_subprocess_probe(
        "pin_memory with sys.modules['cupy'] = None",
        _run_code("sys.modules['cupy'] = None\nimport cunumpy.cuda\n"
                  "run(lambda: cunumpy.cuda.pin_memory(np.ones(2)))"),
        {}, "CupyUnavailableError", ("pin_memory", "CuPy"), "devices",  # ImportError too
    ))  # fmt: skip
    if not xp.cupy_available():
        # CuPy asked for where it is unusable: NumPy, with a warning that says why (as
        # CuNumpy 0.7.1 stays on NumPy); the probe turns the warning into the error it sees.
        warned = (
            "import warnings\nwarnings.simplefilter('error')\nrun(lambda: __import__('cunumpy'))"
        )
        results.append(_subprocess_probe(
            "import cunumpy with CUNUMPY_BACKEND=cupy", _run_code(warned),
            {"CUNUMPY_BACKEND": "cupy"}, "CupyUnavailableWarning", ("CUNUMPY_BACKEND", "cupy"),
            "config",
        ))  # fmt: skip
        results.append(_subprocess_probe(
            "CUNUMPY_BACKEND='cupy' python -m cunumpy --help", [*main, "--help"],
            {"CUNUMPY_BACKEND": "cupy"}, "help", (), "cli",
        ))  # fmt: skip
    return results


# --- MPI: every probe under mpiexec -n 2, with a timeout ---------------------------------


def _mpi_read_only_out(rank: int, mpi: Any) -> Any:
    x = np.ones(3)
    x.flags.writeable = rank != 0
    return mpi.allreduce(x, out=x)


def _mpi_recv_read_only(rank: int, mpi: Any) -> Any:
    out = np.zeros(2)
    out.flags.writeable = False
    return mpi.send(np.ones(2), dest=1) if rank == 0 else mpi.recv(0, out=out)


def _mpi_sendrecv_read_only(rank: int, mpi: Any) -> Any:
    out = np.zeros(2)
    out.flags.writeable = False
    return mpi.sendrecv(np.ones(2), dest=1 - rank, out=out)


MpiCall = Callable[[int, Any], Any]
MPI_PROBES: dict[str, tuple[MpiCall, str, tuple[Needle, ...]]] = {
    # name: (call on every rank with (rank, cunumpy.mpi); expected type; needles).
    # Every rank must raise, except where ONLY_RANKS names the ranks that take part.
    "read-only out on rank 0": (_mpi_read_only_out, "ValueError", ("allreduce", "rank 0", "writ")),
    "allreduce op=lambda on rank 0": (
        lambda rank, mpi: mpi.allreduce(np.ones(2), op=(lambda a, b: a) if rank == 0 else "sum"),
        "TypeError", ("allreduce", "op", "lambda"),
    ),
    "bcast root=lambda on rank 0": (
        lambda rank, mpi: mpi.bcast(np.ones(2), root=(lambda: 0) if rank == 0 else 0),
        "TypeError", ("bcast", "root", "lambda"),
    ),
    "send dest=5 on 2 ranks": (
        lambda rank, mpi: mpi.send(np.ones(2), dest=5) if rank == 0 else None,
        "ValueError", ("send", "dest", "5"),
    ),
    "recv source=7 on 2 ranks": (
        lambda rank, mpi: mpi.recv(7) if rank == 1 else None,
        "ValueError", ("recv", "source", "7"),
    ),
    "byte order >f8": (
        lambda rank, mpi: mpi.allreduce(np.ones(2, dtype=">f8")),
        "TypeError", ("allreduce", ">f8"),
    ),
    "masked array": (
        lambda rank, mpi: mpi.allreduce(np.ma.masked_array([1.0, 100.0], mask=[False, rank == 0])),
        "TypeError", ("allreduce", "mask"),
    ),
    "recv into read-only out": (_mpi_recv_read_only, "ValueError", ("recv", "writ")),
    "sendrecv into read-only out": (_mpi_sendrecv_read_only, "ValueError", ("sendrecv", "writ")),
    "gather root=5": (
        lambda rank, mpi: mpi.gather(np.ones(2), root=5), "ValueError", ("gather", "root", "5"),
    ),
    "scatter root=-1": (
        lambda rank, mpi: mpi.scatter(np.ones((2, 2)) if rank == 0 else None, root=-1),
        "ValueError", ("scatter", "root", "-1"),
    ),
    "bcast root=1.5": (
        lambda rank, mpi: mpi.bcast(np.ones(2), root=1.5), "TypeError", ("bcast", "root", "1.5"),
    ),
    "send tag=-3": (
        lambda rank, mpi: mpi.send(np.ones(2), dest=1, tag=-3) if rank == 0 else None,
        "ValueError", ("send", "tag", "-3"),
    ),
    "send tag='a'": (
        lambda rank, mpi: mpi.send(np.ones(2), dest=1, tag="a") if rank == 0 else None,
        "TypeError", ("send", "tag", "'a'"),
    ),
    "recv tag='a'": (
        lambda rank, mpi: mpi.recv(0, tag="a") if rank == 1 else None,
        "TypeError", ("recv", "tag", "'a'"),
    ),
    "allreduce object dtype on rank 1": (
        lambda rank, mpi: mpi.allreduce(np.asarray([object()]) if rank == 1 else np.ones(1)),
        "TypeError", ("allreduce", "rank 1", "object"),
    ),
    "allreduce op=np.add on both ranks": (
        lambda rank, mpi: mpi.allreduce(np.ones(2), op=np.add),
        "TypeError", ("allreduce", "op", "add"),
    ),
    "allgather list on rank 1": (
        lambda rank, mpi: mpi.allgather([1.0] if rank == 1 else np.ones(1)),
        "TypeError", ("allgather", "rank 1", "list"),
    ),
    "allreduce >i4 on rank 1": (
        lambda rank, mpi: mpi.allreduce(np.ones(2, dtype=">i4" if rank == 1 else "<i4")),
        "TypeError", ("allreduce", "rank 1", ">i4"),
    ),
    "sendrecv dest=9": (
        lambda rank, mpi: mpi.sendrecv(np.ones(2), dest=9), "ValueError", ("sendrecv", "9"),
    ),
    # Mismatched collectives: each rank calls a different function (issue 23, item 3).
    "gather on rank 0, bcast on rank 1": (
        lambda rank, mpi: (mpi.gather if rank == 0 else mpi.bcast)(np.ones(2), root=0),
        "ValueError", ("different collectives", "gather", "bcast"),
    ),
    "allreduce on rank 0, allgather on rank 1": (
        lambda rank, mpi: (mpi.allreduce if rank == 0 else mpi.allgather)(np.ones(2)),
        "ValueError", ("different collectives", "allreduce", "allgather"),
    ),
    "scatter on rank 0, bcast on rank 1": (
        lambda rank, mpi: mpi.scatter(np.ones((2, 2)), root=0) if rank == 0
        else mpi.bcast(None, root=0),
        "ValueError", ("different collectives", "scatter", "bcast"),
    ),
}  # fmt: skip


ONLY_RANKS = {
    "send dest=5 on 2 ranks": (0,),
    "recv source=7 on 2 ranks": (1,),
    "recv into read-only out": (1,),
    "send tag=-3": (0,),
    "send tag='a'": (0,),
    "recv tag='a'": (1,),
}


def mpi_worker(label: str) -> None:
    """Run one MPI probe on this rank (under mpiexec) and print what it gave."""
    from mpi4py import MPI

    from cunumpy import mpi

    rank = MPI.COMM_WORLD.Get_rank()
    call = MPI_PROBES[label][0]
    try:
        call(rank, mpi)
    except BaseException as exc:
        text = str(exc).replace("\n", " ")
        print("RANK", rank, "EXC", type(exc).__name__, text, flush=True)
    else:
        print("RANK", rank, "OK", flush=True)


def _mpiexec() -> str | None:
    search = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    return shutil.which("mpiexec", path=search)


def mpi_probes(seconds: int) -> list[tuple[str, str, str, str]]:
    mpiexec = _mpiexec()
    if mpiexec is None:
        print("(no mpiexec: MPI probes skipped)", file=sys.stderr)
        return []
    env = {
        **os.environ, "OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
        "OMPI_MCA_pml": "ob1", "OMPI_MCA_btl": "self,vader", "CUNUMPY_BACKEND": "numpy",
        "PYTHONPATH": str(ROOT),
    }  # fmt: skip
    order = {c: i for i, c in enumerate(COLUMNS)}
    results = []
    for label, (_, kind, needles) in MPI_PROBES.items():
        command = ["timeout", "-k", "5", str(seconds), mpiexec, "-n", "2", "--oversubscribe",
                   sys.executable, __file__, "--mpi-probe", label]  # fmt: skip
        done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=ROOT)
        lines = [ln for ln in done.stdout.splitlines() if ln.startswith("RANK ")]
        if done.returncode in (124, 137) or len(lines) < 2:
            verdict = "hang" if done.returncode in (124, 137) else "wrong type"
            results.append(("mpi", label, verdict, (done.stdout + done.stderr)[-300:]))
            continue
        verdicts = []
        for line in lines:
            parts = line.split(" ", 4)
            if int(parts[1]) not in ONLY_RANKS.get(label, (0, 1)):
                continue
            if parts[2] == "OK":
                verdicts.append("silently accepted")
                continue
            name, message = parts[3], parts[4] if len(parts) > 4 else ""
            expected = {"TypeError": TypeError, "ValueError": ValueError}[kind]
            raised = expected(message) if name == kind else RuntimeWarning(message)
            verdicts.append(judge(expected, needles, raised))
        # every rank must give the documented error; the worst answer counts
        worst = max(verdicts, key=lambda v: (v != "documented error", order[v]))
        results.append(("mpi", label, worst, " | ".join(lines)[-300:]))
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--list", action="store_true", help="list every probe not answered well")
    parser.add_argument("--no-mpi", action="store_true", help="skip the MPI probes")
    parser.add_argument("--mpi-timeout", type=int, default=30)
    parser.add_argument("--mpi-probe", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.mpi_probe:
        mpi_worker(args.mpi_probe)
        return 0
    rows: list[tuple[str, str, str, str]] = []
    for probe in [*dispatch_probes(), *other_probes(), *second_round_probes()]:
        saved = xp.get_backend()
        verdict, detail = run_probe(probe)
        if xp.get_backend() != saved:
            xp.set_backend(saved)
        rows.append((probe.group, probe.label, verdict, detail))
    rows += process_probes()
    if not args.no_mpi:
        rows += mpi_probes(args.mpi_timeout)
    table: dict[str, Counter[str]] = {}
    for group, _, verdict, _ in rows:
        table.setdefault(group, Counter())[verdict] += 1
    header = f"{'group':<11}{'tried':>6}" + "".join(f"{c:>19}" for c in COLUMNS)
    print(header)
    total: Counter[str] = Counter()
    for group, counts in table.items():
        total.update(counts)
        print(
            f"{group:<11}{sum(counts.values()):>6}" + "".join(f"{counts[c]:>19}" for c in COLUMNS)
        )
    print(f"{'all':<11}{sum(total.values()):>6}" + "".join(f"{total[c]:>19}" for c in COLUMNS))
    if args.list:
        for group, label, verdict, detail in rows:
            if verdict != "documented error":
                print(f"[{verdict}] {group}: {label}\n    {detail[:240]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
