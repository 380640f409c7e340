"""Portable kernels on the CPU: Numba's cpu and parallel targets against NumPy references.

Each kernel is defined once at module level, so each version compiles once per run.
Type rules follow docs/kernels.md: declared signatures are chosen by the standard's
promotion (no promotion between kinds), Python scalars are weak, NumPy scalars strong.
"""

from __future__ import annotations

import io
import math
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import cunumpy
from cunumpy import kernels, profiling

pytest.importorskip(
    "numba",
    reason="portable kernels need Numba (pip install numba; from a source checkout: pip install '.[kernels]')",
)

ROOT = Path(__file__).resolve().parent.parent


def _pythonpath() -> str:
    """The repository first, then the caller's PYTHONPATH (the GPU machine's carried wheels)."""
    return os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)


@kernels.elementwise(["float32(float32, float32)", "float64(float64, float64)"])
def damped_wave(x, y):
    return math.exp(-0.5 * x) * math.sin(3.0 * x) + 0.25 * y


@kernels.elementwise(["float64(float64, float64)"], cpu_target="parallel")
def damped_wave_parallel(x, y):
    return math.exp(-0.5 * x) * math.sin(3.0 * x) + 0.25 * y


@kernels.elementwise
def combine(x, y):
    return x * y + y


@kernels.elementwise(["int16(int16, int16)", "int64(int64, int64)", "uint8(uint8, uint8)"])
def int_add(x, y):
    return x + y


@kernels.elementwise(["complex64(complex64)", "complex128(complex128)"])
def rotate(z):
    return z * 1j


@kernels.elementwise(["bool(float64, float64)"])
def close(x, y):
    return abs(x - y) < 0.5


@kernels.elementwise
def clipped_step(x):
    if x < 0.0:
        return 0.0
    elif x > 1.0:
        return 1.0
    return x * x


@kernels.generalized("(n),(n)->()", ["float64(float64, float64)", "float32(float32, float32)"])
def dot(x, y, out):
    total = 0.0
    for i in range(x.shape[0]):
        total += x[i] * y[i]
    out[0] = total


@kernels.generalized("(m,n),(n)->(m)", ["float64(float64, float64)"], cpu_target="parallel")
def matvec(a, x, out):
    for i in range(a.shape[0]):
        acc = 0.0
        for j in range(a.shape[1]):
            acc += a[i, j] * x[j]
        out[i] = acc


@kernels.generalized("(n),()->(n),()", ["(float64, float64)(float64, float64)"])
def scale_and_sum(x, s, scaled, total):
    t = 0.0
    for i in range(x.shape[0]):
        scaled[i] = x[i] * s
        t += scaled[i]
    total[0] = t


@kernels.generalized("(n)->()")
def first_plus_last(x, out):
    out[0] = x[0] + x[x.shape[0] - 1]


def _wave(x, y):
    return np.exp(-0.5 * x) * np.sin(3.0 * x) + 0.25 * y


# --- elementwise: values, broadcasting, out= ---------------------------------------------


def test_elementwise_values_match_numpy() -> None:
    rng = np.random.default_rng(0)
    x, y = rng.random(1000), rng.random(1000)
    np.testing.assert_allclose(damped_wave(x, y), _wave(x, y), rtol=1e-13)
    x32, y32 = x.astype(np.float32), y.astype(np.float32)
    result = damped_wave(x32, y32)
    assert result.dtype == np.float32
    np.testing.assert_allclose(result, _wave(x32, y32), rtol=2e-6)


def test_elementwise_parallel_target_matches_numpy() -> None:
    rng = np.random.default_rng(1)
    x, y = rng.random(200_003), rng.random(200_003)
    result = damped_wave_parallel(x, y)
    assert damped_wave_parallel.cpu_target == "parallel"
    np.testing.assert_allclose(result, _wave(x, y), rtol=1e-13)


def test_elementwise_broadcasts() -> None:
    x = np.linspace(0.0, 1.0, 4)
    y = np.arange(3.0)[:, None]
    result = damped_wave(x, y)
    assert result.shape == (3, 4)
    np.testing.assert_allclose(result, _wave(x, y), rtol=1e-13)
    scalar_only = damped_wave(np.float64(0.5), 2.0)
    assert isinstance(scalar_only, np.ndarray) and scalar_only.shape == ()
    assert float(scalar_only) == pytest.approx(float(_wave(0.5, 2.0)))
    empty = damped_wave(np.zeros((0, 3)), np.ones(3))
    assert empty.shape == (0, 3) and empty.dtype == np.float64


def test_elementwise_strided_and_reversed_inputs() -> None:
    base = np.arange(60.0).reshape(3, 4, 5) / 60
    x = base[:, ::-1, ::2]
    y = base.transpose(2, 1, 0)[::2].transpose(2, 1, 0)
    np.testing.assert_allclose(damped_wave(x, y), _wave(x, y), rtol=1e-13)


def test_elementwise_branches() -> None:
    x = np.array([-1.0, 0.5, 2.0, 0.0])
    np.testing.assert_array_equal(clipped_step(x), [0.0, 0.25, 1.0, 0.0])


def test_out_is_written_and_returned() -> None:
    x, y = np.linspace(0.0, 1.0, 5), np.ones(5)
    out = np.full(5, np.nan)
    result = damped_wave(x, y, out=out)
    assert result is out
    np.testing.assert_allclose(out, _wave(x, y), rtol=1e-13)
    one_tuple = np.empty(5)
    assert damped_wave(x, y, out=(one_tuple,)) is one_tuple


def test_out_of_a_wider_dtype_and_strided() -> None:
    x32 = np.linspace(0.0, 1.0, 6, dtype=np.float32)
    out = np.zeros((6, 2))[:, 0]  # strided float64 view
    damped_wave(x32, x32, out=out)
    # computed by the float32 loop, then widened: exactly the float32 result
    np.testing.assert_array_equal(out, damped_wave(x32, x32).astype(np.float64))
    np.testing.assert_allclose(out, _wave(x32, x32), rtol=2e-6)
    assert not np.array_equal(out, _wave(x32.astype(np.float64), x32.astype(np.float64)))


def test_out_of_a_complex_dtype_gets_the_real_result_without_a_warning() -> None:
    # NumPy would also cast `out` back to float64 and warn (an error under our settings)
    x = np.linspace(0.0, 1.0, 5)
    out = np.full(5, 7 + 7j)
    assert damped_wave(x, 1.0, out=out) is out
    np.testing.assert_array_equal(out, damped_wave(x, 1.0).astype(np.complex128))


def test_out_may_alias_an_input() -> None:
    x = np.linspace(0.0, 1.0, 7)
    expected = _wave(x, 2.0)
    damped_wave(x, 2.0, out=x)
    np.testing.assert_allclose(x, expected, rtol=1e-13)


def test_out_overlapping_an_input_gives_numpys_answer() -> None:
    data = np.linspace(0.0, 1.0, 8)
    expected = _wave(data[:-1], 1.0)
    damped_wave(data[:-1], 1.0, out=data[1:])
    np.testing.assert_allclose(data[1:], expected, rtol=1e-13)


def test_out_errors() -> None:
    x = np.ones(3)
    with pytest.raises(ValueError, match=r"damped_wave: `out` array 0 has shape \(4,\)"):
        damped_wave(x, x, out=np.empty(4))
    with pytest.raises(TypeError, match="dtype float32, but the result of loop float64"):
        damped_wave(x, x, out=np.empty(3, dtype=np.float32))
    frozen = np.empty(3)
    frozen.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        damped_wave(x, x, out=frozen)
    with pytest.raises(ValueError, match="must hold 1 array"):
        damped_wave(x, x, out=(np.empty(3), np.empty(3)))
    with pytest.raises(TypeError, match="`out` 0 must be a NumPy or CuPy array, not list"):
        damped_wave(x, x, out=[0.0, 0.0, 0.0])


# --- elementwise: type rules ---------------------------------------------------------------


def test_declared_loop_follows_standard_promotion() -> None:
    f32, f64 = np.ones(2, dtype=np.float32), np.ones(2)
    assert damped_wave(f32, f32).dtype == np.float32
    assert damped_wave(f32, f64).dtype == np.float64  # float32 promotes to float64
    assert damped_wave(f32, 2.0).dtype == np.float32  # a Python float is weak
    assert damped_wave(f32, 2).dtype == np.float32  # so is a Python int
    assert damped_wave(f32, np.float64(2.0)).dtype == np.float64  # a NumPy scalar is not
    assert damped_wave(0.5, 2.0).dtype == np.float64  # Python scalars alone: default dtypes
    assert int_add(np.ones(2, np.uint8), np.ones(2, np.int8)).dtype == np.int16
    assert int_add(np.ones(2, np.uint8), np.ones(2, np.uint8)).dtype == np.uint8
    assert int_add(np.ones(2, np.int32), 1).dtype == np.int64
    assert rotate(np.ones(2, np.float32)).dtype == np.complex64  # real to complex promotes
    np.testing.assert_array_equal(rotate(np.array([1.0, 2.0])), [1j, 2j])


def test_narrowest_declared_loop_wins_whatever_the_order() -> None:
    @kernels.elementwise(["float64(float64)", "float32(float32)"])
    def twice(x):
        return 2 * x

    assert twice(np.ones(2, np.float32)).dtype == np.float32
    assert twice(np.ones(2)).dtype == np.float64
    assert twice.signatures == ("float64(float64)", "float32(float32)")


def test_declared_loop_rejects_mixed_kinds() -> None:
    with pytest.raises(
        TypeError, match=r"no declared signature accepts arguments of types \(int64"
    ):
        damped_wave(np.arange(3), np.ones(3))
    with pytest.raises(TypeError, match=r"types \(bool, float64\)"):
        damped_wave(np.ones(3, dtype=bool), np.ones(3))
    with pytest.raises(TypeError, match=r"Python int, Python int"):
        damped_wave(1, 2)  # Python ints alone are int64 arrays: no floating loop takes them
    with pytest.raises(TypeError, match="uint64, int64"):
        int_add(np.ones(2, np.uint64), np.ones(2, np.int64))  # no promotion in the standard


def test_no_loop_error_says_why() -> None:
    kinds, widths = "Kinds are not mixed", "An argument goes only to a dtype it promotes to"
    with pytest.raises(TypeError, match=kinds):
        damped_wave(np.arange(3), np.ones(3))
    with pytest.raises(TypeError, match=kinds):
        int_add(np.ones(2, np.int16), True)  # a Python bool goes only to bool
    with pytest.raises(TypeError, match=widths):
        int_add(np.ones(2, np.uint64), np.ones(2, np.uint64))  # no declared loop is wide enough
    with pytest.raises(TypeError, match=widths):
        int_add(np.ones(2, np.uint64), 1)
    with pytest.raises(TypeError, match="Python float"):
        int_add(np.ones(2, np.int64), 1.5)


def test_python_int_out_of_range_for_the_loop() -> None:
    with pytest.raises(OverflowError, match=r"int_add: argument 1 \(300\) is out of range for"):
        int_add(np.ones(2, np.uint8), 300)


def test_bool_results() -> None:
    result = close(np.array([0.0, 1.0]), 0.2)
    assert result.dtype == np.bool_
    np.testing.assert_array_equal(result, [True, False])


def test_undeclared_kernel_keeps_input_dtypes_and_infers_the_result() -> None:
    x32 = np.arange(3, dtype=np.float32)
    result = combine(x32, 2.0)  # the weak Python float becomes float32
    assert result.dtype == np.float32
    np.testing.assert_array_equal(result, x32 * 2 + 2)
    assert combine(np.arange(3), np.arange(3)).dtype == np.int64
    assert combine(np.arange(3), 0.5).dtype == np.float64  # no int loop for a float: default
    mixed = combine(np.arange(3, dtype=np.int64), np.ones(3, dtype=np.float32))
    assert mixed.dtype == np.float64  # what Numba infers for int64 * float32
    np.testing.assert_array_equal(combine(np.arange(3), 2), [2, 4, 6])

    @kernels.elementwise
    def plus_one(x):
        return x + 1

    # Numba computes with 64-bit integers: an int8 input gives an int64 result
    assert plus_one(np.arange(3, dtype=np.int8)).dtype == np.int64


def test_undeclared_kernel_returning_a_tuple_is_a_type_error() -> None:
    @kernels.elementwise
    def pair(x):
        return (x, x)

    with pytest.raises(TypeError, match=r"pair: the kernel returns .* not an Array API dtype"):
        pair(np.ones(2))


def test_kernel_that_does_not_compile_is_a_type_error() -> None:
    @kernels.elementwise(["float64(float64)"])
    def broken(x):
        return x.no_such_attribute

    with pytest.raises(
        TypeError, match=r"broken: Numba cannot compile the kernel for float64\(float64\)"
    ):
        broken(np.ones(2))


# --- elementwise: argument errors -----------------------------------------------------------


def test_call_errors() -> None:
    x = np.ones(3)
    with pytest.raises(TypeError, match="damped_wave: takes 2 argument"):
        damped_wave(x)
    with pytest.raises(TypeError, match=r"argument 1 is a list \(\[1, 2, 3\]\)"):
        damped_wave(x, [1, 2, 3])
    with pytest.raises(TypeError, match="argument 0 is a str"):
        damped_wave("1", x)
    with pytest.raises(TypeError, match="dtype float16, which is not an Array API dtype"):
        damped_wave(np.ones(3, dtype=np.float16), x)
    with pytest.raises(ValueError, match=r"cannot be broadcast together"):
        damped_wave(np.ones(3), np.ones(4))
    with pytest.raises(ValueError, match=r"damped_wave: `stream` 0 cannot be honoured .* CPU"):
        damped_wave(x, x, stream=0)
    with pytest.raises(TypeError, match=r"damped_wave: cannot use 'x' as a stream; expected"):
        damped_wave(x, x, stream="x")
    with pytest.raises(TypeError, match="damped_wave: unexpected keyword argument 'where'"):
        damped_wave(x, x, where=True)
    with pytest.raises(TypeError, match="damped_wave: unexpected keyword argument 'y'"):
        damped_wave(x, y=x)
    with pytest.raises(OverflowError, match=r"damped_wave: argument 1 \(1000.*\) is out of range"):
        damped_wave(x, 10**400)  # a Python int beyond any float64


def test_definition_errors() -> None:
    with pytest.raises(ValueError, match="cannot parse the signature 'float64 float64'"):
        kernels.elementwise(["float64 float64"])(lambda x: x)
    with pytest.raises(ValueError, match="unknown dtype 'double'"):
        kernels.elementwise("double(double)")(lambda x: x)
    with pytest.raises(ValueError, match="has 2 input"):
        kernels.elementwise("float64(float64, float64)")(lambda x: x)
    with pytest.raises(ValueError, match="the list of signatures is empty"):
        kernels.elementwise([])(lambda x: x)
    with pytest.raises(TypeError, match="`signatures` must be a str or a sequence of str"):
        kernels.elementwise([1.0])(lambda x: x)
    with pytest.raises(ValueError, match="`cpu_target` must be 'cpu' or 'parallel', not 'cuda'"):
        kernels.elementwise(cpu_target="cuda")(lambda x: x)
    with pytest.raises(TypeError, match="`fastmath` must be a bool"):
        kernels.elementwise(fastmath=1)(lambda x: x)
    with pytest.raises(TypeError, match=r"plain positional ones .* has 'args'"):
        kernels.elementwise(lambda *args: 0)
    with pytest.raises(TypeError, match="has 'y'"):
        kernels.elementwise(lambda x, y=1: x)
    with pytest.raises(TypeError, match="must take between 1 and 12 inputs, not 0"):
        kernels.elementwise(lambda: 0)
    with pytest.raises(TypeError, match="can only decorate a function"):
        kernels.ElementwiseFunction(42)  # type: ignore[arg-type]


# --- compilation: lazy, cached, reported -----------------------------------------------------


def test_compilation_is_lazy_cached_and_reported() -> None:
    @kernels.elementwise(["float64(float64)", "float32(float32)"])
    def halve(x):
        return x / 2

    assert halve.compile_times == {}
    profiling.reset()
    for _ in range(3):
        halve(np.ones(4))
    assert list(halve.compile_times) == ["float64(float64) cpu"]
    assert halve.compile_times["float64(float64) cpu"] > 0
    halve(np.ones(4, dtype=np.float32))
    assert list(halve.compile_times) == ["float64(float64) cpu", "float32(float32) cpu"]
    record = profiling.report(file=io.StringIO())
    assert record["compile halve: float64(float64) cpu"].count == 1
    assert record["compile halve: float32(float32) cpu"].count == 1
    profiling.reset()


def test_namespace_reaches_the_kernels_module() -> None:
    assert cunumpy.kernels is kernels
    assert "kernels" in dir(cunumpy)
    assert repr(damped_wave).startswith("<ElementwiseFunction damped_wave: float32(float32, ")
    assert damped_wave.__doc__ is None and damped_wave.__wrapped__ is damped_wave.py_func


def _run(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": _pythonpath(), **env},
        timeout=120,
        check=False,
    )


def test_importing_and_defining_import_neither_numba_nor_cupy() -> None:
    done = _run(
        """
        import sys, math
        import cunumpy, cunumpy.kernels
        assert "numba" not in sys.modules and "cupy" not in sys.modules, "on import"
        @cunumpy.kernels.elementwise(["float64(float64)"])
        def f(x):
            return math.sqrt(x)
        assert "numba" not in sys.modules and "cupy" not in sys.modules, "on definition"
        import numpy as np
        assert f(np.array([4.0]))[0] == 2.0
        assert "numba" in sys.modules and "cupy" not in sys.modules, "on a CPU call"
        print("ok")
        """,
        CUNUMPY_BACKEND="numpy",
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


def test_without_numba_defining_a_kernel_names_the_extra() -> None:
    done = _run(
        """
        import importlib.abc, sys
        class NoNumba(importlib.abc.MetaPathFinder):
            def find_spec(self, name, path, target=None):
                if name == "numba" or name.startswith("numba."):
                    raise ModuleNotFoundError(f"No module named {name!r}")
        sys.meta_path.insert(0, NoNumba())
        import cunumpy.kernels as kernels
        try:
            kernels.elementwise(lambda x: x)
        except ImportError as exc:
            print(exc)
        try:
            kernels.generalized("(n)->()")(lambda x, out: None)
        except ImportError as exc:
            print(exc)
        """
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 2
    assert all(
        "pip install numba (from a source checkout of cunumpy: pip install '.[kernels]')" in line
        for line in lines
    )
    assert lines[0].startswith("elementwise (<lambda>): portable kernels are compiled by Numba")


# --- generalized -----------------------------------------------------------------------------


def test_generalized_values_and_broadcasting() -> None:
    rng = np.random.default_rng(2)
    x, y = rng.random((4, 1, 3)), rng.random((5, 3))
    result = dot(x, y)
    assert result.shape == (4, 5)
    np.testing.assert_allclose(result, np.einsum("...i,...i->...", x, y), rtol=1e-13)
    assert dot(x.astype(np.float32), y.astype(np.float32)).dtype == np.float32
    a = rng.random((2, 3, 4))
    np.testing.assert_allclose(matvec(a, y[0, :].repeat(2)[:4]), a @ y[0, :].repeat(2)[:4])


def test_generalized_several_outputs_and_scalar_core_inputs() -> None:
    x = np.arange(12.0).reshape(3, 4)
    scaled, total = scale_and_sum(x, 2.0)
    np.testing.assert_array_equal(scaled, 2 * x)
    np.testing.assert_array_equal(total, (2 * x).sum(axis=1))
    scaled, total = scale_and_sum(x, np.array([1.0, 2.0, 3.0]))
    np.testing.assert_array_equal(total, x.sum(axis=1) * [1, 2, 3])


def test_generalized_out() -> None:
    x = np.arange(12.0).reshape(3, 4)
    scaled, total = np.empty((3, 4)), np.empty(3)
    result = scale_and_sum(x, 0.5, out=(scaled, total))
    assert result[0] is scaled and result[1] is total
    np.testing.assert_array_equal(total, x.sum(axis=1) / 2)
    single = np.empty(3)
    assert dot(x[:, :2], x[:, 2:], out=single) is single
    np.testing.assert_array_equal(single, (x[:, :2] * x[:, 2:]).sum(axis=1))
    widened = np.full(3, 7 + 7j)  # float64 loop, complex out: written without a warning
    assert dot(x[:, :2], x[:, 2:], out=widened) is widened
    np.testing.assert_array_equal(widened, single.astype(np.complex128))


def test_generalized_undeclared_outputs_take_the_promoted_input_dtype() -> None:
    assert first_plus_last(np.arange(5, dtype=np.int32)).dtype == np.int32
    result = first_plus_last(np.arange(10.0).reshape(2, 5))
    np.testing.assert_array_equal(result, [4.0, 14.0])


def test_generalized_errors() -> None:
    with pytest.raises(ValueError, match=r"dimension 'n' of layout '\(n\),\(n\)->\(\)' is 3"):
        dot(np.ones(3), np.ones(4))
    with pytest.raises(ValueError, match=r"input 0 has 0 dimension\(s\), but layout"):
        dot(1.0, np.ones(3))
    with pytest.raises(ValueError, match=r"`out` 0 has loop dimensions \(3,\)"):
        dot(np.ones((2, 3)), np.ones(3), out=np.empty(3))
    with pytest.raises(ValueError, match="must hold 2 array"):
        scale_and_sum(np.ones(3), 1.0, out=np.empty(3))
    with pytest.raises(TypeError, match="takes 2 input"):
        dot(np.ones(3))
    with pytest.raises(TypeError, match="no declared signature accepts"):
        dot(np.ones(3, dtype=np.int64), np.ones(3, dtype=np.int64))


def test_generalized_definition_errors() -> None:
    with pytest.raises(ValueError, match="cannot parse the layout '\\(n\\)'"):
        kernels.generalized("(n)")
    with pytest.raises(TypeError, match="the layout must be a str"):
        kernels.generalized(3)  # type: ignore[arg-type]
    with pytest.raises(
        TypeError, match=r"takes 2 parameter\(s\), but layout .* 2 input\(s\) and 1"
    ):
        kernels.generalized("(n),(n)->()")(lambda x, out: None)
    with pytest.raises(ValueError, match="repeats a dimension name"):
        kernels.generalized("(n)->(n,n)")
    with pytest.raises(
        ValueError, match=r"dimension 'm' of an output of layout .* not a dimension"
    ):
        kernels.generalized("(n)->(m)")
    with pytest.raises(ValueError, match=r"has 1 input\(s\) and 2 result"):
        kernels.generalized("(n)->()", "(float64, float64)(float64)")(lambda x, out: None)
    mixed = kernels.generalized("(n),(n)->()")(lambda x, y, out: None)
    with pytest.raises(TypeError, match="no common dtype"):
        mixed(np.ones(2, dtype=np.int64), np.ones(2))


# --- properties ------------------------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(
    shapes=hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=3, max_side=4),
    data=st.data(),
)
def test_broadcasting_matches_numpy_for_any_shapes(shapes, data) -> None:  # type: ignore[no-untyped-def]
    elements = st.floats(-10, 10, allow_nan=False)
    x = data.draw(hnp.arrays(np.float64, shapes.input_shapes[0], elements=elements))
    y = data.draw(hnp.arrays(np.float64, shapes.input_shapes[1], elements=elements))
    result = damped_wave(x, y)
    assert result.shape == shapes.result_shape
    np.testing.assert_allclose(result, _wave(x, y), rtol=1e-12, atol=1e-300)


def test_gpu_target_problem_names_numba_cuda_and_numpy() -> None:
    pytest.importorskip(
        "numba.cuda",
        reason="needs numba-cuda (pip install 'numba-cuda[cu12]'; from a source checkout: pip install '.[cuda12]')",
    )
    from cunumpy.kernels._portable._numba_import import cuda_target_problem

    problem = cuda_target_problem()
    if hasattr(np, "row_stack"):  # NumPy < 2.5: numba-cuda 0.30 compiles
        assert problem is None
    else:  # NumPy 2.5 removed row_stack, which numba-cuda 0.30 registers at compile time
        assert problem is not None
        assert f"NumPy {np.__version__}" in problem and "numpy<2.5" in problem
        assert "row_stack" in problem
    if not cunumpy.cupy_available():
        assert (
            kernels.gpu_unavailable_reason()
            == f"no usable GPU: {cunumpy.cupy_unavailable_reason()}"
        )
        assert kernels.gpu_available() is False


@pytest.mark.parametrize("dims", [(1,), (5,), (1000,), (1 << 22,), (3, 4), (1, 1, 1), (2, 700, 9)])
def test_gpu_launch_shape_covers_the_loop_with_enough_blocks(dims: tuple[int, ...]) -> None:
    # numba-cuda warns of low occupancy below 128 blocks; the kernels loop with the grid's
    # stride, so a grid may be larger than the array needs, never smaller than 128 blocks
    from cunumpy.kernels._portable._numba_cuda import _launch_shape

    grid, block = _launch_shape(dims, simulator=False)
    assert len(grid) == len(block) == len(dims)
    assert math.prod(grid) >= 128
    assert math.prod(block) == 256
    assert all(g >= 1 for g in grid)
    if math.prod(dims) >= 128 * 256 and len(dims) == 1:  # large: one element per thread
        assert grid[0] * block[0] >= min(dims[0], (1 << 20) * 256)
