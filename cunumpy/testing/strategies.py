"""Hypothesis strategies for arrays of any namespace, placed on a chosen device.

They build on ``hypothesis.extra.array_api`` (so they follow the standard, for any
namespace), with two additions: ``device=`` puts each array on a device, and arrays for
cunumpy's namespaces are drawn on the host and then copied once to their device, which is
much faster on a GPU than building them element by element there.

Importing this module imports hypothesis (never CuPy).

Examples
--------
>>> from hypothesis import given
>>> import cunumpy
>>> from cunumpy.testing import strategies as cst
>>> @given(cst.arrays(cunumpy, cst.dtypes(cunumpy, kind="real floating"), cst.shapes()))
... def test_abs_is_non_negative(x):
...     xp = cunumpy.array_namespace(x)
...     assert bool(xp.all(xp.isnan(x) | (xp.abs(x) >= 0)))
>>> test_abs_is_non_negative()
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from types import ModuleType
from typing import Any

from .._settings._distributions import install_hint

try:
    from hypothesis import strategies as st
    from hypothesis.errors import HypothesisWarning, InvalidArgument
    from hypothesis.extra.array_api import make_strategies_namespace
except ImportError as _exc:  # one line that says what to install (private: no public name)
    _msg = f"cunumpy.testing.strategies needs Hypothesis; to install it: {install_hint('testing')}."
    raise ImportError(_msg) from _exc

__all__ = ["arrays", "dtypes", "shapes"]

_KINDS = (
    "'bool', 'signed integer', 'unsigned integer', 'integral', 'real floating', "
    "'complex floating', 'numeric'"
)


def _is_cunumpy(xp: ModuleType) -> bool:
    return xp.__name__ in ("cunumpy", "cunumpy._backends.numpy", "cunumpy._backends.cupy")


def _hypothesis_namespace(xp: ModuleType, func: str) -> Any:
    """``make_strategies_namespace(xp)``, for the newest standard both sides know."""
    if not isinstance(xp, ModuleType) or not hasattr(xp, "asarray"):
        msg = f"{func}: `xp` must be an array namespace (a module such as the xp fixture gives), not {xp!r}."
        raise TypeError(msg)
    try:
        return _quiet_namespace(xp, None)
    except InvalidArgument:
        # A namespace newer than this Hypothesis, or without __array_api_version__.
        return _quiet_namespace(xp, "2023.12")


_NOT_DETERMINED = "Could not determine whether module .* is an Array API library"


def _known_namespace(xp: ModuleType) -> bool:
    """Whether the arrays of ``xp`` lack ``__array_namespace__``, but cunumpy's
    ``array_namespace`` resolves them to ``xp`` itself (array-api-compat's torch), or to
    one of cunumpy's namespaces when ``xp`` is one (CuPy's arrays, with ``cunumpy`` on
    the CuPy backend)."""
    from .._namespaces._array_namespace import array_namespace

    try:
        x = xp.zeros(1)
        if hasattr(x, "__array_namespace__"):
            return False
        resolved = array_namespace(x)
        return resolved is xp or (_is_cunumpy(xp) and _is_cunumpy(resolved))
    except Exception:  # any failure: not vouched for, Hypothesis's own check decides
        return False


def _quiet_namespace(xp: ModuleType, api_version: Any) -> Any:
    """``make_strategies_namespace(xp, api_version=...)``, without Hypothesis's warning
    when the arrays lack ``__array_namespace__`` although cunumpy resolves them (torch's
    tensors with array-api-compat's torch namespace; CuPy's with ``cunumpy``). The
    conformance harness (``array_api_tests/_strategies.py``) uses it too."""
    with warnings.catch_warnings():
        if _known_namespace(xp):
            warnings.filterwarnings("ignore", _NOT_DETERMINED, HypothesisWarning)
        return make_strategies_namespace(xp, api_version=api_version)


def _host_namespace() -> ModuleType:
    from .._backends import numpy as numpy_namespace

    return numpy_namespace


def dtypes(
    xp: ModuleType, *, kind: str | tuple[str, ...] | None = None, device: Any = None
) -> st.SearchStrategy[Any]:
    """Draw the dtypes ``xp`` supports on ``device``, optionally only those of ``kind``.

    The list comes from the namespace's inspection API (``__array_namespace_info__``), so a
    device without float64 (array-api-strict has such devices) never gets float64.

    Parameters
    ----------
    xp : module
        The array namespace.
    kind : str or tuple of str, optional
        A kind of the standard's ``isdtype``: ``"bool"``, ``"signed integer"``,
        ``"unsigned integer"``, ``"integral"``, ``"real floating"``, ``"complex floating"``,
        ``"numeric"``, or a tuple of them. All dtypes when not given.
    device : device, optional
        The device the dtypes must be supported on; the default device when not given.

    Returns
    -------
    SearchStrategy
        Dtype objects of ``xp``.

    Raises
    ------
    ValueError
        If ``xp`` has no dtype of that kind on that device, or ``kind`` is unknown.

    Examples
    --------
    >>> from hypothesis import given
    >>> import cunumpy
    >>> from cunumpy.testing.strategies import dtypes
    >>> @given(dtypes(cunumpy, kind="real floating"))
    ... def test_floating(dtype):
    ...     assert dtype in (cunumpy.float32, cunumpy.float64)
    >>> test_floating()
    """
    _hypothesis_namespace(xp, "dtypes")
    try:
        found = xp.__array_namespace_info__().dtypes(kind=kind, device=device)
    except (TypeError, ValueError) as exc:  # the namespace's own words, named and completed
        detail = str(exc).rstrip(".").removeprefix("dtypes: ")  # ours says "dtypes: " once
        if "real floating" not in detail:
            detail += f"; the standard's kinds are {_KINDS}, or a tuple of them"
        msg = f"dtypes: the namespace {xp.__name__} refuses kind={kind!r}: {detail}."
        raise type(exc)(msg) from exc
    if not found:
        msg = f"dtypes: the namespace {xp.__name__} has no dtype of kind {kind!r} on device {device!r}."
        raise ValueError(msg)
    return st.sampled_from(tuple(found.values()))


def shapes(
    *,
    min_dims: int = 1,
    max_dims: int | None = None,
    min_side: int = 1,
    max_side: int | None = None,
) -> st.SearchStrategy[tuple[int, ...]]:
    """Draw array shapes: ``min_dims`` to ``max_dims`` sides of ``min_side`` to ``max_side``.

    ``max_dims`` defaults to ``min_dims + 2`` and ``max_side`` to ``min_side + 5``, as in
    Hypothesis's ``array_shapes``. Pass ``min_dims=0`` for 0-D shapes and ``min_side=0`` for
    empty arrays; shapes shrink towards the smallest.

    Examples
    --------
    >>> from hypothesis import given
    >>> from cunumpy.testing.strategies import shapes
    >>> @given(shapes(min_dims=2, max_dims=2, max_side=3))
    ... def test_matrix_shapes(shape):
    ...     assert len(shape) == 2 and all(1 <= side <= 3 for side in shape)
    >>> test_matrix_shapes()
    """
    return _hypothesis_namespace(_host_namespace(), "shapes").array_shapes(
        min_dims=min_dims, max_dims=max_dims, min_side=min_side, max_side=max_side
    )


def _placed(xp: ModuleType, device: Any) -> Any:
    """The function that puts a drawn array where ``xp`` (and ``device``) want it."""
    import cunumpy

    if _is_cunumpy(xp):

        def to_target(x: Any) -> Any:
            # Read at draw time: the xp fixture sets cunumpy's backend for the test.
            target = (
                device if device is not None else xp.__array_namespace_info__().default_device()
            )
            return cunumpy.to_device(x, target)

        return to_target

    def to_device(x: Any) -> Any:
        import array_api_compat

        return x if device is None else array_api_compat.to_device(x, device)

    return to_device


def arrays(
    xp: ModuleType,
    dtype: Any,
    shape: int | tuple[int, ...] | st.SearchStrategy[tuple[int, ...]],
    *,
    elements: Mapping[str, Any] | st.SearchStrategy[Any] | None = None,
    fill: st.SearchStrategy[Any] | None = None,
    unique: bool = False,
    device: Any = None,
) -> st.SearchStrategy[Any]:
    """Draw arrays of namespace ``xp`` with ``dtype`` and ``shape``, on ``device``.

    Parameters
    ----------
    xp : module
        The array namespace: the ``xp`` fixture, ``cunumpy``, ``array_api_strict``, ...
    dtype : data type, str or SearchStrategy
        A dtype of ``xp``, its name, or a strategy of them (see :func:`dtypes`).
    shape : int, tuple of int or SearchStrategy
        The shape, or a strategy of shapes (see :func:`shapes`).
    elements : dict or SearchStrategy, optional
        A strategy for the values, or keyword arguments for the default one, e.g.
        ``{"allow_nan": False, "min_value": -1e6, "max_value": 1e6}``.
    fill : SearchStrategy, optional
        The value most elements take (see Hypothesis's ``arrays``).
    unique : bool, default: False
        Whether all elements must differ.
    device : device, optional
        Where the arrays live; ``xp``'s default device when not given. For cunumpy's
        namespaces the arrays are drawn on the host and copied there once.

    Returns
    -------
    SearchStrategy
        Arrays of ``xp``.

    Examples
    --------
    >>> from hypothesis import given
    >>> import cunumpy
    >>> from cunumpy.testing.strategies import arrays
    >>> @given(arrays(cunumpy, cunumpy.float32, (2, 3), elements={"allow_nan": False}))
    ... def test_drawn(x):
    ...     assert (x.shape, x.dtype, cunumpy.device(x)) == ((2, 3), cunumpy.float32, "cpu")
    >>> test_drawn()
    """
    if not isinstance(unique, bool):
        msg = f"arrays: `unique` must be True or False, not {unique!r}."
        raise TypeError(msg)
    source = _host_namespace() if _is_cunumpy(xp) else xp
    if not _is_cunumpy(xp):
        _hypothesis_namespace(xp, "arrays")
    drawn = _hypothesis_namespace(source, "arrays").arrays(
        dtype, shape, elements=elements, fill=fill, unique=unique
    )
    if device is None and not _is_cunumpy(xp):
        return drawn
    return drawn.map(_placed(xp, device))


def __dir__() -> list[str]:
    """The public names only (``__all__``), not the imports."""
    return list(__all__)
