"""The standard's data-type functions, dispatching on where their array arguments live.

Both backends use NumPy's dtypes, so functions given only dtypes run in the NumPy
namespace, and functions given arrays run in the arrays' namespace.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._backends import numpy as _numpy_namespace
from .._calls._fast_path import compile_function, fast_path
from .._calls._numpy_calls import numpy_call as _numpy_call
from .._calls._shown_signatures import shows_numpys
from .._calls._where_to_run import (
    _is_array,
    _namespace_of_array,
    _namespace_of_sequence,
    _ndarray,
    _placement,
)
from .._moving._to_device import to_device
from .._settings._dtype_rules import DTYPE_ARGUMENTS, check_cast
from .._settings._errors import BACKEND_ERRORS, AttributeTypeError, raise_restated
from .._typing import Array, Device, DType, finfo_object, iinfo_object

#: Each ``dtype=`` value that names a standard dtype, as that NumPy dtype: the fast path's
#: one look-up both checks the argument and hands NumPy a dtype it takes without converting.
_CASTS: dict[Any, np.dtype[Any]] = {a: np.dtype(a) for a in DTYPE_ARGUMENTS}  # type: ignore[call-overload]
_FLOAT64 = np.dtype(np.float64)

__all__ = ["astype", "can_cast", "finfo", "iinfo", "isdtype", "result_type"]


# In C: the fast path below, ``x.astype(_CASTS[dtype])`` for an ndarray and a standard dtype
# (not complex to real), called as ``numpy.ndarray.astype(x, target)``.
@fast_path(np.ndarray.astype, "ad", bare=True, casts=_CASTS, restate=None)
def astype(x: Array, dtype: DType, /, *, copy: bool = True, device: Device | None = None) -> Array:
    """Return ``x`` converted to ``dtype`` (and moved to ``device`` when given).

    Parameters
    ----------
    x : array
        The array to convert.
    dtype : dtype
        The data type of the result.
    copy : bool, default True
        With ``True`` a new array is always returned; with ``False`` ``x`` itself is
        returned when it already has ``dtype`` (and lives on ``device``).
    device : device, optional
        Where the result lives; by default, where ``x`` lives.

    Returns
    -------
    out : array
        ``x`` as ``dtype``.

    Raises
    ------
    AttributeTypeError
        If ``x`` is not an array (a ``TypeError``, and the ``AttributeError`` NumPy's
        ``astype`` raises).

    Examples
    --------
    >>> import cunumpy as xp
    >>> xp.astype(xp.asarray([1.7, -2.2]), xp.int32)
    array([ 1, -2], dtype=int32)

    What the standard leaves out (``dtype=None``, ``copy=None``) is NumPy's call:

    >>> xp.astype(xp.asarray([1, 2]), None, copy=None)
    array([1., 2.])
    """
    if type(x) is _ndarray and copy is True and device is None:
        try:
            target = _CASTS[dtype]
        except (KeyError, TypeError):  # not a standard dtype, or unhashable: reported below
            pass
        else:  # the standard permits every cast but complex to real (float64 tested first)
            if (source := x.dtype) is _FLOAT64 or source.kind != "c" or target.kind == "c":
                return x.astype(target)  # what the NumPy namespace's astype does, without the call
    try:
        namespace = _namespace_of_array(x, "astype")
    except TypeError as exc:  # not an array: NumPy's astype raises AttributeError (1.5.astype)
        raise AttributeTypeError(str(exc)) from None
    if dtype is None or (copy is not True and copy is not False):
        # Outside the standard's domain (astype(x, None), copy=None): NumPy's call
        return _numpy_call(astype, locals())
    check_cast(x.dtype, dtype, "astype")
    try:
        if device is None:
            return namespace.astype(x, dtype, copy=copy)
        target_namespace, target = _placement(device, "astype")
        if target_namespace is namespace:
            return namespace.astype(x, dtype, copy=copy, device=target)
        moved = to_device(x, target)
        return target_namespace.astype(moved, dtype, copy=False)
    except BACKEND_ERRORS as exc:
        raise_restated("astype", exc, dtype=dtype, copy=copy)


# The NumPy namespace's astype (``array_namespace(x).astype``) in C too: ``x.astype(dtype)``
# for an exact ndarray, its own fast path. Its module is on a floor below the fast path's,
# so its record is made here, beside the top level's.
vars(_numpy_namespace)["astype"] = compile_function(
    np.ndarray.astype, _numpy_namespace.astype, "ax", (getattr, (_numpy_namespace, "astype"))
)


@shows_numpys(np.can_cast)
def can_cast(from_: DType | Array, to: DType, *args: Any, casting: str = "safe") -> bool:
    """Return whether ``from_`` (a dtype or an array's dtype) casts to ``to`` by the promotion rules.

    Where the standard leaves the answer open (casts between kinds, such as int8 to
    float32), it is NumPy's.

    Parameters
    ----------
    from_ : dtype or array
        The source data type, or an array whose data type is used.
    to : dtype
        The target data type.
    *args : Any
        NumPy's call: NumPy's ``casting`` given by position.
    casting : str, default "safe"
        NumPy's ``casting`` (``"no"``, ``"equiv"``, ``"safe"``, ``"same_kind"``,
        ``"unsafe"``); any but ``"safe"`` (the standard's rule) is NumPy's call, answered
        by NumPy.

    Returns
    -------
    out : bool
        ``True`` when the cast is allowed by the type promotion rules.

    Examples
    --------
    >>> import cunumpy as xp
    >>> xp.can_cast(xp.int8, xp.int16), xp.can_cast(xp.float64, xp.float32)
    (True, False)
    >>> xp.can_cast(xp.int8, xp.int16, casting="no")  # NumPy's call
    False
    """
    if args or type(casting) is not str or casting != "safe":
        return bool(_numpy_call(can_cast, locals()))
    namespace = _namespace_of_array(from_, "can_cast") if _is_array(from_) else _numpy_namespace
    try:
        result: bool = namespace.can_cast(from_, to)
    except (TypeError, ValueError) as exc:  # NumPy's words do not say which argument
        bad = ("from_", from_) if not (_is_array(from_) or _is_dtype(from_)) else ("to", to)
        msg = (
            f"can_cast: `{bad[0]}` must be a data type of the namespace, such as float64 or "
            f"int32{' (or an array)' if bad[0] == 'from_' else ''}, not {bad[1]!r:.80}."
        )
        raise TypeError(msg) from exc
    return result


def finfo(dtype: DType | Array) -> finfo_object:
    """Return the limits of a floating-point dtype (or of an array's dtype) as Python numbers.

    Parameters
    ----------
    dtype : dtype or array
        A real or complex floating-point dtype, or an array of one (the standard's
        ``type``, given by position; ``dtype`` is NumPy's name).

    Returns
    -------
    out : finfo_object
        ``bits`` (int), ``eps``, ``max``, ``min``, ``smallest_normal`` (Python floats) and
        ``dtype`` (for complex inputs, the real dtype of each component).

    Raises
    ------
    ValueTypeError
        If ``dtype`` is not a floating-point dtype (a ``TypeError``, and the
        ``ValueError`` NumPy's ``finfo`` raises).

    Examples
    --------
    >>> import cunumpy as xp
    >>> xp.finfo(xp.float32).bits, xp.finfo(xp.complex128).dtype
    (32, dtype('float64'))

    NumPy's spellings of a dtype (``float``, ``"f4"``) and what is neither a dtype nor an
    array (a NumPy scalar, a Python number) are NumPy's call, answered as NumPy does, with
    NumPy scalars:

    >>> xp.finfo(float).eps, xp.finfo(np.float32(1.0)).bits
    (np.float64(2.220446049250313e-16), 32)
    """
    if _is_numpy_info_argument(dtype):
        return _numpy_call(finfo, locals())
    return _numpy_namespace.finfo(dtype)


def iinfo(int_type: DType | Array) -> iinfo_object:
    """Return the limits of an integer dtype (or of an array's dtype) as Python ints.

    Parameters
    ----------
    int_type : dtype or array
        An integer dtype, or an array of one (the standard's ``type``, given by
        position; ``int_type`` is NumPy's name).

    Returns
    -------
    out : iinfo_object
        ``bits``, ``max`` and ``min`` (Python ints) and ``dtype``.

    Raises
    ------
    ValueTypeError
        If ``int_type`` is not an integer dtype (a ``TypeError``, and the ``ValueError``
        NumPy's ``iinfo`` raises).

    Examples
    --------
    >>> import cunumpy as xp
    >>> info = xp.iinfo(xp.int8)
    >>> info.min, info.max
    (-128, 127)

    As for ``finfo``, ``iinfo(np.uint32(1))`` and ``iinfo(-2)`` are NumPy's call:

    >>> xp.iinfo(-2).dtype
    dtype('int64')
    """
    if _is_numpy_info_argument(int_type):
        return _numpy_call(iinfo, locals())
    return _numpy_namespace.iinfo(int_type)


def _is_numpy_spelling(value: Any) -> bool:
    """Whether ``value`` names a dtype as NumPy does and the standard does not (``float``, ``"f4"``)."""
    return isinstance(value, str) or (isinstance(value, type) and value in _PYTHON_TYPES)


_PYTHON_TYPES = (bool, int, float, complex)
_PYTHON_SCALARS = frozenset(_PYTHON_TYPES)


def _is_numpy_info_argument(value: Any) -> bool:
    """Whether ``finfo``'s or ``iinfo``'s argument is NumPy's rather than the standard's (a
    dtype or an array): a NumPy spelling of a dtype, a NumPy scalar, a Python number, None."""
    if type(value) is _ndarray or isinstance(value, np.dtype):
        return False
    return (
        _is_numpy_spelling(value)
        or isinstance(value, np.generic)
        or not (_is_dtype(value) or _is_array(value))
    )


def isdtype(dtype: DType, kind: DType | str | tuple[DType | str, ...]) -> bool:
    """Return whether ``dtype`` is of ``kind`` (a dtype, a kind name, or a tuple of them).

    Parameters
    ----------
    dtype : dtype
        The data type to test.
    kind : dtype, str or tuple
        A dtype, or one of ``"bool"``, ``"signed integer"``, ``"unsigned integer"``,
        ``"integral"``, ``"real floating"``, ``"complex floating"``, ``"numeric"``, or a
        tuple of those (any match counts).

    Returns
    -------
    out : bool

    Examples
    --------
    >>> import cunumpy as xp
    >>> xp.isdtype(xp.float32, "real floating"), xp.isdtype(xp.int8, ("bool", "unsigned integer"))
    (True, False)
    """
    try:
        result: bool = _numpy_namespace.isdtype(dtype, kind)
    except (TypeError, ValueError) as exc:  # NumPy's words do not name the function
        raise _isdtype_error(dtype, kind) from exc
    return result


_KINDS = (
    "bool", "signed integer", "unsigned integer", "integral", "real floating",
    "complex floating", "numeric",
)  # fmt: skip


def _is_dtype(value: Any) -> bool:
    """Whether ``value`` is a NumPy dtype or scalar type (what both backends' dtypes are)."""
    return isinstance(value, np.dtype) or (
        isinstance(value, type) and issubclass(value, np.generic)
    )


def _isdtype_error(dtype: Any, kind: Any) -> Exception:
    """``isdtype``'s error for the argument that is wrong."""
    if not _is_dtype(dtype):
        return TypeError(
            f"isdtype: `dtype` must be a data type of the namespace, such as float64 or int32, "
            f"not {dtype!r:.80}."
        )
    for item in kind if isinstance(kind, tuple) else (kind,):
        if isinstance(item, str) and item not in _KINDS:
            return ValueError(
                f"isdtype: `kind` {item!r:.80} is not a kind; pass one of {', '.join(map(repr, _KINDS))}, "
                f"a data type, or a tuple of those."
            )
        if not isinstance(item, str) and not _is_dtype(item):
            return TypeError(
                f"isdtype: `kind` must be a kind name, a data type or a tuple of those, not "
                f"{item!r:.80}."
            )
    return TypeError(f"isdtype: cannot test {dtype!r:.80} against {kind!r:.80}.")


def result_type(*arrays_and_dtypes: Array | DType | bool | int | float | complex) -> DType:
    """Return the dtype the type promotion rules give for the arguments.

    Parameters
    ----------
    *arrays_and_dtypes : array, dtype or Python scalar
        At least one array or dtype; Python scalars are "weak" and take the kind of the
        array or dtype they meet.

    Returns
    -------
    out : dtype

    Examples
    --------
    >>> import cunumpy as xp
    >>> xp.result_type(xp.int8, xp.int16), xp.result_type(xp.float32, 1.0)
    (dtype('int16'), dtype('float32'))

    Where the standard's table has no entry (a signed integer with uint64, an integer
    with a floating-point dtype), the answer is NumPy's:

    >>> xp.result_type(xp.int8, xp.uint64), xp.result_type(xp.int8, xp.float32)
    (dtype('float64'), dtype('float32'))
    """
    if any(map(_is_numpy_spelling, arrays_and_dtypes)) or all(
        type(a) in _PYTHON_SCALARS for a in arrays_and_dtypes
    ):  # result_type("i4", "c8"), result_type(3.0, -2): NumPy's calls
        return _numpy_call(result_type, locals())
    arrays = [a for a in arrays_and_dtypes if _is_array(a)]
    namespace = (arrays and _namespace_of_sequence(arrays, "result_type", "arrays")) or (
        _numpy_namespace
    )
    result: Any = namespace.result_type(*arrays_and_dtypes)
    return result
