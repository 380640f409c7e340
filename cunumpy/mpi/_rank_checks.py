"""Input checks for ``cunumpy.mpi``: every local failure becomes an error all ranks share.

The rule: each function first checks its local arguments (type, dtype and byte order,
mask, contiguity, writability of outputs, ranks, roots and tags) and prepares its buffers,
turning any exception into a ``Meta.error`` instead of raising. The ranks then exchange
their ``Meta`` (collectives: one pickled ``allgather``; point-to-point: the header sent
before the data) and all reach the same verdict, so a bad input on one rank raises the
same ``TypeError`` or ``ValueError``, naming the rank and the function, on every rank
instead of leaving the others waiting in MPI.

A ``Meta`` holds only Python builtins (strings, ints, tuples), never the caller's
objects, so exchanging it cannot fail on one rank: an unpicklable ``op`` or ``root``
travels as its description.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple, TypeVar

import numpy as np

from .._namespaces._array_predicates import is_cupy_array

__all__ = [
    "Meta",
    "agreeable",
    "as_array",
    "brief",
    "check_collective",
    "check_rank",
    "check_tag",
    "describe",
    "error_of",
    "guarded",
    "raise_same",
    "same",
    "settle",
]

T = TypeVar("T")

_EXCEPTIONS: dict[str, type[Exception]] = {
    "TypeError": TypeError,
    "ValueError": ValueError,
    "RuntimeError": RuntimeError,
}

# dtype kinds MPI can move: bool, signed/unsigned integers, floats, complex.
_MOVABLE_KINDS = "biufc"

Error = tuple[str, str]  # (exception class name, message without the function's name)


class Meta(NamedTuple):
    """What one rank says about its input; builtins only, compared across ranks."""

    error: Error | None  # found locally
    backend: str | None  # "numpy", "cupy", or None when the rank passed None
    dtype: str | None  # numpy.dtype.str
    shape: tuple[int, ...] | None
    agree: tuple[Any, ...] = ()  # arguments that must be equal on all ranks (root, op)


def as_array(x: Any) -> Any:
    """Return NumPy scalars (what NumPy reductions return) as 0-D arrays; else ``x``."""
    return np.asarray(x) if isinstance(x, np.generic) else x


def agreeable(value: Any) -> Any:
    """``value`` in a form that pickles on every rank and compares equal across ranks."""
    if value is None or type(value) in (bool, int, float, str):
        return value
    if isinstance(value, np.integer) and not isinstance(value, np.bool_):
        return int(value)
    return f"<{type(value).__qualname__} {brief(value)}>"


def brief(x: Any) -> str:
    """``repr(x)``, at most 60 characters, even when ``repr`` fails."""
    try:
        text = repr(x)
    except Exception:
        text = f"<{type(x).__qualname__} object>"
    return text if len(text) <= 60 else text[:57] + "..."


def _short(x: Any) -> str:
    return f"{brief(x)} of type {type(x).__module__}.{type(x).__qualname__}"


def error_of(exc: BaseException, func: str) -> Error:
    """``exc`` as a ``Meta`` error; types outside the rules become ``RuntimeError``."""
    kind = type(exc).__name__
    message = str(exc).rstrip(".")
    message = message.removeprefix(f"{func}: ")
    if kind not in _EXCEPTIONS:
        for base in ("TypeError", "ValueError"):
            if isinstance(exc, _EXCEPTIONS[base]):
                return base, message
        return "RuntimeError", f"{kind}: {message}"
    return kind, message


def guarded(meta: Meta, func: str, step: Callable[[], T]) -> tuple[Meta, T | None]:
    """Run a local ``step`` (staging, allocation) unless ``meta`` already has an error.

    An exception becomes ``meta``'s error, to be shared with the other ranks.
    """
    if meta.error is not None:
        return meta, None
    try:
        return meta, step()
    except Exception as exc:
        return meta._replace(error=error_of(exc, func)), None


def describe(
    x: Any,
    name: str,
    *,
    allow_none: bool = False,
    writable: bool = False,
    native: bool = False,
    agree: tuple[Any, ...] = (),
) -> Meta:
    """Describe ``x`` (argument ``name``) for the other ranks; never raises.

    ``writable``: ``x`` receives data (``out``), so it must be writable. ``native``: MPI
    interprets the values (reductions), so the byte order must be the machine's.
    """
    agree = tuple(agreeable(a) for a in agree)
    try:
        return _describe(x, name, allow_none, writable, native, agree)
    except Exception as exc:  # an array-like object whose attributes raise
        return Meta(
            ("TypeError", f"`{name}` could not be inspected: {exc}"), None, None, None, agree
        )


def _describe(
    x: Any, name: str, allow_none: bool, writable: bool, native: bool, agree: tuple[Any, ...]
) -> Meta:
    if x is None and allow_none:
        return Meta(None, None, None, None, agree)
    if isinstance(x, np.ma.MaskedArray):
        error = (
            "TypeError",
            f"`{name}` is a masked array (numpy.ma.MaskedArray); MPI moves only the data "
            f"and would drop the mask: pass `{name}.filled(value)` or numpy.asarray({name})",
        )
        return Meta(error, None, None, None, agree)
    if isinstance(x, np.ndarray):
        backend = "numpy"
    elif is_cupy_array(x):
        backend = "cupy"
    else:
        accepted = "a NumPy or CuPy array" + (" or None" if allow_none else "")
        error = ("TypeError", f"`{name}` must be {accepted}, not {_short(x)}")
        return Meta(error, None, None, None, agree)
    dtype = np.dtype(x.dtype)
    shape = tuple(int(n) for n in x.shape)
    meta = Meta(None, backend, dtype.str, shape, agree)
    if dtype.kind not in _MOVABLE_KINDS:
        error = (
            "TypeError",
            f"`{name}` has dtype {str(dtype)!r}; MPI transfers accept bool, integer, "
            f"floating-point and complex dtypes",
        )
        return meta._replace(error=error)
    if native and not dtype.isnative:
        error = (
            "TypeError",
            f"`{name}` has dtype {dtype.str!r}, whose byte order is not this machine's; MPI "
            f"computes on native values: pass {name}.astype({name}.dtype.newbyteorder('='))",
        )
        return meta._replace(error=error)
    if not x.flags.c_contiguous:
        error = (
            "ValueError",
            f"`{name}` (shape {shape!r}, strides {tuple(x.strides)!r}) is not "
            f"C-contiguous; MPI reads raw memory, so pass a contiguous copy "
            f"(numpy.ascontiguousarray or cupy.ascontiguousarray)",
        )
        return meta._replace(error=error)
    if writable and not getattr(x.flags, "writeable", True):
        error = (
            "ValueError",
            f"`{name}` is read-only (flags.writeable is False), so MPI cannot write the "
            f"result into it; pass a writable array",
        )
        return meta._replace(error=error)
    return meta


def check_rank(value: Any, name: str, size: int, specials: dict[int, str]) -> Error | None:
    """The error of ``value`` as rank argument ``name`` of a communicator of ``size``."""
    accepted = f"an int rank in range({size})"
    if specials:
        accepted += " or " + " or ".join(f"MPI.{label}" for label in specials.values())
    if not isinstance(value, (int, np.integer)) or isinstance(value, (bool, np.bool_)):
        return ("TypeError", f"`{name}` must be {accepted}, not {brief(value)}")
    if not (0 <= int(value) < size or int(value) in specials):
        return ("ValueError", f"`{name}` must be {accepted}, not {int(value)!r}")
    return None


def check_tag(value: Any, upper: int, any_tag: int | None) -> Error | None:
    """The error of ``value`` as a message tag (``any_tag``: ``MPI.ANY_TAG`` allowed)."""
    accepted = f"an int from 0 to {upper}" + (" or MPI.ANY_TAG" if any_tag is not None else "")
    if not isinstance(value, (int, np.integer)) or isinstance(value, (bool, np.bool_)):
        return ("TypeError", f"`tag` must be {accepted}, not {brief(value)}")
    if not (0 <= int(value) <= upper or (any_tag is not None and int(value) == any_tag)):
        return ("ValueError", f"`tag` must be {accepted}, not {int(value)!r}")
    return None


def raise_same(func: str, kind: str, message: str) -> None:
    """Raise exception ``kind`` (a class name) with ``func: message.``."""
    raise _EXCEPTIONS[kind](f"{func}: {message}.")


def check_collective(comm: Any, func: str, local: Meta) -> list[Meta]:
    """Gather every rank's ``Meta``; raise the same error on every rank when any is bad.

    The function's name travels with the ``Meta``: every collective starts with this
    exchange, so ranks that called different collectives (``gather`` on one, ``bcast``
    on another) meet here and all raise, naming both, instead of blocking in MPI.
    """
    entries: list[tuple[str, Meta]] = comm.allgather((func, local))
    _same_function(func, [called for called, _ in entries])
    metas = [meta for _, meta in entries]
    for rank, meta in enumerate(metas):
        if meta.error is not None:
            kind, message = meta.error
            where = "" if comm.Get_size() == 1 else f"on rank {rank}, "
            raise_same(func, kind, where + message)
    agreed = {meta.agree for meta in metas}
    if len(agreed) > 1:
        values = [meta.agree for meta in metas]
        raise_same(
            func,
            "ValueError",
            f"the arguments that must be equal on every rank differ: {values!r} by rank",
        )
    backends = {meta.backend for meta in metas if meta.backend is not None}
    if len(backends) > 1:
        per_rank = [meta.backend for meta in metas]
        raise_same(
            func,
            "TypeError",
            f"the ranks pass arrays of different backends ({per_rank!r} by rank); pass "
            f"NumPy arrays on every rank or CuPy arrays on every rank",
        )
    return metas


def _same_function(func: str, called: list[str]) -> None:
    """Raise on every rank unless every rank called the same collective ``func``."""
    if len(set(called)) > 1:
        by_rank = ", ".join(f"rank {rank} called {name}" for rank, name in enumerate(called))
        names = " and ".join(sorted(set(called)))
        raise_same(
            func,
            "ValueError",
            f"the ranks called different collectives ({by_rank}); every rank of the "
            f"communicator must call the same one, in the same order, so {names} cannot "
            f"be paired",
        )


def settle(comm: Any, func: str, error: Error | None) -> None:
    """A second agreement, after a step that needed the first one (allocating a result of
    the root's shape): raise the same error on every rank when the step failed on any."""
    errors: list[Error | None] = comm.allgather(error)
    for rank, found in enumerate(errors):
        if found is not None:
            where = "" if comm.Get_size() == 1 else f"on rank {rank}, "
            raise_same(func, found[0], where + found[1])


def same(func: str, metas: list[Meta], field: str, what: str, ranks: list[int]) -> None:
    """Raise on every rank unless ``field`` ('dtype' or 'shape') is equal on ``ranks``."""
    values = [getattr(metas[r], field) for r in ranks]
    if len(set(values)) > 1:
        shown = {r: (np.dtype(v).str if field == "dtype" else v) for r, v in zip(ranks, values)}
        if field == "dtype" and len({np.dtype(v).name for v in values}) > 1:
            shown = {r: np.dtype(v).name for r, v in zip(ranks, values)}
        kind = "TypeError" if field == "dtype" else "ValueError"
        raise_same(func, kind, f"{what} must have the same {field} on every rank, got {shown!r}")
