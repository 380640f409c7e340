"""The public modules' names outside cunumpy's own: globals on one backend, stand-ins that
follow the context while a use_backend block of another backend is alive.

A second backend is made up here (``other_lib``, with ``linalg`` and ``fft``), so that the
mechanism is tested without a GPU; tests/fake_cupy/test_names_fake_cupy.py does the same
with the fake CuPy and the real ``use_backend("cupy")``.
"""

from __future__ import annotations

import asyncio
import contextvars
import gc
import pkgutil
import sys
import threading
import types
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import pytest

import cunumpy
from cunumpy._backend_choice import _config, _landscape
from cunumpy._backends import _superset
from cunumpy._calls._forwarders import Forwarder


class _Ufunc:
    """A callable with methods, as NumPy's and CuPy's ufuncs are."""

    def __init__(self, tag: str) -> None:
        self.tag = tag
        self.nin = 2

    def __call__(self, *args: Any) -> str:
        return f"{self.tag} fmax"

    def reduce(self, *args: Any) -> str:
        return f"{self.tag} fmax.reduce"


class OtherArray:
    """The made-up backend's array type."""


def _library() -> types.ModuleType:
    library = types.ModuleType("other_lib")
    library.__all__ = ["pad", "einsum", "fmax", "random", "ndarray", "float16", "sum", "testing", "mpi", "numpy_backend"]  # type: ignore[attr-defined]  # fmt: skip
    library.pad = lambda *args, **kwargs: ("other pad", args, kwargs)  # type: ignore[attr-defined]
    library.einsum = lambda *args: "other einsum"  # type: ignore[attr-defined]
    library.fmax = _Ufunc("other")  # type: ignore[attr-defined]
    library.ndarray = OtherArray  # type: ignore[attr-defined]
    library.float16 = np.float16  # type: ignore[attr-defined]  # shared, as CuPy's is
    random = types.ModuleType("other_lib.random")
    random.rand = lambda n: f"other rand({n})"  # type: ignore[attr-defined]
    library.random = random  # type: ignore[attr-defined]
    for name in ("sum", "testing", "mpi", "numpy_backend"):  # cunumpy's own names
        setattr(library, name, f"other {name}")
    linalg = types.ModuleType("other_lib.linalg")
    linalg.norm = lambda x: "other norm"  # type: ignore[attr-defined]
    fft = types.ModuleType("other_lib.fft")
    fft.fft2 = lambda x: "other fft2"  # type: ignore[attr-defined]
    library.linalg, library.fft = linalg, fft  # type: ignore[attr-defined]
    return library


@pytest.fixture
def other() -> Iterator[types.ModuleType]:
    """A made-up backend namespace (``cunumpy._backends.other_lib``) and its library."""
    library = _library()
    namespace = types.ModuleType("cunumpy._backends.other_lib")
    for part, source in (("", library), ("linalg", library.linalg), ("fft", library.fft)):
        target = types.ModuleType(f"cunumpy._backends.other_lib{'.' if part else ''}{part}")

        def getattr_(name: str, source: Any = source, target: Any = target) -> Any:
            return _superset.library_attribute(source, target.__name__, name)

        target.__getattr__ = getattr_  # type: ignore[method-assign]
        if part:
            setattr(namespace, part, target)
        else:
            namespace.__getattr__ = getattr_  # type: ignore[method-assign]
    modules = {"other_lib": library, "other_lib.linalg": library.linalg, "other_lib.fft": library.fft}  # fmt: skip
    sys.modules.update(modules)
    _config._NAMES[namespace] = "other"
    yield namespace
    gc.collect()
    assert _landscape.others() == frozenset()  # no token of a test outlives it
    for name in modules:
        del sys.modules[name]


@contextmanager
def block(namespace: types.ModuleType) -> Iterator[None]:
    """What ``use_backend`` does, for a backend it does not know."""
    reset = _config._context.set(_config._Override(namespace))
    try:
        yield
    finally:
        _config._context.reset(reset)


def test_on_one_backend_the_names_are_the_librarys_objects_as_globals() -> None:
    gc.collect()  # no block of another backend left alive by an earlier test
    assert cunumpy.random is np.random  # imported lazily by NumPy: kept once found
    for name in ("pad", "einsum", "float16", "nanmax", "random"):
        assert vars(cunumpy)[name] is getattr(np, name)
    assert vars(cunumpy.linalg)["norm"] is np.linalg.norm
    assert vars(cunumpy.fft)["fft2"] is np.fft.fft2


def test_a_block_of_another_backend_follows_its_context(other: types.ModuleType) -> None:
    with block(other):
        assert cunumpy.pad(1, mode="edge") == ("other pad", (1,), {"mode": "edge"})
        assert cunumpy.einsum("i") == "other einsum"
        assert cunumpy.fmax(1, 2) == "other fmax"
        assert cunumpy.fmax.reduce(1) == "other fmax.reduce" and cunumpy.fmax.nin == 2
        assert cunumpy.random.rand(3) == "other rand(3)"
        assert cunumpy.ndarray is OtherArray  # classes: __getattr__, per context
        assert cunumpy.float16 is np.float16  # one object in both: kept as it is
        assert cunumpy.linalg.norm(0) == "other norm"
        assert cunumpy.fft.fft2(0) == "other fft2"
        with cunumpy.use_backend("numpy"):  # nested: the default's objects again
            np.testing.assert_array_equal(cunumpy.pad(np.ones(1), 1), [0.0, 1.0, 0.0])
            assert cunumpy.fmax.reduce(np.asarray([1.0, 3.0])) == 3.0
            assert cunumpy.random is not None and cunumpy.ndarray is np.ndarray
            assert cunumpy.linalg.norm(np.asarray([3.0, 4.0])) == 5.0
        assert cunumpy.pad(2) == ("other pad", (2,), {})
        pad = cunumpy.pad
    assert cunumpy.pad is np.pad and vars(cunumpy)["pad"] is np.pad  # direct again
    assert cunumpy.linalg.norm is np.linalg.norm and cunumpy.fft.fft2 is np.fft.fft2
    # a stand-in kept past the block keeps following the context
    np.testing.assert_array_equal(pad(np.ones(1), 1), [0.0, 1.0, 0.0])


def test_cunumpys_own_names_are_never_shadowed(other: types.ModuleType) -> None:
    own = {"sum": cunumpy.sum, "testing": cunumpy.testing, "mpi": cunumpy.mpi}
    with block(other):
        for name, value in own.items():
            assert getattr(cunumpy, name) is value
        assert cunumpy.numpy_backend is False  # 0.7.1's flag: the context's backend
        assert cunumpy.linalg.vector_norm.__module__ == "cunumpy.linalg"
    assert cunumpy.numpy_backend is True and "numpy_backend" not in vars(cunumpy)
    assert cunumpy.sum.__module__ == "cunumpy._api.statistics"


def test_every_submodule_of_cunumpy_is_its_own_name() -> None:
    binding: Any = _superset.public_modules["cunumpy"]
    submodules = {m.name for m in pkgutil.iter_modules(cunumpy.__path__)}
    assert {name for name in submodules if not name.startswith("_")} <= binding._own
    numpy_names = set(np.__all__)
    assert binding._installed.keys() & binding._own == set()
    assert {"testing", "linalg", "fft", "random"} <= numpy_names  # NumPy has them too


def test_a_thread_sees_the_default_while_another_thread_is_in_a_block(
    other: types.ModuleType,
) -> None:
    entered, done = threading.Event(), threading.Event()
    seen: list[Any] = []

    def in_block() -> None:
        with block(other):
            entered.set()
            done.wait(30)
            seen.append(cunumpy.pad(0))

    thread = threading.Thread(target=in_block)
    thread.start()
    assert entered.wait(30)
    np.testing.assert_array_equal(cunumpy.pad(np.ones(1), 1), [0.0, 1.0, 0.0])
    assert cunumpy.random is np.random or cunumpy.random.rand(1).shape == (1,)
    done.set()
    thread.join(30)
    assert seen == [("other pad", (0,), {})]
    assert cunumpy.pad is np.pad


def test_a_thread_started_in_a_block_sees_the_default(other: types.ModuleType) -> None:
    seen: list[Any] = []
    with block(other):
        thread = threading.Thread(target=lambda: seen.append(cunumpy.einsum("i->", np.ones(2))))
        thread.start()
        thread.join(30)
    assert seen == [2.0]


def test_an_asyncio_task_outliving_its_block_keeps_the_blocks_backend(
    other: types.ModuleType,
) -> None:
    async def late() -> Any:
        await asyncio.sleep(0.01)
        return cunumpy.pad(7)

    async def main() -> tuple[Any, Any, bool]:
        with block(other):
            task = asyncio.create_task(late())
        outside = cunumpy.pad(np.ones(1), 1)  # the block has ended here
        following = _landscape.others() == {other}  # the task holds its token
        return outside, await task, following

    outside, inside, following = asyncio.run(main())
    np.testing.assert_array_equal(outside, [0.0, 1.0, 0.0])
    assert inside == ("other pad", (7,), {}) and following
    gc.collect()
    assert cunumpy.pad is np.pad


def test_a_copied_context_keeps_its_backend_after_the_block(other: types.ModuleType) -> None:
    with block(other):
        copied = contextvars.copy_context()
    assert copied.run(lambda: cunumpy.pad(1)) == ("other pad", (1,), {})
    assert cunumpy.pad is not np.pad  # the copy holds the token
    del copied
    gc.collect()
    assert cunumpy.pad is np.pad


def test_a_changed_default_rebinds_the_names(other: types.ModuleType) -> None:
    _landscape.change_default(other)
    assert vars(cunumpy)["pad"] is sys.modules["other_lib"].pad
    assert vars(cunumpy)["float16"] is np.float16
    assert "nanmax" not in vars(cunumpy)  # NumPy's, absent from this library
    with pytest.raises(AttributeError, match=r"'cunumpy' has no attribute 'nanmax'"):
        cunumpy.nanmax
    assert cunumpy.linalg.norm(0) == "other norm"
    sys.modules["other_lib"].late = lambda: "late"  # found later (a lazy submodule)
    assert cunumpy.late() == "late" and "late" in vars(cunumpy)  # then a global
    _landscape.change_default(_config._numpy_module)
    assert vars(cunumpy)["pad"] is np.pad and "late" not in vars(cunumpy)
    assert cunumpy.nanmax is np.nanmax


def test_names_only_the_other_backend_has_are_found_in_its_blocks(
    other: types.ModuleType,
) -> None:
    sys.modules["other_lib"].only_here = lambda: "only here"
    with block(other):
        assert cunumpy.only_here() == "only here"
        with pytest.raises(AttributeError, match="numpy"):
            cunumpy.linalg.only_here
    with pytest.raises(AttributeError, match=r"'cunumpy' has no attribute 'only_here'"):
        cunumpy.only_here


def test_stand_ins_read_like_what_they_stand_for(other: types.ModuleType) -> None:
    with block(other):
        pad, random = cunumpy.pad, cunumpy.random
        assert isinstance(random, types.ModuleType) and "following" in repr(random)
        assert random.rand(1) == "other rand(1)" and "rand" in vars(random)  # kept
        assert "rand" in dir(random)
        assert isinstance(cunumpy.fmax, Forwarder) and "fmax" in repr(cunumpy.fmax)
    assert pad.__name__ == "pad" and pad.__doc__ == np.pad.__doc__
    assert random.__doc__ == np.random.__doc__


def test_listeners_hear_of_the_backends_code_may_see(other: types.ModuleType) -> None:
    heard: list[tuple[Any, frozenset[Any]]] = []
    numpy_namespace = _config._numpy_module
    _config.add_listener(lambda default, others: heard.append((default, others)))
    try:
        with block(other), block(other):  # a second token of that backend changes nothing
            pass
        gc.collect()
    finally:
        _landscape._listeners.pop()
    assert heard == [
        (numpy_namespace, frozenset()),
        (numpy_namespace, frozenset({other})),
        (numpy_namespace, frozenset()),
    ]


def test_dir_help_and_star_import_show_cunumpys_own_names_only() -> None:
    import pydoc

    assert dir(cunumpy) == sorted(cunumpy.__all__) and "pad" not in dir(cunumpy)
    assert "norm" not in dir(cunumpy.linalg) and "fft2" not in dir(cunumpy.fft)
    star: dict[str, Any] = {}
    exec("from cunumpy import *", star)
    assert set(star) - {"__builtins__"} == set(cunumpy.__all__)
    text = pydoc.render_doc(cunumpy, renderer=pydoc.plaintext)
    assert "use_backend(name" in text and "\n    pad(" not in text


def test_threads_entering_and_leaving_blocks_never_see_another_contexts_name(
    other: types.ModuleType,
) -> None:
    """Blocks of the other backend open and close in two threads while two threads on
    the default call the same names: every call gets its own context's function."""
    wrong: list[str] = []
    start = threading.Barrier(4)

    def in_blocks() -> None:
        start.wait(30)
        for _ in range(300):
            with block(other):
                if cunumpy.pad(0) != ("other pad", (0,), {}):
                    wrong.append("a block saw NumPy's pad")
                if cunumpy.linalg.norm(0) != "other norm":
                    wrong.append("a block saw NumPy's norm")

    def on_default() -> None:
        start.wait(30)
        for _ in range(300):
            if cunumpy.pad(np.ones(1), 1).tolist() != [0.0, 1.0, 0.0]:
                wrong.append("the default saw the other pad")
            if cunumpy.linalg.norm(np.asarray([3.0, 4.0])) != 5.0:
                wrong.append("the default saw the other norm")

    threads = [threading.Thread(target=f) for f in (in_blocks, in_blocks, on_default, on_default)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert wrong == []
    gc.collect()
    assert cunumpy.pad is np.pad


def test_a_token_collected_while_the_listeners_run_is_counted_out_after_them(
    other: types.ModuleType,
) -> None:
    """A finalizer in the publishing thread (the garbage collector inside a listener) must
    neither wait for the lock nor spin on it, nor be lost: the running loop counts it out."""
    numpy_namespace = _config._numpy_module
    held: list[Any] = [_config._Override(other)]
    calls: list[tuple[Any, frozenset[Any]]] = []

    def listener(default: Any, others: frozenset[Any]) -> None:
        calls.append((default, others))
        if default is other:
            held.clear()  # the token dies here, while the listeners run

    _config.add_listener(listener)
    try:
        _landscape.change_default(other)
        assert held == []
        _landscape.change_default(numpy_namespace)
        assert _landscape.others() == frozenset() and cunumpy.pad is np.pad
    finally:
        _landscape._listeners.remove(listener)
    assert calls == [
        (numpy_namespace, frozenset({other})),
        (other, frozenset()),
        (other, frozenset({numpy_namespace})),  # while the default changes back
        (numpy_namespace, frozenset()),
    ]
