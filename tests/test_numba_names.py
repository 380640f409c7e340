"""Numba compiles ``np.<name>`` after ``import cunumpy as np`` as it compiles NumPy's name.

The names come from the one mapping (``cunumpy._calls._numpy_names``: ``NUMPY_MODULES``,
``numpy_name``): every name of ``cunumpy``, ``cunumpy.linalg`` and ``cunumpy.fft`` whose
object is cunumpy's own where NumPy has the name. Each is typed by Numba's CPU typing
context exactly as NumPy's name is, compiled inside ``@njit`` on NumPy's inputs beside
the NumPy-bound twin, and must give the twin's answer, or fail with the twin's error
where Numba does not support NumPy's function. Then the forms (``jit``, ``parallel``
with ``prange``, ``vectorize``, ``guvectorize``, ``stencil``, ``jitclass``, typed
``Dict``, object mode, ``cache=True`` reloaded in a new process), the entry point, and
numba-cuda's device code, compiled to PTX for sm_90 and run under the CUDA simulator
(neither is a GPU check).
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.metadata
import importlib.util
import io
import os
import re
import subprocess
import sys
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy
import pytest

import cunumpy
from cunumpy._calls._numpy_names import NUMPY_MODULES, numpy_name
from cunumpy._calls._ufunc_methods import METHODS, UFUNC_ATTRIBUTES, UFUNC_NAMES

numba = pytest.importorskip(
    "numba", reason="Numba is not installed: needs Numba (the kernels extra)"
)

from numba.core import types as nbtypes  # noqa: E402
from numba.core.registry import cpu_target  # noqa: E402

#: Numba compiles np.linalg with SciPy's BLAS and LAPACK, as it does numpy.linalg: the
#: programs that use it need SciPy, as they would with NumPy's names.
needs_scipy = pytest.mark.skipif(
    importlib.util.find_spec("scipy") is None,
    reason="scipy is not installed: needs SciPy (the test extra): Numba's np.linalg uses it",
)

ROOT = Path(__file__).resolve().parent.parent


def _pythonpath() -> str:
    """The repository first, then the caller's PYTHONPATH."""
    return os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)


def _entry_point_installed() -> bool:
    """Whether this environment's metadata has cunumpy's ``numba_extensions`` entry point
    (an install, editable or not; a bare source checkout on ``PYTHONPATH`` has none)."""
    found = importlib.metadata.entry_points(group="numba_extensions", name="init")
    return any(point.value == "_cunumpy_numba:init" for point in found)


NO_ENTRY_POINT = (
    "cunumpy's numba_extensions entry point is not in this environment's metadata "
    '(install the checkout: pip install -e ".[kernels]")'
)


@pytest.fixture(scope="module", autouse=True)
def _registered() -> None:
    """Numba knows cunumpy's names: through the entry point at the first compilation where
    it is installed (``test_entry_point_*`` prove that path in new processes); in a bare
    source checkout this process imported cunumpy (conftest) before Numba, so register."""
    from numba.core import entrypoints

    entrypoints.init_all()  # what a dispatcher does before its first compilation
    if not _entry_point_installed():
        from cunumpy._numba_names import register

        register()


def _names() -> list[tuple[str, str]]:
    """(module, name) of every name whose object is cunumpy's own where NumPy has the name."""
    found = []
    for module_name, twin_name in NUMPY_MODULES.items():
        module = importlib.import_module(module_name)
        twin = importlib.import_module(twin_name)
        for name in module.__all__:
            _, numpy_spelling = numpy_name(module_name, name)
            if hasattr(twin, numpy_spelling) and getattr(module, name) is not getattr(
                twin, numpy_spelling
            ):
                found.append((module_name, name))
    return found


NAMES = _names()

V = numpy.linspace(0.1, 0.9, 4)  # in (0, 1): every inverse function's domain
M = numpy.array([[4.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 2.0]])  # symmetric, positive
IV = numpy.arange(1, 5)
B = V > 0.5

# The inputs of the names whose inputs are not those of a ufunc of their arity (NumPy's
# ``nin``) or one float array: test data, not a list of names (a name missing here is
# called with the default and fails with NumPy's error on both sides).
ARGUMENTS: dict[str, tuple[Any, ...]] = {
    "arange": (4,),
    "array": (V,),
    "bitwise_and": (IV, IV),
    "bitwise_invert": (IV,),
    "bitwise_left_shift": (IV, IV),
    "bitwise_or": (IV, IV),
    "bitwise_right_shift": (IV, IV),
    "bitwise_xor": (IV, IV),
    "broadcast_arrays": (V, V),
    "broadcast_shapes": ((2, 1), (1, 3)),
    "broadcast_to": (V, (2, 4)),
    "clip": (V, 0.2, 0.6),
    "concat": ((V, V),),
    "cross": (V[:3], V[1:]),
    "empty": (4,),
    "expand_dims": (V, 0),
    "eye": (3,),
    "finfo": (numpy.float64,),
    "full": (4, 2.5),
    "full_like": (V, 2.5),
    "iinfo": (numpy.int64,),
    "isin": (V, V[:2]),
    "linspace": (0.0, 1.0, 5),
    "logical_and": (B, B),
    "logical_not": (B,),
    "logical_or": (B, B),
    "logical_xor": (B, B),
    "matrix_power": (M, 2),
    "moveaxis": (M, 0, 1),
    "ones": (4,),
    "repeat": (V, 2),
    "reshape": (V, (2, 2)),
    "roll": (V, 1),
    "searchsorted": (V, 0.5),
    "solve": (M, V[:3]),
    "squeeze": (M[:1],),
    "stack": ((V, V),),
    "take": (V, IV[:2]),
    "take_along_axis": (M, numpy.zeros((3, 1), dtype=numpy.int64), 1),
    "tile": (V, 2),
    "zeros": (4,),
}
EMPTY = {"empty", "empty_like"}  # their values are whatever memory held: shape and dtype only


def _arguments(module_name: str, name: str) -> tuple[Any, ...]:
    if name in ARGUMENTS:
        return ARGUMENTS[name]
    twin = getattr(
        importlib.import_module(NUMPY_MODULES[module_name]), numpy_name(module_name, name)[1]
    )
    nin = getattr(twin, "nin", 1) if isinstance(twin, numpy.ufunc) else 1
    return (M,) * nin if module_name == "cunumpy.linalg" else (V,) * nin


def _caller(module: types.ModuleType, name: str, arity: int) -> Callable[..., Any]:
    """``@njit`` of ``def call(a0, ...): return module.name(a0, ...)``, ``module`` a global."""
    parameters = ", ".join(f"a{i}" for i in range(arity))
    namespace: dict[str, Any] = {"module": module}
    exec(f"def call({parameters}):\n    return module.{name}({parameters})\n", namespace)
    return numba.njit(namespace["call"])


def _outcome(function: Callable[..., Any], arguments: tuple[Any, ...]) -> tuple[str, Any]:
    try:
        return "value", function(*arguments)
    except Exception as exc:  # Numba's error for NumPy's name: compared below
        return type(exc).__name__, _message(exc)


def _message(exc: BaseException) -> str:
    """The error's own words: its lines up to the first source excerpt or context line."""
    lines = str(exc).splitlines()
    kept = [line for line in lines[1:3] if line and not line.startswith(("File ", "During"))]
    return " ".join(kept) or lines[0]


def _assert_same(ours: Any, theirs: Any, *, values: bool = True) -> None:
    assert type(ours) is type(theirs), (ours, theirs)
    if isinstance(theirs, tuple | list):
        assert len(ours) == len(theirs)
        for mine, twin in zip(ours, theirs):
            _assert_same(mine, twin, values=values)
    elif isinstance(theirs, numpy.ndarray):
        assert (ours.dtype, ours.shape) == (theirs.dtype, theirs.shape)
        if values:
            numpy.testing.assert_array_equal(ours, theirs)
    elif values:
        assert ours == theirs or (ours != ours and theirs != theirs), (ours, theirs)


def _numba_type(module: types.ModuleType, name: str) -> Any:
    context = cpu_target.typing_context
    context.refresh()
    try:
        return context.resolve_getattr(nbtypes.Module(module), name)
    except numba.core.errors.TypingError as exc:
        return ("error", str(exc))


def test_the_names_are_many_and_most_compile() -> None:
    """The mapping gives every standard function; Numba types most of their NumPy twins."""
    assert len(NAMES) >= 170, len(NAMES)
    typed = [
        (m, n)
        for m, n in NAMES
        if not isinstance(_numba_type(importlib.import_module(m), n), tuple | type(None))
    ]
    assert len(typed) >= 120, len(typed)
    assert ("cunumpy", "sqrt") in typed and ("cunumpy.linalg", "solve") in typed


@pytest.mark.parametrize(("module_name", "name"), NAMES, ids=[f"{m}.{n}" for m, n in NAMES])
def test_each_name_types_as_numpys_name(module_name: str, name: str) -> None:
    """The same Numba type (the same typing templates, hence the same implementation)."""
    twin_module, twin_name = numpy_name(module_name, name)
    ours = _numba_type(importlib.import_module(module_name), name)
    theirs = _numba_type(importlib.import_module(twin_module), twin_name)
    assert ours == theirs  # None alike where Numba lacks NumPy's name


@pytest.mark.slow
@pytest.mark.parametrize(("module_name", "name"), NAMES, ids=[f"{m}.{n}" for m, n in NAMES])
def test_each_name_compiles_in_njit_as_numpys(module_name: str, name: str) -> None:
    """Compiled inside ``@njit`` on NumPy's inputs: the twin's answer, or the twin's error."""
    twin_module, twin_name = numpy_name(module_name, name)
    arguments = _arguments(module_name, name)
    theirs = _outcome(
        _caller(importlib.import_module(twin_module), twin_name, len(arguments)), arguments
    )
    ours = _outcome(_caller(importlib.import_module(module_name), name, len(arguments)), arguments)
    assert ours[0] == theirs[0], (ours, theirs)
    if theirs[0] == "value":
        _assert_same(ours[1], theirs[1], values=name not in EMPTY)
    else:
        assert ours[1] == theirs[1]


PROGRAM_BODY = """
def program(x):
    acc = 0.0
    for i in range(x.shape[0]):
        acc += np.sqrt(np.abs(x[i])) * np.exp(-x[i]) + np.acos(x[i] / 4.0)
    out = np.empty_like(x)
    out[:] = x * 2.0
    return acc + np.sum(out) + np.linalg.norm(x) + np.sum(np.arange(4.0)) + np.pi
"""


def _llvm_ir(module: types.ModuleType) -> str:
    """The optimised LLVM IR of ``PROGRAM_BODY`` compiled with ``np`` bound to ``module``,
    less the names that differ between two dispatchers (their mangled symbols)."""
    namespace: dict[str, Any] = {"np": module}
    exec(PROGRAM_BODY, namespace)
    dispatcher = numba.njit(namespace["program"])
    dispatcher(numpy.linspace(-1.0, 1.0, 9))
    (ir,) = dispatcher.inspect_llvm().values()
    ir = re.sub(r"program\$\d+|\d+program|_ZN[\w$]+", "<name>", ir)
    # Numba 0.62 names a pickled constant by its object's address (.const.pickledata.<id>)
    # and writes the repr of its context (``<... object at 0x7f...>``) into the module
    ir = re.sub(r"(\.const\.pickle(?:data|buf))\.\d+", r"\1.<id>", ir)
    ir = re.sub(r" at 0x[0-9a-f]+>", " at <address>>", ir)
    return re.sub(r'\[\d+ x i8\] c"missing Environment', '[n x i8] c"missing Environment', ir)


@needs_scipy
def test_a_program_compiles_to_numpys_llvm_ir() -> None:
    """``acos`` is ``arccos``, ``sum`` is ``sum``: the same machine code, not a wrapper."""
    ours, theirs = _llvm_ir(cunumpy), _llvm_ir(numpy)
    assert len(ours) > 10_000 and ours == theirs


UFUNC_MEMBERS = [
    (name, member)
    for name in sorted(UFUNC_NAMES)
    for member in (*sorted(METHODS), *UFUNC_ATTRIBUTES)
]


def test_ufunc_methods_and_attributes_type_as_numpys() -> None:
    """``np.add.reduce``, ``np.pow.outer``, ``np.sqrt.nin``: what Numba gives NumPy's ufunc."""
    context = cpu_target.typing_context
    for name, member in UFUNC_MEMBERS:
        ours = _numba_type(cunumpy, name)
        theirs = _numba_type(numpy, numpy_name("cunumpy", name)[1])
        assert ours == theirs, name
        if theirs is None:  # Numba lacks NumPy's ufunc itself (matmul)
            continue
        assert context.resolve_getattr(ours, member) == context.resolve_getattr(theirs, member)
    assert len(UFUNC_MEMBERS) >= 300


@pytest.mark.parametrize(
    ("member", "arguments"),
    [("reduce", (V,)), ("accumulate", (V,)), ("outer", (V, V)), ("nin", None), ("identity", None)],
)
def test_ufunc_members_compile_as_numpys(member: str, arguments: tuple[Any, ...] | None) -> None:
    """Where Numba compiles a member of NumPy's ``add``, ours gives its answer; where not, its error."""
    outcomes = []
    for module in (cunumpy, numpy):
        namespace: dict[str, Any] = {"module": module}
        call = f"module.add.{member}(*args)" if arguments is not None else f"module.add.{member}"
        exec(f"def member(*args):\n    return {call}\n", namespace)
        outcomes.append(_outcome(numba.njit(namespace["member"]), arguments or ()))
    (kind, ours), (twin_kind, theirs) = outcomes
    assert kind == twin_kind
    if kind == "value":
        _assert_same(ours, theirs)
    else:
        assert ours == theirs


PARALLEL_BODY = """
def program(x):
    y = np.sqrt(x) + 1.0
    z = np.zeros(x.shape[0])
    return np.sum(y) + np.sum(z) + np.arange(x.shape[0]).sum()
"""


def _parallel_structure(module: types.ModuleType) -> tuple[float, str]:
    """The answer and the parallel loops Numba found in ``PARALLEL_BODY`` (``parallel=True``)."""
    namespace: dict[str, Any] = {"np": module}
    exec(PARALLEL_BODY, namespace)
    dispatcher = numba.njit(parallel=True)(namespace["program"])
    value = dispatcher(numpy.linspace(0.0, 1.0, 1000))
    report = io.StringIO()
    with contextlib.redirect_stdout(report):
        dispatcher.parallel_diagnostics(level=1)
    found = [
        line
        for line in report.getvalue().splitlines()
        if "Parallel region" in line or "fused" in line
    ]
    return value, re.sub(r"\d+", "N", "\n".join(found))


def test_parallel_true_finds_numpys_parallel_loops() -> None:
    """``parallel=True`` parallelises ``np.sqrt(a) + 1``, ``np.sum``, ``np.zeros`` and
    ``np.arange`` as it does NumPy's names (Numba finds them by name: the rewrite)."""
    ours, theirs = _parallel_structure(cunumpy), _parallel_structure(numpy)
    assert ours == theirs
    assert "Parallel region N" in theirs[1] and "fused" in theirs[1]


@needs_scipy
def test_names_imported_from_cunumpy_compile_as_numpys() -> None:
    """``from cunumpy import sqrt`` (a global) and a closure's variable, on the CPU targets."""
    source = "def program(x):\n    return sqrt(x) + sum(x) + acos(x / 4.0) + solve(eye(3), x)\n"
    results = []
    for module, linalg in ((cunumpy, cunumpy.linalg), (numpy, numpy.linalg)):
        namespace: dict[str, Any] = {
            "sqrt": module.sqrt,
            "sum": module.sum,
            "acos": getattr(module, "acos" if module is cunumpy else "arccos"),
            "solve": linalg.solve,
            "eye": module.eye,
        }
        exec(source, namespace)
        results.append(numba.njit(namespace["program"])(V[:3]))
    numpy.testing.assert_array_equal(*results)

    sqrt = cunumpy.sqrt

    @numba.njit
    def closure(x: Any) -> Any:
        return sqrt(x)

    numpy.testing.assert_array_equal(closure(V), numpy.sqrt(V))


def test_an_imported_name_numba_lacks_fails_as_numpys() -> None:
    errors = []
    for function in (cunumpy.unique_values, numpy.unique_values):
        namespace: dict[str, Any] = {"unique_values": function}
        exec("def program(x):\n    return unique_values(x)\n", namespace)
        with pytest.raises(numba.core.errors.TypingError) as caught:
            numba.njit(namespace["program"])(V)
        errors.append(_message(caught.value))
    assert errors[0] == errors[1] and "Untyped global name 'unique_values'" in errors[0]


def test_acos_compiles_as_arccos_and_constants_and_dtypes_are_numpys() -> None:
    np = cunumpy

    @numba.njit
    def f(x: Any) -> Any:
        return np.acos(x) + np.pi + np.e + np.float64(1.0) + np.sum(np.zeros(3, np.float64))

    @numba.njit
    def g(x: Any) -> Any:
        return numpy.arccos(x) + numpy.pi + numpy.e + numpy.float64(1.0)

    numpy.testing.assert_array_equal(f(V), g(V))
    assert f.nopython_signatures[0].return_type == g.nopython_signatures[0].return_type


@needs_scipy
def test_submodules_random_and_linalg_compile() -> None:
    np = cunumpy

    @numba.njit
    def f(m: Any, b: Any) -> Any:
        np.random.seed(1)
        return np.linalg.solve(m, b) + np.linalg.norm(b) + np.random.random()

    @numba.njit
    def g(m: Any, b: Any) -> Any:
        numpy.random.seed(1)  # noqa: NPY002 (Numba compiles the legacy functions)
        return numpy.linalg.solve(m, b) + numpy.linalg.norm(b) + numpy.random.random()  # noqa: NPY002

    numpy.testing.assert_array_equal(f(M, V[:3]), g(M, V[:3]))


def test_what_numba_lacks_fails_as_with_numpy() -> None:
    """NumPy's error, naming NumPy's function: not cunumpy's machinery."""
    np = cunumpy

    @numba.njit
    def pad(x: Any) -> Any:
        return np.pad(x, 1)

    @numba.njit
    def fft(x: Any) -> Any:
        return np.fft.fft(x)

    with pytest.raises(
        numba.core.errors.TypingError, match=r"unsupported NumPy function 'numpy\.pad'"
    ):
        pad(V)
    with pytest.raises(
        numba.core.errors.TypingError,
        match=r"Unknown attribute 'fft' of type Module\(<module 'numpy\.fft'",
    ):
        fft(V)
    for error in (pad, fft):
        with pytest.raises(numba.core.errors.TypingError) as caught:
            error(V)
        text = str(caught.value)
        assert "cunumpy/_numba_names" not in text and "FastCall" not in text, text


def test_hasattr_answers_as_for_numpy() -> None:
    answers = []
    for module in (cunumpy, numpy):
        namespace: dict[str, Any] = {"np": module}
        exec(
            "def has():\n"
            "    return hasattr(np, 'pad'), hasattr(np, 'sqrt'), hasattr(np, 'linalg')\n",
            namespace,
        )
        answers.append(numba.njit(namespace["has"])())
    assert answers[0] == answers[1] == (False, True, True)


def test_cunumpy_helpers_are_unknown_to_numba() -> None:
    np = cunumpy

    @numba.njit
    def f(x: Any) -> Any:
        return np.to_numpy(x)

    with pytest.raises(
        numba.core.errors.TypingError,
        match=r"Unknown attribute 'to_numpy' of type Module\(<module 'cunumpy'",
    ):
        f(V)


def test_outside_compiled_code_the_names_stay_cunumpys() -> None:
    np = cunumpy

    @numba.njit
    def f(x: Any) -> Any:
        return np.sqrt(x)

    f(V)  # compiled: Numba has typed cunumpy's names
    assert cunumpy.sqrt is not numpy.sqrt and cunumpy.sum is not numpy.sum
    assert cunumpy.sqrt.__module__ == "cunumpy._api.elementwise"
    assert cunumpy.sqrt([4.0]).tolist() == [2.0] and cunumpy.acos.__name__ == "acos"


# Real programs' forms


def test_jit_nopython_and_prange_reduction() -> None:
    np = cunumpy

    @numba.jit(nopython=True, parallel=True)
    def norm(x: Any) -> Any:
        total = 0.0
        for i in numba.prange(x.shape[0]):
            total += np.sqrt(np.abs(x[i])) * np.exp(-x[i])
        return total

    x = numpy.linspace(-2.0, 2.0, 1001)
    assert norm(x) == pytest.approx(float(numpy.sum(numpy.sqrt(numpy.abs(x)) * numpy.exp(-x))))


def test_vectorize_and_guvectorize_bodies() -> None:
    np = cunumpy

    @numba.vectorize(["float64(float64)"])
    def gauss(x: Any) -> Any:
        return np.exp(-(x**2)) / np.sqrt(np.pi)

    @numba.guvectorize(["void(float64[:], float64[:])"], "(n)->()")
    def rms(x: Any, out: Any) -> None:
        out[0] = np.sqrt(np.sum(x * x) / x.shape[0])

    x = numpy.linspace(-1.0, 1.0, 7)
    numpy.testing.assert_allclose(gauss(x), numpy.exp(-(x**2)) / numpy.sqrt(numpy.pi))
    numpy.testing.assert_allclose(
        rms(numpy.stack([x, 2 * x])), numpy.sqrt(numpy.mean(numpy.stack([x, 2 * x]) ** 2, axis=1))
    )


def test_stencil_and_jitclass() -> None:
    np = cunumpy

    @numba.stencil
    def smooth(a: Any) -> Any:
        return np.sqrt(a[0, 1] * a[0, -1] + a[1, 0] * a[-1, 0])

    @numba.njit
    def run(a: Any) -> Any:
        return smooth(a)

    a = numpy.arange(1.0, 26.0).reshape(5, 5)
    expected = numpy.zeros_like(a)
    expected[1:-1, 1:-1] = numpy.sqrt(a[1:-1, 2:] * a[1:-1, :-2] + a[2:, 1:-1] * a[:-2, 1:-1])
    numpy.testing.assert_allclose(run(a), expected)

    @numba.experimental.jitclass([("values", numba.float64[:])])
    class Particles:
        def __init__(self, n: int) -> None:
            self.values = np.zeros(n)

        def energy(self) -> float:
            return np.sum(np.square(self.values)) + np.max(self.values)

    particles = Particles(3)
    particles.values[:] = numpy.array([1.0, 2.0, 3.0])
    assert particles.energy() == 17.0


def test_typed_dict_of_arrays() -> None:
    np = cunumpy

    @numba.njit
    def build(n: int) -> Any:
        d = numba.typed.Dict.empty(numba.types.int64, numba.types.float64[:])
        for k in range(n):
            d[k] = np.arange(k + 1.0) * np.float64(2.0)
        return d

    d = build(3)
    numpy.testing.assert_array_equal(d[2], numpy.array([0.0, 2.0, 4.0]))


def test_object_mode_calls_cunumpys_functions() -> None:
    np = cunumpy

    @numba.njit
    def f(x: Any) -> Any:
        with numba.objmode(y="float64"):
            y = float(np.sum(x))
        return y + 1.0

    @numba.jit(forceobj=True)
    def g(x: Any) -> Any:
        return np.sum(x)

    assert f(V) == pytest.approx(float(numpy.sum(V)) + 1.0)
    assert g(V) == numpy.sum(V)


CACHED = """
import sys
import numpy
import numba
import cunumpy as np


@numba.njit(cache=True)
def f(x):
    return np.sqrt(x).sum() + np.linalg.norm(x)


print(repr(float(f(numpy.arange(4.0)))), sum(f.stats.cache_hits.values()), sum(f.stats.cache_misses.values()))
"""


def _run(code: str, cwd: Path, **env: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True, text=True, cwd=cwd, timeout=300, check=False,
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(cwd), _pythonpath()]), **env},
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout.strip()


@needs_scipy
def test_cache_true_reloads_in_a_new_process(tmp_path: Path) -> None:
    """Numba imported first, so that a checkout without the entry point runs it too."""
    (tmp_path / "cached_program.py").write_text(CACHED)
    run = "import cached_program"
    first = _run(run, tmp_path, NUMBA_CACHE_DIR=str(tmp_path / "cache")).split()
    second = _run(run, tmp_path, NUMBA_CACHE_DIR=str(tmp_path / "cache")).split()
    expected = float(numpy.sqrt(numpy.arange(4.0)).sum() + numpy.linalg.norm(numpy.arange(4.0)))
    assert float(first[0]) == pytest.approx(expected) and float(second[0]) == float(first[0])
    assert first[1:] == ["0", "1"], first  # compiled and saved
    assert second[1:] == ["1", "0"], second  # loaded from the cache, not compiled


PROGRAM = """
import sys
import numpy
{first}
{second}
from cunumpy._numba_names import registered
before = registered()


@numba.njit
def f(x):
    return np.sqrt(x) + np.sum(x) + np.pi


print(float(f(numpy.arange(4.0))[1]), before, registered())
"""


def test_entry_point_registers_when_numba_comes_after_cunumpy(tmp_path: Path) -> None:
    if not _entry_point_installed():
        pytest.skip(NO_ENTRY_POINT)
    code = PROGRAM.format(
        first="import cunumpy as np\nassert 'numba' not in sys.modules",
        second="import numba",
    )
    value, before, after = _run(code, tmp_path).split(" ", 2)
    assert float(value) == 1.0 + 6.0 + numpy.pi
    assert before == "()" and "'numba'" in after


def test_numba_imported_first_registers_at_import_without_the_entry_point(tmp_path: Path) -> None:
    """A source checkout without the metadata: ``import cunumpy`` finds Numba imported."""
    code = PROGRAM.format(first="import numba", second="import cunumpy as np")
    value, before, _after = _run(code, tmp_path).split(" ", 2)
    assert float(value) == 1.0 + 6.0 + numpy.pi
    assert "'numba'" in before


def test_import_cunumpy_imports_no_numba(tmp_path: Path) -> None:
    out = _run(
        "import sys, cunumpy, cunumpy.linalg, cunumpy.fft\n"
        "print(sorted(m for m in sys.modules if m == 'numba' or m.startswith('numba.')))",
        tmp_path,
    )
    assert out == "[]"


# numba-cuda: device code compiled to PTX, and the simulator


def _numba_cuda() -> Any:
    try:
        from numba import cuda
    except ImportError as exc:
        pytest.skip(f"numba-cuda is not importable ({exc}): needs the cuda12 or cuda13 extra")
    if getattr(cuda, "implementation", "") != "NVIDIA":
        pytest.skip(
            "numba.cuda is Numba's built-in target, not numba-cuda (the cuda12 or cuda13 extra)"
        )
    from cunumpy.kernels._portable._numba_import import cuda_target_problem

    problem = cuda_target_problem()
    if problem is not None:
        pytest.skip(problem)
    return cuda


@pytest.fixture(scope="module")
def sm90() -> Any:
    """numba-cuda compiling for sm_90 without a device; skips naming what is missing."""
    cuda = _numba_cuda()
    dispatcher = pytest.importorskip("numba.cuda.dispatcher")
    from numba.cuda import types as cuda_types
    from numba.cuda.core import entrypoints

    # compile_ptx runs no extensions; a kernel's first compilation runs them this way
    entrypoints.init_all()
    if not _entry_point_installed():
        from cunumpy._numba_names import register

        register()
    patch = pytest.MonkeyPatch()
    patch.setattr(
        dispatcher, "get_current_device", lambda: types.SimpleNamespace(compute_capability=(9, 0))
    )

    def probe(out: Any) -> None:
        out[0] = 1.0

    try:
        cuda.compile_ptx(probe, (cuda_types.float64[::1],), cc=(9, 0))
    except Exception as exc:  # NVVM and libdevice are looked up only now
        patch.undo()
        text = f"{type(exc).__name__}: {exc}"
        if any(word in text for word in ("nvrtc", "NVRTC", "nvvm", "NVVM", "libdevice")):
            pytest.skip(f"numba-cuda cannot compile here: {text.splitlines()[0]}")
        raise
    yield cuda, cuda_types
    patch.undo()


UFUNC_NAMES = [
    (m, n)
    for m, n in NAMES
    if m == "cunumpy" and isinstance(getattr(numpy, numpy_name(m, n)[1]), numpy.ufunc)
]


def _device_kernel(module: types.ModuleType, name: str, nin: int) -> Callable[..., Any]:
    arguments = ", ".join(["x[i]"] * nin)
    namespace: dict[str, Any] = {"module": module}
    exec(
        "from numba import cuda\n"
        "def kernel(out, x):\n"
        "    i = cuda.grid(1)\n"
        "    if i < x.shape[0]:\n"
        f"        out[i] = module.{name}({arguments})\n",
        namespace,
    )
    return namespace["kernel"]


def _ptx(cuda: Any, kernel: Any, signature: tuple[Any, ...]) -> tuple[str, str]:
    try:
        ptx, _ = cuda.compile_ptx(kernel, signature, cc=(9, 0))
    except Exception as exc:  # numba-cuda's error for NumPy's name: compared
        return type(exc).__name__, _message(exc)
    return "ptx", re.sub(r"_Z\w+", "<mangled>", ptx)


def test_device_code_compiles_numpys_ufuncs_to_the_same_ptx(sm90: Any) -> None:
    """Every ufunc name in a ``@cuda.jit`` kernel: NumPy's PTX, or NumPy's error (numba-cuda
    implements a subset of the ufuncs on the device). PTX for sm_90: not a GPU check."""
    cuda, cuda_types = sm90
    signature = (cuda_types.float64[::1], cuda_types.float64[::1])
    compiled = []
    for module_name, name in UFUNC_NAMES:
        twin_module, twin_name = numpy_name(module_name, name)
        nin = getattr(numpy, twin_name).nin
        theirs = _ptx(
            cuda, _device_kernel(importlib.import_module(twin_module), twin_name, nin), signature
        )
        ours = _ptx(
            cuda, _device_kernel(importlib.import_module(module_name), name, nin), signature
        )
        assert ours == theirs, (name, ours[:200], theirs[:200])
        if theirs[0] == "ptx":
            compiled.append(name)
    assert len(compiled) >= 15, compiled
    assert {"sin", "acos", "hypot", "atan2"} <= set(compiled), compiled


def test_device_functions_compile_through_a_kernel(sm90: Any) -> None:
    cuda, cuda_types = sm90
    np = cunumpy

    @cuda.jit(device=True)
    def angle(y: Any, x: Any) -> Any:
        return np.atan2(y, x) + np.pi

    def kernel(out: Any, x: Any) -> None:
        i = cuda.grid(1)
        if i < x.shape[0]:
            out[i] = angle(x[i], np.cos(x[i]))

    ptx, _ = cuda.compile_ptx(kernel, (cuda_types.float64[::1], cuda_types.float64[::1]), cc=(9, 0))
    assert ".entry" in ptx and "sm_90" in ptx


SIMULATED = """
import numpy
import cunumpy as np
from numba import cuda


@cuda.jit
def kernel(out, x):
    i = cuda.grid(1)
    if i < x.shape[0]:
        out[i] = np.sin(x[i]) + np.hypot(x[i], 1.0) + np.sqrt(x[i])


x = numpy.linspace(0.0, 1.0, 8)
out = numpy.zeros_like(x)
kernel[1, 8](out, x)
expected = numpy.sin(x) + numpy.hypot(x, 1.0) + numpy.sqrt(x)
print(numpy.allclose(out, expected), type(cuda.to_device(x)).__name__)
"""


@pytest.mark.simulator
def test_kernel_runs_under_the_cuda_simulator(tmp_path: Path) -> None:
    """Numba's CUDA simulator runs the kernel's Python on the CPU: not a GPU check."""
    _numba_cuda()
    out = _run(SIMULATED, tmp_path, NUMBA_ENABLE_CUDASIM="1")
    assert out == "True FakeCUDAArray", out


def test_the_entry_point_module_imports_neither_cunumpy_nor_numba(tmp_path: Path) -> None:
    """Numba runs the entry point in every program of the environment: without cunumpy
    imported, it imports nothing; the wheel and the sdist ship it."""
    out = _run(
        "import sys, _cunumpy_numba\n_cunumpy_numba.init()\n"
        "print(sorted(m for m in sys.modules if m.partition('.')[0] in ('cunumpy', 'numba')))",
        tmp_path,
    )
    assert out == "[]"
    pyproject = (ROOT / "pyproject.toml").read_text()
    for group in ("numba_extensions", "numba_cuda_extensions"):
        assert f'[project.entry-points.{group}]\ninit = "_cunumpy_numba:init"' in pyproject
    assert '"_cunumpy_numba.py" = "_cunumpy_numba.py"' in pyproject
    assert '"_cunumpy_numba.py",' in pyproject.split("[tool.hatch.build.targets.sdist]")[1]


def test_a_numba_without_the_expected_layout_warns_and_import_goes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from cunumpy import _numba_names

    places = dict(_numba_names._NUMBAS["numba"], ir="numba.core.no_such_ir")
    monkeypatch.setattr(_numba_names, "_NUMBAS", {"numba-next": places})
    monkeypatch.setattr(_numba_names, "_registered", [])
    with pytest.warns(RuntimeWarning, match=r"cannot teach this numba-next its NumPy names"):
        _numba_names.register()
    assert _numba_names.registered() == ()


def test_python_m_cunumpy_says_whether_numba_sees_the_names() -> None:
    from cunumpy.__main__ import collect_report

    text = collect_report(run_checks=False)["numba"]
    assert ("(numba_extensions entry point)" in text) is _entry_point_installed(), text
    if not _entry_point_installed():
        assert "pip install -e ." in text


ON_CUPY = """
import numpy
import numba
import cunumpy as np

assert np.get_backend() == "cupy" and np.random.__name__ == "cupy.random"


@numba.njit
def f(x):
    np.random.seed(0)
    return np.zeros(x.shape[0]) + np.sqrt(x) + np.random.random()


numpy.random.seed(0)
expected = numpy.sqrt(numpy.arange(3.0)) + numpy.random.random()
print(numpy.array_equal(f(numpy.arange(3.0)), expected))
"""


@pytest.mark.fake_cupy
def test_on_the_cupy_backend_compiled_code_is_numpys(tmp_path: Path) -> None:
    """fake CuPy: with CuPy the current backend (``np.random`` is CuPy's), compiled code
    works on NumPy arrays with NumPy's names. Not a GPU check."""
    out = _run(ON_CUPY, tmp_path, CUNUMPY_FAKE_CUPY="1", CUNUMPY_BACKEND="cupy")
    assert out == "True", out
