"""``exchange``: post many sends and receives of arrays at once and wait for them all.

The agreed-error rule for point-to-point messages: every buffer is checked and prepared
(staged when MPI is not CUDA-aware) before anything is posted, and a small header (a
``Meta``: dtype, shape or the local error) travels before each message's data. A sender
with a bad array sends its error instead of data, and a receiver whose buffer does not
fit the incoming array receives the data into scratch memory, so no partner is left
waiting; then every rank involved raises, naming the rank at fault.
"""

from __future__ import annotations

from collections.abc import Iterable
from contextlib import ExitStack
from typing import Any

import numpy as np

from .._mpi_job._serial import default_comm, is_serial, mpi_of
from .._trace._recorder import mpi_call
from ._mpibuffer import mpi_buffer
from ._p2p import _check_out, _checked_peer, _checked_tag
from ._rank_checks import Error, Meta, as_array, describe, error_of, raise_same

__all__ = ["exchange"]

_FUNC = "exchange"


def _entries(items: Any, name: str, comm: Any, MPI: Any) -> list[tuple[Any, int, int]]:
    """``items`` as checked ``(array, peer, tag)`` triples; raise for malformed ones."""
    if isinstance(items, (str, bytes)) or not isinstance(items, Iterable):
        msg = f"{_FUNC}: `{name}` must be an iterable of (array, rank, tag), not {items!r}."
        raise TypeError(msg)
    peer = "dest" if name == "sends" else "source"
    checked = []
    for i, item in enumerate(items):
        if not isinstance(item, (tuple, list)) or len(item) != 3:
            msg = f"{_FUNC}: `{name}[{i}]` must be a tuple (array, rank, tag), not {item!r}."
            raise TypeError(msg)
        array, rank, tag = item
        rank = _checked_peer(comm, MPI, rank, peer, _FUNC)
        tag = _checked_tag(comm, MPI, tag, _FUNC, receiving=name == "receives")
        checked.append((as_array(array), rank, tag))
    return checked


def _prepare(stack: ExitStack, array: Any, meta: Meta, cuda_aware: Any, send: bool) -> Any:
    """The buffer MPI uses for ``array`` (entered into ``stack``), or the error as ``meta``."""
    if meta.error is not None:
        return meta, None
    try:
        context = mpi_buffer(array, send=send, recv=not send, cuda_aware=cuda_aware)
        return meta, stack.enter_context(context)
    except Exception as exc:
        return meta._replace(error=error_of(exc, _FUNC)), None


def _fits(array: Any, header: Meta, i: int) -> Meta:
    """A ``Meta`` carrying the error of receiving ``header``'s array into ``array``."""
    error = _check_out(array, header)
    if error is not None:
        error = (error[0], error[1].replace("`out`", f"`receives[{i}]`"))
    return header._replace(error=error)


@mpi_call
def exchange(
    comm: Any,
    *,
    sends: Iterable[tuple[Any, int, int]] = (),
    receives: Iterable[tuple[Any, int, int]] = (),
    cuda_aware: bool | None = None,
) -> None:
    """Send and receive many arrays at once, and return when all have arrived.

    All buffers are prepared with ``mpi_buffer`` (staged through the host when MPI is
    not CUDA-aware), all receives and sends are posted, and the call waits for all of
    them; received values are then in place, on the device too. Typical use: a halo
    exchange with every neighbour in one call.

    Parameters
    ----------
    comm : mpi4py.MPI.Comm, SerialComm or None
        The communicator; ``None`` means ``get_mpi().COMM_WORLD``.
    sends : iterable of (array, dest, tag), optional
        C-contiguous NumPy or CuPy arrays and where they go (``MPI.PROC_NULL``: nowhere).
    receives : iterable of (array, source, tag), optional
        Writable C-contiguous arrays and where their data comes from; each must match the
        dtype and shape of the array its sender sends.
    cuda_aware : bool, optional
        Passed to ``mpi_buffer``; ``None`` uses the recorded or detected answer.

    Raises
    ------
    TypeError, ValueError
        For a malformed entry, rank or tag, before anything is posted. Once every message
        has completed: on the sender and its receiver when a send array is invalid (its
        error travels instead of the data), and on the receiver when a receive array does
        not fit what arrives (the data is received into scratch memory and dropped).

    Notes
    -----
    Receive arrays must not overlap each other or the send arrays. Each message is a
    header and the data, both with the message's tag. Should MPI itself fail while
    messages are in flight, the job is aborted (``comm.Abort(1)``), since MPI may still
    use the buffers.

    Examples
    --------
    >>> import numpy as np
    >>> from cunumpy import mpi
    >>> comm = mpi.get_mpi().COMM_WORLD
    >>> send, recv = np.arange(3.0), np.empty(3)
    >>> mpi.exchange(
    ...     comm,
    ...     sends=[(send, (comm.rank + 1) % comm.size, 0)],
    ...     receives=[(recv, (comm.rank - 1) % comm.size, 0)],
    ... )
    >>> recv
    array([0., 1., 2.])
    """
    comm = default_comm(comm, _FUNC)
    MPI = mpi_of(comm)
    outgoing = _entries(sends, "sends", comm, MPI)
    incoming = _entries(receives, "receives", comm, MPI)
    errors: list[Error] = []
    with ExitStack() as stack:
        send_plan = []
        for i, (array, dest, tag) in enumerate(outgoing):
            meta, buffer = _prepare(stack, array, describe(array, f"sends[{i}]"), cuda_aware, True)
            send_plan.append((meta, buffer, dest, tag))
        # Headers first: the dtype and shape of each message, or why no data follows.
        header_requests = [comm.irecv(source=source, tag=tag) for _, source, tag in incoming]
        sent = [comm.isend(meta, dest, tag) for meta, _, dest, tag in send_plan]
        headers: list[Meta | None] = [request.wait() for request in header_requests]
        for request in sent:
            request.wait()
        requests = []
        try:
            for i, ((array, source, tag), header) in enumerate(zip(incoming, headers)):
                if header is None:  # from MPI.PROC_NULL: nothing arrives
                    continue
                if header.error is not None:
                    kind, message = header.error
                    errors.append((kind, f"rank {source} sent an invalid array: {message}"))
                    continue
                meta, buffer = _prepare(stack, array, _fits(array, header, i), cuda_aware, False)
                if meta.error is not None:
                    errors.append(meta.error)
                    assert header.shape is not None and header.dtype is not None
                    buffer = np.empty(header.shape, dtype=np.dtype(header.dtype))  # drain
                requests.append(comm.Irecv([buffer, MPI.BYTE], source, tag))
            for meta, buffer, dest, tag in send_plan:
                if meta.error is not None:
                    errors.append(meta.error)
                else:
                    requests.append(comm.Isend([buffer, MPI.BYTE], dest, tag))
            for request in requests:
                request.Wait()
        except BaseException:
            if not is_serial(comm):
                comm.Abort(1)  # requests may still write the buffers: no safe cleanup
            raise
    if errors:
        where = "" if comm.Get_size() == 1 else f"on rank {comm.Get_rank()}, "
        raise_same(_FUNC, errors[0][0], where + errors[0][1])
