"""The fake CuPy's ``cupy.random``: NumPy's generators whose draws are fake device arrays.

``default_rng(seed)`` gives a :class:`Generator` over NumPy's, so that the numbers are
NumPy's (reproducible from the seed) but land on the fake device, as CuPy's draws land
on the GPU; the legacy functions (``cupy.random.normal``, ``seed``, ...) forward to
``numpy.random`` the same way.
"""

from __future__ import annotations

import types
from typing import Any

import numpy as np

from ._ndarray import unwrap, wrap

__all__ = ["Generator", "make_random"]


class Generator:
    """``cupy.random.Generator`` of the fake: every draw is a fake ``cupy.ndarray``."""

    __module__ = "cupy.random"

    def __init__(self, bit_generator: Any) -> None:
        self._generator = np.random.Generator(bit_generator)

    @property
    def bit_generator(self) -> Any:
        """The NumPy bit generator behind the draws."""
        return self._generator.bit_generator

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        method = getattr(self._generator, name)
        func = f"cupy.random.Generator.{name}"

        def draw(*args: Any, **kwargs: Any) -> Any:
            return wrap(
                method(*unwrap(list(args), func), **{k: unwrap(v, func) for k, v in kwargs.items()})
            )

        draw.__name__ = name
        return draw

    def __repr__(self) -> str:
        return f"Generator({type(self.bit_generator).__name__}) (fake CuPy)"


def default_rng(seed: Any = None) -> Generator:
    """A fake-device generator seeded as ``numpy.random.default_rng(seed)`` would be."""
    if isinstance(seed, Generator):
        return seed
    return Generator(np.random.PCG64(seed))


def make_random(forwarder: Any, module_type: type[types.ModuleType]) -> types.ModuleType:
    """The ``cupy.random`` module; ``forwarder(function, name)`` wraps NumPy's functions."""
    module = module_type("cupy.random")  # FakeCupy: its package imports this module
    for attr in dir(np.random):
        value = getattr(np.random, attr)
        if not attr.startswith("_") and callable(value) and not isinstance(value, type):
            setattr(module, attr, forwarder(value, f"cupy.random.{attr}"))
    module.default_rng = default_rng  # type: ignore[attr-defined]
    module.Generator = Generator  # type: ignore[attr-defined]
    return module
