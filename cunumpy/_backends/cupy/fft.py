"""The ``fft`` extension of the CuPy namespace."""

from __future__ import annotations

from typing import Any

import cupy
from cupy.fft import (
    fft,
    fftshift,
    hfft,
    ifft,
    ifftshift,
    ihfft,
    irfft,
    rfft,
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
    if device is None:
        return cupy.fft.fftfreq(n, d).astype(dtype, copy=False)
    with gpu(device, "fftfreq"):
        return cupy.fft.fftfreq(n, d).astype(dtype, copy=False)


# Standard: rfftfreq takes `dtype=` and `device=`.
def rfftfreq(n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> cupy.ndarray:
    """Sample frequencies of a real discrete Fourier transform of length ``n``, on ``device``."""
    dtype = _float_dtype(dtype, "rfftfreq")
    if device is None:
        return cupy.fft.rfftfreq(n, d).astype(dtype, copy=False)
    with gpu(device, "rfftfreq"):
        return cupy.fft.rfftfreq(n, d).astype(dtype, copy=False)


def _sizes(
    x: Any, s: Any, axes: Any, inverse_real: bool = False
) -> tuple[tuple[int, ...] | None, tuple[int, ...] | None]:
    """``s`` with every -1 replaced by the size the standard gives, and ``axes`` made explicit.

    A -1 in ``s`` means "the input's length along that axis" (for the last axis of an
    inverse real transform, ``2 * (m - 1)``). CuPy reads -1 as a length: it trims the
    axis by one element, or, for ``irfftn``, to nothing.
    """
    if s is None:
        return None, axes
    if axes is None:
        axes = tuple(range(x.ndim - len(s), x.ndim))
    sizes = list(s)
    for i, (size, axis) in enumerate(zip(sizes, axes)):
        if size == -1:
            m = x.shape[axis]
            sizes[i] = 2 * (m - 1) if inverse_real and i == len(sizes) - 1 else m
    return tuple(sizes), tuple(axes)


# Standard: a -1 in `s` keeps the input's length along that axis (CuPy trims by one).
def fftn(
    x: cupy.ndarray, /, *, s: Any = None, axes: Any = None, norm: str = "backward"
) -> cupy.ndarray:
    """The n-dimensional discrete Fourier transform of ``x`` over ``axes``."""
    s, axes = _sizes(x, s, axes)
    return cupy.fft.fftn(x, s=s, axes=axes, norm=norm)


# Standard: a -1 in `s` keeps the input's length along that axis (CuPy trims by one).
def ifftn(
    x: cupy.ndarray, /, *, s: Any = None, axes: Any = None, norm: str = "backward"
) -> cupy.ndarray:
    """The n-dimensional inverse discrete Fourier transform of ``x`` over ``axes``."""
    s, axes = _sizes(x, s, axes)
    return cupy.fft.ifftn(x, s=s, axes=axes, norm=norm)


# Standard: a -1 in `s` keeps the input's length along that axis (CuPy trims by one).
def rfftn(
    x: cupy.ndarray, /, *, s: Any = None, axes: Any = None, norm: str = "backward"
) -> cupy.ndarray:
    """The n-dimensional discrete Fourier transform of real ``x`` over ``axes``."""
    s, axes = _sizes(x, s, axes)
    return cupy.fft.rfftn(x, s=s, axes=axes, norm=norm)


# Standard: a -1 last in `s` means 2 * (m - 1) output points (CuPy gives none).
def irfftn(
    x: cupy.ndarray, /, *, s: Any = None, axes: Any = None, norm: str = "backward"
) -> cupy.ndarray:
    """The inverse of ``rfftn``: a real n-dimensional signal from its half spectrum."""
    s, axes = _sizes(x, s, axes, inverse_real=True)
    return cupy.fft.irfftn(x, s=s, axes=axes, norm=norm)
