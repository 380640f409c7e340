"""The ``fft`` extension of the NumPy namespace."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.fft import (
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

from ._info import _check_device

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


def _float_dtype(dtype: Any, func: str) -> np.dtype:
    if dtype is None:
        return np.dtype(np.float64)
    result = np.dtype(dtype)
    if result.kind != "f":
        msg = f"{func}: `dtype` must be a real floating-point dtype, not {dtype!r}."
        raise TypeError(msg)
    return result


# Standard: fftfreq takes `dtype=` and `device=`.
def fftfreq(n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> np.ndarray:
    """Sample frequencies of a discrete Fourier transform of length ``n``."""
    _check_device(device, "fftfreq")
    return np.fft.fftfreq(n, d).astype(_float_dtype(dtype, "fftfreq"), copy=False)


# Standard: rfftfreq takes `dtype=` and `device=`.
def rfftfreq(n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> np.ndarray:
    """Sample frequencies of a real discrete Fourier transform of length ``n``."""
    _check_device(device, "rfftfreq")
    return np.fft.rfftfreq(n, d).astype(_float_dtype(dtype, "rfftfreq"), copy=False)
