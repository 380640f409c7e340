"""Which GPU is current: count, query, select for the thread or for a ``with`` block."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from .._backend_choice._config import get_backend
from .._placement._devices import Canonical, canonical_device, cpu_or_cuda_request
from .._settings._cupy_probe import require_cupy, require_device, visible_gpu_count
from ._memory import loaded_cupy

__all__ = ["current_device", "device", "device_count", "set_device", "set_device_for_rank"]


def device_count() -> int:
    """Return the number of GPUs visible to this process, whatever the backend.

    Returns
    -------
    int
        The number of visible CUDA devices; ``0`` when CuPy is not installed or not
        usable (this may import CuPy to find out, and never raises).

    Examples
    --------
    >>> import cunumpy.cuda as cuda
    >>> cuda.device_count() >= 0
    True
    """
    return visible_gpu_count()


def current_device() -> Canonical:
    """Return the current GPU whenever CuPy holds work, else ``"cpu"``.

    It is the device the helpers of ``cunumpy.cuda`` act on (``synchronize``,
    ``stream``, ``memory_info``): the current GPU on the CuPy backend, and on the NumPy
    backend too once CuPy has a CUDA context on the current GPU, since arrays made with
    ``device="cuda:N"`` compute there; ``"cpu"`` otherwise, without importing CuPy. On
    the CuPy backend it is also where creation without ``device=`` puts new arrays;
    on the NumPy backend those go to the CPU (``get_backend()`` says so).

    Returns
    -------
    int or "cpu"
        The index of the current GPU, or ``"cpu"``. Both forms are accepted by every
        ``device`` argument of cunumpy.

    Examples
    --------
    >>> import cunumpy as xp
    >>> import cunumpy.cuda as cuda
    >>> d = cuda.current_device()
    >>> d == "cpu" or isinstance(d, int)
    True
    >>> xp.get_backend() == "numpy" or isinstance(d, int)  # the CuPy backend: a GPU
    True
    """
    if get_backend() != "cupy":
        cupy = loaded_cupy()
        return "cpu" if cupy is None else int(cupy.cuda.runtime.getDevice())
    return int(require_cupy("current_device").cuda.runtime.getDevice())


def set_device(device: Any, /) -> None:
    """Make a GPU the current device of this thread: CuPy arrays created afterwards live there.

    On the CuPy backend the GPU is validated and made current, which creates its CUDA
    context, and the first time a GPU is selected a test kernel runs there. Naming a GPU
    that this process does not have raises, as everywhere a GPU is named on that backend
    (``memory_info(0)``, ``device="cuda:1"``): the error names the index and the number of
    usable GPUs. On the NumPy backend it is a no-op, as in CuNumpy 0.7.1, so that
    ``cuda.set_device(rank % 4)`` can stay in a program that also runs on a laptop; only
    the spelling of ``device`` is checked there. ``"cpu"`` is a no-op on every backend.

    Parameters
    ----------
    device : device
        An int GPU index, ``"cuda:N"``, ``"cuda"``, a ``cupy.cuda.Device``, an array's
        ``.device`` or ``"cpu"``.

    Raises
    ------
    TypeError
        If ``device`` is not a device.
    ValueError
        If ``device`` is malformed or, on the CuPy backend, not a visible GPU.
    RuntimeError
        On the CuPy backend, if ``device`` names a GPU and CuPy is not usable
        (``CupyUnavailableError``, with the index, 0 usable GPUs and the reason), or the
        GPU cannot be made current or fails the test kernel that runs there the first time
        (``CupyUnavailableError`` naming the GPU and the reason: for example a GPU in
        exclusive compute mode that another process holds).

    See Also
    --------
    device : the same for a ``with`` block, restoring the previous GPU on exit.

    Examples
    --------
    >>> import cunumpy as xp
    >>> import cunumpy.cuda as cuda
    >>> cuda.set_device("cpu")
    >>> with xp.use_backend("numpy"):
    ...     cuda.set_device(3)  # nothing to select: a no-op
    ...     print(cuda.current_device() != 3)  # "cpu", or the GPU that was current
    True
    """
    if get_backend() != "cupy":
        cpu_or_cuda_request(device, "set_device")  # the spelling is still checked
        return
    canonical = canonical_device(device, "set_device")
    if canonical == "cpu":
        return
    require_device("set_device", canonical)  # current, and the test kernel once per GPU


def set_device_for_rank(rank: int, devices_per_node: int | None = None) -> int:
    """Select GPU ``rank % devices_per_node`` for an MPI rank, and return its index.

    Meant for one rank per GPU when the ranks fill each node in contiguous blocks (ranks
    0-3 on the first node of four GPUs, ...). Otherwise select from the node-local rank
    that the MPI launcher exports, or call :func:`set_device` yourself.

    Parameters
    ----------
    rank : int
        The MPI rank of this process (at least 0).
    devices_per_node : int, optional
        GPUs per node; by default :func:`device_count`, the GPUs this process sees.

    Returns
    -------
    int
        ``rank % devices_per_node``, made the current GPU on the CuPy backend. On the
        NumPy backend nothing is selected and the index is only returned. ``0``, with
        nothing selected, when there are no GPUs per node.

    Raises
    ------
    TypeError
        If ``rank`` or ``devices_per_node`` is not an int (or None for the latter).
    ValueError
        If either is negative, or, on the CuPy backend, the index is not a visible GPU.

    Examples
    --------
    >>> import cunumpy.cuda as cuda
    >>> cuda.set_device_for_rank(3, devices_per_node=4)
    3
    >>> cuda.set_device_for_rank(5, devices_per_node=4) if cuda.device_count() >= 2 else 1
    1
    """
    for name, value in (("rank", rank), ("devices_per_node", devices_per_node)):
        if value is None and name == "devices_per_node":
            continue
        if isinstance(value, bool) or not isinstance(value, int):
            msg = f"set_device_for_rank: `{name}` must be an int >= 0, not {value!r}."
            raise TypeError(msg)
        if value < 0:
            msg = f"set_device_for_rank: `{name}` must be an int >= 0, not {value!r}."
            raise ValueError(msg)
    per_node = device_count() if devices_per_node is None else devices_per_node
    if per_node == 0:
        return 0
    index = rank % per_node
    if get_backend() == "cupy":
        set_device(index)
    return index


@contextmanager
def device(device: Any, /) -> Iterator[Canonical]:
    """Make a device current inside a ``with`` block, then restore the previous GPU.

    The previous GPU is restored on exit, also when the block raises. ``"cpu"`` changes
    nothing. The backend is not changed: on the NumPy backend, creation functions still
    create NumPy arrays inside the block.

    Parameters
    ----------
    device : device
        An int GPU index, ``"cuda:N"``, ``"cuda"``, a ``cupy.cuda.Device``, an array's
        ``.device`` or ``"cpu"``.

    Yields
    ------
    int or "cpu"
        The canonical form of ``device``.

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
    >>> import numpy as np
    >>> import cunumpy.cuda as cuda
    >>> x = np.zeros(3)
    >>> with cuda.device(x.device) as d:
    ...     print(d)
    cpu
    """
    canonical = canonical_device(device, "device")
    if canonical == "cpu":
        yield canonical
        return
    with sys.modules["cupy"].cuda.Device(canonical):
        yield canonical
