"""One GPU per rank: ``bind_local_device``, public in ``cunumpy.cuda`` and ``cunumpy.mpi``."""

from __future__ import annotations

from typing import Any

from .._backend_choice import _config

__all__ = ["bind_local_device"]


def bind_local_device(comm: Any = None) -> int | None:
    """Make this rank's GPU the current device, one GPU per rank on each node.

    The device is ``local_rank(comm) % number of visible GPUs``, so ranks on a node
    spread over its GPUs, and a rank that sees a single GPU (for example with
    ``srun --gpus-per-task=1``, which sets ``CUDA_VISIBLE_DEVICES`` per rank) uses it.
    Call it at the start of the program, before creating arrays and before MPI starts
    (``get_mpi()`` under a launcher), so that CUDA-aware MPI sees the right device. It
    creates a CUDA context on this rank's GPU only: choosing the CuPy backend created none
    (it counts the devices), and the test kernel that shows the GPU usable runs here,
    after the device is made current. The launcher's variables give the local rank
    without MPI. On the NumPy backend it does nothing.

    Parameters
    ----------
    comm : mpi4py.MPI.Comm or SerialComm, optional
        Used only when no launcher variable gives the local rank; see ``local_rank``.

    Returns
    -------
    int or None
        The index of the device made current, or ``None`` on the NumPy backend.

    Raises
    ------
    RuntimeError
        On the CuPy backend, if CuPy is not usable, or this rank's GPU cannot run the test
        kernel (for example a GPU in exclusive compute mode that another process holds);
        the message names the GPU and gives the reason.

    Examples
    --------
    >>> import cunumpy
    >>> cunumpy.get_backend()
    'numpy'
    >>> print(cunumpy.cuda.bind_local_device())  # also cunumpy.mpi.bind_local_device
    None
    """
    if _config.get_backend() == "numpy":
        return None
    from .._mpi_job._local_rank import local_rank  # so that `import cunumpy.cuda` reads no MPI
    from .._settings._cupy_probe import require_cupy, require_device, visible_gpu_count

    cupy = require_cupy("bind_local_device")  # counts the GPUs: no context anywhere yet
    device = local_rank(comm) % visible_gpu_count()
    require_device("bind_local_device", device)  # current, then the test kernel: its context
    cupy.cuda.Stream.null.synchronize()
    return device
