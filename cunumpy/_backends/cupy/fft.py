"""The ``fft`` extension of the CuPy namespace."""

from __future__ import annotations

from typing import Any

import cupy
from cupy.fft import (
    fft,
    fftn,
    fftshift,
    hfft,
    ifft,
    ifftn,
    ifftshift,
    ihfft,
    irfft,
    irfftn,
    rfft,
    rfftn,
)

from ..numpy.fft import _float_dtype
from ._placement import gpu

__all__ = [
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
]


# Standard: fftfreq takes `dtype=` and `device=`.
def fftfreq(n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> cupy.ndarray:
    """Sample frequencies of a discrete Fourier transform of length ``n``, on ``device``."""
    dtype = _float_dtype(dtype, "fftfreq")
    with gpu(device, "fftfreq") if device is not None else cupy.cuda.Device():
        return cupy.fft.fftfreq(n, d).astype(dtype, copy=False)


# Standard: rfftfreq takes `dtype=` and `device=`.
def rfftfreq(n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> cupy.ndarray:
    """Sample frequencies of a real discrete Fourier transform of length ``n``, on ``device``."""
    dtype = _float_dtype(dtype, "rfftfreq")
    with gpu(device, "rfftfreq") if device is not None else cupy.cuda.Device():
        return cupy.fft.rfftfreq(n, d).astype(dtype, copy=False)
