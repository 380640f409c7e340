"""Run calls in batches, each in a forked child: a crash or a hang is a finding, not the end.

Call ``i`` of a run with ``seed`` calls ``callees[i % len(callees)]`` with the arguments of
``random.Random(seed * 2**40 + i)``, so a call is the same whatever the batches and jobs.
A child writes each finding as a JSON line to its own file and, before each side of each
call, the call's number and the side to a shared slot; the parent reads the slot when a
child dies (a crash: which call, which side) and while it runs: a slot unchanged for
``timeout`` seconds is a hang (the parent kills the child). It goes on with the next call
in a new child.
"""

from __future__ import annotations

import faulthandler
import json
import math
import mmap
import os
import random
import resource
import signal
import struct
import sys
import tempfile
import time
import traceback
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

import cunumpy as xp

from .arguments import call_recipe, render_call
from .compare import compare
from .names import Callee
from .outcome import call

_SLOT = struct.Struct("qq")  # call number, side (0 NumPy, 1 ours)
SIDES = ("NumPy", "ours")


def one_call(
    callees: list[Callee], seed: int, i: int, mark: Callable[[int, int], None]
) -> dict | None:
    """Call ``i`` on both sides: its finding, or ``None``."""
    callee = callees[i % len(callees)]
    rng = random.Random(seed * 2**40 + i)
    positional, keywords = call_recipe(rng, callee.signature)
    mark(i, 0)
    theirs = call(callee.numpy, positional, keywords)
    mark(i, 1)
    ours = call(callee.ours, positional, keywords)
    found = compare(ours, theirs, values=_defined(callee, positional, keywords))
    if found is None:
        return None
    text = render_call("", callee.name, positional, keywords)[1:]
    return {"i": i, "name": callee.name, "class": found[0], "detail": found[1], "call": text}


#: Callees whose values are uninitialized memory: everything but the values is compared.
NO_VALUES = ("empty", "empty_like")


#: NumPy's inverse real transforms of an EMPTY input (``fft.irfft(np.zeros((1, 0)), n=3)``)
#: read no element of it and leave their output uninitialized: NumPy 2.4 gives heap
#: addresses as denormals (``fft.irfft(np.array([[]]), n=3).view(np.int64)`` holds
#: ``0x7fef2fff1cc0``, a pointer, where a zero-padded input gives 0.0 exactly; ``fft.irfft(
#: np.zeros((1, 1)), n=3)`` is ``[[0., 0., 0.]]``). Everything but the values is compared.
EMPTY_INPUT_NO_VALUES = (
    "fft.irfft", "fft.hfft", "fft.irfftn", "fft.irfft2",
)  # fmt: skip


def _empty(recipe: tuple | None) -> bool:
    """Whether an argument's recipe is an array or a list without elements."""
    if recipe is None:
        return False
    if recipe[0] == "out":
        return _empty(recipe[1])
    if recipe[0] == "arr":
        return math.prod(recipe[2]) == 0
    if recipe[0] == "lit" and isinstance(recipe[1], list):
        return np.size(np.array(recipe[1], dtype=object)) == 0
    return False


def _defined(callee: Callee, positional: list, keywords: list) -> bool:
    """Whether the values of the answer are defined: not ``empty``, nor a ufunc's
    ``where=`` without ``out=`` (NumPy leaves the elements where it is false uninitialized)."""
    if callee.name in NO_VALUES:
        return False
    if callee.name in EMPTY_INPUT_NO_VALUES:
        a = positional[0] if positional else dict(keywords).get("a")
        if _empty(a):
            return False
    if isinstance(callee.numpy, np.ufunc) or callee.name.endswith(".outer"):
        given = [name for name, recipe in keywords if recipe != ("lit", None)]  # out=None: none
        has_out = "out" in given or any(r[0] == "out" for r in positional)
        return has_out or "where" not in given
    return True


def _child(
    callees: list[Callee], seed: int, start: int, stop: int, slot: memoryview, path: Path
) -> None:
    faulthandler.disable()  # a crash is a finding: the parent reports it, not the child's dump
    xp.set_backend("numpy")  # NumPy's calls on the NumPy backend, whatever CUNUMPY_BACKEND says
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    try:  # a runaway allocation fails in the child instead of swapping the machine
        with open("/proc/self/statm") as statm:
            size = int(statm.read().split()[0]) * resource.getpagesize()
        resource.setrlimit(resource.RLIMIT_AS, (size + 3 * 2**30, hard))
    except (OSError, ValueError):
        pass

    def mark(i: int, side: int) -> None:
        _SLOT.pack_into(slot, 0, i, side)

    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
    for i in range(start, stop):
        finding = one_call(callees, seed, i, mark)
        if finding is not None:
            os.write(fd, (json.dumps(finding) + "\n").encode())
    os.close(fd)


def run(
    callees: list[Callee],
    seed: int,
    calls: int,
    sink: Callable[[dict[str, Any]], None],
    *,
    jobs: int = 1,
    batch: int = 2000,
    timeout: float = 20.0,
    progress: Callable[[int, float], None] | None = None,
) -> None:
    """Run calls ``0 .. calls - 1`` in forked children, giving each finding to ``sink``."""
    pending = deque((s, min(s + batch, calls)) for s in range(0, calls, batch))
    shared = mmap.mmap(-1, _SLOT.size * jobs)
    free = list(range(jobs))
    running: dict[int, tuple[int, int, int, Path]] = {}
    killed: set[int] = set()
    seen: dict[int, tuple[tuple[int, int], float]] = {}
    done, started = 0, time.time()
    with tempfile.TemporaryDirectory(prefix="differential-") as tmp:
        while pending or running:
            while pending and free:
                start, stop = pending.popleft()
                index = free.pop()
                slot = memoryview(shared)[index * _SLOT.size : (index + 1) * _SLOT.size]
                _SLOT.pack_into(slot, 0, start, 0)
                path = Path(tmp) / f"{start}.jsonl"
                sys.stdout.flush()
                pid = os.fork()
                if pid == 0:  # the child: never returns into the caller's code
                    code = 0
                    try:
                        _child(callees, seed, start, stop, slot, path)
                    except BaseException:  # the test's own error: shown, and a crash finding
                        traceback.print_exc()
                        code = 3
                    sys.stdout.flush()
                    sys.stderr.flush()
                    os._exit(code)
                running[pid] = (start, stop, index, path)
            # Only this run's children: waitpid(-1) would reap the process's other children
            # (a test's subprocess), whose status is theirs.
            pid, status = 0, 0
            for child in running:
                pid, status = os.waitpid(child, os.WNOHANG)
                if pid:
                    break
            if pid == 0:
                now = time.time()
                for child, (_, _, index, _) in running.items():
                    # a call is stuck when the parent has seen it in the slot for `timeout` s
                    at = _SLOT.unpack_from(shared, index * _SLOT.size)
                    if seen.get(child, (None,))[0] != at:
                        seen[child] = (at, now)
                    elif now - seen[child][1] > timeout and child not in killed:
                        killed.add(child)
                        os.kill(child, signal.SIGKILL)
                time.sleep(0.01)
                continue
            start, stop, index, path = running.pop(pid)
            seen.pop(pid, None)
            free.append(index)
            if path.exists():
                for line in path.read_text().splitlines():
                    sink(json.loads(line))
            if os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0:
                done += stop - start
            else:
                i, side = _SLOT.unpack_from(shared, index * _SLOT.size)
                how = (
                    f"timeout after {timeout:.0f} s" if pid in killed
                    else f"signal {os.WTERMSIG(status)}" if os.WIFSIGNALED(status)
                    else f"exit status {os.WEXITSTATUS(status)} (an error of the test itself: see stderr)"
                )  # fmt: skip
                killed.discard(pid)
                sink(_crash(callees, seed, i, f"{SIDES[side]}: {how}"))
                done += i + 1 - start
                if i + 1 < stop:
                    pending.appendleft((i + 1, stop))
            if progress is not None:
                progress(done, time.time() - started)


def _crash(callees: list[Callee], seed: int, i: int, detail: str) -> dict[str, Any]:
    callee = callees[i % len(callees)]
    positional, keywords = call_recipe(random.Random(seed * 2**40 + i), callee.signature)
    text = render_call("", callee.name, positional, keywords)[1:]
    return {"i": i, "name": callee.name, "class": "crash", "detail": detail, "call": text}
