"""Buffers for ``cunumpy.mpi``: collective input checks and CuPy staging.

Every collective first gathers a tiny description of each rank's input (an error found
locally, backend, dtype, shape, and the arguments that must agree such as ``root`` or
``op``) with one pickled ``allgather``. Every rank then reaches the same verdict and
raises the same exception, so bad input never makes MPI hang or write out of bounds.

A ``Staging`` object tells how one rank hands memory to MPI: NumPy arrays and CuPy
arrays under CUDA-aware MPI go directly (after synchronizing the GPU); CuPy arrays under
other MPI libraries are copied through pinned host memory.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from .. import _config
from .._cupy import require_cupy
from .._namespace import is_cupy_array
from ._env import is_cuda_aware

__all__ = [
    "Meta",
    "Staging",
    "as_array",
    "check_collective",
    "describe",
    "raise_same",
    "same",
]

_EXCEPTIONS: dict[str, type[Exception]] = {
    "TypeError": TypeError,
    "ValueError": ValueError,
    "RuntimeError": RuntimeError,
}

# dtype kinds MPI can move: bool, signed/unsigned integers, floats, complex.
_MOVABLE_KINDS = "biufc"


class Meta(NamedTuple):
    """What one rank says about its input; picklable, compared across ranks."""

    error: tuple[str, str] | None  # (exception class name, message) found locally
    backend: str | None  # "numpy", "cupy", or None when the rank passed None
    dtype: str | None
    shape: tuple[int, ...] | None
    agree: tuple[Any, ...] = ()  # arguments that must be equal on all ranks (root, op)


def as_array(x: Any) -> Any:
    """Return NumPy scalars (what NumPy reductions return) as 0-D arrays; else ``x``."""
    return np.asarray(x) if isinstance(x, np.generic) else x


def describe(x: Any, name: str, *, allow_none: bool = False, agree: tuple[Any, ...] = ()) -> Meta:
    """Describe ``x`` (argument ``name``) for ``check_collective``; never raises."""
    if x is None and allow_none:
        return Meta(None, None, None, None, agree)
    if isinstance(x, np.ndarray):
        backend = "numpy"
        contiguous = bool(x.flags.c_contiguous)
    elif is_cupy_array(x):
        backend = "cupy"
        contiguous = bool(x.flags.c_contiguous)
    else:
        accepted = "a NumPy or CuPy array" + (" or None" if allow_none else "")
        error = ("TypeError", f"`{name}` must be {accepted}, not {_short(x)}")
        return Meta(error, None, None, None, agree)
    dtype = np.dtype(x.dtype)
    if dtype.kind not in _MOVABLE_KINDS:
        error = (
            "TypeError",
            f"`{name}` has dtype {str(dtype)!r}; MPI transfers accept bool, integer, "
            f"floating-point and complex dtypes",
        )
        return Meta(error, backend, dtype.str, tuple(x.shape), agree)
    if not contiguous:
        error = (
            "ValueError",
            f"`{name}` (shape {tuple(x.shape)!r}, strides {tuple(x.strides)!r}) is not "
            f"C-contiguous; MPI reads raw memory, so pass a contiguous copy "
            f"(numpy.ascontiguousarray or cupy.ascontiguousarray)",
        )
        return Meta(error, backend, dtype.str, tuple(x.shape), agree)
    return Meta(None, backend, dtype.str, tuple(int(n) for n in x.shape), agree)


def _short(x: Any) -> str:
    text = repr(x)
    if len(text) > 60:
        text = text[:57] + "..."
    return f"{text} of type {type(x).__module__}.{type(x).__qualname__}"


def raise_same(func: str, kind: str, message: str) -> None:
    """Raise exception ``kind`` (a class name) with ``func: message.``."""
    raise _EXCEPTIONS[kind](f"{func}: {message}.")


def check_collective(comm: Any, func: str, local: Meta) -> list[Meta]:
    """Gather every rank's ``Meta``; raise the same error on every rank when any is bad."""
    metas: list[Meta] = comm.allgather(local)
    for rank, meta in enumerate(metas):
        if meta.error is not None:
            kind, message = meta.error
            where = "" if comm.Get_size() == 1 else f"on rank {rank}, "
            raise_same(func, kind, where + message)
    agreed = {meta.agree for meta in metas}
    if len(agreed) > 1:
        values = [meta.agree for meta in metas]
        raise_same(
            func,
            "ValueError",
            f"the arguments that must be equal on every rank differ: {values!r} by rank",
        )
    backends = {meta.backend for meta in metas if meta.backend is not None}
    if len(backends) > 1:
        per_rank = [meta.backend for meta in metas]
        raise_same(
            func,
            "TypeError",
            f"the ranks pass arrays of different backends ({per_rank!r} by rank); pass "
            f"NumPy arrays on every rank or CuPy arrays on every rank",
        )
    return metas


def same(func: str, metas: list[Meta], field: str, what: str, ranks: list[int]) -> None:
    """Raise on every rank unless ``field`` ('dtype' or 'shape') is equal on ``ranks``."""
    values = [getattr(metas[r], field) for r in ranks]
    if len(set(values)) > 1:
        shown = {r: (str(np.dtype(v)) if field == "dtype" else v) for r, v in zip(ranks, values)}
        kind = "TypeError" if field == "dtype" else "ValueError"
        raise_same(func, kind, f"{what} must have the same {field} on every rank, got {shown!r}")


class Staging:
    """How this rank hands arrays of one backend and device to MPI."""

    __slots__ = ("backend", "cupy", "device_id", "direct")

    def __init__(self, backend: str, device_id: int | None, func: str) -> None:
        self.backend = backend
        self.device_id = device_id
        self.cupy: Any = None
        self.direct = True
        if backend == "cupy":
            self.cupy = require_cupy(func)
            self.direct = is_cuda_aware().aware
            if self.device_id is None:
                self.device_id = int(self.cupy.cuda.runtime.getDevice())

    @classmethod
    def for_array(cls, x: Any, func: str) -> Staging:
        """The staging for ``x`` (a checked NumPy or CuPy array)."""
        if isinstance(x, np.ndarray):
            return cls("numpy", None, func)
        return cls("cupy", int(x.device.id), func)

    @classmethod
    def for_current_backend(cls, func: str) -> Staging:
        """The staging for new arrays of the current backend, on the current GPU."""
        return cls(_config.get_backend(), None, func)

    def synchronize(self) -> None:
        """Wait until all queued GPU work on this device is done (no-op on NumPy)."""
        if self.cupy is not None:
            self.cupy.cuda.Device(self.device_id).synchronize()

    def outgoing(self, x: Any) -> Any:
        """Return memory MPI may read with the contents of ``x``."""
        if self.cupy is None or self.direct:
            return x
        import cupyx

        host = cupyx.empty_pinned(x.shape, dtype=x.dtype)
        with self.cupy.cuda.Device(self.device_id):
            x.get(out=host)
        return host

    def incoming(self, shape: tuple[int, ...], dtype: Any) -> tuple[Any, Any]:
        """Return ``(buffer MPI writes, array returned to the user)`` for a new result."""
        if self.cupy is None:
            result = np.empty(shape, dtype=dtype)
            return result, result
        with self.cupy.cuda.Device(self.device_id):
            result = self.cupy.empty(shape, dtype=dtype)
        if self.direct:
            return result, result
        import cupyx

        return cupyx.empty_pinned(shape, dtype=dtype), result

    def into(self, out: Any) -> Any:
        """Return the buffer MPI writes for the existing array ``out``."""
        if self.cupy is None or self.direct:
            return out
        import cupyx

        return cupyx.empty_pinned(out.shape, dtype=out.dtype)

    def finish(self, buffer: Any, result: Any) -> None:
        """Copy a staged ``buffer`` into ``result`` on the GPU (no-op when direct)."""
        if self.cupy is None or self.direct or buffer is result:
            return
        with self.cupy.cuda.Device(self.device_id):
            result.set(buffer)
            self.cupy.cuda.get_current_stream().synchronize()
