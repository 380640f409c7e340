"""SciPy's ``fsolve``, ``root`` and ``minimize`` on the host, with callbacks on the device."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .._on_host._scipy_bridge import Bridge, scipy_module

__all__ = ["fsolve", "minimize", "root"]


def fsolve(
    func: Callable[..., Any],
    x0: Any,
    args: tuple[Any, ...] = (),
    fprime: Callable[..., Any] | None = None,
    **kwargs: Any,
) -> Any:
    """Find a root of a system of equations with :func:`scipy.optimize.fsolve`.

    SciPy (MINPACK) runs on the host. With `x0` on the device, `func` and `fprime` get
    ``x`` on the device, their results are copied to the host, and the root comes back
    on the device: two copies per evaluation, so use it for setup, not in a time loop.

    Parameters
    ----------
    func : callable
        ``func(x, *args)``: the residuals, an array of the shape of `x0`.
    x0 : array
        The initial guess; its backend is the backend of the callbacks and the result.
    args : tuple, optional
        Extra arguments of `func` and `fprime`, passed unchanged.
    fprime : callable, optional
        ``fprime(x, *args)``: the Jacobian.
    **kwargs
        The other arguments of :func:`scipy.optimize.fsolve`.

    Returns
    -------
    array or tuple
        The root, on the backend of `x0`; with ``full_output=True`` SciPy's tuple, its
        arrays on that backend.

    Raises
    ------
    RuntimeError
        If SciPy is not installed.

    See Also
    --------
    root : The same with a choice of method.
    newton : Many independent scalar equations at once, on the device.

    Examples
    --------
    >>> import cunumpy as xp
    >>> xp.optimize.fsolve(lambda x: x**2 - xp.asarray([4.0, 9.0]), xp.ones(2))
    array([2., 3.])
    """
    optimize = scipy_module("optimize", "fsolve")
    bridge = Bridge(x0, "fsolve")
    found = optimize.fsolve(
        bridge.callback(func),
        bridge.host(x0),
        args=args,
        fprime=bridge.callback(fprime),
        **kwargs,
    )
    return bridge.result(found)


def root(
    fun: Callable[..., Any],
    x0: Any,
    args: tuple[Any, ...] = (),
    jac: Any = None,
    callback: Callable[..., Any] | None = None,
    **kwargs: Any,
) -> Any:
    """Find a root of a system of equations with :func:`scipy.optimize.root`.

    SciPy runs on the host; with `x0` on the device, `fun`, `jac` and `callback` get
    their arrays on the device, and the arrays of the result come back on the device.
    See :func:`fsolve` for the cost.

    Parameters
    ----------
    fun : callable
        ``fun(x, *args)``: the residuals (with ``jac=True``, also the Jacobian).
    x0 : array
        The initial guess; its backend is the backend of the callbacks and the result.
    args : tuple, optional
        Extra arguments of `fun` and `jac`, passed unchanged.
    jac : callable or bool, optional
        ``jac(x, *args)``: the Jacobian; True if `fun` returns it too.
    callback : callable, optional
        ``callback(x, f)``, after each iteration (some methods only).
    **kwargs
        The other arguments of :func:`scipy.optimize.root` (``method``, ``tol``,
        ``options``).

    Returns
    -------
    scipy.optimize.OptimizeResult
        SciPy's result; ``x``, ``fun`` and its other arrays on the backend of `x0`.

    Raises
    ------
    RuntimeError
        If SciPy is not installed.

    Examples
    --------
    >>> import cunumpy as xp
    >>> res = xp.optimize.root(lambda x: x**3 - 8.0, xp.ones(1))
    >>> res.success, res.x
    (True, array([2.]))
    """
    optimize = scipy_module("optimize", "root")
    bridge = Bridge(x0, "root")
    found = optimize.root(
        bridge.callback(fun),
        bridge.host(x0),
        args=args,
        jac=bridge.callback(jac),
        callback=bridge.callback(callback, 2),
        **kwargs,
    )
    return bridge.result(found)


def minimize(
    fun: Callable[..., Any],
    x0: Any,
    args: tuple[Any, ...] = (),
    jac: Any = None,
    hess: Any = None,
    hessp: Callable[..., Any] | None = None,
    bounds: Any = None,
    constraints: Any = (),
    callback: Callable[..., Any] | None = None,
    **kwargs: Any,
) -> Any:
    """Minimize a scalar function with :func:`scipy.optimize.minimize`.

    SciPy runs on the host; with `x0` on the device, every callback (`fun`, `jac`,
    `hess`, `hessp`, `callback` and the functions of `constraints`) gets its arrays on
    the device, and the arrays of the result come back on the device. See :func:`fsolve`
    for the cost.

    Parameters
    ----------
    fun : callable
        ``fun(x, *args)``: a scalar (with ``jac=True``, also the gradient).
    x0 : array
        The initial guess; its backend is the backend of the callbacks and the result.
    args : tuple, optional
        Extra arguments of the callbacks, passed unchanged.
    jac, hess : callable, str or bool, optional
        The gradient and the Hessian, as in SciPy (a callable, a finite-difference
        scheme such as ``"2-point"``, or a ``HessianUpdateStrategy``).
    hessp : callable, optional
        ``hessp(x, p, *args)``: the Hessian times ``p``.
    bounds : sequence or scipy.optimize.Bounds, optional
        Bounds on ``x``, as in SciPy (host data).
    constraints : dict, constraint or sequence of them, optional
        As in SciPy; their functions get device arrays like `fun`, their bounds and
        matrices are host data.
    callback : callable, optional
        Called after each iteration, as in SciPy.
    **kwargs
        The other arguments of :func:`scipy.optimize.minimize` (``method``, ``tol``,
        ``options``).

    Returns
    -------
    scipy.optimize.OptimizeResult
        SciPy's result; ``x``, ``jac`` and its other arrays on the backend of `x0`.

    Raises
    ------
    RuntimeError
        If SciPy is not installed.

    Examples
    --------
    >>> import cunumpy as xp
    >>> res = xp.optimize.minimize(lambda x: xp.sum((x - 1.0) ** 2), xp.zeros(2))
    >>> bool(xp.all(xp.abs(res.x - 1.0) < 1e-6))
    True
    """
    optimize = scipy_module("optimize", "minimize")
    bridge = Bridge(x0, "minimize")
    found = optimize.minimize(
        bridge.callback(fun),
        bridge.host(x0),
        args=args,
        jac=bridge.callback(jac),
        hess=bridge.callback(hess),
        hessp=bridge.callback(hessp, 2),
        bounds=bounds,
        constraints=bridge.constraints(constraints),
        callback=bridge.callback(callback, 2),  # trust-constr calls callback(xk, state)
        **kwargs,
    )
    return bridge.result(found)
