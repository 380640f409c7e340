"""Philox4x32-10, the counter-based generator of Random123, on NumPy and CuPy alike.

Every number is a pure function of a 64-bit key (the seed) and a 128-bit counter (the
stream and the draw index): no state, nothing that depends on how the work is split.
The rounds use only unsigned 64-bit multiplication, shifts, masks and xor of whole
arrays, which NumPy and CuPy compute exactly, so the words, and the uniform numbers
made of them, are bit-identical on both backends.
"""

from __future__ import annotations

import contextlib
import operator
from typing import Any

import numpy as np

from .._backend_choice._config import get_backend
from .._namespaces._array_predicates import is_numpy_array
from .._namespaces._data_library import library_of

__all__ = [
    "philox4x32_10",
    "philox_normal",
    "philox_normal2",
    "philox_uniform",
    "philox_uniform2",
]

# The round multipliers and the Weyl key increments of Philox4x32 (Salmon et al., SC11).
_MULTIPLIERS = (0xD2511F53, 0xCD9E8D57)
_KEY_STEPS = (0x9E3779B9, 0xBB67AE85)
_LOW32 = 0xFFFFFFFF
_ROUNDS = 10
_TWO_TO_MINUS_53 = 2.0**-53


def _library(*values: Any, func: str) -> tuple[Any, contextlib.AbstractContextManager[Any]]:
    """The library of the arrays among `values`; with none, the current backend's.

    Compute follows data, and with only Python integers the current backend computes,
    so on the CuPy backend the numbers are made on the current GPU (as in 0.7.1).
    """
    lib, on_gpu = library_of(*values, func=func)
    if lib is np and get_backend() == "cupy" and not any(is_numpy_array(v) for v in values):
        from .._settings._cupy_probe import require_cupy

        cupy = require_cupy(func)
        return cupy, cupy.cuda.Device()
    return lib, on_gpu


def _words(lib: Any, value: Any, name: str, func: str, limit: int) -> Any:
    """``value`` as uint64 data of ``lib``: a Python int in ``[0, limit)`` or an integer array."""
    if isinstance(value, bool) or not hasattr(value, "dtype"):
        try:
            index = operator.index(value)
        except TypeError:
            data = lib.asarray(value)
            if data.dtype.kind not in "iu":
                msg = f"{func}: `{name}` must be integers, not {value!r}."
                raise TypeError(msg) from None
            return data.astype(lib.uint64)
        if isinstance(value, bool) or not 0 <= index < limit:
            msg = f"{func}: `{name}` must be an integer in [0, {limit:#x}], not {value!r}."
            raise ValueError(msg)
        return lib.asarray(index, dtype=lib.uint64)
    if value.dtype.kind not in "iu":
        msg = f"{func}: `{name}` must have an integer dtype, not {value.dtype}."
        raise TypeError(msg)
    # signed arrays wrap modulo 2**64, as a cast in C does
    return lib.asarray(value).astype(lib.uint64)


def _rounds(lib: Any, c0: Any, c1: Any, c2: Any, c3: Any, k0: Any, k1: Any) -> tuple[Any, ...]:
    """The ten Philox rounds on uint64 arrays that hold 32-bit words."""
    low, shift = lib.uint64(_LOW32), lib.uint64(32)
    m0, m1 = lib.uint64(_MULTIPLIERS[0]), lib.uint64(_MULTIPLIERS[1])
    step0, step1 = lib.uint64(_KEY_STEPS[0]), lib.uint64(_KEY_STEPS[1])
    for _ in range(_ROUNDS):
        # products of two 32-bit words fit 64 bits exactly
        product0 = m0 * c0
        product1 = m1 * c2
        c0, c1, c2, c3 = (
            (product1 >> shift) ^ c1 ^ k0,
            product1 & low,
            (product0 >> shift) ^ c3 ^ k1,
            product0 & low,
        )
        k0 = (k0 + step0) & low
        k1 = (k1 + step1) & low
    return c0, c1, c2, c3


def philox4x32_10(counter: Any, key0: Any, key1: Any) -> Any:
    """Return the Philox4x32-10 words of 128-bit counters under a 64-bit key.

    The raw generator of Random123 (ten rounds), which passes its published
    known-answer tests. Computed with whole-array integer operations, so NumPy and CuPy
    give the same words.

    Parameters
    ----------
    counter : array of integers, shape (..., 4)
        The four 32-bit counter words ``(c0, c1, c2, c3)``; only the low 32 bits of each
        entry count.
    key0, key1 : int or array of integers
        The two 32-bit key words (low 32 bits used), broadcast against
        ``counter[..., 0]``.

    Returns
    -------
    array of uint32, shape (..., 4)
        The four random words, on the backend of the arrays among the arguments (the
        current backend when there are none: on CuPy, the current GPU).

    Raises
    ------
    TypeError
        If an argument is not integer data, or NumPy and CuPy arrays are mixed.
    ValueError
        If `counter`'s last axis does not have length 4, or a Python int key is
        negative or wider than 32 bits.

    See Also
    --------
    philox_uniform2 : Uniform doubles from (seed, stream, counter).

    Examples
    --------
    >>> import numpy as np
    >>> import cunumpy as xp
    >>> words = xp.rng.philox4x32_10(np.zeros(4, dtype=np.uint32), 0, 0)
    >>> [f"{w:08x}" for w in words.tolist()]
    ['6627e8d5', 'e169c58d', 'bc57ac4c', '9b00dbd8']
    """
    func = "philox4x32_10"
    lib, on_gpu = _library(counter, key0, key1, func=func)
    with on_gpu:
        words = _words(lib, counter, "counter", func, 2**32)
        if words.ndim == 0 or words.shape[-1] != 4:
            msg = f"{func}: `counter` must have shape (..., 4), not {tuple(words.shape)!r}."
            raise ValueError(msg)
        low = lib.uint64(_LOW32)
        k0 = _words(lib, key0, "key0", func, 2**32) & low
        k1 = _words(lib, key1, "key1", func, 2**32) & low
        c0, c1, c2, c3 = (words[..., i] & low for i in range(4))
        out = _rounds(lib, c0, c1, c2, c3, k0, k1)
        return lib.stack(lib.broadcast_arrays(*out), axis=-1).astype(lib.uint32)


def _draw(seed: Any, stream: Any, counter: Any, func: str) -> tuple[Any, Any, Any, Any, Any]:
    """``(library, r0, r1, r2, r3)``: the words for key `seed` and counter ``(counter, stream)``."""
    lib, on_gpu = _library(seed, stream, counter, func=func)
    with on_gpu:
        seed = _words(lib, seed, "seed", func, 2**64)
        stream = _words(lib, stream, "stream", func, 2**64)
        counter = _words(lib, counter, "counter", func, 2**64)
        seed, stream, counter = lib.broadcast_arrays(seed, stream, counter)
        low, shift = lib.uint64(_LOW32), lib.uint64(32)
        # counter words: the draw index (low, high), then the stream (low, high)
        words = _rounds(
            lib,
            counter & low,
            counter >> shift,
            stream & low,
            stream >> shift,
            seed & low,
            seed >> shift,
        )
        return (lib, *words)


def _unit_interval(lib: Any, high: Any, low: Any) -> Any:
    """The top 53 bits of the 64-bit word ``high:low`` as a double in [0, 1)."""
    bits = ((high << lib.uint64(32)) | low) >> lib.uint64(11)
    return bits.astype(lib.float64) * _TWO_TO_MINUS_53


def philox_uniform2(seed: Any, stream: Any, counter: Any) -> tuple[Any, Any]:
    """Return two uniform doubles in [0, 1) per (seed, stream, counter).

    One Philox4x32-10 block with key `seed` and counter ``(counter, stream)`` (each as
    two 32-bit words, low word first); words 0 and 1 make the first number and words 2
    and 3 the second, each from the top 53 bits of its 64-bit word. The numbers are the
    same on NumPy and CuPy, bit for bit. Use a new `counter` for every random decision
    of a step, and a `stream` per particle or task.

    Parameters
    ----------
    seed : int or array of integers
        The key, 64 bits.
    stream : int or array of integers
        The stream, e.g. a particle id (64 bits).
    counter : int or array of integers
        The draw index, e.g. the time step (64 bits).

    Returns
    -------
    u0, u1 : array of float64
        Broadcast to the shape of the arguments, on the backend of the arrays among them
        (with only Python ints: NumPy ``float64`` scalars on the NumPy backend, 0-d arrays
        on the current GPU on the CuPy backend).

    Raises
    ------
    TypeError
        If an argument is not integer data, or NumPy and CuPy arrays are mixed.
    ValueError
        If a Python int argument is negative or wider than 64 bits.

    See Also
    --------
    philox_uniform : The first of the two numbers.
    philox_normal2 : Normal numbers from the same block.

    Examples
    --------
    >>> import cunumpy as xp
    >>> ids = xp.arange(3, dtype=xp.uint64)  # one stream per particle
    >>> u0, u1 = xp.rng.philox_uniform2(42, ids, 0)
    >>> u0
    array([0.61295988, 0.01005884, 0.3984137 ])
    """
    lib, r0, r1, r2, r3 = _draw(seed, stream, counter, "philox_uniform2")
    return _unit_interval(lib, r0, r1), _unit_interval(lib, r2, r3)


def philox_uniform(seed: Any, stream: Any, counter: Any) -> Any:
    """Return one uniform double in [0, 1) per (seed, stream, counter).

    The first number of :func:`philox_uniform2`; the same on NumPy and CuPy, bit for
    bit.

    Parameters
    ----------
    seed : int or array of integers
        The key, 64 bits.
    stream : int or array of integers
        The stream, e.g. a particle id.
    counter : int or array of integers
        The draw index, e.g. the time step.

    Returns
    -------
    array of float64
        Broadcast to the shape of the arguments, on their backend (the current one for
        Python ints).

    Examples
    --------
    >>> import cunumpy as xp
    >>> xp.rng.philox_uniform(42, xp.arange(3, dtype=xp.uint64), 0)
    array([0.61295988, 0.01005884, 0.3984137 ])
    """
    lib, r0, r1, _, _ = _draw(seed, stream, counter, "philox_uniform")
    return _unit_interval(lib, r0, r1)


def _box_muller(lib: Any, u0: Any, u1: Any) -> tuple[Any, Any]:
    # 1 - u0 is in (0, 1]: the logarithm is finite
    radius = lib.sqrt(-2.0 * lib.log(1.0 - u0))
    angle = (2.0 * lib.pi) * u1
    return radius * lib.cos(angle), radius * lib.sin(angle)


def philox_normal2(seed: Any, stream: Any, counter: Any) -> tuple[Any, Any]:
    """Return two standard normal doubles per (seed, stream, counter).

    The Box-Muller transform of :func:`philox_uniform2`: with ``r = sqrt(-2 log(1 -
    u0))`` and ``t = 2 pi u1``, the numbers ``r cos(t)`` and ``r sin(t)``. The uniform
    inputs are identical on NumPy and CuPy; the normal numbers can differ in the last
    bits, where the libraries' ``log``, ``sqrt``, ``cos`` and ``sin`` round differently.

    Parameters
    ----------
    seed : int or array of integers
        The key, 64 bits.
    stream : int or array of integers
        The stream, e.g. a particle id.
    counter : int or array of integers
        The draw index, e.g. the time step.

    Returns
    -------
    z0, z1 : array of float64
        Broadcast to the shape of the arguments, on their backend (the current one for
        Python ints).

    Examples
    --------
    >>> import cunumpy as xp
    >>> z0, z1 = xp.rng.philox_normal2(42, xp.arange(1000, dtype=xp.uint64), 0)
    >>> z0.shape, z0.dtype
    ((1000,), dtype('float64'))
    """
    u0, u1 = philox_uniform2(seed, stream, counter)
    lib, on_gpu = _library(u0, func="philox_normal2")
    with on_gpu:
        return _box_muller(lib, u0, u1)


def philox_normal(seed: Any, stream: Any, counter: Any) -> Any:
    """Return one standard normal double per (seed, stream, counter).

    The first number of :func:`philox_normal2`.

    Parameters
    ----------
    seed : int or array of integers
        The key, 64 bits.
    stream : int or array of integers
        The stream, e.g. a particle id.
    counter : int or array of integers
        The draw index, e.g. the time step.

    Returns
    -------
    array of float64
        Broadcast to the shape of the arguments, on their backend (the current one for
        Python ints).

    Examples
    --------
    >>> import cunumpy as xp
    >>> xp.rng.philox_normal(42, xp.arange(4, dtype=xp.uint64), 0).shape
    (4,)
    """
    return philox_normal2(seed, stream, counter)[0]
