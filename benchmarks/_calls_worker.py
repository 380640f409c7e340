"""NumPy-style calls, their data, and a process that times them on request.

``bench_numpy_calls.py`` imports ``CALLS`` and ``data`` from here, and starts this file as
a script where the calls must run in another process: under CuNumpy 0.7.1's Python (it
shares the import name ``cunumpy``, so it needs its own venv: ``python -I``, away from this
checkout), and with the fake CuPy as the default backend to time calls inside a
``use_backend("numpy")`` block that differs from it. The script reads one JSON request a
line and answers one JSON line:

- ``{"size": n}``: make the data of ``n`` elements; the answer lists, for each call,
  ``null`` or the error it raises here.
- ``{"call": k, "number": N, "repeat": R}``: the seconds per call of ``N`` runs of call
  ``k``, the least of ``R`` such timings (``R`` is 1 when not given).

With ``"block": true`` in a request, it and those after it run with CuPy (the fake) as the
default, inside ``use_backend("numpy")``, until a request says ``"block": false``.

Only NumPy and ``cunumpy`` are imported, so the same file serves both versions.
"""

from __future__ import annotations

import json
import sys
import timeit
from typing import Any

import numpy as np

#: (label, the call as ``import cunumpy as xp`` writes it, the direct NumPy call): the
#: standard's names, called as the standard writes them.
STANDARD: list[tuple[str, str, str]] = [
    ("sum", "xp.sum(a)", "np.sum(a)"),
    ("mean(axis=0)", "xp.mean(m, axis=0)", "np.mean(m, axis=0)"),
    ("sqrt", "xp.sqrt(b)", "np.sqrt(b)"),
    ("exp", "xp.exp(a)", "np.exp(a)"),
    ("add", "xp.add(a, b)", "np.add(a, b)"),
    ("multiply(a, 2.0)", "xp.multiply(a, 2.0)", "np.multiply(a, 2.0)"),
    ("where", "xp.where(c, a, 0.0)", "np.where(c, a, 0.0)"),
    ("max", "xp.max(a)", "np.max(a)"),
    ("matmul", "xp.matmul(m, m)", "np.matmul(m, m)"),
    ("reshape", "xp.reshape(a, (-1, 2))", "np.reshape(a, (-1, 2))"),
    ("stack", "xp.stack([a, b])", "np.stack([a, b])"),
    ("sort", "xp.sort(a)", "np.sort(a)"),
    ("argmax", "xp.argmax(a)", "np.argmax(a)"),
    ("clip", "xp.clip(a, -0.5, 0.5)", "np.clip(a, -0.5, 0.5)"),
    ("linspace", "xp.linspace(0.0, 1.0, n)", "np.linspace(0.0, 1.0, n)"),
    ("zeros", "xp.zeros(n)", "np.zeros(n)"),
    ("arange", "xp.arange(n)", "np.arange(n)"),
    ("asarray(array)", "xp.asarray(a)", "np.asarray(a)"),
    ("astype", "xp.astype(a, xp.float32)", "a.astype(np.float32)"),
    ("diff", "xp.diff(a)", "np.diff(a)"),
    ("linalg.inv", "xp.linalg.inv(m)", "np.linalg.inv(m)"),
    ("linalg.det", "xp.linalg.det(m)", "np.linalg.det(m)"),
    ("linalg.solve", "xp.linalg.solve(m, m)", "np.linalg.solve(m, m)"),
    ("fft.fft", "xp.fft.fft(a)", "np.fft.fft(a)"),
    ("fft.rfft", "xp.fft.rfft(a)", "np.fft.rfft(a)"),
]

#: Names outside the standard: the library's own objects, whose cost a differing
#: use_backend block changes (the standard's names are the same in every context).
NON_STANDARD: list[tuple[str, str, str]] = [
    ("cumsum", "xp.cumsum(a)", "np.cumsum(a)"),
    ("array(list)", "xp.array(lst)", "np.array(lst)"),
    ("transpose", "xp.transpose(m)", "np.transpose(m)"),
    ("dot", "xp.dot(a, b)", "np.dot(a, b)"),
    ("concatenate", "xp.concatenate([a, b])", "np.concatenate([a, b])"),
    ("einsum", "xp.einsum('i,i->', a, b)", "np.einsum('i,i->', a, b)"),
    ("unique", "xp.unique(k)", "np.unique(k)"),
    ("pad", "xp.pad(a, 1)", "np.pad(a, 1)"),
    ("nanmax", "xp.nanmax(a)", "np.nanmax(a)"),
    ("isclose", "xp.isclose(a, b)", "np.isclose(a, b)"),
    ("outer", "xp.outer(u, v)", "np.outer(u, v)"),
    ("ravel", "xp.ravel(m)", "np.ravel(m)"),
    ("atleast_2d", "xp.atleast_2d(a)", "np.atleast_2d(a)"),
    ("fmax", "xp.fmax(a, b)", "np.fmax(a, b)"),
    ("linalg.norm", "xp.linalg.norm(a)", "np.linalg.norm(a)"),
    ("fft.fft2", "xp.fft.fft2(m)", "np.fft.fft2(m)"),
    ("random.default_rng", "xp.random.default_rng(0)", "np.random.default_rng(0)"),
]

#: NumPy's call forms of standard names: scalars, lists, positional axes, dtypes, ufunc
#: methods.
NUMPY_FORMS: list[tuple[str, str, str]] = [
    ("sqrt(2.0)", "xp.sqrt(2.0)", "np.sqrt(2.0)"),
    ("exp(-t)", "xp.exp(-t)", "np.exp(-t)"),
    ("sin(pi / 2)", "xp.sin(xp.pi / 2)", "np.sin(np.pi / 2)"),
    ("isnan(t)", "xp.isnan(t)", "np.isnan(t)"),
    ("sum(list)", "xp.sum(lst)", "np.sum(lst)"),
    ("mean(list)", "xp.mean(lst)", "np.mean(lst)"),
    ("maximum(list, 0)", "xp.maximum(lst, 0.0)", "np.maximum(lst, 0.0)"),
    ("asarray(list)", "xp.asarray(lst)", "np.asarray(lst)"),
    ("mean(m, 1)", "xp.mean(m, 1)", "np.mean(m, 1)"),
    ("round(a, 1)", "xp.round(a, 1)", "np.round(a, 1)"),
    ("asarray(float16)", "xp.asarray(a, dtype=xp.float16)", "np.asarray(a, dtype=np.float16)"),
    ("add.reduce", "xp.add.reduce(a)", "np.add.reduce(a)"),
]

CALLS = STANDARD + NON_STANDARD + NUMPY_FORMS


def data(n: int) -> dict[str, Any]:
    """The arrays and Python values the calls use, for ``n`` elements (``n`` even)."""
    side = max(int(n**0.5), 2)
    a = np.linspace(-1.0, 1.0, n)
    i = np.arange(0, n, 3)
    return {
        "n": n,
        "a": a,
        "b": np.linspace(0.5, 2.0, n),
        "c": a > 0,
        "m": np.linspace(0.0, 1.0, side * side).reshape(side, side) + side * np.eye(side),
        "k": i % 7,
        "u": a[:side],
        "v": a[-side:],
        "lst": a.tolist(),
        "t": 0.5,
    }


def timers(namespace: Any, n: int, which: int) -> tuple[list[timeit.Timer], list[str | None]]:
    """A timer per call (``which``: 1, ``xp``'s form with ``namespace``; 2, NumPy's), and
    ``None`` or the error each call raises (timed calls must run)."""
    env = {**data(n), "xp": namespace, "np": np}
    made, errors = [], []
    for call in CALLS:
        timer = timeit.Timer(call[which], globals=env)
        try:
            timer.timeit(1)
            errors.append(None)
        except Exception as exc:  # a call this version cannot make
            errors.append(f"{type(exc).__name__}: {exc}"[:200])
        made.append(timer)
    return made, errors


def _serve() -> None:
    import cunumpy

    made: list[timeit.Timer] = []
    block: Any = None  # the open use_backend("numpy") block, while CuPy is the default
    for line in sys.stdin:
        request = json.loads(line)
        if request.get("block", False) != (block is not None):
            if block is None:
                cunumpy.set_backend("cupy")  # the fake CuPy (CUNUMPY_FAKE_CUPY=1)
                block = cunumpy.use_backend("numpy")
                block.__enter__()
            else:
                block.__exit__(None, None, None)
                block = None
                cunumpy.set_backend("numpy")
        if "size" in request:
            made, errors = timers(cunumpy, request["size"], 1)
            answer: Any = errors
        else:
            number = request["number"]
            answer = min(made[request["call"]].repeat(request.get("repeat", 1), number)) / number
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    _serve()
