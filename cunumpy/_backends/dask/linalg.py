"""The ``linalg`` extension of the Dask namespace.

Every function on matrices runs cunumpy's chunk ``linalg`` (NumPy's or CuPy's) on each
matrix of a stack with ``dask.array.apply_gufunc``: the two matrix axes are gathered into
one chunk, the stack axes stay chunked, so a stack of many small matrices runs in
parallel. Dask's own ``dask.array.linalg`` (blocked QR, SVD, ...) handles a single tall
matrix in many chunks; it is reached as ``xp.linalg.<name>`` for names outside the
standard only. Other names come from ``dask.array.linalg``.
"""

from __future__ import annotations

import re
from functools import partial
from typing import Any

import dask.array as da
import dask.array.linalg as _dask_linalg

from .._standard_names import LINALG
from .._superset import library_attribute
from ..numpy.linalg import EighResult, QRResult, SlogdetResult, SVDResult
from ._chunks import chunk_namespace
from ._manipulation import matrix_transpose
from ._products import matmul, tensordot, vecdot, vector_norm

__all__ = list(LINALG)


def _per_matrix(name: str, signature: str, *args: da.Array, **kwargs: Any) -> Any:
    """Run the chunk namespace's ``linalg.<name>`` on each matrix of the stacks ``args``.

    A second argument of signature ``()`` is the ``rtol`` array of ``pinv``/``matrix_rank``.
    """
    function = getattr(chunk_namespace(args[0]).linalg, name)
    if signature.startswith("(m,n),()"):
        function = partial(_with_rtol, function)
    sample = function(*_probes(signature, args), **kwargs)
    if all(a.size == 0 for a in args):  # apply_gufunc cannot split empty core dimensions
        return _of_shapes(function, args, kwargs)
    outputs = sample if isinstance(sample, tuple) else (sample,)
    dtypes = [out.dtype for out in outputs]
    sizes = _output_sizes(signature, args, kwargs)
    result = da.apply_gufunc(
        function, signature, *args, output_dtypes=dtypes if isinstance(sample, tuple) else dtypes[0],
        output_sizes=sizes, allow_rechunk=True, **kwargs,
    )  # fmt: skip
    return tuple(result) if isinstance(sample, tuple) else result


def _with_rtol(function: Any, x: Any, rtol: Any) -> Any:
    return function(x, rtol=rtol)


def _of_shapes(function: Any, args: tuple[da.Array, ...], kwargs: dict[str, Any]) -> Any:
    """``function`` on empty ``args``: the answer depends on their shapes only, so it is
    computed here on empty chunks (nothing of the graph runs) and wrapped."""
    chunks = [chunk_namespace(a).empty(a.shape, dtype=a.dtype) for a in args]
    result = function(*chunks, **kwargs)
    if isinstance(result, tuple):
        return tuple(da.from_array(out) for out in result)
    return da.from_array(result)


def _probes(signature: str, args: tuple[da.Array, ...]) -> list[Any]:
    """Small well-conditioned inputs of each argument's dtype, to learn the output dtypes."""
    cores = re.findall(r"\(([^)]*)\)", signature.partition("->")[0])
    probes = []
    for core, a in zip(cores, args, strict=True):
        namespace = chunk_namespace(a)
        dims = core.split(",") if core else []
        if len(dims) == 2:
            probes.append(namespace.eye(2, dtype=a.dtype))
        elif not dims:
            probes.append(namespace.ones((), dtype=a.dtype))
        else:
            probes.append(namespace.ones(3 if dims == ["t"] else 2, dtype=a.dtype))
    return probes


def _output_sizes(
    signature: str, args: tuple[da.Array, ...], kwargs: dict[str, Any]
) -> dict[str, int]:
    """Sizes of the core dimensions that only outputs have (``k`` of QR and SVD)."""
    if "k" not in signature.partition("->")[2] and "p" not in signature.partition("->")[2]:
        return {}
    m, n = args[0].shape[-2:]
    full = kwargs.get("mode") == "complete" or kwargs.get("full_matrices", False)
    return {"k": m if full else min(m, n), "p": min(m, n), "q": n if full else min(m, n)}


def _square(x: da.Array, func: str) -> da.Array:
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        msg = f"{func}: `x` must be a stack of square matrices, not shape {x.shape}."
        raise ValueError(msg)
    return x


def cholesky(x: da.Array, /, *, upper: bool = False) -> da.Array:
    """The Cholesky factor of each matrix."""
    return _per_matrix("cholesky", "(m,m)->(m,m)", _square(x, "cholesky"), upper=upper)


def det(x: da.Array, /) -> da.Array:
    """The determinant of each matrix."""
    return _per_matrix("det", "(m,m)->()", _square(x, "det"))


def slogdet(x: da.Array, /) -> SlogdetResult:
    """The sign and the log of the absolute determinant of each matrix."""
    return SlogdetResult(*_per_matrix("slogdet", "(m,m)->(),()", _square(x, "slogdet")))


def inv(x: da.Array, /) -> da.Array:
    """The inverse of each matrix."""
    return _per_matrix("inv", "(m,m)->(m,m)", _square(x, "inv"))


def eigh(x: da.Array, /) -> EighResult:
    """Eigenvalues and eigenvectors of each Hermitian matrix."""
    return EighResult(*_per_matrix("eigh", "(m,m)->(m),(m,m)", _square(x, "eigh")))


def eigvalsh(x: da.Array, /) -> da.Array:
    """Eigenvalues of each Hermitian matrix."""
    return _per_matrix("eigvalsh", "(m,m)->(m)", _square(x, "eigvalsh"))


def eig(x: da.Array, /) -> Any:
    """Eigenvalues and eigenvectors of each matrix (complex)."""
    from ..numpy.linalg import EigResult

    return EigResult(*_per_matrix("eig", "(m,m)->(m),(m,m)", _square(x, "eig")))


def eigvals(x: da.Array, /) -> da.Array:
    """Eigenvalues of each matrix (complex)."""
    return _per_matrix("eigvals", "(m,m)->(m)", _square(x, "eigvals"))


def matrix_power(x: da.Array, n: int, /) -> da.Array:
    """Each matrix raised to the integer power ``n``."""
    return _per_matrix("matrix_power", "(m,m)->(m,m)", _square(x, "matrix_power"), n=n)


def matrix_rank(x: da.Array, /, *, rtol: Any = None) -> da.Array:
    """The rank of each matrix (``rtol`` a float or an array that broadcasts with the stack)."""
    if isinstance(rtol, da.Array):
        return _per_matrix("matrix_rank", "(m,n),()->()", x, rtol)
    return _per_matrix("matrix_rank", "(m,n)->()", x, rtol=rtol)


def pinv(x: da.Array, /, *, rtol: Any = None) -> da.Array:
    """The pseudo-inverse of each matrix (``rtol`` a float or an array)."""
    if isinstance(rtol, da.Array):
        return _per_matrix("pinv", "(m,n),()->(n,m)", x, rtol)
    return _per_matrix("pinv", "(m,n)->(n,m)", x, rtol=rtol)


def matrix_norm(x: da.Array, /, *, keepdims: bool = False, ord: Any = "fro") -> da.Array:
    """A norm of each matrix."""
    result = _per_matrix("matrix_norm", "(m,n)->()", x, ord=ord)
    return result[..., None, None] if keepdims else result


def qr(x: da.Array, /, *, mode: str = "reduced") -> QRResult:
    """The QR factorization of each matrix."""
    return QRResult(*_per_matrix("qr", "(m,n)->(m,k),(k,n)", x, mode=mode))


def svd(x: da.Array, /, *, full_matrices: bool = True) -> SVDResult:
    """The singular value decomposition of each matrix."""
    return SVDResult(*_per_matrix("svd", "(m,n)->(m,k),(p),(q,n)", x, full_matrices=full_matrices))


def svdvals(x: da.Array, /) -> da.Array:
    """The singular values of each matrix."""
    return _per_matrix("svdvals", "(m,n)->(p)", x)


def solve(x1: da.Array, x2: da.Array, /) -> da.Array:
    """The solution of ``x1 @ y = x2`` for each matrix (``x2`` 1-D: one vector)."""
    _square(x1, "solve")
    if x2.ndim == 1:
        return _per_matrix("solve", "(m,m),(m)->(m)", x1, x2)
    return _per_matrix("solve", "(m,m),(m,n)->(m,n)", x1, x2)


def cross(x1: da.Array, x2: da.Array, /, *, axis: int = -1) -> da.Array:
    """The cross product of 3-element vectors along ``axis``."""
    if not (-x1.ndim <= axis < x1.ndim and -x2.ndim <= axis < x2.ndim):
        msg = f"cross: `axis` {axis!r} is out of bounds for shapes {x1.shape} and {x2.shape}."
        raise ValueError(msg)
    if x1.shape[axis] != 3 or x2.shape[axis] != 3:
        msg = f"cross: `x1` and `x2` must have 3 elements along `axis` {axis}, not {x1.shape} and {x2.shape}."
        raise ValueError(msg)
    x1, x2 = da.moveaxis(x1, axis, -1), da.moveaxis(x2, axis, -1)
    return da.moveaxis(_per_matrix("cross", "(t),(t)->(t)", x1, x2), -1, axis)


def diagonal(x: da.Array, /, *, offset: int = 0) -> da.Array:
    """The ``offset`` diagonal of each matrix."""
    return da.diagonal(x, offset=offset, axis1=-2, axis2=-1)


def trace(x: da.Array, /, *, offset: int = 0, dtype: Any = None) -> da.Array:
    """The sum of the ``offset`` diagonal of each matrix."""
    return da.sum(diagonal(x, offset=offset), axis=-1, dtype=dtype)


def outer(x1: da.Array, x2: da.Array, /) -> da.Array:
    """The outer product of the 1-D arrays ``x1`` and ``x2``."""
    if x1.ndim != 1 or x2.ndim != 1:
        msg = f"outer: `x1` and `x2` must be 1-D, not shapes {x1.shape} and {x2.shape}."
        raise ValueError(msg)
    return x1[:, None] * x2[None, :]


_STANDARD_NAMES = tuple(sorted(__all__))


def __getattr__(name: str) -> Any:
    """Every other name: ``dask.array.linalg``'s own object."""
    value = library_attribute(_dask_linalg, __name__, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The standard's names."""
    return list(_STANDARD_NAMES)
