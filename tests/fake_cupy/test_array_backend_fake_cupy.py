"""``cunumpy.xp.array_backend`` (CuNumpy 0.7.x's state object, read by feectools) on the
fake CuPy: it follows each thread's backend, and its listeners hear each change (fake
CuPy, not a GPU check)."""

from __future__ import annotations

import threading

import cunumpy as xp
from cunumpy.xp import array_backend


def test_array_backend_is_context_local() -> None:
    seen: dict[str, str] = {}
    entered, release = threading.Event(), threading.Event()

    def other_thread() -> None:
        with xp.use_backend("cupy"):
            seen["inside"] = array_backend.backend
            entered.set()
            release.wait(10)

    thread = threading.Thread(target=other_thread)
    thread.start()
    entered.wait(10)
    seen["here"] = array_backend.backend  # while the other thread is in its block
    release.set()
    thread.join()
    assert seen == {"inside": "cupy", "here": "numpy"}


def test_listeners_hear_each_change_in_their_context() -> None:
    from cunumpy._backend_choice import _config

    heard: list[str] = []
    listeners = list(_config.listeners)
    try:
        array_backend.add_listener(lambda namespace: heard.append(namespace.__name__))
        with xp.use_backend("numpy"):  # no change: nothing heard
            pass
        with xp.use_backend("cupy"):
            xp.set_backend("numpy")  # inside the block: the block switches back
        xp.set_backend("numpy")
    finally:
        _config.listeners[:] = listeners
    numpy_ns, cupy_ns = "cunumpy._backends.numpy", "cunumpy._backends.cupy"
    assert heard == [numpy_ns, cupy_ns, numpy_ns]
