"""Backend selection: set_backend, get_backend, use_backend and CUNUMPY_BACKEND."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import threading
import warnings
from collections.abc import AsyncIterator, Callable, Iterator

import numpy as np
import pytest

import cunumpy
from cunumpy._backend_choice import _config


def test_default_backend_is_numpy() -> None:
    assert cunumpy.get_backend() == "numpy"
    assert isinstance(cunumpy.zeros(2), np.ndarray)


def test_unknown_backend_lists_the_valid_names() -> None:
    with pytest.raises(ValueError, match=r"set_backend: unknown backend 'jax'.*'numpy', 'cupy'"):
        cunumpy.set_backend("jax")
    with pytest.raises(TypeError, match=r"use_backend: `name` must be a str"):
        cunumpy.use_backend(1).__enter__()  # type: ignore[arg-type]


def test_use_backend_restores_on_exception() -> None:
    def fail_inside() -> None:
        with cunumpy.use_backend("numpy") as namespace:
            assert namespace is cunumpy.array_namespace(np.ones(1))
            raise KeyError("boom")

    with pytest.raises(KeyError):
        fail_inside()
    assert cunumpy.get_backend() == "numpy"


@pytest.mark.skipif(cunumpy.cupy_available(), reason="checks the path where CuPy is not usable")
def test_strict_cupy_backend_without_usable_cupy_raises_with_the_reason() -> None:
    reason = cunumpy.cupy_unavailable_reason()
    assert reason
    with pytest.raises(RuntimeError, match="set_backend: the CuPy backend is not usable") as info:
        cunumpy.set_backend("cupy", strict=True)
    assert reason in str(info.value)
    assert isinstance(info.value, ImportError)  # 0.7.1's to_cupy raised ImportError
    assert isinstance(info.value, cunumpy.CupyUnavailableError)
    assert cunumpy.get_backend() == "numpy"
    block = cunumpy.use_backend("cupy", strict=True)
    with pytest.raises(cunumpy.CupyUnavailableError, match="use_backend: the CuPy backend"):
        block.__enter__()
    assert cunumpy.get_backend() == "numpy"


@pytest.mark.skipif(cunumpy.cupy_available(), reason="checks the path where CuPy is not usable")
def test_cupy_backend_without_usable_cupy_warns_and_stays_on_numpy() -> None:
    reason = cunumpy.cupy_unavailable_reason()
    assert reason
    with pytest.warns(cunumpy.CupyUnavailableWarning, match="set_backend: CuPy was asked") as rec:
        cunumpy.set_backend("cupy")
    assert reason in str(rec[0].message) and "strict=True" in str(rec[0].message)
    assert rec[0].filename == __file__  # points at the caller's line
    assert cunumpy.get_backend() == "numpy"
    assert isinstance(cunumpy.zeros(2), np.ndarray)
    block = cunumpy.use_backend("cupy")
    with pytest.warns(cunumpy.CupyUnavailableWarning, match="use_backend: CuPy was asked") as rec:
        namespace = block.__enter__()
    assert rec[0].filename == __file__
    assert cunumpy.get_backend() == "numpy"
    assert namespace is cunumpy.array_namespace(np.ones(1))
    block.__exit__(None, None, None)


def test_auto_takes_cupy_only_where_usable_without_a_warning() -> None:
    expected = "cupy" if cunumpy.cupy_available() else "numpy"
    with cunumpy.use_backend("auto"):
        assert cunumpy.get_backend() == expected
    assert cunumpy.get_backend() == "numpy"
    cunumpy.set_backend(" AUTO ")
    assert cunumpy.get_backend() == expected


def _import_with(value: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "CUNUMPY_BACKEND": value}
    code = "import cunumpy; print(cunumpy.get_backend())"
    return subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120
    )


@pytest.mark.parametrize("value", ["numpy", " NumPy ", ""])
def test_environment_variable_numpy(value: str) -> None:
    result = _import_with(value)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "numpy"


def test_environment_variable_auto_picks_what_is_usable() -> None:
    result = _import_with("auto")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == ("cupy" if cunumpy.cupy_available() else "numpy")


def test_malformed_environment_variable_is_an_import_error_naming_it() -> None:
    result = _import_with("gpu-please")
    assert result.returncode != 0
    assert (
        "ValueError: cunumpy: the environment variable CUNUMPY_BACKEND='gpu-please'"
        in result.stderr
    )


@pytest.mark.skipif(cunumpy.cupy_available(), reason="checks the path where CuPy is not usable")
def test_environment_variable_cupy_without_gpu_warns_with_reason_and_stays_on_numpy() -> None:
    result = _import_with("cupy")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "numpy"
    assert "CupyUnavailableWarning: cunumpy: CUNUMPY_BACKEND='cupy' asks for CuPy" in result.stderr
    assert str(cunumpy.cupy_unavailable_reason()) in result.stderr


def test_import_loads_no_gpu_or_mpi_library() -> None:
    code = (
        "import sys, cunumpy, cunumpy.linalg, cunumpy.fft, cunumpy.testing\n"
        "x = cunumpy.sum(cunumpy.ones(3)); cunumpy.array_namespace(x)\n"
        "print(sorted(m for m in ('cupy', 'mpi4py', 'torch', 'jax', 'dask', 'distributed') if m in sys.modules))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "CUNUMPY_BACKEND": "numpy"},
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


# --- Threads and asyncio tasks: use_backend is context-local, set_backend process-wide -----
#
# With only NumPy usable (no GPU here), every block uses "numpy", so the tests tell the
# blocks apart by the state object each one installs (``_config.current()``), which is
# what the dispatch reads; the GPU variant below mixes real backends.


def _interleave(names: list[str], check: Callable[[int, str], None]) -> list[BaseException]:
    """Run one thread per name; all enter their block, then leave in turn: A enters, B
    enters, ..., A leaves, B leaves (the order that leaked before). Returns the errors."""
    n = len(names)
    entered = threading.Barrier(n + 1)
    leave = [threading.Event() for _ in range(n)]
    left = [threading.Event() for _ in range(n)]
    errors: list[BaseException] = []

    def worker(index: int, name: str) -> None:
        try:
            outside = _config.current()
            with cunumpy.use_backend(name):
                inside = _config.current()
                assert inside is not outside
                entered.wait(timeout=30)
                assert leave[index].wait(timeout=30)
                assert _config.current() is inside  # no other thread's block leaked in
                check(index, name)
            assert _config.current() is outside
        except BaseException as exc:
            errors.append(exc)
            entered.abort()
        finally:
            left[index].set()

    threads = [threading.Thread(target=worker, args=(i, nm)) for i, nm in enumerate(names)]
    for thread in threads:
        thread.start()
    try:
        entered.wait(timeout=30)
        assert _config.current() is _config._default  # the main thread is in no block
        for index in range(n):
            leave[index].set()
            assert left[index].wait(timeout=30)
    except threading.BrokenBarrierError:
        pass
    for thread in threads:
        thread.join(timeout=30)
    return errors


def test_eight_threads_interleave_use_backend_blocks() -> None:
    seen: dict[int, object] = {}

    def check(index: int, name: str) -> None:
        seen[index] = _config.current()
        assert cunumpy.get_backend() == name
        assert type(cunumpy.zeros(2)) is np.ndarray

    errors = _interleave(["numpy"] * 8, check)
    assert errors == []
    assert len({id(state) for state in seen.values()}) == 8  # one state per thread
    assert _config.current() is _config._default
    assert cunumpy.get_backend() == "numpy"


@pytest.mark.gpu
def test_eight_threads_with_two_backends_each_see_their_own() -> None:
    import cupy

    def check(index: int, name: str) -> None:
        assert cunumpy.get_backend() == name
        expected = cupy.ndarray if name == "cupy" else np.ndarray
        assert type(cunumpy.zeros(2)) is expected
        assert type(cunumpy.arange(3)) is expected

    errors = _interleave(["cupy", "numpy"] * 4, check)
    assert errors == []
    assert cunumpy.get_backend() == "numpy"
    assert type(cunumpy.zeros(2)) is np.ndarray


def test_a_thread_sees_the_process_default_not_another_threads_block() -> None:
    inside = threading.Event()
    release = threading.Event()
    seen: list[object] = []

    def holder() -> None:
        with cunumpy.use_backend("numpy"):
            seen.append(_config.current())
            inside.set()
            release.wait(timeout=30)

    thread = threading.Thread(target=holder)
    thread.start()
    assert inside.wait(timeout=30)
    try:
        assert _config.current() is _config._default
        assert seen[0] is not _config._default
    finally:
        release.set()
        thread.join(timeout=30)


def test_asyncio_tasks_each_keep_their_backend() -> None:
    async def task(step: asyncio.Event, done: asyncio.Event) -> tuple[object, object]:
        with cunumpy.use_backend("numpy"):
            mine = _config.current()
            step.set()
            await done.wait()  # the other task enters its block meanwhile
            return mine, _config.current()

    async def main() -> list[tuple[object, object]]:
        a_in, b_in, go = asyncio.Event(), asyncio.Event(), asyncio.Event()
        first = asyncio.create_task(task(a_in, go))
        await asyncio.wait_for(a_in.wait(), timeout=30)
        second = asyncio.create_task(task(b_in, go))
        await asyncio.wait_for(b_in.wait(), timeout=30)
        assert _config.current() is _config._default  # the loop's own context
        go.set()
        return list(await asyncio.wait_for(asyncio.gather(first, second), timeout=30))

    results = asyncio.run(main())
    for mine, after_await in results:
        assert mine is after_await
    assert results[0][0] is not results[1][0]
    assert _config.current() is _config._default


def test_set_backend_inside_a_block_switches_the_block_and_sets_the_default() -> None:
    with cunumpy.use_backend("numpy"):
        block = _config.current()
        cunumpy.set_backend("numpy")
        assert _config.current() is not block  # this block now uses the new choice
        assert _config._default.namespace is _config.current().namespace
    assert _config.current() is _config._default


def test_backend_names_ignore_case_like_the_environment_variable() -> None:
    cunumpy.set_backend(" NumPy ")
    assert cunumpy.get_backend() == "numpy"
    with cunumpy.use_backend("NUMPY") as namespace:
        assert namespace is cunumpy.array_namespace(np.ones(1))


@pytest.mark.gpu
def test_current_stream_and_device_are_per_thread() -> None:
    """CUDA keeps the current device and CuPy the current stream per thread (documented in
    the guide's "Threads" section): another thread's ``stream()`` block changes neither."""
    from cunumpy import cuda

    cunumpy.set_backend("cupy")
    before = cuda.current_stream()
    inside = threading.Event()
    release = threading.Event()
    theirs: list[object] = []

    def other() -> None:
        with cuda.stream() as s:
            theirs.append(s)
            assert cuda.current_stream() is s
            inside.set()
            release.wait(timeout=30)

    thread = threading.Thread(target=other)
    thread.start()
    try:
        assert inside.wait(timeout=30)
        assert cuda.current_stream() is not theirs[0]
        assert cuda.current_stream().ptr == before.ptr
    finally:
        release.set()
        thread.join(timeout=30)


# --- Blocks left out of order: never a block's backend left behind ---------------------


def _block_generator(name: str, seen: list[object]) -> Iterator[int]:
    with cunumpy.use_backend(name):
        seen.append(_config.current())
        yield 1
        yield 2


def test_interleaved_generators_raise_and_leave_no_backend_behind() -> None:
    seen: list[object] = []
    first, second = _block_generator("numpy", seen), _block_generator("numpy", seen)
    next(first)
    next(second)  # second's block is entered while first's is open
    with pytest.raises(RuntimeError, match=r"use_backend: the block using 'numpy' was left"):
        list(first)  # first finishes before second: out of order
    assert _config.current() is seen[1]  # the open block keeps its backend
    assert list(second) == [2]
    assert _config.current() is _config._default
    assert _config._blocks.get() == ()


def test_generators_finished_innermost_first_are_fine() -> None:
    seen: list[object] = []
    first, second = _block_generator("numpy", seen), _block_generator("numpy", seen)
    next(first)
    next(second)
    assert list(second) == [2]
    assert _config.current() is seen[0]
    assert list(first) == [2]
    assert _config.current() is _config._default


def test_blocks_left_by_hand_out_of_order() -> None:
    outer, middle, inner = (cunumpy.use_backend("numpy") for _ in range(3))
    outer.__enter__()
    in_outer = _config.current()
    middle.__enter__()
    inner.__enter__()
    in_inner = _config.current()
    with pytest.raises(RuntimeError, match=r"still open in the same thread or task"):
        middle.__exit__(None, None, None)
    assert _config.current() is in_inner
    inner.__exit__(None, None, None)  # restores what `middle` found: `outer`'s backend
    assert _config.current() is in_outer
    outer.__exit__(None, None, None)
    assert _config.current() is _config._default


def test_a_block_left_in_another_thread_raises_and_changes_nothing() -> None:
    block = cunumpy.use_backend("numpy")
    block.__enter__()
    inside = _config.current()
    errors: list[BaseException] = []

    def leave() -> None:
        try:
            block.__exit__(None, None, None)
        except BaseException as exc:
            errors.append(exc)

    thread = threading.Thread(target=leave)
    thread.start()
    thread.join(timeout=30)
    assert len(errors) == 1 and isinstance(errors[0], RuntimeError)
    assert "left in another thread or asyncio task" in str(errors[0])
    assert _config.current() is inside  # this thread's block is still open
    _config._leave(_config._blocks.get()[-1][0])  # end it here, where it was entered
    assert _config.current() is _config._default


def test_interleaved_async_generators_in_one_task_leave_no_backend_behind() -> None:
    async def blocks(seen: list[object]) -> AsyncIterator[int]:
        with cunumpy.use_backend("numpy"):
            seen.append(_config.current())
            yield 1
            yield 2

    async def main() -> tuple[bool, bool]:
        seen: list[object] = []
        first, second = blocks(seen), blocks(seen)
        await first.__anext__()
        await second.__anext__()
        with pytest.raises(RuntimeError, match=r"use_backend"):
            async for _ in first:
                pass
        still_second = _config.current() is seen[1]
        async for _ in second:
            pass
        return still_second, _config.current() is _config._default

    assert asyncio.run(main()) == (True, True)
    assert _config.current() is _config._default


def test_tasks_that_each_run_a_generator_block_stay_apart() -> None:
    async def task(step: asyncio.Event, go: asyncio.Event) -> bool:
        seen: list[object] = []
        generator = _block_generator("numpy", seen)
        next(generator)
        step.set()
        await go.wait()  # the other task enters its generator's block meanwhile
        mine = _config.current() is seen[0]
        list(generator)
        return mine and _config.current() is _config._default

    async def main() -> list[bool]:
        a_in, b_in, go = asyncio.Event(), asyncio.Event(), asyncio.Event()
        first = asyncio.create_task(task(a_in, go))
        await asyncio.wait_for(a_in.wait(), timeout=30)
        second = asyncio.create_task(task(b_in, go))
        await asyncio.wait_for(b_in.wait(), timeout=30)
        go.set()
        return list(await asyncio.wait_for(asyncio.gather(first, second), timeout=30))

    assert asyncio.run(main()) == [True, True]
    assert _config.current() is _config._default


@pytest.mark.gpu
def test_interleaved_generators_with_two_backends_leave_the_default() -> None:
    seen: list[object] = []
    on_gpu, on_cpu = _block_generator("cupy", seen), _block_generator("numpy", seen)
    next(on_gpu)
    next(on_cpu)
    with pytest.raises(RuntimeError, match=r"the block using 'cupy' was left"):
        list(on_gpu)
    assert cunumpy.get_backend() == "numpy"  # the open block's backend
    list(on_cpu)
    assert cunumpy.get_backend() == "numpy"
    assert type(cunumpy.zeros(2)) is np.ndarray


def test_a_use_backend_never_entered_warns_when_collected_naming_the_call() -> None:
    import gc

    def forgotten() -> None:
        cunumpy.use_backend("numpy")  # no `with`: it changes nothing
        gc.collect()

    with pytest.warns(
        RuntimeWarning, match=r"use_backend\('numpy'\) made at .* never entered"
    ) as rec:
        forgotten()
    assert rec[0].filename == __file__  # the line that made it
    assert "with xp.use_backend('numpy'):" in str(rec[0].message)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # entered, decorating, or refused: no warning
        with cunumpy.use_backend("numpy"):
            pass
        block = cunumpy.use_backend("bogus")
        with pytest.raises(ValueError, match="bogus"):
            block.__enter__()
        del block

        @cunumpy.use_backend("numpy")
        def backend() -> str:
            return cunumpy.get_backend()

        assert backend() == backend() == "numpy"
        gc.collect()


def test_a_use_backend_block_is_entered_once() -> None:
    block = cunumpy.use_backend("numpy")
    with block:
        pass
    with pytest.raises(RuntimeError, match=r"entered already.*call use_backend\('numpy'\) again"):
        block.__enter__()
