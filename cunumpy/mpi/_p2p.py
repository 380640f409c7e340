"""Array-aware point-to-point messages of ``cunumpy.mpi``: send, recv, sendrecv.

Each array travels as two messages with the same tag: a small pickled header (dtype,
shape, or the error the sender found) and then the raw bytes (``Send``/``Recv``). The
receiver allocates from the header, so shapes cannot mismatch. A sender with bad input
sends an error header instead of data and raises; its receiver raises the same error.
A receiver whose ``out`` does not fit still drains the data (nobody blocks), then
raises. So no pattern of bad input makes a pair of ranks hang.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._buffers import Meta, Staging, as_array, describe, raise_same
from ._env import default_comm

__all__ = ["recv", "send", "sendrecv"]


def _rank_error(value: Any, name: str, func: str) -> None:
    if not isinstance(value, (int, np.integer)) or isinstance(value, (bool, np.bool_)):
        msg = f"{func}: `{name}` must be an int rank (or MPI.PROC_NULL), not {value!r}."
        raise TypeError(msg)


def _check_out(out: Any, header: Meta, func: str) -> tuple[str, str] | None:
    """Return the error of receiving ``header``'s array into ``out``, or ``None``."""
    meta = describe(out, "out")
    if meta.error is not None:
        return meta.error
    if meta.dtype != header.dtype:
        return (
            "TypeError",
            f"`out` has dtype {str(out.dtype)!r} but the incoming array has dtype "
            f"{str(np.dtype(header.dtype))!r}",
        )
    if meta.shape != header.shape:
        return (
            "ValueError",
            f"`out` has shape {meta.shape!r} but the incoming array has shape {header.shape!r}",
        )
    return None


def _receive_plan(header: Meta, out: Any, staging: Staging, func: str) -> tuple[Any, Any, Any]:
    """Return ``(buffer MPI writes, array to return, error to raise after receiving)``."""
    assert header.shape is not None
    assert header.dtype is not None
    dtype = np.dtype(header.dtype)
    if out is None:
        buffer, result = staging.incoming(header.shape, dtype)
        return buffer, result, None
    error = _check_out(out, header, func)
    if error is not None:
        return np.empty(header.shape, dtype=dtype), None, error  # drain, then raise
    return staging.into(out), out, None


def send(x: Any, /, dest: int, *, tag: int = 0, comm: Any = None) -> None:
    """Send ``x`` to rank ``dest``, to be received with ``recv`` (or ``sendrecv``).

    Parameters
    ----------
    x : array
        A C-contiguous NumPy or CuPy array.
    dest : int
        The receiving rank.
    tag : int, optional
        The message tag; ``recv`` must use the same one.
    comm : mpi4py.MPI.Comm, optional
        The communicator; ``MPI.COMM_WORLD`` by default.

    Raises
    ------
    TypeError, ValueError
        If ``x`` is not a contiguous array of a supported dtype; the receiver raises too.
    """
    func = "send"
    x = as_array(x)
    comm = default_comm(comm, func)
    from mpi4py import MPI

    _rank_error(dest, "dest", func)
    header = describe(x, "x")
    comm.send(header, int(dest), tag)
    if header.error is not None:
        raise_same(func, *header.error)
    staging = Staging.for_array(x, func)
    staging.synchronize()
    comm.Send([staging.outgoing(x), MPI.BYTE], int(dest), tag)


def recv(source: int, *, tag: int = 0, comm: Any = None, out: Any = None) -> Any:
    """Receive an array sent with ``send`` (or ``sendrecv``) by rank ``source``.

    Parameters
    ----------
    source : int
        The sending rank, or ``MPI.ANY_SOURCE``.
    tag : int, optional
        The message tag used by the sender.
    comm : mpi4py.MPI.Comm, optional
        The communicator; ``MPI.COMM_WORLD`` by default.
    out : array, optional
        A C-contiguous array of the incoming shape and dtype to receive into (for
        example a halo row); its backend and device are kept.

    Returns
    -------
    array
        ``out``, or a new array on the current backend and GPU.

    Raises
    ------
    TypeError, ValueError
        If the sender's array was invalid, or ``out`` does not match the incoming array
        (the data is received and dropped, so the sender does not block).
    """
    func = "recv"
    comm = default_comm(comm, func)
    from mpi4py import MPI

    _rank_error(source, "source", func)
    status = MPI.Status()
    header: Meta = comm.recv(None, int(source), tag, status)
    sender = status.Get_source()
    if header.error is not None:
        kind, message = header.error
        raise_same(func, kind, f"rank {sender} sent an invalid array: {message}")
    if out is not None and describe(out, "out").error is None:
        staging = Staging.for_array(out, func)
    else:
        staging = Staging.for_current_backend(func)
    buffer, result, error = _receive_plan(header, out, staging, func)
    staging.synchronize()
    comm.Recv([buffer, MPI.BYTE], sender, tag)
    if error is not None:
        raise_same(func, *error)
    staging.finish(buffer, result)
    return result


def sendrecv(
    x: Any, /, dest: int, source: int | None = None, *, tag: int = 0, comm: Any = None,
    out: Any = None,
) -> Any:  # fmt: skip
    """Send ``x`` to ``dest`` and receive an array from ``source`` in one step.

    This is the building block of halo exchanges: it cannot deadlock however the ranks
    pair up, and ``MPI.PROC_NULL`` as ``dest`` or ``source`` skips that half (at the
    edges of a non-periodic domain).

    Parameters
    ----------
    x : array
        A C-contiguous NumPy or CuPy array to send.
    dest : int
        The rank to send to, or ``MPI.PROC_NULL``.
    source : int, optional
        The rank to receive from (``MPI.PROC_NULL`` for none); ``dest`` by default.
    tag : int, optional
        The tag of both messages.
    comm : mpi4py.MPI.Comm, optional
        The communicator; ``MPI.COMM_WORLD`` by default.
    out : array, optional
        A C-contiguous array to receive into (for example a ghost row of the local
        grid). By default a new array is made on the backend and device of ``x``.

    Returns
    -------
    array or None
        ``out`` or the new array; ``out`` (or ``None``) when ``source`` is
        ``MPI.PROC_NULL``.

    Raises
    ------
    TypeError, ValueError
        If ``x`` is invalid (this rank and the rank receiving from it raise), or the
        incoming array is invalid or does not fit ``out``.

    Examples
    --------
    Exchanging with oneself works in any communicator:

    >>> import numpy as np
    >>> from mpi4py import MPI
    >>> from cunumpy import mpi
    >>> me = MPI.COMM_WORLD.Get_rank()
    >>> mpi.sendrecv(np.asarray([1.0, 2.0]), dest=me, source=me)
    array([1., 2.])
    """
    func = "sendrecv"
    x = as_array(x)
    comm = default_comm(comm, func)
    from mpi4py import MPI

    source = dest if source is None else source
    _rank_error(dest, "dest", func)
    _rank_error(source, "source", func)
    dest, source = int(dest), int(source)
    header = describe(x, "x")
    incoming: Meta | None = comm.sendrecv(header, dest, tag, None, source, tag)
    sending = header.error is None and dest != MPI.PROC_NULL
    receiving = incoming is not None and incoming.error is None
    staging = Staging.for_array(x, func) if header.error is None else None
    if out is not None and describe(out, "out").error is None:
        staging_in = Staging.for_array(out, func)
    else:
        staging_in = staging if staging is not None else Staging.for_current_backend(func)
    buffer, result, error = (None, out, None)
    if receiving:
        assert incoming is not None
        buffer, result, error = _receive_plan(incoming, out, staging_in, func)
    staging_in.synchronize()
    if staging is not None:
        staging.synchronize()
    empty = np.empty(0, dtype=np.uint8)
    sendbuf = staging.outgoing(x) if sending and staging is not None else empty
    comm.Sendrecv(
        [sendbuf, MPI.BYTE],
        dest if sending else MPI.PROC_NULL,
        tag,
        [buffer if receiving else empty, MPI.BYTE],
        source if receiving else MPI.PROC_NULL,
        tag,
    )
    if header.error is not None:
        raise_same(func, *header.error)
    if incoming is not None and incoming.error is not None:
        kind, message = incoming.error
        raise_same(func, kind, f"rank {source} sent an invalid array: {message}")
    if error is not None:
        raise_same(func, *error)
    if receiving:
        staging_in.finish(buffer, result)
    return result
