"""Integration with device data: SciPy's ``quad`` and ``odeint`` on the host.

``cupyx.scipy`` has no ``integrate``. These functions run SciPy on the host; a callback
written with device arrays works unchanged, because it gets its array arguments on the
backend of the initial value and its results are copied to the host (every copy noted
for ``cunumpy.profiling``'s transfer counters). SciPy is imported on the first call.
See :doc:`/algorithms` (solvers).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ._on_host._scipy_bridge import Bridge, scipy_module, to_host, wraps_scalar
from ._settings._homes import set_public_homes as _set_public_homes

__all__ = ["odeint", "quad"]


def quad(
    func: Callable[..., Any],
    a: float,
    b: float,
    args: tuple[Any, ...] = (),
    **kwargs: Any,
) -> Any:
    """Integrate a scalar function from `a` to `b` with :func:`scipy.integrate.quad`.

    SciPy (QUADPACK) runs on the host and calls `func` with a Python float. `func` may
    compute on the device and return a 0-d device array: it is copied to the host, one
    synchronization per evaluation. For many integrals at once, evaluate the integrand on
    a fixed grid on the device instead.

    Parameters
    ----------
    func : callable
        ``func(x, *args)``, a scalar.
    a, b : float
        The limits (``numpy.inf`` allowed; 0-d device arrays are copied to the host).
    args : tuple, optional
        Extra arguments of `func`, passed unchanged.
    **kwargs
        The other arguments of :func:`scipy.integrate.quad` (``epsabs``, ``limit``,
        ``full_output``, ...).

    Returns
    -------
    tuple
        SciPy's result on the host: ``(value, abserr)`` and what ``full_output`` adds.

    Raises
    ------
    RuntimeError
        If SciPy is not installed.

    Examples
    --------
    >>> import cunumpy as xp
    >>> value, error = xp.integrate.quad(lambda x: x**2, 0.0, 3.0)
    >>> round(value, 12)
    9.0
    """
    integrate = scipy_module("integrate", "quad")
    integrand = wraps_scalar(func, "quad")
    return integrate.quad(integrand, to_host(a, "quad"), to_host(b, "quad"), args=args, **kwargs)


def odeint(
    func: Callable[..., Any],
    y0: Any,
    t: Any,
    args: tuple[Any, ...] = (),
    Dfun: Callable[..., Any] | None = None,
    **kwargs: Any,
) -> Any:
    """Integrate a system of ODEs with :func:`scipy.integrate.odeint`.

    SciPy (LSODA) runs on the host. With `y0` on the device, `func` and `Dfun` get ``y``
    on the device, their results are copied to the host, and the solution comes back on
    the device: two copies per evaluation, so use it for setup, not in a time loop.

    Parameters
    ----------
    func : callable
        ``func(y, t, *args)`` (``func(t, y, *args)`` with ``tfirst=True``): the
        derivative of ``y``.
    y0 : array
        The initial value; its backend is the backend of the callbacks and the result.
    t : array
        The times at which to return ``y``, the first one the time of `y0`; either
        backend.
    args : tuple, optional
        Extra arguments of `func` and `Dfun`, passed unchanged.
    Dfun : callable, optional
        The Jacobian of `func`, with the same arguments.
    **kwargs
        The other arguments of :func:`scipy.integrate.odeint`.

    Returns
    -------
    array or tuple
        ``y`` at the times `t`, of shape ``(len(t), len(y0))``, on the backend of `y0`;
        with ``full_output=True`` also SciPy's info dict.

    Raises
    ------
    RuntimeError
        If SciPy is not installed.

    Examples
    --------
    >>> import numpy as np
    >>> import cunumpy as xp
    >>> y = xp.integrate.odeint(lambda y, t: -y, xp.ones(1), xp.asarray([0.0, 1.0]))
    >>> bool(xp.all(xp.abs(y[-1] - np.exp(-1.0)) < 1e-6))
    True
    """
    integrate = scipy_module("integrate", "odeint")
    bridge = Bridge(y0, "odeint")
    solution = integrate.odeint(
        bridge.callback(func, 2),
        bridge.host(y0),
        bridge.host(t),
        args=args,
        Dfun=bridge.callback(Dfun, 2),
        **kwargs,
    )
    return bridge.result(solution)


_set_public_homes(__name__, __all__, globals())  # tracebacks name the public module


def __dir__() -> list[str]:
    """The public names only (``__all__``), not the imports."""
    return list(__all__)
