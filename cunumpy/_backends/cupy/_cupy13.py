"""Standard functions that CuPy 13 lacks or returns as lists; CuPy 14 provides them itself."""

from __future__ import annotations

import cupy

__all__ = [
    "acos",
    "asin",
    "asinh",
    "atan",
    "atan2",
    "atanh",
    "bitwise_invert",
    "bitwise_left_shift",
    "bitwise_right_shift",
    "broadcast_arrays",
    "concat",
    "matrix_transpose",
    "meshgrid",
    "permute_dims",
    "pow",
]

# Standard names that CuPy 13 has under NumPy 1's names (the same ufunc objects).
acos = cupy.arccos
asin = cupy.arcsin
asinh = cupy.arcsinh
atan = cupy.arctan
atan2 = cupy.arctan2
atanh = cupy.arctanh
bitwise_invert = cupy.invert
bitwise_left_shift = cupy.left_shift
bitwise_right_shift = cupy.right_shift
concat = cupy.concatenate
pow = cupy.power


# Standard: broadcast_arrays returns a tuple (CuPy 13 returns a list).
def broadcast_arrays(*arrays: cupy.ndarray) -> tuple[cupy.ndarray, ...]:
    """``arrays`` broadcast to one shape, as a tuple of views."""
    return tuple(cupy.broadcast_arrays(*arrays))


# Standard: matrix_transpose swaps the last two axes (CuPy 13 lacks it).
def matrix_transpose(x: cupy.ndarray, /) -> cupy.ndarray:
    """Transpose of each matrix in ``x``."""
    return cupy.swapaxes(x, -1, -2)


# Standard: meshgrid returns a tuple (CuPy 13 returns a list).
def meshgrid(*arrays: cupy.ndarray, indexing: str = "xy") -> tuple[cupy.ndarray, ...]:
    """Coordinate matrices from coordinate vectors, as a tuple."""
    return tuple(cupy.meshgrid(*arrays, indexing=indexing))


# Standard: permute_dims (CuPy 13 has it only as transpose).
def permute_dims(x: cupy.ndarray, /, axes: tuple[int, ...]) -> cupy.ndarray:
    """``x`` with its axes permuted."""
    return cupy.transpose(x, axes)
