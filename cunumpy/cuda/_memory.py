"""Device memory: what a GPU has free, what CuPy's pools hold, and giving it back."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any

from .._backend_choice._config import get_backend
from .._placement._devices import canonical_device
from .._settings._cupy_probe import imported_cupy, loaded_cupy, require_cupy, visible_gpu_count

__all__ = ["MemoryStats", "free_memory", "loaded_cupy", "memory_info", "memory_stats", "target_gpu"]


def target_gpu(device: Any, func: str) -> int | None:
    """Return the GPU index ``device`` names, or ``None`` when no GPU is meant.

    ``None`` means the current GPU whenever CuPy holds work: on the CuPy backend, and on
    the NumPy backend once CuPy has a CUDA context on the current GPU (CuPy arrays may
    exist there, since compute follows data); otherwise nothing, without importing CuPy
    or creating a context. ``"cpu"``
    means nothing. Any GPU form is validated by ``canonical_device`` (``RuntimeError``
    when CuPy is not usable).
    """
    if device is None:
        if get_backend() != "cupy":
            cupy = loaded_cupy()
            return None if cupy is None else int(cupy.cuda.runtime.getDevice())
        return int(require_cupy(func).cuda.runtime.getDevice())
    canonical = canonical_device(device, func)
    return None if canonical == "cpu" else canonical


@dataclass(frozen=True)
class MemoryStats:
    """What CuPy's default memory pools hold, as returned by ``memory_stats``.

    Attributes
    ----------
    used_bytes : int
        Bytes of the device pool in use by live arrays on that GPU.
    held_bytes : int
        Bytes the device pool holds on that GPU: in use plus cached for reuse. This is
        what ``nvidia-smi`` counts for CuPy (besides the CUDA context itself).
    pinned_free_blocks : int
        Cached, unused blocks of the pinned (page-locked host) pool; CuPy does not
        report the pinned pool's size in bytes.
    """

    used_bytes: int
    held_bytes: int
    pinned_free_blocks: int

    @property
    def cached_bytes(self) -> int:
        """Bytes held but not in use: what ``free_memory`` can give back to the driver."""
        return self.held_bytes - self.used_bytes


def memory_info(device: Any = None) -> tuple[int, int] | None:
    """Return ``(free_bytes, total_bytes)`` of a GPU, as the CUDA runtime sees it.

    The numbers describe the whole device: memory used by other processes and memory
    cached by CuPy's pool count as not free (see ``memory_stats`` for the pool).

    Parameters
    ----------
    device : device, optional
        An int GPU index, ``"cuda:N"``, ``"cuda"``, a ``cupy.cuda.Device``, an array's
        ``.device`` or ``"cpu"``. ``None`` means the current GPU whenever CuPy holds
        work: on the CuPy backend, and on the NumPy backend once CuPy has a CUDA context
        on the current GPU (GPU arrays made with ``device=`` live there too).

    Returns
    -------
    tuple of (int, int) or None
        Free and total bytes; ``None`` for ``"cpu"``, and for ``device=None`` on the
        NumPy backend while CuPy holds no work (not imported, which it is not then either,
        or without a CUDA context on the current GPU, which is not created).

    Raises
    ------
    TypeError
        If ``device`` is not a device.
    ValueError
        If ``device`` is malformed or not a visible GPU.
    RuntimeError
        If a GPU is asked for and CuPy is not usable; the message gives the reason.

    Examples
    --------
    >>> import cunumpy.cuda as cuda
    >>> cuda.memory_info("cpu") is None
    True
    >>> info = cuda.memory_info()
    >>> info is None or info[0] <= info[1]
    True
    """
    index = target_gpu(device, "memory_info")
    if index is None:
        return None
    cupy = sys.modules["cupy"]
    with cupy.cuda.Device(index):
        free, total = cupy.cuda.runtime.memGetInfo()
    return int(free), int(total)


def memory_stats(device: Any = None) -> MemoryStats | None:
    """Return what CuPy's default memory pools hold on a GPU.

    Parameters
    ----------
    device : device, optional
        As for ``memory_info``, ``None`` included.

    Returns
    -------
    MemoryStats or None
        ``used_bytes``, ``held_bytes`` (and ``cached_bytes``) of the device pool on that
        GPU, and ``pinned_free_blocks`` of the pinned pool; ``None`` where
        ``memory_info`` returns ``None`` (``"cpu"``, or ``None`` where no GPU work exists).
        Memory from a custom CuPy allocator is not counted.

    Raises
    ------
    TypeError, ValueError, RuntimeError
        As for ``memory_info``.

    Examples
    --------
    >>> import cunumpy.cuda as cuda
    >>> cuda.memory_stats("cpu") is None
    True
    >>> stats = cuda.memory_stats()
    >>> stats is None or stats.used_bytes <= stats.held_bytes
    True
    """
    index = target_gpu(device, "memory_stats")
    if index is None:
        return None
    cupy = sys.modules["cupy"]
    pool = cupy.get_default_memory_pool()
    with cupy.cuda.Device(index):
        used, held = int(pool.used_bytes()), int(pool.total_bytes())
    pinned = int(cupy.get_default_pinned_memory_pool().n_free_blocks())
    return MemoryStats(used_bytes=used, held_bytes=held, pinned_free_blocks=pinned)


def free_memory(device: Any = None) -> None:
    """Give the unused blocks cached by CuPy's memory pools back to the driver.

    Frees the cached blocks of CuPy's default device pool on one GPU (or, with
    ``device="all"``, on every visible GPU) and of the default pinned host pool. Memory
    of live arrays is never freed: drop the last reference to an array first. A cached
    block that CuPy split to serve a smaller array is released only once all its parts
    are free.

    Parameters
    ----------
    device : device or "all", optional
        As for ``memory_info``. ``None`` means the current GPU, and does nothing when
        CuPy has not been imported, is not usable or has no CUDA context on the current
        GPU (then it holds no memory there); it creates no CUDA context. ``"all"`` visits every visible GPU: one this process has not
        used yet gets a CUDA context (hundreds of MiB, and an error on a GPU in exclusive
        compute mode that another process holds), so an MPI rank bound to one GPU passes
        nothing. ``"cpu"`` does nothing.

    Raises
    ------
    TypeError, ValueError, RuntimeError
        As for ``memory_info``, for an explicit ``device``.

    Examples
    --------
    >>> import cunumpy.cuda as cuda
    >>> cuda.free_memory()
    >>> cuda.free_memory("cpu")
    >>> cuda.free_memory("all")  # every visible GPU; nothing where CuPy holds no memory
    """
    every = isinstance(device, str) and device.strip().lower() == "all"  # as "CUDA:0" is cuda:0
    if device is None or every:
        cupy = loaded_cupy() if device is None else imported_cupy()
        if cupy is None:
            return
        pool = cupy.get_default_memory_pool()
        if device is None:
            pool.free_all_blocks()  # the current GPU's pool; entering no device
        else:
            for gpu in range(visible_gpu_count()):
                with cupy.cuda.Device(gpu):
                    pool.free_all_blocks()
    else:
        try:
            index = target_gpu(device, "free_memory")
        except (TypeError, ValueError) as exc:
            if "; expected 'cpu'" not in str(exc):  # not a spelling: a GPU out of range
                raise
            msg = f"{str(exc)[:-1]}, or 'all' for every visible GPU."
            raise type(exc)(msg) from None
        if index is None:
            return
        cupy = sys.modules["cupy"]
        with cupy.cuda.Device(index):
            cupy.get_default_memory_pool().free_all_blocks()
    cupy.get_default_pinned_memory_pool().free_all_blocks()
