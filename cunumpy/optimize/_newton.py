"""Many independent scalar root problems at once, on the device that holds them."""

from __future__ import annotations

import operator
import warnings
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from .._backend_choice._config import get_backend
from .._namespaces._array_predicates import is_cupy_array, is_numpy_array
from .._namespaces._data_library import library_of, read_back

__all__ = ["NewtonResult", "newton"]


class NewtonResult(NamedTuple):
    """The result of :func:`newton` with ``full_output=True``: roots and where they converged.

    Examples
    --------
    >>> import cunumpy as xp
    >>> result = xp.optimize.newton(lambda x: x - 1.0, xp.zeros(2), full_output=True)
    >>> result.root, result.converged
    (array([1., 1.]), array([ True,  True]))
    """

    #: The estimated roots.
    root: Any
    #: Where the last step was below the tolerance (or the residual exactly zero).
    converged: Any
    #: Where the iteration stopped on a zero derivative (Newton) or on equal residuals
    #: (secant) without converging.
    zero_der: Any


def _library(x0: Any) -> tuple[Any, Any]:
    """The library of an array `x0`; of the current backend for scalars and lists."""
    if is_cupy_array(x0) or is_numpy_array(x0):
        return library_of(x0, func="newton")
    if get_backend() == "cupy":
        from .._settings._cupy_probe import require_cupy

        cupy = require_cupy("newton")
        return cupy, cupy.cuda.Device()
    return library_of(func="newton")


def _any(lib: Any, flags: Any, what: str) -> bool:
    return bool(read_back(lib, lib.any(flags), "newton", what))


def newton(
    func: Callable[..., Any],
    x0: Any,
    fprime: Callable[..., Any] | None = None,
    args: tuple[Any, ...] = (),
    tol: float = 1.48e-8,
    maxiter: int = 50,
    rtol: float = 0.0,
    full_output: bool = False,
) -> Any:
    """Find a root of each of many independent scalar equations at once.

    Newton's method when `fprime` is given, the secant method otherwise, from an array
    of starting points: ``func(x)`` returns ``f_i(x_i)`` for every entry. These are the
    steps of :func:`scipy.optimize.newton` with an array `x0`, run with the array's own
    library (NumPy or CuPy) on arrays of fixed shape, so every step runs where `x0`
    lives. Points that have converged keep taking (tiny) steps until all have, as in
    SciPy. Each iteration reads one flag back to test for convergence (one
    synchronization on the GPU).

    Parameters
    ----------
    func : callable
        ``func(x, *args)``: the residuals at `x`, an array of the shape of `x`.
    x0 : array_like
        The starting points. A NumPy or CuPy array stays on its backend; a scalar or a
        list goes to the current backend.
    fprime : callable, optional
        ``fprime(x, *args)``: the derivatives ``f_i'(x_i)``. Without it, the secant
        method.
    args : tuple, optional
        Extra arguments of `func` and `fprime`.
    tol : float, optional
        The absolute tolerance on the step.
    maxiter : int, optional
        The most iterations.
    rtol : float, optional
        The relative tolerance: a point has converged when
        ``abs(step) < tol + rtol * abs(x)``.
    full_output : bool, optional
        Return a :class:`NewtonResult` instead of the roots only.

    Returns
    -------
    array or NewtonResult
        The roots, of the shape of `x0` (0-d for a scalar), float64; or the
        :class:`NewtonResult` with `full_output`.

    Raises
    ------
    ValueError
        If `maxiter` is below 1 or `tol` or `rtol` is negative.

    Warns
    -----
    RuntimeWarning
        Without `full_output`, when some points did not converge.

    See Also
    --------
    scipy.optimize.newton : SciPy's version, on the host.

    Examples
    --------
    >>> import cunumpy as xp
    >>> s = xp.asarray([2.0, 3.0, 4.0])
    >>> xp.optimize.newton(lambda x: x**2 - s, xp.ones(3), fprime=lambda x: 2 * x)
    array([1.41421356, 1.73205081, 2.        ])
    >>> xp.optimize.newton(lambda x: x**3 - s, xp.ones(3))
    array([1.25992105, 1.44224957, 1.58740105])
    """
    maxiter = operator.index(maxiter)
    if maxiter < 1 or tol < 0 or rtol < 0:
        msg = f"newton: `maxiter` must be >= 1 and `tol`, `rtol` >= 0, not {maxiter!r}, {tol!r}, {rtol!r}."
        raise ValueError(msg)
    lib, on_gpu = _library(x0)
    with on_gpu:
        x = lib.array(x0, dtype=lib.float64, copy=True)
        if fprime is not None:
            x, failed, moved = _newton_steps(lib, func, fprime, x, args, tol, rtol, maxiter)
        else:
            x, failed, moved = _secant_steps(lib, func, x, args, tol, rtol, maxiter)
        zero_der = ~moved & failed
        if full_output:
            return NewtonResult(x, ~failed, zero_der)
        if _any(lib, failed, "did all points converge"):
            n_failed = int(read_back(lib, lib.sum(failed), "newton", "the failures"))
            why = " (zero derivatives)" if _any(lib, zero_der, "zero derivatives") else ""
            msg = f"newton: {n_failed} of {x.size} points did not converge{why}."
            warnings.warn(msg, RuntimeWarning, stacklevel=2)
        return x


def _newton_steps(
    lib: Any,
    func: Any,
    fprime: Any,
    x: Any,
    args: tuple[Any, ...],
    tol: float,
    rtol: float,
    maxiter: int,
) -> tuple[Any, Any, Any]:
    """Newton's steps: ``x - f(x) / f'(x)`` where ``f'(x) != 0``."""
    failed = lib.ones(x.shape, dtype=bool)
    moved = lib.ones(x.shape, dtype=bool)
    for _ in range(maxiter):
        residual = lib.asarray(func(x, *args))
        if not _any(lib, residual != 0, "any residual left"):
            failed = residual != 0
            break
        slope = lib.asarray(fprime(x, *args))
        moved = slope != 0
        if not _any(lib, moved, "any nonzero derivative"):
            break
        step = residual / lib.where(moved, slope, 1.0)
        x = lib.where(moved, x - step, x)
        failed = lib.where(moved, lib.abs(step) >= tol + rtol * lib.abs(x), failed)
        if not _any(lib, failed & moved, "any point left"):
            break
    return x, failed, moved


def _secant_steps(
    lib: Any, func: Any, x: Any, args: tuple[Any, ...], tol: float, rtol: float, maxiter: int
) -> tuple[Any, Any, Any]:
    """The secant method from `x` and a nearby second point, as SciPy chooses it."""
    delta = float(np.finfo(np.float64).eps) ** 0.33
    x1 = x * (1 + delta) + lib.where(x >= 0, delta, -delta)
    f0 = lib.asarray(func(x, *args))
    f1 = lib.asarray(func(x1, *args))
    failed = lib.ones(x.shape, dtype=bool)
    moved = lib.ones(x.shape, dtype=bool)
    running = lib.ones(x.shape, dtype=bool)
    for _ in range(maxiter):
        moved = f1 != f0
        if not _any(lib, moved, "any secant left"):
            return (x1 + x) / 2.0, failed, moved
        step = f1 * (x1 - x) / lib.where(moved, f1 - f0, 1.0)
        new = lib.where(moved, x1 - step, x)
        # a point whose residuals just became equal stops halfway between its two
        new = lib.where(~moved & running, (x1 + x) / 2.0, new)
        running = running & moved
        failed = lib.where(moved, lib.abs(step) >= tol + rtol * lib.abs(new), failed)
        if not _any(lib, failed & moved, "any point left"):
            return new, failed, moved
        x, x1 = x1, new
        f0, f1 = f1, lib.asarray(func(x1, *args))
    return x1, failed, moved
