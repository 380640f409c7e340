"""CUDA debug mode, and the shared-memory and vendor facts kernels are planned with.

Debug mode: a :class:`~cunumpy.kernels.CudaKernel` compiles with :data:`DEBUG_OPTIONS`
(line information, bounds checks in the array views) and synchronizes after every
launch, so that an asynchronous CUDA error is raised at the kernel that caused it, as a
``RuntimeError`` naming the kernel and its launch shape. The setting has the two layers
of the backend (see ``cunumpy._backend_choice._config``): a process default (``set_cuda_debug``, and
``CUNUMPY_CUDA_DEBUG`` read once, at import) and a context-local override
(``cuda_debug()``) that threads and asyncio tasks each see on their own.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from .._settings._cupy_probe import cupy_available

__all__ = [
    "DEBUG_OPTIONS",
    "DEFAULT_SHARED_MEMORY_PER_BLOCK",
    "cuda_debug",
    "get_cuda_debug",
    "is_hip",
    "max_shared_memory_per_block",
    "set_cuda_debug",
]

#: Compiler options added in debug mode: ``-lineinfo`` (for compute-sanitizer and
#: Nsight) and ``-DCUNUMPY_BOUNDS_CHECK`` (index checks in ``cunumpy/array_view.cuh``).
DEBUG_OPTIONS = ("-lineinfo", "-DCUNUMPY_BOUNDS_CHECK")

#: Shared memory per block every CUDA device offers without opting in (48 KiB), and
#: what :func:`max_shared_memory_per_block` answers without a GPU.
DEFAULT_SHARED_MEMORY_PER_BLOCK = 48 * 1024

_ENV_VAR = "CUNUMPY_CUDA_DEBUG"
_ON = ("1", "true", "yes", "on")
_OFF = ("", "0", "false", "no", "off")


def _from_env() -> bool:
    value = os.environ.get(_ENV_VAR, "").strip().lower()
    if value in _ON or value in _OFF:
        return value in _ON
    msg = f"{_ENV_VAR}={value!r} is not a switch; set it to one of {_ON} or {_OFF}."
    raise ValueError(msg)


_process_default = _from_env()
_override: ContextVar[bool | None] = ContextVar("cunumpy_cuda_debug", default=None)


def _check_switch(value: object, func: str) -> bool:
    if not isinstance(value, bool):
        msg = f"{func}: `enabled` must be True or False, not {value!r}."
        raise TypeError(msg)
    return value


def set_cuda_debug(enabled: bool) -> None:
    """Switch the CUDA debug mode on or off for the process.

    Kernels created with ``debug=None`` (the default) follow it at every launch; their
    compile options are fixed when they are compiled. A ``cuda_debug()`` block in
    effect overrides it. Initially set from ``CUNUMPY_CUDA_DEBUG`` (``1``, ``true``,
    ``yes``, ``on``).

    Parameters
    ----------
    enabled : bool
        Whether debug mode is on.

    Raises
    ------
    TypeError
        If ``enabled`` is not a bool.

    Examples
    --------
    >>> from cunumpy import cuda
    >>> cuda.set_cuda_debug(True)
    >>> cuda.get_cuda_debug()
    True
    >>> cuda.set_cuda_debug(False)
    """
    global _process_default
    _process_default = _check_switch(enabled, "set_cuda_debug")


def get_cuda_debug() -> bool:
    """Whether the CUDA debug mode is on here (a ``cuda_debug()`` block, else the process).

    Returns
    -------
    bool
        The setting.

    Examples
    --------
    >>> from cunumpy import cuda
    >>> cuda.get_cuda_debug()
    False
    """
    local = _override.get()
    return _process_default if local is None else local


@contextmanager
def cuda_debug(enabled: bool = True) -> Iterator[None]:
    """Debug mode on (or off) inside a ``with`` block, for this thread or task only.

    Parameters
    ----------
    enabled : bool, default True
        The setting inside the block.

    Yields
    ------
    None

    Examples
    --------
    >>> from cunumpy import cuda
    >>> with cuda.cuda_debug():
    ...     cuda.get_cuda_debug()
    True
    >>> cuda.get_cuda_debug()
    False
    """
    token = _override.set(_check_switch(enabled, "cuda_debug"))
    try:
        yield
    finally:
        _override.reset(token)


def is_hip() -> bool:
    """Whether the usable CuPy is a ROCm/HIP build (False without a usable CuPy).

    Returns
    -------
    bool
        True for HIP, False for CUDA or without a GPU.

    Examples
    --------
    >>> from cunumpy import cuda
    >>> cuda.is_hip()  # a CUDA build, or no GPU
    False
    """
    if not cupy_available():
        return False
    import cupy

    return bool(getattr(cupy.cuda.runtime, "is_hip", False))


def max_shared_memory_per_block(device: int | None = None, *, opt_in: bool = False) -> int:
    """The bytes of shared memory one block may use on a GPU.

    Parameters
    ----------
    device : int, optional
        The GPU's index; the current GPU by default.
    opt_in : bool, default False
        The larger limit a kernel may opt in to on recent GPUs (``CudaKernel`` opts in
        when a launch asks for more ``shared_mem``).

    Returns
    -------
    int
        The limit in bytes; :data:`DEFAULT_SHARED_MEMORY_PER_BLOCK` without a usable
        CuPy, so that code choosing a strategy runs everywhere.

    Raises
    ------
    TypeError
        If ``device`` is not an int or None.

    Examples
    --------
    >>> from cunumpy import cuda
    >>> cuda.max_shared_memory_per_block()  # without a GPU
    49152
    """
    if device is not None and (isinstance(device, bool) or not isinstance(device, int)):
        msg = f"max_shared_memory_per_block: `device` must be a GPU index or None, not {device!r}."
        raise TypeError(msg)
    if not cupy_available():
        return DEFAULT_SHARED_MEMORY_PER_BLOCK
    import cupy

    index = cupy.cuda.runtime.getDevice() if device is None else device
    properties = cupy.cuda.runtime.getDeviceProperties(index)
    base = int(properties.get("sharedMemPerBlock", 0)) or DEFAULT_SHARED_MEMORY_PER_BLOCK
    if not opt_in:
        return base
    return max(base, int(properties.get("sharedMemPerBlockOptin", 0)))
