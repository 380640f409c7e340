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

from .._standard_names import FFT
from .._superset import library_attribute
from ..numpy.fft import _float_dtype, fft_sizes
from ._device_copies import gpu

__all__ = list(FFT)


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


def _resized(x: cupy.ndarray, sizes: tuple[int, ...], axes: tuple[int, ...]) -> cupy.ndarray:
    """``x`` trimmed or zero-padded to ``sizes`` along ``axes``, in one copy at most.

    CuPy resizes the input itself, but skips it whenever ``s`` equals ``x.shape``, even
    when ``axes`` are permuted, so the result can have the wrong shape.
    """
    shape = list(x.shape)
    for size, axis in zip(sizes, axes):
        shape[axis] = size
    if tuple(shape) == x.shape:
        return x
    if all(new <= old for new, old in zip(shape, x.shape)):
        return x[tuple(slice(0, n) for n in shape)]
    result = cupy.zeros(shape, dtype=x.dtype)
    common = tuple(slice(0, min(new, old)) for new, old in zip(shape, x.shape))
    result[common] = x[common]
    return result


def _prepared(
    x: cupy.ndarray, s: Any, axes: Any, func: str, inverse_real: bool = False
) -> tuple[cupy.ndarray, tuple[int, ...] | None, tuple[int, ...] | None]:
    """The input resized as ``s`` asks, the sizes, and explicit axes."""
    sizes, axes = fft_sizes(x, s, axes, func, inverse_real)
    if sizes is None or axes is None:
        return x, sizes, axes
    inputs = list(sizes)
    if inverse_real:  # the half spectrum of n points has n // 2 + 1
        inputs[-1] = sizes[-1] // 2 + 1
    return _resized(x, tuple(inputs), axes), sizes, axes


# Standard: `s` with `axes` in any order resizes those axes (CuPy may leave the shape).
def fftn(
    x: cupy.ndarray, /, *, s: Any = None, axes: Any = None, norm: str = "backward"
) -> cupy.ndarray:
    """The n-dimensional discrete Fourier transform of ``x`` over ``axes``."""
    x, _, axes = _prepared(x, s, axes, "fftn")
    return cupy.fft.fftn(x, axes=axes, norm=norm)


# Standard: `s` with `axes` in any order resizes those axes (CuPy may leave the shape).
def ifftn(
    x: cupy.ndarray, /, *, s: Any = None, axes: Any = None, norm: str = "backward"
) -> cupy.ndarray:
    """The n-dimensional inverse discrete Fourier transform of ``x`` over ``axes``."""
    x, _, axes = _prepared(x, s, axes, "ifftn")
    return cupy.fft.ifftn(x, axes=axes, norm=norm)


# Standard: `s` with `axes` in any order resizes those axes (CuPy may leave the shape).
def rfftn(
    x: cupy.ndarray, /, *, s: Any = None, axes: Any = None, norm: str = "backward"
) -> cupy.ndarray:
    """The n-dimensional discrete Fourier transform of real ``x`` over ``axes``."""
    x, _, axes = _prepared(x, s, axes, "rfftn")
    return cupy.fft.rfftn(x, axes=axes, norm=norm)


# Standard: `s` gives the output sizes, in any axis order; a -1 last is 2 * (m - 1) points.
def irfftn(
    x: cupy.ndarray, /, *, s: Any = None, axes: Any = None, norm: str = "backward"
) -> cupy.ndarray:
    """The inverse of ``rfftn``: a real n-dimensional signal from its half spectrum."""
    x, sizes, axes = _prepared(x, s, axes, "irfftn", inverse_real=True)
    return cupy.fft.irfftn(x, s=sizes, axes=axes, norm=norm)


def __getattr__(name: str) -> Any:
    """Every public name outside the standard: ``cupy.fft``'s own object."""
    value = library_attribute(cupy.fft, __name__, name)
    globals()[name] = value  # later look-ups find it without calling __getattr__
    return value


def __dir__() -> list[str]:
    """The standard's names (every other public ``cupy.fft`` name resolves as well)."""
    return sorted(__all__)
