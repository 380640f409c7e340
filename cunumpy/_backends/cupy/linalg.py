"""The ``linalg`` extension of the CuPy namespace."""

from __future__ import annotations

from typing import Any, NamedTuple

import cupy
import numpy as np
from cupy import matmul
from cupy.linalg import det, inv, matrix_power

from .._standard_names import LINALG
from .._superset import library_attribute
from ..numpy.linalg import EigResult, _complex_dtype
from ._device_copies import CUPY_MAJOR
from ._manipulation import vecdot

if CUPY_MAJOR >= 14:  # CuPy 14 has matrix_transpose; CuPy 13 does not
    from cupy import matrix_transpose
else:
    from ._cupy13 import matrix_transpose

__all__ = list(LINALG)


# Standard: linalg.cross broadcasts x1 against x2 (CuPy 14's linalg.cross wants one shape;
# CuPy 13 has only the top-level cupy.cross, which also takes 2-element vectors).
def cross(x1: cupy.ndarray, x2: cupy.ndarray, /, *, axis: int = -1) -> cupy.ndarray:
    """Cross product of 3-element vectors along ``axis``, broadcast against each other."""
    if x1.shape[axis] != 3 or x2.shape[axis] != 3:
        msg = (
            f"x1 and x2 must have length 3 along `axis` {axis}, "
            f"not {x1.shape[axis]} and {x2.shape[axis]}"
        )
        raise ValueError(msg)
    return cupy.cross(x1, x2, axis=axis)


class EighResult(NamedTuple):
    """Eigenvalues and eigenvectors, as ``linalg.eigh`` returns them."""

    eigenvalues: cupy.ndarray
    eigenvectors: cupy.ndarray


class QRResult(NamedTuple):
    """The factors of a QR decomposition."""

    Q: cupy.ndarray
    R: cupy.ndarray


class SlogdetResult(NamedTuple):
    """Sign and natural logarithm of the absolute value of a determinant."""

    sign: cupy.ndarray
    logabsdet: cupy.ndarray


class SVDResult(NamedTuple):
    """The factors of a singular value decomposition."""

    U: cupy.ndarray
    S: cupy.ndarray
    Vh: cupy.ndarray


# Standard: cholesky takes `upper=`.
def cholesky(x: cupy.ndarray, /, *, upper: bool = False) -> cupy.ndarray:
    """Cholesky factor of a (stack of) Hermitian positive-definite matrices."""
    lower = cupy.linalg.cholesky(x)
    return cupy.conj(cupy.swapaxes(lower, -1, -2)) if upper else lower


# Standard: diagonal works on the last two axes (cupy.diagonal on the first two).
def diagonal(x: cupy.ndarray, /, *, offset: int = 0) -> cupy.ndarray:
    """The ``offset``-th diagonal of each matrix in ``x``."""
    return cupy.diagonal(x, offset=offset, axis1=-2, axis2=-1)


# Standard: eig returns a named tuple of complex arrays (CuPy 14's is a plain tuple).
def eig(x: cupy.ndarray, /) -> EigResult:
    """Eigenvalues and right eigenvectors of a (stack of) square matrices, as complex arrays."""
    if not hasattr(cupy.linalg, "eig"):  # CuPy 13 has no general eigensolver
        msg = f"linalg.eig: CuPy {cupy.__version__} has no eig; it needs CuPy 14 or later."
        raise NotImplementedError(msg)
    values, vectors = cupy.linalg.eig(x)
    dtype = _complex_dtype(x.dtype)
    return EigResult(values.astype(dtype, copy=False), vectors.astype(dtype, copy=False))


# Standard: eigvals always returns a complex array.
def eigvals(x: cupy.ndarray, /) -> cupy.ndarray:
    """Eigenvalues of a (stack of) square matrices, as a complex array."""
    if not hasattr(cupy.linalg, "eigvals"):  # CuPy 13 has no general eigensolver
        msg = f"linalg.eigvals: CuPy {cupy.__version__} has no eigvals; it needs CuPy 14 or later."
        raise NotImplementedError(msg)
    return cupy.linalg.eigvals(x).astype(_complex_dtype(x.dtype), copy=False)


# Standard: eigh returns a named tuple and takes no `UPLO=`.
def eigh(x: cupy.ndarray, /) -> EighResult:
    """Eigenvalues and eigenvectors of a (stack of) Hermitian matrices."""
    return EighResult(*cupy.linalg.eigh(x))


# Standard: eigvalsh takes no `UPLO=`.
def eigvalsh(x: cupy.ndarray, /) -> cupy.ndarray:
    """Eigenvalues of a (stack of) Hermitian matrices."""
    return cupy.linalg.eigvalsh(x)


# Standard: matrix_norm works on the last two axes and takes `keepdims=` and `ord=`.
def matrix_norm(
    x: cupy.ndarray, /, *, keepdims: bool = False, ord: int | float | str | None = "fro"
) -> cupy.ndarray:
    """A matrix norm of each matrix in ``x``."""
    return cupy.linalg.norm(x, ord=ord, axis=(-2, -1), keepdims=keepdims)


def _default_rtol(x: cupy.ndarray) -> float:
    eps = float(np.finfo(x.dtype if x.dtype.kind in "fc" else np.float64).eps)
    return max(x.shape[-2:]) * eps


# Standard: matrix_rank takes `rtol=` (relative to the largest singular value), not `tol=`.
def matrix_rank(x: cupy.ndarray, /, *, rtol: float | cupy.ndarray | None = None) -> cupy.ndarray:
    """The rank of each matrix in ``x``."""
    values = svdvals(x)
    rtol = _default_rtol(x) if rtol is None else rtol
    if isinstance(rtol, cupy.ndarray):
        rtol = rtol[..., None]
    cutoff = cupy.max(values, axis=-1, keepdims=True) * rtol
    return cupy.count_nonzero(values > cutoff, axis=-1)


# Standard: outer of two 1-D arrays.
def outer(x1: cupy.ndarray, x2: cupy.ndarray, /) -> cupy.ndarray:
    """Outer product of two vectors."""
    return cupy.outer(x1, x2)


# Standard: pinv takes `rtol=` (default max(M, N) * eps), not `rcond=` (default 1e-15).
def pinv(x: cupy.ndarray, /, *, rtol: float | cupy.ndarray | None = None) -> cupy.ndarray:
    """The Moore-Penrose pseudo-inverse of each matrix in ``x``."""
    return cupy.linalg.pinv(x, rcond=_default_rtol(x) if rtol is None else rtol)


# Standard: qr returns a named tuple.
def qr(x: cupy.ndarray, /, *, mode: str = "reduced") -> QRResult:
    """QR decomposition of each matrix in ``x``."""
    return QRResult(*cupy.linalg.qr(x, mode=mode))


# Standard: slogdet returns a named tuple.
def slogdet(x: cupy.ndarray, /) -> SlogdetResult:
    """Sign and log of the absolute determinant of each matrix in ``x``."""
    return SlogdetResult(*cupy.linalg.slogdet(x))


# Standard: solve treats x2 as a vector only when it is 1-D, else as a stack of matrices
# broadcast against x1. CuPy 13 follows NumPy 1 (a vector whenever x2.ndim == x1.ndim - 1),
# CuPy 14 broadcasts a vector, but neither broadcasts the stacks of matrices.
def solve(x1: cupy.ndarray, x2: cupy.ndarray, /) -> cupy.ndarray:
    """Solve ``x1 @ result = x2`` for each matrix in ``x1``."""
    if x2.ndim == 1:  # one column per matrix of x1, then drop it
        columns = cupy.broadcast_to(x2[:, None], (*x1.shape[:-1], 1))
        return cupy.linalg.solve(x1, columns)[..., 0]
    batch = cupy.broadcast_shapes(x1.shape[:-2], x2.shape[:-2])
    a = cupy.broadcast_to(x1, batch + x1.shape[-2:])
    b = cupy.broadcast_to(x2, batch + x2.shape[-2:])
    return cupy.linalg.solve(a, b)


# Standard: svd returns a named tuple and takes `full_matrices=` by keyword.
def svd(x: cupy.ndarray, /, *, full_matrices: bool = True) -> SVDResult:
    """Singular value decomposition of each matrix in ``x``."""
    return SVDResult(*cupy.linalg.svd(x, full_matrices=full_matrices))


# Standard: svdvals (CuPy lacks it).
def svdvals(x: cupy.ndarray, /) -> cupy.ndarray:
    """Singular values of each matrix in ``x``, in descending order."""
    return cupy.linalg.svd(x, compute_uv=False)


# Standard: linalg.tensordot (CuPy has it only at the top level); `axes=` by keyword.
def tensordot(
    x1: cupy.ndarray,
    x2: cupy.ndarray,
    /,
    *,
    axes: int | tuple[Any, Any] = 2,
) -> cupy.ndarray:
    """Tensor contraction of ``x1`` and ``x2`` over ``axes``."""
    return cupy.tensordot(x1, x2, axes=axes)


# Standard: trace works on the last two axes (cupy.trace on the first two).
def trace(x: cupy.ndarray, /, *, offset: int = 0, dtype: Any = None) -> cupy.ndarray:
    """Sum of the ``offset``-th diagonal of each matrix in ``x``."""
    return cupy.trace(x, offset=offset, axis1=-2, axis2=-1, dtype=dtype)


def _euclidean_norm(x: cupy.ndarray, keepdims: bool) -> cupy.ndarray:
    """The 2-norm of all of ``x`` in one pass: a dot product, one fused multiply-sum."""
    flat = x.ravel()
    if flat.dtype.kind == "c":
        squared = cupy.dot(flat.real, flat.real) + cupy.dot(flat.imag, flat.imag)
    else:
        squared = cupy.dot(flat, flat)
    result = cupy.sqrt(squared)
    return result.reshape((1,) * x.ndim) if keepdims else result


# Standard: vector_norm over any axes with `ord=` (CuPy lacks it).
def vector_norm(
    x: cupy.ndarray,
    /,
    *,
    axis: int | tuple[int, ...] | None = None,
    keepdims: bool = False,
    ord: int | float = 2,
) -> cupy.ndarray:
    """A vector norm of ``x`` over ``axis`` (all axes when None)."""
    if ord == 2 and axis is None and x.dtype.kind in "fc":
        return _euclidean_norm(x, keepdims)
    magnitude = cupy.abs(x)
    if ord == cupy.inf:
        return cupy.max(magnitude, axis=axis, keepdims=keepdims)
    if ord == -cupy.inf:
        return cupy.min(magnitude, axis=axis, keepdims=keepdims)
    if ord == 0:
        return cupy.sum(magnitude != 0, axis=axis, keepdims=keepdims, dtype=magnitude.dtype)
    if ord == 1:
        return cupy.sum(magnitude, axis=axis, keepdims=keepdims)
    if ord == 2:
        return cupy.sqrt(cupy.sum(magnitude * magnitude, axis=axis, keepdims=keepdims))
    return cupy.sum(magnitude**ord, axis=axis, keepdims=keepdims) ** (1.0 / ord)


def __getattr__(name: str) -> Any:
    """Every public name outside the standard: ``cupy.linalg``'s own object."""
    value = library_attribute(cupy.linalg, __name__, name)
    globals()[name] = value  # later look-ups find it without calling __getattr__
    return value


def __dir__() -> list[str]:
    """The standard's names (every other public ``cupy.linalg`` name resolves as well)."""
    return sorted(__all__)
