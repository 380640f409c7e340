"""The ``fft`` extension of the NumPy namespace."""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
from numpy.fft import (
    fft,
    fftshift,
    hfft,
    ifft,
    ifftshift,
    ihfft,
    irfft,
    rfft,
)
from numpy.lib.array_utils import normalize_axis_index

from .._standard_names import FFT
from .._superset import library_attribute
from ._info import _check_device
from ._inputs import positive_length

_Norm = Literal["backward", "ortho", "forward"]

__all__ = list(FFT)


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
    positive_length(n, d, "fftfreq")
    _check_device(device, "fftfreq")
    return np.fft.fftfreq(n, d).astype(_float_dtype(dtype, "fftfreq"), copy=False)


# Standard: rfftfreq takes `dtype=` and `device=`.
def rfftfreq(n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> np.ndarray:
    """Sample frequencies of a real discrete Fourier transform of length ``n``."""
    positive_length(n, d, "rfftfreq")
    _check_device(device, "rfftfreq")
    return np.fft.rfftfreq(n, d).astype(_float_dtype(dtype, "rfftfreq"), copy=False)


def fft_sizes(
    x: Any, s: Any, axes: Any, func: str, inverse_real: bool = False
) -> tuple[tuple[int, ...] | None, tuple[int, ...] | None]:
    """``s`` with every -1 replaced by the size it stands for, and ``axes`` made explicit.

    The standard: with ``s`` and no ``axes``, the last ``len(s)`` axes are transformed
    (NumPy 2 deprecates leaving ``axes`` out), and a -1 in ``s`` keeps the input's length
    along that axis (for the last axis of an inverse real transform, ``2 * (m - 1)``).
    """
    if axes is not None and not isinstance(axes, (tuple, list, range)):
        return s, axes  # not the standard's sequence (axes=2): NumPy's to judge
    if s is None:
        return None, None if axes is None else tuple(axes)
    if axes is None:  # the last len(s) axes; more sizes than axes is NumPy's AxisError
        axes = range(x.ndim - len(s), x.ndim) if len(s) <= x.ndim else range(-len(s), 0)
    axes = tuple(axes)
    if len(axes) != len(s):
        msg = f"{func}: `s` {tuple(s)!r} and `axes` {axes!r} must have the same length."
        raise ValueError(msg)
    sizes = list(s)
    for i, (size, axis) in enumerate(zip(sizes, axes)):
        if size == -1:
            m = x.shape[normalize_axis_index(axis, x.ndim)]
            sizes[i] = 2 * (m - 1) if inverse_real and i == len(sizes) - 1 else m
    return tuple(sizes), axes


# Standard: `s` without `axes` means the last len(s) axes (NumPy 2 warns), -1 keeps a length.
def fftn(
    x: np.ndarray, /, *, s: Any = None, axes: Any = None, norm: _Norm = "backward"
) -> np.ndarray:
    """The n-dimensional discrete Fourier transform of ``x`` over ``axes``."""
    s, axes = fft_sizes(x, s, axes, "fftn")
    return np.fft.fftn(x, s=s, axes=axes, norm=norm)


# Standard: `s` without `axes` means the last len(s) axes (NumPy 2 warns), -1 keeps a length.
def ifftn(
    x: np.ndarray, /, *, s: Any = None, axes: Any = None, norm: _Norm = "backward"
) -> np.ndarray:
    """The n-dimensional inverse discrete Fourier transform of ``x`` over ``axes``."""
    s, axes = fft_sizes(x, s, axes, "ifftn")
    return np.fft.ifftn(x, s=s, axes=axes, norm=norm)


# Standard: `s` without `axes` means the last len(s) axes (NumPy 2 warns), -1 keeps a length.
def rfftn(
    x: np.ndarray, /, *, s: Any = None, axes: Any = None, norm: _Norm = "backward"
) -> np.ndarray:
    """The n-dimensional discrete Fourier transform of real ``x`` over ``axes``."""
    s, axes = fft_sizes(x, s, axes, "rfftn")
    return np.fft.rfftn(x, s=s, axes=axes, norm=norm)


# Standard: `s` without `axes` means the last len(s) axes; a -1 last is 2 * (m - 1) points.
def irfftn(
    x: np.ndarray, /, *, s: Any = None, axes: Any = None, norm: _Norm = "backward"
) -> np.ndarray:
    """The inverse of ``rfftn``: a real n-dimensional signal from its half spectrum."""
    s, axes = fft_sizes(x, s, axes, "irfftn", inverse_real=True)
    return np.fft.irfftn(x, s=s, axes=axes, norm=norm)


def __getattr__(name: str) -> Any:
    """Every public name outside the standard: ``numpy.fft``'s own object."""
    value = library_attribute(np.fft, __name__, name)
    globals()[name] = value  # later look-ups find it without calling __getattr__
    return value


def __dir__() -> list[str]:
    """The standard's names (every other public ``numpy.fft`` name resolves as well)."""
    return sorted(__all__)
