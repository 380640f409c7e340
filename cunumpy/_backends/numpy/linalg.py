"""The ``linalg`` extension of the NumPy namespace."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numpy.linalg import (
    cholesky,
    cross,
    det,
    diagonal,
    eigh,
    eigvalsh,
    inv,
    matmul,
    matrix_norm,
    matrix_power,
    matrix_rank,
    matrix_transpose,
    outer,
    qr,
    slogdet,
    solve,
    svd,
    svdvals,
    tensordot,
    trace,
    vecdot,
    vector_norm,
)

# The named results of eigh, qr, svd and slogdet: the classes numpy.linalg's functions
# return (not exported by numpy.linalg), kept here as array-api-compat's linalg has them.
from numpy.linalg._linalg import EighResult as EighResult
from numpy.linalg._linalg import QRResult as QRResult
from numpy.linalg._linalg import SlogdetResult as SlogdetResult
from numpy.linalg._linalg import SVDResult as SVDResult

from .._standard_names import LINALG
from .._superset import library_attribute
from ._inputs import numeric

__all__ = list(LINALG)


class EigResult(NamedTuple):
    """Eigenvalues and eigenvectors, as ``linalg.eig`` returns them."""

    eigenvalues: np.ndarray
    eigenvectors: np.ndarray


def _complex_dtype(dtype: np.dtype) -> np.dtype:
    return (
        np.dtype(np.complex64) if dtype in (np.float32, np.complex64) else np.dtype(np.complex128)
    )


def _square_stack(x: Any, func: str) -> np.ndarray:
    """``x`` as an array of numbers with at least two dimensions, or the error naming ``func``
    (NumPy's ``LinAlgError``, a ``ValueError``)."""
    array = numeric(x, func)
    if array.ndim < 2:
        msg = (
            f"{func}: `x` must be a (stack of) square matrices, with at least two "
            f"dimensions; got an array of shape {array.shape}."
        )
        raise np.linalg.LinAlgError(msg)
    return array


# Standard: eig always returns complex results, even when every eigenvalue is real.
def eig(x: np.ndarray, /) -> EigResult:
    """Eigenvalues and right eigenvectors of a (stack of) square matrices, as complex arrays."""
    x = _square_stack(x, "linalg.eig")
    values, vectors = np.linalg.eig(x)
    dtype = _complex_dtype(x.dtype)
    return EigResult(values.astype(dtype, copy=False), vectors.astype(dtype, copy=False))


# Standard: pinv's default `rtol` is max(M, N) times the machine epsilon of x's dtype, which
# NumPy computes with finfo and the shape (an error for integer and bool x, and for fewer
# than two dimensions before NumPy's own LinAlgError). The standard leaves those x open:
# there the answer is NumPy's own pinv(x).
def pinv(x: np.ndarray, /, *, rtol: float | np.ndarray | None = None) -> np.ndarray:
    """The Moore-Penrose pseudo-inverse of each matrix in ``x``."""
    if not isinstance(x, np.ndarray):
        x = numeric(x, "linalg.pinv")
    if rtol is None and (x.dtype.kind not in "fc" or x.ndim < 2):  # NumPy's LinAlgError too
        return np.linalg.pinv(x)
    return np.linalg.pinv(x, rtol=rtol)  # type: ignore[arg-type]  # None: the standard's default


# Standard: eigvals always returns a complex array, even when every eigenvalue is real.
def eigvals(x: np.ndarray, /) -> np.ndarray:
    """Eigenvalues of a (stack of) square matrices, as a complex array."""
    x = _square_stack(x, "linalg.eigvals")
    return np.linalg.eigvals(x).astype(_complex_dtype(x.dtype), copy=False)


def __getattr__(name: str) -> Any:
    """Every public name outside the standard: ``numpy.linalg``'s own object."""
    value = library_attribute(np.linalg, __name__, name)
    globals()[name] = value  # later look-ups find it without calling __getattr__
    return value


def __dir__() -> list[str]:
    """The standard's names (every other public ``numpy.linalg`` name resolves as well)."""
    return sorted(__all__)
