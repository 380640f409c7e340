"""``assert_equal``, ``assert_close`` and ``assert_less`` for arrays of any namespace.

Each assertion first compares what it can see without touching the data (namespace, shape,
dtype, device), then copies both arrays to the host once and compares the values there.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ._arrays import (
    array_device_label,
    check_flags,
    check_is_array,
    check_numeric,
    check_tolerance,
    dtype_label,
    host_copy,
    namespace_label,
    namespace_of_array,
)
from ._compare import Failures, close_failures, default_rtol, less_failures
from ._report import (
    Operand,
    format_tolerance,
    fraction,
    metadata_message,
    shape_message,
    values_message,
)

__all__ = ["assert_close", "assert_equal", "assert_less"]

_ERRORS = (("abs error", "largest absolute error"), ("rel error", "largest relative error"))


def _compared(
    func: str,
    pair: tuple[Any, Any],
    names: tuple[str, str],
    *,
    check_namespace: bool,
    check_shape: bool,
    check_dtype: bool,
    check_device: bool,
    err_msg: str,
) -> tuple[list[Operand], np.ndarray, np.ndarray]:
    """Check the metadata of ``pair``; return their descriptions and host copies."""
    __tracebackhide__ = True  # a failing assertion shows the test's line, not this frame
    check_flags(
        func,
        check_namespace=check_namespace,
        check_shape=check_shape,
        check_dtype=check_dtype,
        check_device=check_device,
    )
    if not isinstance(err_msg, str):
        msg = f"{func}: `err_msg` must be a str, not {err_msg!r}."
        raise TypeError(msg)
    for x, name in zip(pair, names):
        check_is_array(x, name, func)
    namespaces = [namespace_of_array(x, name, func) for x, name in zip(pair, names)]
    operands = [
        Operand(
            name=name,
            shape=tuple(x.shape),
            dtype=dtype_label(x.dtype),
            device=array_device_label(x),
            namespace=namespace_label(namespace),
        )
        for x, name, namespace in zip(pair, names, namespaces)
    ]
    first, second = operands
    differing = []
    if check_namespace and namespaces[0] is not namespaces[1]:
        differing.append("namespaces")
    if check_shape and first.shape != second.shape:
        differing.append("shapes")
    if check_dtype and first.dtype != second.dtype:
        differing.append("dtypes")
    if check_device and first.device != second.device:
        differing.append("devices")
    if differing:
        raise AssertionError(metadata_message(func, differing, operands, err_msg))
    a, b = host_copy(pair[0]), host_copy(pair[1])
    for host, name in zip((a, b), names):
        check_numeric(host, name, func)
    if a.shape != b.shape:
        try:
            a, b = np.broadcast_arrays(a, b)
        except ValueError:
            raise AssertionError(shape_message(func, operands, err_msg)) from None
    return operands, a, b


def _error_columns(a: np.ndarray, b: np.ndarray) -> Sequence[tuple[str, str]]:
    return () if a.dtype.kind == "b" or b.dtype.kind == "b" else _ERRORS


def _raise(
    func: str,
    headline: str,
    operands: list[Operand],
    hosts: tuple[np.ndarray, np.ndarray],
    failures: Failures,
    *,
    err_msg: str,
    criterion: str,
    error_names: Sequence[tuple[str, str]],
) -> None:
    __tracebackhide__ = True  # as in _compared
    message = values_message(
        func, headline, operands, hosts, failures,
        err_msg=err_msg, criterion=criterion, error_names=error_names,
    )  # fmt: skip
    raise AssertionError(message)


def assert_equal(
    actual: Any,
    desired: Any,
    *,
    equal_nan: bool = True,
    check_signed_zeros: bool = False,
    check_dtype: bool = True,
    check_shape: bool = True,
    check_namespace: bool = True,
    check_device: bool = True,
    err_msg: str = "",
) -> None:
    """Assert that two arrays are equal: same namespace, shape, dtype, device and values.

    Works for arrays of every namespace cunumpy knows (NumPy, CuPy, array-api-strict, and
    those array-api-compat knows). The metadata is compared first, without touching the
    data; then both arrays are copied to the host once and compared there.

    Parameters
    ----------
    actual : array
        The array under test.
    desired : array
        The expected array, built in the namespace under test (``xp.asarray(...)``).
        Python scalars and lists are refused: they carry no namespace, dtype or device.
    equal_nan : bool, default: True
        Whether NaNs in the same positions compare equal.
    check_signed_zeros : bool, default: False
        Whether ``-0.0`` and ``0.0`` must match in sign (each part of a complex number).
    check_dtype, check_shape, check_namespace, check_device : bool, default: True
        Whether the dtypes, shapes, namespaces and devices must match. Without
        ``check_shape``, the arrays must broadcast together.
    err_msg : str, optional
        A line shown under the first line of the failure message.

    Raises
    ------
    AssertionError
        If anything differs. The message describes both arrays and lists the number, the
        indices and the values of the differing elements, with the largest errors.
    TypeError
        If ``actual`` or ``desired`` is not an array, or a flag is not a bool.

    See Also
    --------
    assert_close : the same with a tolerance.

    Examples
    --------
    >>> import cunumpy as xp
    >>> from cunumpy.testing import assert_equal
    >>> assert_equal(xp.asarray([1, 2, 3]), xp.asarray([1, 2, 3]))
    >>> assert_equal(xp.asarray([1, 2, 3]), xp.asarray([1, 2, 4]))
    Traceback (most recent call last):
    ...
    AssertionError: assert_equal: 1 of 3 elements (33.3%) differs
    ...
    """
    __tracebackhide__ = True
    func = "assert_equal"
    check_flags(func, equal_nan=equal_nan, check_signed_zeros=check_signed_zeros)
    operands, a, b = _compared(
        func,
        (actual, desired),
        ("actual", "desired"),
        check_namespace=check_namespace,
        check_shape=check_shape,
        check_dtype=check_dtype,
        check_device=check_device,
        err_msg=err_msg,
    )
    failures = close_failures(
        a, b, rtol=0.0, atol=0.0, equal_nan=equal_nan, signed_zeros=check_signed_zeros
    )
    if failures.count:
        _raise(
            func,
            fraction(failures.count, a.size, "differ", "differs"),
            operands,
            (a, b),
            failures,
            err_msg=err_msg,
            criterion="actual != desired",
            error_names=_error_columns(a, b),
        )


def assert_close(
    actual: Any,
    desired: Any,
    *,
    rtol: float | None = None,
    atol: float = 0,
    equal_nan: bool = True,
    check_signed_zeros: bool = False,
    check_dtype: bool = True,
    check_shape: bool = True,
    check_namespace: bool = True,
    check_device: bool = True,
    err_msg: str = "",
) -> None:
    """Assert that two arrays are equal up to a tolerance, and alike in every other way.

    An element passes when ``|actual - desired| <= atol + rtol * |desired|``, or when both
    are equal (infinities included), or both are NaN and ``equal_nan`` is set. The
    namespaces, shapes, dtypes and devices must match, as for :func:`assert_equal`.

    Parameters
    ----------
    actual : array
        The array under test.
    desired : array
        The expected array, built in the namespace under test (``xp.asarray(...)``).
    rtol : float, optional
        The relative tolerance. By default it depends on the dtype: ``4 * sqrt(eps)`` of the
        least precise floating dtype of the two (1.4e-3 for float32 and complex64, 6.0e-8
        for float64 and complex128); 0 for integers and bools, which then compare exactly.
    atol : float, default: 0
        The absolute tolerance; set it when values near zero are expected.
    equal_nan : bool, default: True
        Whether NaNs in the same positions compare equal.
    check_signed_zeros : bool, default: False
        Whether ``-0.0`` and ``0.0`` must match in sign (each part of a complex number).
    check_dtype, check_shape, check_namespace, check_device : bool, default: True
        Whether the dtypes, shapes, namespaces and devices must match. Without
        ``check_shape``, the arrays must broadcast together.
    err_msg : str, optional
        A line shown under the first line of the failure message.

    Raises
    ------
    AssertionError
        If anything differs. The message describes both arrays, gives the tolerances, the
        number of failing elements, the largest absolute and relative errors and where they
        are, and lists the failing elements with their values and errors.
    TypeError
        If an argument has the wrong type.
    ValueError
        If ``rtol`` or ``atol`` is negative or NaN.

    See Also
    --------
    assert_equal : exact comparison.
    numpy.testing.assert_allclose : the NumPy-only function with the same rule.

    Examples
    --------
    >>> import cunumpy as xp
    >>> from cunumpy.testing import assert_close
    >>> assert_close(xp.asarray([0.1 + 0.2]), xp.asarray([0.3]))
    >>> assert_close(xp.asarray([1.0, 2.0]), xp.asarray([1.0, 2.001]))
    Traceback (most recent call last):
    ...
    AssertionError: assert_close: 1 of 2 elements (50%) differs beyond rtol=5.96046e-08 (the float64 default), atol=0
    ...
    """
    __tracebackhide__ = True
    func = "assert_close"
    check_flags(func, equal_nan=equal_nan, check_signed_zeros=check_signed_zeros)
    atol_value = check_tolerance(func, "atol", atol)
    rtol_value = None if rtol is None else check_tolerance(func, "rtol", rtol)
    operands, a, b = _compared(
        func,
        (actual, desired),
        ("actual", "desired"),
        check_namespace=check_namespace,
        check_shape=check_shape,
        check_dtype=check_dtype,
        check_device=check_device,
        err_msg=err_msg,
    )
    if rtol_value is None:
        rtol_value = default_rtol(a.dtype, b.dtype)
        floating = [dt for dt in (a.dtype, b.dtype) if dt.kind in "fc"]
        coarsest = max(floating, key=lambda dt: float(np.finfo(dt).eps)) if floating else None
        origin = (
            f" (the {coarsest.name} default)" if coarsest is not None else " (exact, for integers)"
        )
    else:
        origin = ""
    failures = close_failures(
        a, b, rtol=rtol_value, atol=atol_value, equal_nan=equal_nan, signed_zeros=check_signed_zeros
    )
    if failures.count:
        headline = (
            f"{fraction(failures.count, a.size, 'differ', 'differs')} beyond "
            f"rtol={format_tolerance(rtol_value)}{origin}, atol={format_tolerance(atol_value)}"
        )
        _raise(
            func,
            headline,
            operands,
            (a, b),
            failures,
            err_msg=err_msg,
            criterion="|actual - desired| > atol + rtol * |desired|",
            error_names=_error_columns(a, b),
        )


def assert_less(
    x: Any,
    y: Any,
    *,
    check_dtype: bool = True,
    check_shape: bool = True,
    check_namespace: bool = True,
    check_device: bool = True,
    err_msg: str = "",
) -> None:
    """Assert that ``x < y`` element-wise, for arrays alike in namespace, shape, dtype, device.

    A NaN on either side fails (NaN is not less than anything). Complex arrays have no order
    and are refused.

    Parameters
    ----------
    x, y : array
        The arrays to order. Pass ``check_shape=False`` to compare with a bound of another
        shape (a 0-D array, for instance); they must then broadcast together.
    check_dtype, check_shape, check_namespace, check_device : bool, default: True
        Whether the dtypes, shapes, namespaces and devices must match.
    err_msg : str, optional
        A line shown under the first line of the failure message.

    Raises
    ------
    AssertionError
        If an element of ``x`` is not less than ``y``, or the metadata differs. The message
        gives the number of failing elements, the largest ``x - y`` and where it is, and
        lists the failing elements.
    TypeError
        If an argument has the wrong type, or the arrays are complex.

    Examples
    --------
    >>> import cunumpy as xp
    >>> from cunumpy.testing import assert_less
    >>> errors = xp.asarray([1e-9, 3e-9])
    >>> assert_less(errors, xp.asarray(1e-8), check_shape=False)
    >>> assert_less(errors, xp.asarray(2e-9), check_shape=False)
    Traceback (most recent call last):
    ...
    AssertionError: assert_less: 1 of 2 elements (50%) is not less than y
    ...
    """
    __tracebackhide__ = True
    func = "assert_less"
    operands, a, b = _compared(
        func,
        (x, y),
        ("x", "y"),
        check_namespace=check_namespace,
        check_shape=check_shape,
        check_dtype=check_dtype,
        check_device=check_device,
        err_msg=err_msg,
    )
    if a.dtype.kind == "c" or b.dtype.kind == "c":
        msg = f"{func}: complex arrays have no order; compare their real parts or magnitudes."
        raise TypeError(msg)
    failures = less_failures(a, b)
    if failures.count:
        bools = a.dtype.kind == "b" or b.dtype.kind == "b"
        _raise(
            func,
            fraction(failures.count, a.size, "are not less than y", "is not less than y"),
            operands,
            (a, b),
            failures,
            err_msg=err_msg,
            criterion="x < y is false",
            error_names=() if bools else (("x - y", "largest x - y"),),
        )
