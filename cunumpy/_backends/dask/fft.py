"""The ``fft`` extension of the Dask namespace.

Each transform runs cunumpy's chunk ``fft`` (NumPy's or CuPy's, with the standard's
dtypes) through ``dask.array.fft.fft_wrap``, after gathering the transformed axes into one
chunk (Dask's transforms need that). Other names come from ``dask.array.fft``.
"""

from __future__ import annotations

from typing import Any

import dask.array as da
import dask.array.fft as _dask_fft

from .._standard_names import FFT
from .._superset import library_attribute
from ._chunks import chunk_namespace, like

__all__ = list(FFT)


def _one_chunk(x: da.Array, axes: Any) -> da.Array:
    axes = range(x.ndim) if axes is None else [a % x.ndim for a in axes]
    if all(x.numblocks[a] < 2 for a in axes):
        return x
    return x.rechunk({i: -1 if i in axes else "auto" for i in range(x.ndim)})


def _transform(name: str, x: da.Array, n: Any, axis: int, norm: str) -> da.Array:
    wrapped = _dask_fft.fft_wrap(getattr(chunk_namespace(x).fft, name), kind=name)
    return wrapped(_one_chunk(x, (axis,)), n, axis, norm=norm)


def _transform_n(name: str, x: da.Array, s: Any, axes: Any, norm: str) -> da.Array:
    wrapped = _dask_fft.fft_wrap(getattr(chunk_namespace(x).fft, name), kind=name)
    return wrapped(_one_chunk(x, axes), s, axes, norm=norm)


def fft(
    x: da.Array, /, *, n: int | None = None, axis: int = -1, norm: str = "backward"
) -> da.Array:
    """The one-dimensional discrete Fourier transform."""
    return _transform("fft", x, n, axis, norm)


def ifft(
    x: da.Array, /, *, n: int | None = None, axis: int = -1, norm: str = "backward"
) -> da.Array:
    """The one-dimensional inverse discrete Fourier transform."""
    return _transform("ifft", x, n, axis, norm)


def rfft(
    x: da.Array, /, *, n: int | None = None, axis: int = -1, norm: str = "backward"
) -> da.Array:
    """The one-dimensional transform of real input."""
    return _transform("rfft", x, n, axis, norm)


def irfft(
    x: da.Array, /, *, n: int | None = None, axis: int = -1, norm: str = "backward"
) -> da.Array:
    """The inverse of ``rfft``."""
    return _transform("irfft", x, n, axis, norm)


def hfft(
    x: da.Array, /, *, n: int | None = None, axis: int = -1, norm: str = "backward"
) -> da.Array:
    """The transform of a Hermitian-symmetric signal."""
    return _transform("hfft", x, n, axis, norm)


def ihfft(
    x: da.Array, /, *, n: int | None = None, axis: int = -1, norm: str = "backward"
) -> da.Array:
    """The inverse of ``hfft``."""
    return _transform("ihfft", x, n, axis, norm)


def fftn(x: da.Array, /, *, s: Any = None, axes: Any = None, norm: str = "backward") -> da.Array:
    """The n-dimensional discrete Fourier transform."""
    return _transform_n("fftn", x, s, axes, norm)


def ifftn(x: da.Array, /, *, s: Any = None, axes: Any = None, norm: str = "backward") -> da.Array:
    """The n-dimensional inverse transform."""
    return _transform_n("ifftn", x, s, axes, norm)


def rfftn(x: da.Array, /, *, s: Any = None, axes: Any = None, norm: str = "backward") -> da.Array:
    """The n-dimensional transform of real input."""
    return _transform_n("rfftn", x, s, axes, norm)


def irfftn(x: da.Array, /, *, s: Any = None, axes: Any = None, norm: str = "backward") -> da.Array:
    """The inverse of ``rfftn``."""
    return _transform_n("irfftn", x, s, axes, norm)


def fftfreq(n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> da.Array:
    """The sample frequencies of ``fft``."""
    return _frequencies(_dask_fft.fftfreq(n, d=d), dtype, device)


def rfftfreq(n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> da.Array:
    """The sample frequencies of ``rfft``."""
    return _frequencies(_dask_fft.rfftfreq(n, d=d), dtype, device)


def _frequencies(result: da.Array, dtype: Any, device: Any) -> da.Array:
    if dtype is not None:
        result = result.astype(dtype)
    if like(device, "fftfreq") is not None:
        from ._chunks import to_device

        result = to_device(result, device)
    return result


def fftshift(x: da.Array, /, *, axes: Any = None) -> da.Array:
    """``x`` with the zero frequency moved to the centre."""
    return _dask_fft.fftshift(x, axes=axes)


def ifftshift(x: da.Array, /, *, axes: Any = None) -> da.Array:
    """The inverse of ``fftshift``."""
    return _dask_fft.ifftshift(x, axes=axes)


_STANDARD_NAMES = tuple(sorted(__all__))


def __getattr__(name: str) -> Any:
    """Every other name: ``dask.array.fft``'s own object."""
    value = library_attribute(_dask_fft, __name__, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The standard's names."""
    return list(_STANDARD_NAMES)
