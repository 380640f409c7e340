"""Array-aware collectives of ``cunumpy.mpi``: allreduce, bcast, allgather, gather, scatter.

Each function checks its local input and prepares its buffers, then agrees with the
other ranks on the outcome (one small ``allgather``, see ``_rank_checks``) before any data
moves, so a bad input on any rank raises the same exception on every rank. Only then
does it move the data with mpi4py's buffer methods (``Allreduce``, ``Bcast``, ...).
Results live on the backend and device of the input.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from .._mpi_job._serial import default_comm, mpi_of
from .._trace._recorder import mpi_call
from ._buffers import (
    allocate,
    gather_buffers,
    receiving_staging,
    reduction_buffers,
    send_ready,
)
from ._rank_checks import (
    Error,
    Meta,
    agreeable,
    as_array,
    brief,
    check_collective,
    check_rank,
    describe,
    guarded,
    same,
    settle,
)

__all__ = ["REDUCTION_OPS", "allgather", "allreduce", "bcast", "gather", "scatter"]

#: The reduction operations ``allreduce`` accepts.
REDUCTION_OPS = ("sum", "prod", "min", "max")

# The MPI operation for each name; bool arrays use the logical operations.
_MPI_OPS = {"sum": "SUM", "prod": "PROD", "min": "MIN", "max": "MAX"}
_BOOL_OPS = {"prod": "LAND", "min": "LAND", "max": "LOR"}


def _root_error(root: Any, size: int) -> Error | None:
    return check_rank(root, "root", size, {})


def _with_error(meta: Meta, error: Error | None) -> Meta:
    return meta if error is None or meta.error is not None else meta._replace(error=error)


def _reduction_error(op: Any, dtype: np.dtype) -> Error | None:
    if not isinstance(op, str):
        return ("TypeError", f"`op` must be one of {REDUCTION_OPS!r}, not {brief(op)}")
    if op not in _MPI_OPS:
        return ("ValueError", f"`op` must be one of {REDUCTION_OPS!r}, not {op!r}")
    if dtype.kind == "b" and op == "sum":
        return (
            "TypeError",
            "op 'sum' is not defined for dtype 'bool' in MPI; cast to an integer dtype "
            "first, or use 'max' (logical or) or 'min'/'prod' (logical and)",
        )
    if dtype.kind == "c" and op in ("min", "max"):
        return ("TypeError", f"op {op!r} is not defined for complex dtype {str(dtype)!r}")
    if dtype.kind == "f" and dtype.itemsize == 2:
        return ("TypeError", "MPI has no standard reduction for dtype 'float16'; cast first")
    return None


def _out_error(x: Any, out: Any) -> Error | None:
    meta = describe(out, "out", writable=True)
    if meta.error is not None:
        return meta.error
    if type(out) is not type(x):
        return (
            "TypeError",
            f"`out` is a {type(out).__module__}.{type(out).__qualname__} but `x` is a "
            f"{type(x).__module__}.{type(x).__qualname__}; both must be of one backend",
        )
    if out.dtype != x.dtype:
        return ("TypeError", f"`out` has dtype {str(out.dtype)!r}, `x` has {str(x.dtype)!r}")
    if out.shape != x.shape:
        return ("ValueError", f"`out` has shape {out.shape!r}, `x` has {x.shape!r}")
    if out is not x and _overlap(x, out):
        return ("ValueError", "`out` overlaps `x`; pass `out=x` itself or separate memory")
    return None


def _overlap(x: Any, out: Any) -> bool:
    """Whether ``x`` and ``out`` (of one backend) share memory; CuPy's check reads no data."""
    if isinstance(x, np.ndarray):
        return bool(np.may_share_memory(x, out))
    return bool(sys.modules["cupy"].may_share_memory(x, out))


@mpi_call
def allreduce(x: Any, /, op: str = "sum", *, comm: Any = None, out: Any = None) -> Any:
    """Combine ``x`` elementwise over all ranks; every rank gets the result.

    Parameters
    ----------
    x : array
        A C-contiguous NumPy or CuPy array with the same shape and dtype on every rank.
    op : {"sum", "prod", "min", "max"}, optional
        The reduction. For bool arrays, ``"min"``/``"prod"`` are logical and and
        ``"max"`` is logical or.
    comm : mpi4py.MPI.Comm, optional
        The communicator; ``MPI.COMM_WORLD`` by default.
    out : array, optional
        A C-contiguous array like ``x`` (same backend, dtype and shape) that receives
        the result; ``out=x`` reduces in place. Reusing ``out`` in a loop avoids
        allocating (and first touching) a new array on every call, which for large
        arrays costs about as much as the communication itself.

    Returns
    -------
    array
        ``out``, or a new array on the backend and device of ``x``.

    Raises
    ------
    TypeError
        On every rank, if any rank passes a non-array (or a masked array), an ``op``
        that is not a str, a dtype unsupported for ``op`` or in a non-native byte order,
        or if dtypes or backends differ across ranks.
    ValueError
        On every rank, if shapes or ``op`` differ across ranks, ``op`` is unknown, an
        array is not C-contiguous or ``out`` is read-only.

    Examples
    --------
    Under ``mpiexec -n 4`` the result is the elementwise maximum over the four ranks; in
    a single process (a communicator of size 1) it equals the input:

    >>> import numpy as np
    >>> from cunumpy import mpi
    >>> mpi.allreduce(np.asarray([1.0, 2.0]), op="max")
    array([1., 2.])
    >>> total = np.zeros(2)
    >>> mpi.allreduce(np.asarray([3.0, 4.0]), out=total) is total
    True
    """
    func = "allreduce"
    x = as_array(x)
    comm = default_comm(comm, func)
    MPI = mpi_of(comm)

    local = describe(x, "x", native=True, agree=(op,))
    if local.error is None:
        local = _with_error(local, _reduction_error(op, np.dtype(x.dtype)))
        if out is not None:
            local = _with_error(local, _out_error(x, out))
    local, buffers = guarded(local, func, lambda: reduction_buffers(x, out, func))
    metas = check_collective(comm, func, local)
    ranks = list(range(len(metas)))
    same(func, metas, "dtype", "`x`", ranks)
    same(func, metas, "shape", "`x`", ranks)
    assert buffers is not None
    staging, send, recv, result = buffers
    mpi_op = getattr(MPI, (_BOOL_OPS if x.dtype == np.bool_ else _MPI_OPS)[op])
    if out is x:
        comm.Allreduce(MPI.IN_PLACE, recv, mpi_op)
    else:  # work queued before the call (reading `out`, say) ended in send_buffer()
        comm.Allreduce(send, recv, mpi_op)
    staging.finish(recv, result)
    return result


@mpi_call
def bcast(x: Any, /, root: int = 0, *, comm: Any = None) -> Any:
    """Send ``x`` from rank ``root`` to every rank.

    Parameters
    ----------
    x : array or None
        On ``root``, the C-contiguous NumPy or CuPy array to send. On other ranks,
        ``None`` (the result is created on the current backend and GPU) or an array of
        the same shape and dtype whose backend and device the result takes; it is not
        modified.
    root : int, optional
        The sending rank, the same on every rank.
    comm : mpi4py.MPI.Comm, optional
        The communicator; ``MPI.COMM_WORLD`` by default.

    Returns
    -------
    array
        ``x`` itself on ``root``; a new array elsewhere.

    Examples
    --------
    >>> import numpy as np
    >>> from cunumpy import mpi
    >>> mpi.bcast(np.arange(3), root=0)
    array([0, 1, 2])
    """
    func = "bcast"
    x = as_array(x)
    comm = default_comm(comm, func)
    MPI = mpi_of(comm)

    size, rank = comm.Get_size(), comm.Get_rank()
    root_error = _root_error(root, size)
    is_root = root_error is None and rank == int(root)
    local = _with_error(describe(x, "x", allow_none=not is_root, agree=(root,)), root_error)
    if is_root:
        local, staged = guarded(local, func, lambda: send_ready(x, func))
    else:
        local, staged = guarded(local, func, lambda: (receiving_staging(x, func), None))
    metas = check_collective(comm, func, local)
    root = int(root)
    holders = [r for r, meta in enumerate(metas) if meta.backend is not None]
    same(func, metas, "dtype", "`x`", holders)
    same(func, metas, "shape", "`x`", holders)
    info = metas[root]
    assert info.shape is not None and info.dtype is not None  # checked: root passed an array
    assert staged is not None
    staging, send = staged
    if is_root:
        settle(comm, func, None)
        comm.Bcast([send, MPI.BYTE], root)
        return x
    failure, (recv, result) = allocate(staging, info.shape, info.dtype, func)
    settle(comm, func, failure)
    comm.Bcast([recv, MPI.BYTE], root)
    staging.finish(recv, result)
    return result


@mpi_call
def allgather(x: Any, /, *, comm: Any = None) -> Any:
    """Stack ``x`` of every rank along a new first axis; every rank gets the stack.

    Parameters
    ----------
    x : array
        A C-contiguous NumPy or CuPy array with the same shape and dtype on every rank.
    comm : mpi4py.MPI.Comm, optional
        The communicator; ``MPI.COMM_WORLD`` by default.

    Returns
    -------
    array
        Shape ``(comm.size, *x.shape)``; row ``r`` is rank ``r``'s ``x``. A new array on
        the backend and device of ``x``.

    Examples
    --------
    >>> import numpy as np
    >>> from cunumpy import mpi
    >>> mpi.allgather(np.asarray([5, 6])).shape  # (1, 2) in a single process
    (1, 2)
    """
    func = "allgather"
    x = as_array(x)
    comm = default_comm(comm, func)
    MPI = mpi_of(comm)

    size = comm.Get_size()
    local, buffers = guarded(describe(x, "x"), func, lambda: gather_buffers(x, size, True, func))
    metas = check_collective(comm, func, local)
    ranks = list(range(len(metas)))
    same(func, metas, "dtype", "`x`", ranks)
    same(func, metas, "shape", "`x`", ranks)
    assert buffers is not None
    staging, send, recv, result = buffers
    comm.Allgather([send, MPI.BYTE], [recv, MPI.BYTE])
    staging.finish(recv, result)
    return result


@mpi_call
def gather(x: Any, /, root: int = 0, *, comm: Any = None) -> Any | None:
    """Stack ``x`` of every rank along a new first axis on rank ``root``.

    Parameters
    ----------
    x : array
        A C-contiguous NumPy or CuPy array with the same shape and dtype on every rank.
    root : int, optional
        The receiving rank, the same on every rank.
    comm : mpi4py.MPI.Comm, optional
        The communicator; ``MPI.COMM_WORLD`` by default.

    Returns
    -------
    array or None
        On ``root``, an array of shape ``(comm.size, *x.shape)`` on the backend and
        device of ``x``; ``None`` on the other ranks.

    Examples
    --------
    >>> import numpy as np
    >>> from cunumpy import mpi
    >>> mpi.gather(np.asarray([5, 6]), root=0)
    array([[5, 6]])
    """
    func = "gather"
    x = as_array(x)
    comm = default_comm(comm, func)
    MPI = mpi_of(comm)

    size, rank = comm.Get_size(), comm.Get_rank()
    root_error = _root_error(root, size)
    receives = root_error is None and rank == int(root)
    local = _with_error(describe(x, "x", agree=(root,)), root_error)
    local, buffers = guarded(local, func, lambda: gather_buffers(x, size, receives, func))
    metas = check_collective(comm, func, local)
    ranks = list(range(len(metas)))
    same(func, metas, "dtype", "`x`", ranks)
    same(func, metas, "shape", "`x`", ranks)
    assert buffers is not None
    staging, send, recv, result = buffers
    if not receives:
        comm.Gather([send, MPI.BYTE], None, int(root))
        return None
    comm.Gather([send, MPI.BYTE], [recv, MPI.BYTE], int(root))
    staging.finish(recv, result)
    return result


@mpi_call
def scatter(x: Any, /, root: int = 0, *, comm: Any = None) -> Any:
    """Send row ``r`` of ``x`` on rank ``root`` to rank ``r``.

    Parameters
    ----------
    x : array or None
        On ``root``, a C-contiguous NumPy or CuPy array of shape ``(comm.size, ...)``;
        ``None`` on the other ranks.
    root : int, optional
        The sending rank, the same on every rank.
    comm : mpi4py.MPI.Comm, optional
        The communicator; ``MPI.COMM_WORLD`` by default.

    Returns
    -------
    array
        This rank's row, shape ``x.shape[1:]``: on ``root`` on the backend and device of
        ``x``, elsewhere on the current backend and GPU.

    Examples
    --------
    >>> import numpy as np
    >>> from cunumpy import mpi
    >>> mpi.scatter(np.asarray([[1, 2]]), root=0)
    array([1, 2])
    """
    func = "scatter"
    x = as_array(x)
    comm = default_comm(comm, func)
    MPI = mpi_of(comm)

    size, rank = comm.Get_size(), comm.Get_rank()
    root_error = _root_error(root, size)
    is_root = root_error is None and rank == int(root)
    if is_root:
        local = describe(x, "x", agree=(root,))
        if local.error is None and (x.ndim == 0 or x.shape[0] != size):
            error = (
                "ValueError",
                f"`x` on the root must have shape ({size}, ...), one row per rank, "
                f"not {tuple(x.shape)!r}",
            )
            local = _with_error(local, error)
    elif x is None:
        local = Meta(root_error, None, None, None, (agreeable(root),))
    else:
        error = (
            "TypeError",
            f"`x` must be None on ranks other than the root, not an object of type "
            f"{type(x).__module__}.{type(x).__qualname__}",
        )
        local = Meta(root_error or error, None, None, None, (agreeable(root),))
    if is_root:
        local, staged = guarded(local, func, lambda: send_ready(x, func))
    else:
        local, staged = guarded(local, func, lambda: (receiving_staging(None, func), None))
    metas = check_collective(comm, func, local)
    info = metas[int(root)]
    assert info.shape is not None and staged is not None
    staging, send = staged
    assert info.dtype is not None
    failure, (recv, result) = allocate(staging, info.shape[1:], info.dtype, func)
    settle(comm, func, failure)
    comm.Scatter([send, MPI.BYTE] if is_root else None, [recv, MPI.BYTE], int(root))
    staging.finish(recv, result)
    return result
