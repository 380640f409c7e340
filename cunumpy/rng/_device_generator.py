"""CuPy's ``Generator`` with NumPy's ``normal``, which CuPy 14's lacks.

``cupy.random.default_rng(seed)`` gives a ``cupy.random.Generator`` that draws on the GPU
but has no ``normal(loc, scale, size)`` (it has ``standard_normal``); NumPy's and CuNumpy
0.7.1's users call ``rng.normal(...)``. :func:`with_numpy_methods` wraps such a generator so
that ``normal`` is ``loc + scale * standard_normal(size)``, drawn on the GPU; every other
attribute is the generator's own. A generator that has ``normal`` is returned unchanged.
"""

from __future__ import annotations

from typing import Any

__all__ = ["DeviceGenerator", "with_numpy_methods"]


class DeviceGenerator:
    """A CuPy generator, plus NumPy's ``normal``; everything else is the generator's.

    Examples
    --------
    >>> import numpy as np
    >>> from cunumpy.rng._device_generator import DeviceGenerator
    >>> class Bare:  # a generator with standard_normal only, as CuPy 14's
    ...     def standard_normal(self, size=None, dtype=np.float64):
    ...         return np.zeros(size, dtype)
    >>> DeviceGenerator(Bare()).normal(3.0, 2.0, size=2)
    array([3., 3.])
    """

    __slots__ = ("generator",)

    def __init__(self, generator: Any) -> None:
        self.generator = generator

    def __getattr__(self, name: str) -> Any:
        return getattr(self.generator, name)

    def __repr__(self) -> str:
        return f"DeviceGenerator({self.generator!r})"

    def normal(self, loc: Any = 0.0, scale: Any = 1.0, size: Any = None, dtype: Any = None) -> Any:
        """Samples of the normal distribution: ``loc + scale * standard_normal(size)``.

        Parameters
        ----------
        loc, scale : float or array
            Mean and standard deviation (``scale`` must be non-negative).
        size : int or tuple of ints, optional
            Shape of the result; ``None`` broadcasts ``loc`` and ``scale`` (one sample each).
        dtype : dtype, optional
            ``float64`` (default) or ``float32``.

        Returns
        -------
        array
            The samples, on the generator's GPU.

        Raises
        ------
        ValueError
            If ``scale`` is negative.

        Examples
        --------
        >>> import numpy as np
        >>> from cunumpy.rng._device_generator import DeviceGenerator
        >>> DeviceGenerator(np.random.default_rng(0)).normal(scale=-1.0)
        Traceback (most recent call last):
        ...
        ValueError: Generator.normal: `scale` must be non-negative, got -1.0.
        """
        if (getattr(scale, "min", None) is None and scale < 0) or (
            getattr(scale, "min", None) is not None and bool((scale < 0).any())
        ):
            msg = f"Generator.normal: `scale` must be non-negative, got {scale!r}."
            raise ValueError(msg)
        if size is None and (hasattr(loc, "shape") or hasattr(scale, "shape")):
            size = (getattr(loc, "shape", ()), getattr(scale, "shape", ()))
            size = _broadcast_shape(*size)
        kwargs = {} if dtype is None else {"dtype": dtype}
        return loc + scale * self.generator.standard_normal(size, **kwargs)


def _broadcast_shape(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    import numpy as np

    return tuple(np.broadcast_shapes(a, b))


def with_numpy_methods(generator: Any) -> Any:
    """``generator`` itself if it has ``normal``, else wrapped in :class:`DeviceGenerator`.

    Examples
    --------
    >>> import numpy as np
    >>> from cunumpy.rng._device_generator import with_numpy_methods
    >>> rng = np.random.default_rng(0)
    >>> with_numpy_methods(rng) is rng
    True
    """
    return generator if hasattr(generator, "normal") else DeviceGenerator(generator)
