"""The fake CuPy's poisoned pool: memory freed under a running stream gives wrong values.

The fake runs every operation at once, on the host. What it keeps of streams is what a
missing keep-alive needs to show: which memory the work of each non-default stream has
used since that stream last *finished* (a host wait: ``Stream.synchronize``, an event of
it synchronized, ``Device.synchronize`` or ``runtime.deviceSynchronize`` of the stream's
own device, a blocking ``get``). A real GPU may still be running that work.

The pool reuses a freed block at once, for the next allocation on any stream, and fills
it with poison (bytes 0xFF: NaN for floats). So when the last reference to an array goes
while a stream other than the one that allocated it has used it and not finished, the
race of a real GPU happens here for certain:

- the stream read poison: every result it made since it last finished is poisoned;
- if it wrote there, its write lands in the next allocation, which is poisoned too.

A stream's own temporaries (allocated on it) are safe, as with CuPy's per-stream pools.
Work on the null stream is finished when it returns. Fake CuPy, never a GPU.
"""

from __future__ import annotations

import weakref
from typing import Any

import numpy as np

__all__ = ["allocated", "finish", "finish_all", "finished", "made_on", "poisoned", "reset", "used"]

#: The fake's current-stream stack (``cupy.cuda.Stream._stack``), set by ``_cuda``.
STACK: list[Any] = []


class _Work:
    """What one stream has used and made since it last finished."""

    __slots__ = ("device", "made", "reads", "writes")

    def __init__(self, device: int) -> None:
        self.device = device  # a device synchronization finishes its own streams only
        self.reads: set[int] = set()  # ids of root buffers
        self.writes: set[int] = set()
        self.made: list[weakref.ref[np.ndarray]] = []


_work: dict[int, _Work] = {}  # stream ptr -> its unfinished work
_owner: dict[int, int] = {}  # id of a root buffer allocated on a stream -> that stream's ptr
_watched: set[int] = set()  # roots with a finalizer
_poison_next: list[bool] = [False]
#: Every race the pool has seen, as (stream ptr, "read" or "write"), for tests.
poisoned: list[tuple[int, str]] = []


def _root(a: np.ndarray) -> np.ndarray:
    while isinstance(a.base, np.ndarray):
        a = a.base
    return a


def _current() -> int:
    return int(STACK[-1].ptr) if STACK else 0


def _work_of(stream: Any) -> _Work:
    """The unfinished work of ``stream`` (a non-null stream), made on first use."""
    ptr = int(stream.ptr)
    work = _work.get(ptr)
    if work is None:
        work = _work[ptr] = _Work(int(stream.device_id))
    return work


def allocated(a: np.ndarray) -> None:
    """A new array ``a`` of the fake: poisoned if a late write lands in its block; noted as
    allocated on the current stream when that is not the null stream."""
    if _poison_next[0]:
        _poison_next[0] = False
        _poison(a)
    ptr = _current()
    if ptr:
        root = _root(a)
        _owner[id(root)] = ptr
        _watch(root)
        _work_of(STACK[-1]).made.append(weakref.ref(root))


def used(a: np.ndarray, *, write: bool = False, stream: Any = None) -> None:
    """Work on ``stream`` (default: the current one) reads, or writes, the memory of ``a``."""
    if stream is None:
        stream = STACK[-1] if STACK else None
    if stream is None or not int(stream.ptr):
        return
    root = _root(a)
    work = _work_of(stream)
    (work.writes if write else work.reads).add(id(root))
    if write:
        work.made.append(weakref.ref(root))
    _watch(root)


def made_on(a: np.ndarray, stream: Any) -> None:
    """``a`` (host memory included) is written by work on ``stream``: poisoned with it."""
    if stream is None:
        stream = STACK[-1] if STACK else None
    if stream is not None and int(stream.ptr):
        _work_of(stream).made.append(weakref.ref(_root(a)))


def finish(stream: Any) -> None:
    """The host has waited for ``stream``: its work is done."""
    _work.pop(int(stream.ptr), None)


def finished(stream: Any) -> bool:
    """Whether the host knows ``stream``'s work to be done (an event of it has completed)."""
    return int(stream.ptr) not in _work


def finish_all(device: int) -> None:
    """The host has waited for ``device``: the work of its streams is done (a device
    synchronization waits for the streams of the current device only, as in CUDA)."""
    for ptr in [ptr for ptr, work in _work.items() if work.device == device]:
        del _work[ptr]


def reset() -> None:
    """Forget all pending work and races (for tests)."""
    _work.clear()
    poisoned.clear()
    _poison_next[0] = False


def _watch(root: np.ndarray) -> None:
    key = id(root)
    if key not in _watched:
        _watched.add(key)
        weakref.finalize(root, _freed, key)


def _freed(key: int) -> None:
    """The block ``key`` goes back to the pool, which hands it out again at once."""
    _watched.discard(key)
    owner = _owner.pop(key, 0)
    for ptr, work in list(_work.items()):
        wrote, read = key in work.writes, key in work.reads
        work.writes.discard(key)
        work.reads.discard(key)
        if ptr == owner:
            continue  # the stream's own memory: reuse on it is ordered after its work
        if read or wrote:
            poisoned.append((ptr, "write" if wrote else "read"))
            for ref in work.made:
                made = ref()
                if made is not None:
                    _poison(made)
            if wrote:
                _poison_next[0] = True


def _poison(a: np.ndarray) -> None:
    """Fill ``a``'s memory with bytes 0xFF (NaN for floats), as reused memory reads."""
    if a.flags.writeable and a.dtype.kind != "O" and a.size:
        a[...] = np.frombuffer(b"\xff" * a.dtype.itemsize, dtype=a.dtype)[0]
