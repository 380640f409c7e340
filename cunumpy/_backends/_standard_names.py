"""The standard's names that every namespace shares, defined once.

Array API 2025.12's data types and constants are NumPy's objects in every namespace
(CuPy's and Dask's dtypes are NumPy's), so each namespace module takes them from here
with ``from .._standard_names import *`` (this module's ``__all__`` is exactly those
names); ``cunumpy`` itself too. The function names of the ``linalg`` and ``fft``
extensions are the ``__all__`` of each namespace's ``linalg`` and ``fft`` module
(``__all__ = list(LINALG)``) and of ``cunumpy.linalg`` and ``cunumpy.fft``.
"""

from numpy import (
    bool,
    complex64,
    complex128,
    e,
    float32,
    float64,
    inf,
    int8,
    int16,
    int32,
    int64,
    nan,
    newaxis,
    pi,
    uint8,
    uint16,
    uint32,
    uint64,
)

__all__ = [
    # constants
    "e",
    "inf",
    "nan",
    "newaxis",
    "pi",
    # data types
    "bool",
    "complex64",
    "complex128",
    "float32",
    "float64",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
]

#: The functions of the standard's ``linalg`` extension.
LINALG = (
    "cholesky",
    "cross",
    "det",
    "diagonal",
    "eig",
    "eigh",
    "eigvals",
    "eigvalsh",
    "inv",
    "matmul",
    "matrix_norm",
    "matrix_power",
    "matrix_rank",
    "matrix_transpose",
    "outer",
    "pinv",
    "qr",
    "slogdet",
    "solve",
    "svd",
    "svdvals",
    "tensordot",
    "trace",
    "vecdot",
    "vector_norm",
)

#: The functions of the standard's ``fft`` extension.
FFT = (
    "fft",
    "fftfreq",
    "fftn",
    "fftshift",
    "hfft",
    "ifft",
    "ifftn",
    "ifftshift",
    "ihfft",
    "irfft",
    "irfftn",
    "rfft",
    "rfftfreq",
    "rfftn",
)
