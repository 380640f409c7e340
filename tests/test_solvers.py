"""Tests of cunumpy.integrate and cunumpy.optimize, against SciPy and closed forms.

``newton`` runs on the backend of ``x0``; the SciPy-backed functions run on the host with
callbacks and results on the backend of ``x0`` (GPU tests check the device side and that
every copy is noted for the transfer counters).
"""

from __future__ import annotations

import math
import subprocess
import sys
from typing import Any

import numpy as np
import pytest

import cunumpy
from cunumpy import integrate, optimize
from cunumpy._placement._transfer_log import listening


def _scipy(name: str) -> Any:
    """``scipy.<name>``, or skip: the GPU machine may have no SciPy."""
    return pytest.importorskip(
        f"scipy.{name}", reason="scipy is not installed: needs SciPy (the test extra)"
    )


# --- newton -------------------------------------------------------------------------------


def test_newton_with_fprime_finds_every_root() -> None:
    s = np.asarray([2.0, 3.0, 4.0, 100.0])
    roots = optimize.newton(lambda x: x**2 - s, np.ones(4), fprime=lambda x: 2 * x)
    np.testing.assert_allclose(roots, np.sqrt(s), rtol=1e-14)
    assert isinstance(roots, np.ndarray)
    assert roots.dtype == np.float64


def test_newton_secant_agrees_with_scipys_array_newton() -> None:
    s = np.asarray([2.0, 3.0, 4.0, 0.5])
    ours = optimize.newton(lambda x, c: x**3 - c, np.ones(4), args=(s,))
    theirs = _scipy("optimize").newton(lambda x, c: x**3 - c, np.ones(4), args=(s,))
    np.testing.assert_allclose(ours, theirs, rtol=1e-12)
    np.testing.assert_allclose(ours, np.cbrt(s), rtol=1e-10)


def test_newton_takes_scalars_and_lists_on_the_current_backend() -> None:
    root = optimize.newton(lambda x: math.cos(1.0) * 0 + np.cos(x) - x, 0.5)
    assert isinstance(root, np.ndarray)
    assert root.shape == ()
    assert abs(float(root) - 0.7390851332151607) < 1e-12
    roots = optimize.newton(
        lambda x: x - np.asarray([1.0, 2.0]), [0.0, 0.0], fprime=lambda x: np.ones(2)
    )
    np.testing.assert_array_equal(roots, [1.0, 2.0])


def test_newton_full_output_and_warnings() -> None:
    c = np.asarray([-1.0, 4.0])  # x**2 + 1 has no root, and its slope at 0 is 0
    result = optimize.newton(
        lambda x: x**2 - c, np.asarray([0.0, 1.0]), fprime=lambda x: 2 * x, full_output=True
    )
    assert isinstance(result, optimize.NewtonResult)
    assert result.converged.tolist() == [False, True]
    assert result.zero_der.tolist() == [True, False]
    assert abs(float(result.root[1]) - 2.0) < 1e-12
    with pytest.warns(RuntimeWarning, match=r"1 of 2 points did not converge \(zero derivatives\)"):
        optimize.newton(lambda x: x**2 - c, np.asarray([0.0, 1.0]), fprime=lambda x: 2 * x)
    with pytest.warns(RuntimeWarning, match="newton: 1 of 1 points did not converge"):
        optimize.newton(lambda x: x**3 - 5.0, np.asarray([100.0]), maxiter=2)


def test_newton_stops_on_exact_zeros_and_honours_rtol() -> None:
    result = optimize.newton(
        lambda x: x - 3.0, np.asarray([3.0]), fprime=lambda x: np.ones(1), full_output=True
    )
    assert result.root.tolist() == [3.0]
    assert result.converged.tolist() == [True]
    calls = []

    def f(x):
        calls.append(1)
        return x**2 - 1e6

    loose = optimize.newton(f, np.asarray([2000.0]), fprime=lambda x: 2 * x, rtol=1e-2, tol=0.0)
    assert len(calls) < 6
    assert abs(float(loose[0]) - 1000.0) < 20.0


def test_newton_rejects_bad_limits() -> None:
    with pytest.raises(ValueError, match="newton: `maxiter` must be >= 1"):
        optimize.newton(lambda x: x, np.ones(1), maxiter=0)
    with pytest.raises(ValueError, match="`tol`, `rtol` >= 0"):
        optimize.newton(lambda x: x, np.ones(1), tol=-1.0)


# --- SciPy on the host ---------------------------------------------------------------------


def test_fsolve_root_and_minimize_match_scipy_on_numpy() -> None:
    scipy_optimize = _scipy("optimize")
    seen = []

    def residual(x):
        seen.append(type(x))
        return np.asarray([x[0] ** 2 + x[1] - 3.0, x[0] - x[1] + 1.0])

    found = optimize.fsolve(residual, np.asarray([1.0, 1.0]))
    np.testing.assert_allclose(found, scipy_optimize.fsolve(residual, np.asarray([1.0, 1.0])))
    assert set(seen) == {np.ndarray}
    _, info, status, _ = optimize.fsolve(residual, np.ones(2), full_output=True)
    assert status == 1
    assert isinstance(info["fvec"], np.ndarray)
    res = optimize.root(residual, np.ones(2), method="hybr")
    assert res.success
    np.testing.assert_allclose(residual(res.x), 0.0, atol=1e-10)
    rosen = optimize.minimize(
        scipy_optimize.rosen, np.zeros(3), jac=scipy_optimize.rosen_der, method="BFGS"
    )
    np.testing.assert_allclose(rosen.x, 1.0, atol=1e-5)


def test_minimize_passes_constraints_bounds_and_callbacks() -> None:
    _scipy("optimize")
    steps = []
    res = optimize.minimize(
        lambda x: float(np.sum(x**2)),
        np.asarray([2.0, 2.0]),
        method="SLSQP",
        bounds=[(0.5, 3.0), (None, None)],
        constraints={"type": "ineq", "fun": lambda x: x[1] - 1.0},
        callback=lambda xk: steps.append(xk.copy()),
    )
    np.testing.assert_allclose(res.x, [0.5, 1.0], atol=1e-6)
    assert steps


def test_quad_and_odeint_match_closed_forms() -> None:
    _scipy("optimize")
    value, error = integrate.quad(lambda x, a: np.asarray(a * x**2), 0.0, 3.0, args=(2.0,))
    assert abs(value - 18.0) < 1e-12
    assert error < 1e-10
    t = np.linspace(0.0, 2.0, 5)
    y = integrate.odeint(lambda y, t, k: -k * y, np.asarray([1.0, 2.0]), t, args=(0.5,))
    assert y.shape == (5, 2)
    np.testing.assert_allclose(y[:, 1], 2.0 * np.exp(-0.5 * t), rtol=1e-6)
    y_first = integrate.odeint(lambda t, y: -y, np.ones(1), t, tfirst=True)
    np.testing.assert_allclose(y_first[:, 0], np.exp(-t), rtol=1e-6)


def test_host_solvers_note_no_transfer_for_numpy_data() -> None:
    _scipy("optimize")
    seen = []
    with listening(lambda kind, *rest: seen.append(kind)):
        optimize.fsolve(lambda x: x - 1.0, np.zeros(2))
        integrate.quad(lambda x: x, 0.0, 1.0)
        optimize.newton(lambda x: x - 1.0, np.zeros(2))
    assert seen == []


def test_importing_the_solvers_imports_no_scipy() -> None:
    code = (
        "import sys, cunumpy; cunumpy.optimize; cunumpy.integrate; "
        "assert 'scipy' not in sys.modules, 'scipy imported'; "
        "cunumpy.optimize.newton(lambda x: x - 1.0, [0.0]); "
        "assert 'scipy' not in sys.modules, 'newton imported scipy'"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_solver_modules_are_lazy_top_level_submodules() -> None:
    assert cunumpy.optimize is optimize
    assert cunumpy.integrate is integrate
    assert dir(optimize) == sorted(optimize.__all__)
    assert dir(integrate) == sorted(integrate.__all__)


# --- CuPy ----------------------------------------------------------------------------------


@pytest.mark.gpu
def test_newton_runs_on_cupy_and_notes_its_syncs() -> None:
    import cupy

    s = cupy.asarray([2.0, 3.0, 4.0])
    seen = []
    with listening(lambda kind, *rest: seen.append(kind)):
        roots = optimize.newton(lambda x: x**2 - s, cupy.ones(3), fprime=lambda x: 2 * x)
    assert isinstance(roots, cupy.ndarray)
    np.testing.assert_allclose(roots.get(), np.sqrt([2.0, 3.0, 4.0]), rtol=1e-14)
    assert seen
    assert set(seen) == {"sync"}
    with cunumpy.use_backend("cupy"):
        assert isinstance(optimize.newton(lambda x: x - 1.0, [0.0, 2.0]), cupy.ndarray)


@pytest.mark.gpu
def test_host_solvers_give_callbacks_device_arrays_and_note_every_copy() -> None:
    _scipy("optimize")
    import cupy

    types = []
    kinds = []

    def residual(x):
        types.append(type(x))
        return x**2 - cupy.asarray([4.0, 9.0])

    with listening(lambda kind, *rest: kinds.append(kind)):
        found = optimize.fsolve(residual, cupy.ones(2))
    assert isinstance(found, cupy.ndarray)
    np.testing.assert_allclose(found.get(), [2.0, 3.0])
    assert set(types) == {cupy.ndarray}
    assert kinds.count("to_device") == len(types) + 1  # every call, and the result
    assert kinds.count("to_host") == len(types) + 1  # every result, and x0
    res = optimize.minimize(lambda x: cupy.sum((x - 1.0) ** 2), cupy.zeros(2))
    assert isinstance(res.x, cupy.ndarray)
    y = integrate.odeint(lambda y, t: -y, cupy.ones(1), np.asarray([0.0, 1.0]))
    assert isinstance(y, cupy.ndarray)
    value, _ = integrate.quad(lambda x: cupy.asarray(x) ** 2, 0.0, 3.0)
    assert abs(value - 9.0) < 1e-12


def test_without_scipy_the_host_solvers_say_so(monkeypatch: pytest.MonkeyPatch) -> None:
    from cunumpy._on_host import _scipy_bridge as _host_bridge

    def no_scipy(name: str) -> Any:
        raise ImportError(f"No module named {name!r}")

    monkeypatch.setattr(_host_bridge.importlib, "import_module", no_scipy)
    with pytest.raises(RuntimeError, match="fsolve runs SciPy on the host, which is not installed"):
        optimize.fsolve(lambda x: x, np.zeros(1))
    with pytest.raises(RuntimeError, match="odeint runs SciPy on the host"):
        integrate.odeint(lambda y, t: y, np.zeros(1), np.zeros(2))


@pytest.mark.gpu
def test_transfer_counters_see_the_solvers_copies_and_syncs() -> None:
    import cupy

    _scipy("optimize")
    with cunumpy.profiling.count_transfers() as counter:
        optimize.newton(lambda x: x - 1.0, cupy.zeros(3), fprime=lambda x: cupy.ones(3))
    assert counter.syncs >= 1
    assert counter.to_host == counter.to_device == 0
    with cunumpy.profiling.count_transfers() as counter:
        optimize.fsolve(lambda x: x - 2.0, cupy.zeros(2))
    assert counter.to_host >= 2
    assert counter.to_device >= 2
    assert counter.bytes_to_device >= 2 * 8
