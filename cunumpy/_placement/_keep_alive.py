"""Arrays that GPU work still uses, kept alive until that work has run (rule 7 of docs/devices.md).

CuPy gives the memory of an array whose last reference goes back to its pool, which may
hand it out again at once, while work queued on another stream still reads or writes it
(the race PyTorch's ``record_stream`` exists for). Here cunumpy keeps such arrays
referenced until an event recorded after that work has completed:

- a ``stream()`` block (or ``stream(branch)`` of ``streams(n)``) collects the CuPy arrays
  that cunumpy sees inside it (``note_use``: the array arguments of cunumpy's functions,
  copies, kernel launches) and, when it ends, keeps them with an event recorded on its
  stream after the block's work (``close_block``);
- a kernel queued with ``stream=`` on another stream keeps its arrays with an event
  recorded after it (``retain``).

Arrays are released as soon as their event has completed, checked whenever a block opens
or closes, something is retained, and at ``synchronize()`` (``release_finished``); the
host never waits for it. Operations on CuPy arrays that bypass cunumpy (``x * 2``,
``cupy.sum(x)``) are not seen: see docs/memory.md.
"""

from __future__ import annotations

import sys
from _thread import _local, allocate_lock  # threading's own parts: no `threading` at import
from typing import Any

__all__ = [
    "OPEN",
    "RETAINED",
    "close_block",
    "note_use",
    "open_block",
    "release_finished",
    "retain",
    "retained_arrays",
]

#: One entry per open block in any thread: empty, the common case, costs ``note_use`` one
#: truth test.
OPEN: list[None] = []

_SEQUENCES = (list, tuple)


class _Blocks(_local):
    """This thread's open blocks, innermost last: the arrays each has seen, by id."""

    def __init__(self) -> None:
        self.stack: list[dict[int, Any]] = []


_blocks = _Blocks()
#: (event, arrays) kept alive, in no order; empty, the common case, costs a truth test.
RETAINED: list[tuple[Any, tuple[Any, ...]]] = []
_lock = allocate_lock()


def open_block() -> dict[int, Any]:
    """Start collecting the arrays used in a block of this thread; returns its collection."""
    release_finished()
    seen: dict[int, Any] = {}
    _blocks.stack.append(seen)
    OPEN.append(None)
    return seen


def close_block(seen: dict[int, Any], stream: Any, device_index: int) -> None:
    """End the block that ``open_block`` returned ``seen`` for; its arrays stay alive until
    the work queued so far on ``stream`` (of GPU ``device_index``) has run."""
    stack = _blocks.stack
    for i in range(len(stack) - 1, -1, -1):  # the innermost, unless blocks end out of order
        if stack[i] is seen:
            del stack[i]
            OPEN.pop()
            break
    if seen:
        retain_after(stream, device_index, tuple(seen.values()))
    else:
        release_finished()


def note_use(values: Any) -> None:
    """Note the CuPy arrays among ``values`` (one level of lists and tuples deep) as used by
    the innermost open block of this thread; nothing when none is open."""
    stack = _blocks.stack
    if not stack:
        return
    cupy = sys.modules.get("cupy")
    if cupy is None:
        return
    kind = cupy.ndarray
    seen = stack[-1]
    for value in values:
        if isinstance(value, kind):
            seen[id(value)] = value
        elif isinstance(value, _SEQUENCES):
            for item in value:
                if isinstance(item, kind):
                    seen[id(item)] = item


def retain_after(stream: Any, device_index: int, arrays: tuple[Any, ...]) -> None:
    """Keep ``arrays`` alive until the work queued so far on ``stream`` has run."""
    cuda = sys.modules["cupy"].cuda
    with cuda.Device(device_index):
        event = cuda.Event(disable_timing=True)
        event.record(stream)
    retain(event, arrays)


def retain(event: Any, arrays: tuple[Any, ...]) -> None:
    """Keep ``arrays`` alive until ``event`` has completed."""
    release_finished()
    with _lock:
        RETAINED.append((event, arrays))


def release_finished() -> None:
    """Drop the arrays whose work has run (their event has completed); never waits."""
    if not RETAINED:
        return
    with _lock:
        RETAINED[:] = [entry for entry in RETAINED if not entry[0].done]


def retained_arrays() -> int:
    """The number of arrays kept alive now (for tests and reports)."""
    with _lock:
        return sum(len(arrays) for _, arrays in RETAINED)
