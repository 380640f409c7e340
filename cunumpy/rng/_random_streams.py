"""Seeded generators per backend, with one independent stream per rank or task."""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from .._backend_choice._config import get_backend
from ._device_generator import with_numpy_methods

__all__ = ["BIT_GENERATORS", "RandomStreams", "get_rng", "random_streams"]

BIT_GENERATORS = ("MT19937", "PCG64", "PCG64DXSM", "Philox", "SFC64")
"""The NumPy bit generators that :meth:`RandomStreams.seed` accepts by name."""

# The last spawn-key word of each backend's generator, so the two never share a stream.
_BACKEND_WORDS = {"numpy": 0, "cupy": 1}

Size = int | tuple[int, ...] | None


def _cupy(func: str) -> Any:
    from .._settings._cupy_probe import require_cupy

    return require_cupy(func)


def _backend_name(backend: str | None, func: str) -> str:
    if backend is None:
        return get_backend()
    if backend not in _BACKEND_WORDS:
        msg = f"{func}: `backend` must be 'numpy', 'cupy' or None, not {backend!r}."
        raise ValueError(msg)
    return backend


class RandomStreams:
    """One seeded generator per backend for this process (or task), created on first use.

    ``seed(value, rank)`` selects the stream ``(value, rank)``: a NumPy
    :class:`~numpy.random.SeedSequence` with entropy `value` and spawn key ``(rank,)``.
    The same seed and rank give the same numbers on every run; different ranks (or task
    indices) give independent streams. The generator of each backend is the child
    ``(rank, 0)`` (NumPy) or ``(rank, 1)`` (CuPy) of that sequence. Without a seed the
    entropy comes from the operating system. :data:`random_streams` is the process-wide
    instance; every other instance is independent of it.

    See Also
    --------
    get_rng : A new generator for the current backend, not shared.

    Examples
    --------
    >>> import cunumpy as xp
    >>> streams = xp.rng.RandomStreams()
    >>> streams.seed(42, rank=1)
    >>> streams
    RandomStreams(entropy=42, spawn_key=(1,), bit_generator='PCG64')
    >>> streams.uniform(0.0, 1.0, 3)
    array([0.57002868, 0.9724905 , 0.50377011])
    """

    def __init__(self) -> None:
        self._sequence: np.random.SeedSequence | None = None
        self._bit_generator = "PCG64"
        self._generators: dict[str, Any] = {}

    def __repr__(self) -> str:
        if self._sequence is None:
            return "RandomStreams(not seeded)"
        return (
            f"RandomStreams(entropy={self._sequence.entropy}, "
            f"spawn_key={self._sequence.spawn_key}, bit_generator={self._bit_generator!r})"
        )

    def seed(self, value: int | None, rank: int = 0, bit_generator: str | None = None) -> None:
        """Draw from the stream ``(value, rank)`` from now on, on every backend.

        The generators of both backends are replaced. NumPy's global random state (and
        CuPy's, on the CuPy backend) is seeded from the same stream too, for code that
        calls ``numpy.random.*`` directly.

        Parameters
        ----------
        value : int or None
            The seed, a non-negative integer; None takes entropy from the operating
            system.
        rank : int, optional
            The MPI rank of this process, or the index of a task: each gets an
            independent stream.
        bit_generator : str, optional
            The NumPy bit generator, one of :data:`BIT_GENERATORS` (``"PCG64"`` by
            default). CuPy uses its own default.

        Raises
        ------
        ValueError
            For an unknown `bit_generator`, or a negative `value` or `rank`.
        TypeError
            If `value` or `rank` is not an integer.

        Examples
        --------
        >>> import cunumpy as xp
        >>> streams = xp.rng.RandomStreams()
        >>> streams.seed(7, rank=0, bit_generator="Philox")
        >>> streams
        RandomStreams(entropy=7, spawn_key=(0,), bit_generator='Philox')
        """
        if bit_generator is not None and bit_generator not in BIT_GENERATORS:
            msg = (
                f"RandomStreams.seed: unknown `bit_generator` {bit_generator!r}; "
                f"use one of {BIT_GENERATORS!r}."
            )
            raise ValueError(msg)
        entropy = None if value is None else operator.index(value)
        rank = operator.index(rank)
        if (entropy is not None and entropy < 0) or rank < 0:
            msg = f"RandomStreams.seed: `value` and `rank` must be non-negative, not {value!r}, {rank!r}."
            raise ValueError(msg)
        self._bit_generator = bit_generator or "PCG64"
        self._sequence = np.random.SeedSequence(entropy=entropy, spawn_key=(rank,))
        self._generators.clear()
        legacy_seed = int(self._sequence.generate_state(1)[0])
        np.random.seed(legacy_seed)  # noqa: NPY002 (documented: seeds the global state too)
        if get_backend() == "cupy":
            _cupy("RandomStreams.seed").random.seed(legacy_seed)

    def _child(self, backend: str) -> np.random.SeedSequence:
        if self._sequence is None:
            self._sequence = np.random.SeedSequence()
        return np.random.SeedSequence(
            entropy=self._sequence.entropy,
            spawn_key=(*self._sequence.spawn_key, _BACKEND_WORDS[backend]),
        )

    def generator(self, backend: str | None = None) -> Any:
        """Return this object's generator of a backend, created on first use.

        Parameters
        ----------
        backend : {"numpy", "cupy"}, optional
            The backend; the current one by default.

        Returns
        -------
        numpy.random.Generator or cupy.random.Generator
            The shared generator of this stream and backend.

        Raises
        ------
        ValueError
            For a `backend` other than ``"numpy"``, ``"cupy"`` or None.
        RuntimeError
            For ``"cupy"`` when CuPy is not usable (the message says why).

        Examples
        --------
        >>> import cunumpy as xp
        >>> streams = xp.rng.RandomStreams()
        >>> streams.seed(1)
        >>> streams.generator() is streams.generator("numpy")
        True
        """
        name = _backend_name(backend, "RandomStreams.generator")
        if name not in self._generators:
            child = self._child(name)
            if name == "numpy":
                bits = getattr(np.random, self._bit_generator)(child)
                self._generators[name] = np.random.Generator(bits)
            else:
                cupy = _cupy("RandomStreams.generator")
                state = int(child.generate_state(1, dtype=np.uint64)[0])
                self._generators[name] = with_numpy_methods(cupy.random.default_rng(state))
        return self._generators[name]

    def make_generator(self, seed: int | None = None, backend: str | None = None) -> Any:
        """Return a component's generator: a new one for its own `seed`, else the shared one.

        Parameters
        ----------
        seed : int, optional
            The component's own seed; None returns :meth:`generator`.
        backend : {"numpy", "cupy"}, optional
            ``"numpy"`` for a component that draws on the host whatever the backend; the
            current backend by default.

        Returns
        -------
        numpy.random.Generator or cupy.random.Generator
            ``default_rng(seed)`` of the backend, or the shared generator.

        Examples
        --------
        >>> import cunumpy as xp
        >>> xp.rng.RandomStreams().make_generator(3).integers(10, size=3)
        array([8, 0, 1])
        """
        if seed is None:
            return self.generator(backend)
        name = _backend_name(backend, "RandomStreams.make_generator")
        if name == "numpy":
            return np.random.default_rng(operator.index(seed))
        cupy = _cupy("RandomStreams.make_generator")
        return with_numpy_methods(cupy.random.default_rng(operator.index(seed)))

    def _rng(self, rng: Any) -> Any:
        return self.generator() if rng is None else rng

    def random(self, size: Size = None, rng: Any = None) -> Any:
        """Draw uniform samples in [0, 1).

        Parameters
        ----------
        size : int or tuple of int, optional
            The output shape; None gives one number.
        rng : Generator, optional
            The generator to draw from; this object's generator of the current backend
            by default.

        Returns
        -------
        array or float
            On the backend of the generator.

        Examples
        --------
        >>> import cunumpy as xp
        >>> streams = xp.rng.RandomStreams()
        >>> streams.seed(42, rank=1)
        >>> streams.random(2).shape
        (2,)
        """
        return self._rng(rng).random(size=size)

    def standard_normal(self, size: Size = None, rng: Any = None) -> Any:
        """Draw standard normal samples.

        Parameters
        ----------
        size : int or tuple of int, optional
            The output shape; None gives one number.
        rng : Generator, optional
            The generator to draw from; this object's by default.

        Returns
        -------
        array or float
            On the backend of the generator.

        Examples
        --------
        >>> import cunumpy as xp
        >>> xp.rng.RandomStreams().standard_normal((2, 3)).shape
        (2, 3)
        """
        return self._rng(rng).standard_normal(size=size)

    def normal(self, loc: Any = 0.0, scale: Any = 1.0, size: Size = None, rng: Any = None) -> Any:
        """Draw normal samples (from ``standard_normal`` where a generator lacks ``normal``).

        Parameters
        ----------
        loc : float or array, optional
            The mean.
        scale : float or array, optional
            The standard deviation.
        size : int or tuple of int, optional
            The output shape; None gives one number (or the broadcast shape of `loc`
            and `scale`).
        rng : Generator, optional
            The generator to draw from; this object's by default.

        Returns
        -------
        array or float
            On the backend of the generator.

        Examples
        --------
        >>> import cunumpy as xp
        >>> xp.rng.RandomStreams().normal(0.0, 2.0, (1000, 3)).shape
        (1000, 3)
        """
        generator = self._rng(rng)
        if hasattr(generator, "normal"):
            return generator.normal(loc=loc, scale=scale, size=size)
        return loc + scale * generator.standard_normal(size=size)

    def uniform(self, low: Any = 0.0, high: Any = 1.0, size: Size = None, rng: Any = None) -> Any:
        """Draw uniform samples in [low, high) (from ``random`` where a generator lacks ``uniform``).

        Parameters
        ----------
        low, high : float or array, optional
            The bounds, 0 and 1 by default.
        size : int or tuple of int, optional
            The output shape; None gives one number.
        rng : Generator, optional
            The generator to draw from; this object's by default.

        Returns
        -------
        array or float
            On the backend of the generator.

        Examples
        --------
        >>> import cunumpy as xp
        >>> streams = xp.rng.RandomStreams()
        >>> streams.seed(42, rank=1)
        >>> streams.uniform(0.0, 1.0, 3)
        array([0.57002868, 0.9724905 , 0.50377011])
        """
        generator = self._rng(rng)
        if hasattr(generator, "uniform"):
            return generator.uniform(low=low, high=high, size=size)
        return low + (high - low) * generator.random(size=size)


random_streams = RandomStreams()
"""The random streams of this process: seed them once, e.g. with the MPI rank."""


def get_rng(seed: int | None = None) -> Any:
    """Return a new random generator of the current backend.

    ``numpy.random.default_rng(seed)`` on the NumPy backend and
    ``cupy.random.default_rng(seed)`` on the CuPy backend. The two libraries' generators
    have similar methods, but the same seed gives different numbers on each: for data
    that must be the same on both, draw on the host and move it, or use the ``philox_*``
    functions.

    Parameters
    ----------
    seed : int, optional
        The seed; None takes entropy from the operating system.

    Returns
    -------
    numpy.random.Generator or cupy.random.Generator
        A generator independent of :data:`random_streams`.

    Raises
    ------
    RuntimeError
        On the CuPy backend when CuPy is not usable.
    ValueError
        If ``seed`` is a negative int.
    TypeError
        If ``seed`` is not a seed the backend's ``default_rng`` takes.

    Examples
    --------
    >>> import cunumpy as xp
    >>> xp.rng.get_rng(seed=7).random(2)
    array([0.62509547, 0.8972138 ])
    """
    library = _cupy("get_rng") if get_backend() == "cupy" else np
    try:
        return with_numpy_methods(library.random.default_rng(seed))
    except (TypeError, ValueError) as exc:
        kind = ValueError if isinstance(seed, (int, np.integer)) else TypeError
        msg = (
            f"get_rng: `seed` must be None or a non-negative int (or another seed that "
            f"{library.__name__}.random.default_rng takes), not {seed!r} ({exc})."
        )
        raise kind(msg) from exc
