"""Array-aware point-to-point messages of ``cunumpy.mpi``: send, recv, sendrecv.

Each array travels as two messages with the same tag: a small pickled header (dtype,
shape, or the error the sender found) and then the raw bytes (``Send``/``Recv``). The
receiver allocates from the header, so shapes cannot mismatch. A sender with bad input
sends an error header instead of data and raises; its receiver raises the same error.
A receiver whose ``out`` does not fit (or that cannot allocate) still drains the data
(nobody blocks), then raises. Ranks and tags out of range raise ``ValueError`` before any
message: there is no partner to tell, so, like mismatched tags or communicators, a
partner waiting for the other side of such a message keeps waiting.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._mpi_job._serial import default_comm, is_serial, mpi_of
from .._trace._recorder import mpi_call
from ._buffers import Staging, receiving_staging, send_ready
from ._rank_checks import (
    Error,
    Meta,
    as_array,
    check_rank,
    check_tag,
    describe,
    error_of,
    guarded,
    raise_same,
)

__all__ = ["recv", "send", "sendrecv"]


def _local(error: Error | None, func: str) -> None:
    if error is not None:
        raise_same(func, *error)


def _checked_peer(comm: Any, MPI: Any, value: Any, name: str, func: str) -> int:
    """``value`` as a rank of ``comm`` (or ``MPI.PROC_NULL``, or ``MPI.ANY_SOURCE`` for a
    ``source``); raise ``TypeError``/``ValueError`` naming ``func`` otherwise."""
    specials = {MPI.PROC_NULL: "PROC_NULL"}
    if name == "source":
        specials[MPI.ANY_SOURCE] = "ANY_SOURCE"
    _local(check_rank(value, name, comm.Get_size(), specials), func)
    return int(value)


def _checked_tag(comm: Any, MPI: Any, tag: Any, func: str, *, receiving: bool) -> int:
    upper = None if is_serial(comm) else comm.Get_attr(MPI.TAG_UB)  # 32767 is guaranteed
    _local(check_tag(tag, int(upper) if upper else 32767, MPI.ANY_TAG if receiving else None), func)
    return int(tag)


def _check_out(out: Any, header: Meta) -> Error | None:
    """Return the error of receiving ``header``'s array into ``out``, or ``None``."""
    meta = describe(out, "out", writable=True)
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


def _receive_plan(header: Meta, out: Any, func: str) -> tuple[Any, Any, Any, Error | None]:
    """``(staging, buffer MPI writes, array to return, error to raise after receiving)``.

    On any local failure the buffer is plain host memory that drains the message, so the
    sender never blocks, and the error is raised once the data has arrived.
    """
    assert header.shape is not None and header.dtype is not None
    dtype = np.dtype(header.dtype)
    error = None if out is None else _check_out(out, header)
    if error is None:
        try:
            staging = receiving_staging(out, func)
            if out is None:
                buffer, result = staging.incoming(header.shape, dtype)
            else:
                buffer, result = staging.into(out), out
            staging.synchronize()  # no queued work may touch the memory once MPI writes
            return staging, buffer, result, None
        except Exception as exc:
            error = error_of(exc, func)
    return None, np.empty(header.shape, dtype=dtype), None, error  # drain, then raise


@mpi_call
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
        If ``dest`` or ``tag`` is not valid (before anything is sent), or ``x`` is not a
        contiguous array of a supported dtype (the receiver raises too).
    """
    func = "send"
    x = as_array(x)
    comm = default_comm(comm, func)
    MPI = mpi_of(comm)

    dest = _checked_peer(comm, MPI, dest, "dest", func)
    tag = _checked_tag(comm, MPI, tag, func, receiving=False)
    header, staged = guarded(describe(x, "x"), func, lambda: send_ready(x, func))
    comm.send(header, dest, tag)
    if header.error is not None:
        raise_same(func, *header.error)
    assert staged is not None
    comm.Send([staged[1], MPI.BYTE], dest, tag)


@mpi_call
def recv(source: int, *, tag: int = 0, comm: Any = None, out: Any = None) -> Any:
    """Receive an array sent with ``send`` (or ``sendrecv``) by rank ``source``.

    Parameters
    ----------
    source : int
        The sending rank, ``MPI.ANY_SOURCE``, or ``MPI.PROC_NULL`` (nothing arrives:
        ``out`` is returned as it is).
    tag : int, optional
        The message tag used by the sender, or ``MPI.ANY_TAG``.
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
        If ``source`` or ``tag`` is not valid (before anything is received), the sender's
        array was invalid, or ``out`` does not match the incoming array or is read-only
        (the data is received and dropped, so the sender does not block).
    """
    func = "recv"
    comm = default_comm(comm, func)
    MPI = mpi_of(comm)

    source = _checked_peer(comm, MPI, source, "source", func)
    tag = _checked_tag(comm, MPI, tag, func, receiving=True)
    status = MPI.Status()
    header: Meta | None = comm.recv(None, source, tag, status)
    if header is None:  # from MPI.PROC_NULL: nothing arrives
        return out
    sender, sent_tag = status.Get_source(), status.Get_tag()
    if header.error is not None:
        kind, message = header.error
        raise_same(func, kind, f"rank {sender} sent an invalid array: {message}")
    staging, buffer, result, error = _receive_plan(header, out, func)
    comm.Recv([buffer, MPI.BYTE], sender, sent_tag)
    if error is not None:
        raise_same(func, *error)
    staging.finish(buffer, result)
    return result


@mpi_call
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
    MPI = mpi_of(comm)

    dest = _checked_peer(comm, MPI, dest, "dest", func)
    source = dest if source is None else _checked_peer(comm, MPI, source, "source", func)
    tag = _checked_tag(comm, MPI, tag, func, receiving=False)
    header, staged = guarded(describe(x, "x"), func, lambda: send_ready(x, func))
    status = MPI.Status()
    incoming: Meta | None = comm.sendrecv(header, dest, tag, None, source, tag, status)
    sender = status.Get_source()
    sending = header.error is None and dest != MPI.PROC_NULL
    receiving = incoming is not None and incoming.error is None
    staging_in: Staging | None = None
    buffer, result, error = None, out, None
    if receiving:
        assert incoming is not None
        staging_in, buffer, result, error = _receive_plan(incoming, out, func)
    empty = np.empty(0, dtype=np.uint8)
    comm.Sendrecv(
        [staged[1] if sending and staged is not None else empty, MPI.BYTE],
        dest if sending else MPI.PROC_NULL,
        tag,
        [buffer if receiving else empty, MPI.BYTE],
        sender if receiving else MPI.PROC_NULL,
        tag,
    )
    if header.error is not None:
        raise_same(func, *header.error)
    if incoming is not None and incoming.error is not None:
        kind, message = incoming.error
        raise_same(func, kind, f"rank {sender} sent an invalid array: {message}")
    if error is not None:
        raise_same(func, *error)
    if staging_in is not None:
        staging_in.finish(buffer, result)
    return result
