"""Backend errors from creation functions, restated with the function and the argument.

NumPy and CuPy raise with their own words (``negative dimensions are not allowed``,
``data type 'bogus' not understood``), sometimes with exception types outside the
project's rules (``ZeroDivisionError`` from ``arange(0, 10, 0)``, ``OverflowError`` from
``asarray(-1, dtype=uint8)``) or with hints meant for NumPy 1 code (``copy=False``). The
generated creation functions and ``astype`` catch those on their error path only (a
``try`` costs nothing when nothing is raised) and raise ``restate(...)`` instead: a
``TypeError`` or ``ValueError`` whose message starts with the function's name and shows
the arguments, with the backend's exception chained as the cause. A ``ValueError`` is
still an instance of the class NumPy raised (``OverflowValueError`` is a ``ValueError`` and
an ``OverflowError``; ``LinAlgError`` is kept), so code written for NumPy catches it.
"""

from __future__ import annotations

from typing import Any, NoReturn

import numpy as np

__all__ = [
    "BACKEND_ERRORS",
    "AttributeTypeError",
    "IndexValueError",
    "OverflowValueError",
    "ValueTypeError",
    "ZeroDivisionValueError",
    "check_copy",
    "called_with",
    "shown_argument",
    "raise_restated",
    "restate",
    "value_error_for",
    "with_article",
]


class IndexValueError(ValueError, IndexError):
    """An index or axis out of range: a ``ValueError`` that is also NumPy's ``IndexError``.

    cunumpy's rule raises ``ValueError`` for a bad value; NumPy raised ``IndexError`` for
    the same call, so code written for either catches it.

    Examples
    --------
    >>> import cunumpy as xp
    >>> try:
    ...     xp.fft.fft(xp.ones(3), axis=5)
    ... except IndexError as exc:
    ...     print(type(exc).__name__, isinstance(exc, ValueError))
    IndexValueError True
    """


class OverflowValueError(ValueError, OverflowError):
    """A value out of a dtype's range: a ``ValueError`` that is also NumPy's ``OverflowError``.

    Examples
    --------
    >>> import cunumpy as xp
    >>> issubclass(xp.OverflowValueError, OverflowError)
    True
    """


class ZeroDivisionValueError(ValueError, ZeroDivisionError):
    """A zero where none is allowed: a ``ValueError`` that is also a ``ZeroDivisionError``.

    Examples
    --------
    >>> import cunumpy as xp
    >>> issubclass(xp.ZeroDivisionValueError, ZeroDivisionError)
    True
    """


class ValueTypeError(TypeError, ValueError):
    """A dtype of the wrong kind: a ``TypeError`` that is also NumPy's ``ValueError``.

    cunumpy's rule raises ``TypeError`` for a wrong dtype (``finfo`` of an integer dtype,
    ``iinfo`` of a floating-point array); NumPy raised ``ValueError`` for the same call,
    so code written for either catches it.

    Examples
    --------
    >>> import cunumpy as xp
    >>> try:
    ...     xp.finfo(xp.int8)
    ... except ValueError as exc:
    ...     print(type(exc).__name__, isinstance(exc, TypeError))
    ValueTypeError True
    """


class AttributeTypeError(TypeError, AttributeError):
    """An argument of the wrong type: a ``TypeError`` that is also NumPy's ``AttributeError``.

    NumPy raises ``AttributeError`` where an argument lacks the method it calls
    (``numpy.astype(1.5, "uint8")``, ``numpy.from_dlpack(5)``); cunumpy's rule says
    ``TypeError``, so the error is both.

    Examples
    --------
    >>> import cunumpy as xp
    >>> try:
    ...     xp.from_dlpack(5)
    ... except AttributeError as exc:
    ...     print(type(exc).__name__, isinstance(exc, TypeError))
    AttributeTypeError True
    """


def value_error_for(exc: BaseException) -> type[BaseException]:
    """The class that restates ``exc`` (not a ``TypeError``) as a bad value: a
    ``ValueError`` that is also ``exc``'s class, so that code written for NumPy catches it.

    ``IndexError``, ``OverflowError`` and ``ZeroDivisionError`` give the classes above; a
    ``MemoryError`` stays one; a ``ValueError`` keeps its class (``LinAlgError``,
    ``AxisError``) where it is made from a message alone, else ``ValueError``.
    """
    if isinstance(exc, ValueError):
        kind = type(exc)
        try:
            kind("")  # LinAlgError, AxisError: what NumPy users catch
        except Exception:
            return ValueError
        return kind
    if isinstance(exc, IndexError):
        return IndexValueError
    if isinstance(exc, OverflowError):
        return OverflowValueError
    if isinstance(exc, ZeroDivisionError):
        return ZeroDivisionValueError
    if isinstance(exc, MemoryError):
        return MemoryError
    return ValueError


#: What a backend's creation function raises for bad arguments (and for a size it cannot
#: allocate, restated as a ``MemoryError`` naming the function).
BACKEND_ERRORS = (TypeError, ValueError, OverflowError, ZeroDivisionError, MemoryError)

_PY_SCALARS = (bool, int, float, complex)


def shown_argument(value: Any) -> str:
    """How a message shows an argument: an array as its dtype and shape, anything else as
    its ``repr`` (60 characters at most).

    >>> import numpy as np
    >>> from cunumpy._settings._errors import shown_argument
    >>> shown_argument(np.zeros((2, 3), dtype="datetime64[D]")), shown_argument("a")
    ('<datetime64[D] array of shape (2, 3)>', "'a'")
    >>> shown_argument(np.float64(1.5))  # a NumPy scalar is a scalar
    'np.float64(1.5)'
    """
    shape = getattr(value, "shape", None)
    if isinstance(shape, tuple) and hasattr(value, "dtype") and not isinstance(value, np.generic):
        return f"<{value.dtype} array of shape {shape}>"
    return f"{value!r:.60}"


def called_with(arguments: dict[str, Any]) -> str:
    """`` (called with x=<float64 array of shape (3,)>, axis=1).``, or ``.`` for no arguments.

    A name that is a position (``"1"``: an argument beyond the function's own, as NumPy's
    calls pass them) is shown by value alone.
    """
    parts = [
        shown_argument(value) if name.isdigit() else f"{name}={shown_argument(value)}"
        for name, value in arguments.items()
    ]
    return f" (called with {', '.join(parts)})." if parts else "."


def _dtype_problem(dtype: Any) -> str | None:
    if dtype is None:
        return None
    try:
        np.dtype(dtype)
    except (TypeError, ValueError):
        return f"`dtype` {dtype!r} is not a data type; pass one of the namespace's dtypes, such as float64 or int32"
    return None


def _shape_problem(shape: Any) -> tuple[type[Exception], str] | None:
    dims = shape if isinstance(shape, tuple) else (shape,)
    for dim in dims:
        if isinstance(dim, bool) or not isinstance(dim, (int, np.integer)):
            return TypeError, f"`shape` must be an int or a tuple of ints, not {shape!r}"
        if dim < 0:
            return ValueError, f"`shape` {shape!r} has a negative dimension"
    return None


def _size_problem(name: str, value: Any) -> tuple[type[Exception], str] | None:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        return TypeError, f"`{name}` must be an int, not {value!r}"
    if value < 0:
        return ValueError, f"`{name}` must not be negative, got {value!r}"
    return None


def _specific(func: str, exc: BaseException, arguments: dict[str, Any]) -> Exception | None:
    """A message that says exactly which argument is wrong, where we can tell."""
    if func == "from_dlpack" and isinstance(exc, BufferError):  # the standard's error type
        x = arguments["x"]
        dtype = getattr(x, "dtype", None)
        reason = str(exc).rstrip(".")
        return BufferError(
            f"from_dlpack: the {type(x).__qualname__}{f' of dtype {dtype}' if dtype is not None else ''} "
            f"cannot be shared through DLPack ({reason}); DLPack takes bool, integer, floating "
            f"and complex data in native byte order: convert it first (x.astype(...))."
        )
    copy = arguments.get("copy")
    if "copy" in arguments and copy is not None and copy is not True and copy is not False:
        return TypeError(f"{func}: `copy` must be True, False or None, not {copy!r}.")
    dtype_problem = _dtype_problem(arguments.get("dtype"))
    if dtype_problem is not None:
        return TypeError(f"{func}: {dtype_problem}.")
    if "shape" in arguments:
        problem = _shape_problem(arguments["shape"])
        if problem is not None:
            return problem[0](f"{func}: {problem[1]}.")
    for name in ("N", "M", "n_rows", "n_cols", "num"):  # eye's by NumPy's names and ours
        if arguments.get(name) is not None:
            problem = _size_problem(name, arguments[name])
            if problem is not None:
                return problem[0](f"{func}: {problem[1]}.")
    n = arguments.get("n")
    if func in ("fft.fftfreq", "fft.rfftfreq") and type(n) is int and n == 0:
        # NumPy divides by n * d; other lengths are NumPy's to judge
        return ZeroDivisionValueError(f"{func}: `n` must be a positive int, got 0.")
    if func == "arange":
        for name in ("start_or_stop", "start", "stop", "step"):
            value = arguments.get(name)
            if value is not None and not isinstance(value, (*_PY_SCALARS, np.generic)):
                return TypeError(f"arange: `{name}` must be an int or a float, not {value!r}.")
        if isinstance(exc, ZeroDivisionError) or arguments.get("step") == 0:
            kind = ZeroDivisionValueError if isinstance(exc, ZeroDivisionError) else ValueError
            return kind(f"arange: `step` must not be zero, got {arguments['step']!r}.")
    if func == "asarray":
        obj, dtype = arguments.get("a", arguments.get("obj")), arguments.get("dtype")
        if isinstance(exc, OverflowError):
            return OverflowValueError(
                f"asarray: {obj!r:.60} is out of range for dtype {np.dtype(dtype).name!r}."
            )
        if arguments.get("copy") is False and "copy" in str(exc):
            return ValueError(
                f"asarray: copy=False cannot be honoured: making an array from "
                f"{type(obj).__qualname__} {obj!r:.60} needs a copy; pass copy=None to copy "
                f"only when needed."
            )
    return None


def restate(func: str, exc: BaseException, **arguments: Any) -> BaseException:
    """The exception to raise instead of the backend's ``exc``, from ``func(**arguments)``.

    Messages that already name ``func`` (cunumpy's own) are kept as they are. A
    ``BufferError`` of ``from_dlpack`` stays a ``BufferError``, as the standard says.
    A specific message (the argument at fault, in the standard's words) replaces the
    library's error where it is of the library's class; where the library judged first an
    argument outside the standard's domain (``eye(-1, True)``: NumPy's TypeError for
    ``M=True``; ``arange(array)``: NumPy's ValueError), the library's error is restated in
    its own class.
    """
    if str(exc).startswith(f"{func}:"):
        return exc
    specific = _specific(func, exc, arguments)
    if specific is not None and isinstance(specific, type(exc)):
        return specific
    kind = TypeError if isinstance(exc, TypeError) else value_error_for(exc)
    return kind(f"{func}: {str(exc).rstrip('.')}{called_with(arguments)}")


def raise_restated(func: str, exc: BaseException, **arguments: Any) -> NoReturn:
    """Raise ``restate(func, exc, **arguments)``, chained to ``exc`` when it is new."""
    restated = restate(func, exc, **arguments)
    if restated is exc:
        raise exc
    raise restated from exc


def check_copy(copy: Any, func: str, *, allow_none: bool) -> None:
    """Raise ``TypeError`` unless ``copy`` is a bool (or None where allowed)."""
    if copy is True or copy is False or (copy is None and allow_none):
        return
    accepted = "True, False or None" if allow_none else "True or False"
    msg = f"{func}: `copy` must be {accepted}, not {copy!r}."
    raise TypeError(msg)


def with_article(word: str) -> str:
    """``word`` with its indefinite article, for messages: "an int", "a double", "an 8-D".

    >>> from cunumpy._settings._errors import with_article
    >>> [with_article(w) for w in ("int", "unsigned int", "double", "8-D", "11-D", "1-D")]
    ['an int', 'an unsigned int', 'a double', 'an 8-D', 'an 11-D', 'a 1-D']
    """
    vowel_sound = word[:1].lower() in "aeiou8" or word.startswith(("11-", "18-"))
    return f"{'an' if vowel_sound else 'a'} {word}"
