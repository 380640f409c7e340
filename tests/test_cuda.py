"""Tests of cunumpy.cuda: devices, memory, synchronization, streams and pinned memory.

The CPU tests check the NumPy-backend row of every helper and what each helper does when
CuPy is installed but unusable (the situation on CI machines without a GPU). Tests
marked ``gpu`` use CuPy and a real GPU; conftest skips them without one.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import cunumpy
import cunumpy.cuda as cuda
from cunumpy._settings import _cupy_probe as _cupy
from cunumpy.cuda import _memory as _cuda_memory

PUBLIC = {
    "HostEvent",
    "HostStream",
    "MemoryStats",
    "bind_local_device",
    "create_event",
    "create_stream",
    "record_event",
    "set_device_for_rank",
    "wait_event",
    "cupy_available",
    "cupy_unavailable_reason",
    "current_device",
    "current_stream",
    "device",
    "device_count",
    "free_memory",
    "memory_info",
    "memory_stats",
    "pin_memory",
    "set_device",
    "stream",
    "streams",
    "synchronize",
    # CudaKernel's tools (CuNumpy 0.7.1's kernel names; tests/test_cuda_kernel.py)
    "CudaParameter",
    "DEBUG_OPTIONS",
    "DEFAULT_SHARED_MEMORY_PER_BLOCK",
    "ctype_of",
    "cuda_debug",
    "cuda_include_dir",
    "cuda_kernel_names",
    "get_cuda_debug",
    "include_hash",
    "is_hip",
    "max_shared_memory_per_block",
    "parse_cuda_signature",
    "resolve_includes",
    "set_cuda_debug",
}

needs_unusable_cupy = pytest.mark.skipif(
    cunumpy.cupy_available() or not _cupy.cupy_installed(),
    reason="needs CuPy installed but without a usable GPU",
)


def _run_python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
        cwd=Path(__file__).resolve().parents[1],  # the checkout's cunumpy comes first
        env={**os.environ, "CUNUMPY_BACKEND": "numpy"},
    )


# --- the module itself -----------------------------------------------------------------


def test_all_lists_exactly_the_public_names() -> None:
    defined = {name for name in vars(cuda) if not name.startswith("_")}
    assert set(cuda.__all__) == PUBLIC
    assert len(cuda.__all__) == len(set(cuda.__all__))
    assert set(cuda.__all__) <= defined | set(cuda._LAZY)  # some are loaded on first use
    for name in cuda.__all__:
        assert getattr(cuda, name).__doc__, name
    with pytest.raises(AttributeError, match="has no attribute 'nothing'"):
        cuda.nothing


def test_import_cunumpy_leaves_the_cuda_c_tools_unloaded() -> None:
    # the streams are needed at import; the CUDA C tools and pinned memory are not
    code = (
        "import sys, cunumpy\n"
        "print(sorted(m for m in ('cunumpy.cuda._sources', 'cunumpy.cuda._signature',"
        " 'cunumpy.cuda._pinned', 'hashlib') if m in sys.modules))\n"
        "from cunumpy.cuda import parse_cuda_signature, include_hash\n"
        "print('cunumpy.cuda._sources' in sys.modules, callable(include_hash))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split("\n")[:2] == ["[]", "True True"]


def test_cupy_available_is_the_shared_probe() -> None:
    assert cuda.cupy_available is _cupy.cupy_available
    assert cuda.cupy_available() is cunumpy.cupy_available()


def test_the_reason_named_by_cupy_available_is_in_cuda_too() -> None:
    """``cuda.cupy_available``'s docstring names ``cupy_unavailable_reason``: it exists."""
    assert "cuda.cupy_unavailable_reason" in (cuda.cupy_available.__doc__ or "")
    assert cuda.cupy_unavailable_reason is cunumpy.cupy_unavailable_reason
    reason = cuda.cupy_unavailable_reason()
    assert (reason is None) == cuda.cupy_available()
    assert reason is None or reason.strip()


def test_numpy_backend_helpers_do_not_import_cupy() -> None:
    result = _run_python(
        """
        import sys
        import numpy as np
        import cunumpy.cuda as cuda

        cuda.synchronize()
        cuda.synchronize("cpu")
        assert cuda.memory_info() is None
        assert cuda.memory_info("cpu") is None
        assert cuda.memory_stats() is None
        assert cuda.memory_stats(np.zeros(1).device) is None
        cuda.free_memory()
        cuda.free_memory("cpu")
        with cuda.stream() as s:
            assert s is None
        assert cuda.current_stream() is None
        assert cuda.current_device() == "cpu"
        cuda.set_device("cpu")
        with cuda.device("cpu") as d:
            assert d == "cpu"
        assert "cupy" not in sys.modules, "cupy was imported"
        print("ok")
        """
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


def test_pin_memory_without_cupy_installed_raises_import_error() -> None:
    # Hide CuPy from the import system in a fresh interpreter (nothing is faked: CuPy is
    # simply not importable there, as on a machine without it).
    result = _run_python(
        """
        import sys

        class HideCupy:
            def find_spec(self, name, path=None, target=None):
                if name == "cupy" or name.startswith(("cupy.", "cupyx")):
                    raise ModuleNotFoundError(f"No module named {name!r}")
                return None

        sys.meta_path.insert(0, HideCupy())
        import numpy as np
        import cunumpy.cuda as cuda

        assert cuda.device_count() == 0
        assert cuda.cupy_available() is False
        cuda.set_device("cpu")  # a no-op on every backend
        try:
            cuda.pin_memory(np.zeros(3))
        except ImportError as exc:
            print(exc)
        else:
            raise SystemExit("no ImportError")
        try:
            cuda.memory_info(0)
        except RuntimeError as exc:
            print(exc)
        """
    )
    assert result.returncode == 0, result.stderr
    first, second = result.stdout.strip().splitlines()
    assert first.startswith("pin_memory: CuPy is not installed")
    assert "pip install cupy-cuda12x or cupy-cuda13x" in first
    assert "pip install '.[cuda12]' or '.[cuda13]'" in first
    assert second.startswith(
        "memory_info: GPU 0 was asked for, but this process has 0 usable GPUs: the CuPy backend "
        "is not usable: CuPy is not installed"
    )


# --- NumPy backend: the neutral answers of the table --------------------------------------


def test_device_count_matches_the_runtime_or_is_zero() -> None:
    count = cuda.device_count()
    assert isinstance(count, int)
    if cunumpy.cupy_available():
        import cupy

        assert count == cupy.cuda.runtime.getDeviceCount() > 0
    else:
        assert count == 0


def _gpu_work() -> int | None:
    """The GPU the helpers act on while on the NumPy backend: the current one once CuPy
    has a CUDA context there (it may hold work), else None (the seed's neutral answers)."""
    cupy = _cuda_memory.loaded_cupy()
    return None if cupy is None else int(cupy.cuda.runtime.getDevice())


def test_current_device_on_numpy_backend_is_cpu_without_gpu_work() -> None:
    gpu = _gpu_work()
    assert cuda.current_device() == ("cpu" if gpu is None else gpu)


@pytest.mark.parametrize("device", [None, "cpu", "CPU", np.zeros(2).device])
def test_memory_queries_are_none_for_cpu(device: Any) -> None:
    if device is None and _gpu_work() is not None:  # CuPy holds work: the current GPU
        assert isinstance(cuda.memory_info(device), tuple)
        return
    assert cuda.memory_info(device) is None
    assert cuda.memory_stats(device) is None


@pytest.mark.parametrize("device", [None, "cpu", np.zeros(2).device])
def test_free_memory_and_synchronize_return_none_for_cpu(device: Any) -> None:
    assert cuda.free_memory(device) is None
    assert cuda.synchronize(device) is None


def test_stream_yields_none_on_numpy_backend_without_gpu_work() -> None:
    if _gpu_work() is not None:
        pytest.skip(
            "CuPy has a CUDA context on the current GPU here: stream() yields a branch (issue 50)"
        )
    with cuda.stream() as s:
        assert s is None
        assert cuda.current_stream() is None
    assert cuda.current_stream() is None


def test_device_cpu_yields_cpu_and_keeps_the_backend() -> None:
    with cuda.device("cpu") as d:
        assert d == "cpu"
        assert cunumpy.get_backend() == "numpy"
        gpu = _gpu_work()
        assert cuda.current_device() == ("cpu" if gpu is None else gpu)


def test_device_cpu_propagates_exceptions() -> None:
    with pytest.raises(KeyError, match="boom"), cuda.device("cpu"):
        raise KeyError("boom")


def test_set_device_cpu_is_a_no_op() -> None:
    gpu = _gpu_work()
    assert cuda.set_device("cpu") is None
    assert cuda.current_device() == ("cpu" if gpu is None else gpu)


# --- errors: wrong types and bad values ------------------------------------------------------


FUNCS_TAKING_DEVICE = ["memory_info", "memory_stats", "free_memory", "synchronize", "set_device"]


def _call(name: str, device: Any) -> Any:
    if name == "device":
        with cuda.device(device):
            pass
        return None
    return getattr(cuda, name)(device)


@pytest.mark.parametrize("name", [*FUNCS_TAKING_DEVICE, "device"])
@pytest.mark.parametrize("bad", [1.5, True, object(), [0]])
def test_wrong_device_type_is_a_type_error_naming_the_function(name: str, bad: Any) -> None:
    with pytest.raises(TypeError, match=rf"^{name}: .*{type(bad).__name__}|^{name}: .*bool"):
        _call(name, bad)


@pytest.mark.parametrize("name", [*FUNCS_TAKING_DEVICE, "device"])
@pytest.mark.parametrize("bad", ["tpu", "cuda:x", -1])
def test_bad_device_value_is_a_value_error_naming_it(name: str, bad: Any) -> None:
    with pytest.raises(ValueError, match=rf"^{name}: .*{bad!r}"):
        _call(name, bad)


@pytest.mark.parametrize("bad", ["s", 1.0, True, np.zeros(1)])
def test_stream_rejects_non_streams_with_a_type_error(bad: Any) -> None:
    with pytest.raises(TypeError, match=r"^stream: .*expected None, a stream"), cuda.stream(bad):
        pass
    with pytest.raises(TypeError, match=r"^synchronize: .*expected None, a stream"):
        cuda.synchronize(stream=bad)


def test_synchronize_rejects_a_stream_with_the_cpu() -> None:
    with pytest.raises(ValueError, match=r"^synchronize: a stream .* device 'cpu'"):
        cuda.synchronize("cpu", stream=5)


def test_pin_memory_rejects_object_arrays() -> None:
    # the dtype first, with or without a GPU; its repr is dtype('O'): the message says "objects"
    with pytest.raises(TypeError, match=r"^pin_memory: cannot pin .*dtype\('O'\).*Python objects"):
        cuda.pin_memory(np.array([None, 1], dtype=object))


# --- CuPy installed, no usable GPU (the CI situation) ---------------------------------------

GPU_FORMS = [0, "cuda:0", "cuda", "gpu:1"]


@needs_unusable_cupy
@pytest.mark.parametrize(
    "name", ["memory_info", "memory_stats", "free_memory", "synchronize", "device"]
)
@pytest.mark.parametrize("gpu", GPU_FORMS)
def test_explicit_gpu_without_usable_cupy_raises_runtime_error(name: str, gpu: Any) -> None:
    with pytest.raises(
        RuntimeError,
        match=rf"^{name}: (GPU \d|the current GPU) was asked for, but this process has 0 usable "
        rf"GPUs: the CuPy backend is not usable: .*(no GPU|no NVIDIA driver)",
    ):
        _call(name, gpu)


@pytest.mark.parametrize("gpu", [*GPU_FORMS, 3, "cuda:7"])
def test_set_device_on_the_numpy_backend_is_a_no_op(gpu: Any) -> None:
    # the seed's table: safe to call on the NumPy backend, so `set_device(rank % 4)` can
    # stay in a program that runs on a laptop (with or without a GPU, any index)
    before = _cupy_current_gpu()
    with cunumpy.use_backend("numpy"):
        assert cuda.set_device(gpu) is None
        assert cuda.current_device() == ("cpu" if before is None else before)
    assert _cupy_current_gpu() == before


def _cupy_current_gpu() -> int | None:
    cupy = sys.modules.get("cupy")
    if cupy is None or not cunumpy.cupy_available():
        return None
    return int(cupy.cuda.runtime.getDevice())


@needs_unusable_cupy
def test_set_device_still_checks_types_without_a_gpu() -> None:
    with pytest.raises(TypeError, match=r"^set_device: "):
        cuda.set_device(2.0)
    with pytest.raises(ValueError, match=r"^set_device: GPU index -1 is negative"):
        cuda.set_device(-1)


@needs_unusable_cupy
def test_stream_and_synchronize_with_a_stream_need_a_gpu() -> None:
    with pytest.raises(RuntimeError, match=r"^stream: .*not usable"), cuda.stream(0):
        pass
    with pytest.raises(RuntimeError, match=r"^synchronize: .*not usable"):
        cuda.synchronize(stream=0)


@needs_unusable_cupy
def test_pin_memory_without_usable_gpu_raises_runtime_error_with_reason() -> None:
    reason = cunumpy.cupy_unavailable_reason()
    assert reason is not None
    with pytest.raises(RuntimeError, match=r"^pin_memory: the CuPy backend is not usable") as info:
        cuda.pin_memory(np.zeros(3))
    assert reason in str(info.value)


@needs_unusable_cupy
def test_loaded_but_unusable_cupy_keeps_defaults_neutral() -> None:
    cunumpy.cupy_available()  # the probe has imported CuPy
    assert "cupy" in sys.modules
    assert _cuda_memory.loaded_cupy() is None
    cuda.free_memory()
    cuda.synchronize()
    assert cuda.memory_info() is None
    assert cuda.device_count() == 0


@needs_unusable_cupy
def test_cupy_backend_cannot_be_selected_so_helpers_stay_neutral() -> None:
    with pytest.raises(RuntimeError, match="not usable"):
        cunumpy.set_backend("cupy", strict=True)
    assert cuda.current_device() == "cpu"


# --- GPU tests ------------------------------------------------------------------------------


@pytest.fixture
def cupy() -> Iterator[Any]:
    """CuPy, with the current GPU restored after the test."""
    import cupy as cp

    previous = cp.cuda.runtime.getDevice()
    yield cp
    cp.cuda.runtime.setDevice(previous)


@pytest.fixture
def on_cupy(cupy: Any) -> Iterator[Any]:
    with cunumpy.use_backend("cupy"):
        yield cupy


MiB = 2**20


@pytest.mark.gpu
def test_gpu_device_count_and_current_device(on_cupy: Any) -> None:
    assert cuda.device_count() == on_cupy.cuda.runtime.getDeviceCount()
    assert cuda.current_device() == on_cupy.cuda.runtime.getDevice()
    assert isinstance(cuda.current_device(), int)


@pytest.mark.gpu
def test_gpu_every_device_form_is_accepted(on_cupy: Any) -> None:
    x = on_cupy.zeros(3)
    total = on_cupy.cuda.runtime.memGetInfo()[1]
    for form in (0, "cuda:0", "cuda", on_cupy.cuda.Device(0), x.device):
        info = cuda.memory_info(form)
        assert info is not None
        assert info[1] == total
        assert cuda.memory_stats(form) is not None
        cuda.synchronize(form)
        cuda.free_memory(form)
    with pytest.raises(ValueError, match=r"^memory_info: GPU index \d+ is out of range"):
        cuda.memory_info(cuda.device_count())


@pytest.mark.gpu
def test_gpu_set_device_makes_created_arrays_live_there(on_cupy: Any) -> None:
    last = cuda.device_count() - 1
    cuda.set_device(last)
    assert cuda.current_device() == last
    assert on_cupy.zeros(4).device.id == last
    cuda.set_device(on_cupy.cuda.Device(0))
    assert on_cupy.zeros(4).device.id == 0


@pytest.mark.gpu
def test_gpu_set_device_on_numpy_backend_selects_nothing(cupy: Any) -> None:
    before = cupy.cuda.runtime.getDevice()
    cuda.set_device(f"cuda:{cuda.device_count() - 1}")
    cuda.set_device(cuda.device_count())  # no such GPU: still a no-op on NumPy
    assert cuda.current_device() == before  # CuPy holds work: the current GPU (issue 50)
    assert cupy.cuda.runtime.getDevice() == before


@pytest.mark.gpu
def test_gpu_set_device_on_the_cupy_backend_rejects_a_missing_gpu(on_cupy: Any) -> None:
    with pytest.raises(ValueError, match=r"^set_device: GPU index \d+ is out of range"):
        cuda.set_device(cuda.device_count())


@pytest.mark.gpu
def test_gpu_device_guard_restores_on_exceptions(on_cupy: Any) -> None:
    count = cuda.device_count()
    start = count - 1
    target = 0
    on_cupy.cuda.runtime.setDevice(start)
    seen: list[tuple[Any, int]] = []

    def fail_inside_guard() -> None:
        with cuda.device(target) as d:
            seen.append((d, on_cupy.zeros(1).device.id))
            raise KeyError("inside")

    with pytest.raises(KeyError, match="inside"):
        fail_inside_guard()
    assert seen == [(target, target)]
    assert on_cupy.cuda.runtime.getDevice() == start


@pytest.mark.gpu
def test_gpu_device_guard_restores_a_different_gpu(on_cupy: Any) -> None:
    if cuda.device_count() < 2:
        pytest.skip("needs two GPUs to see the previous device come back")
    on_cupy.cuda.runtime.setDevice(1)
    seen: list[int] = []

    def fail_inside_guard() -> None:
        with cuda.device(0):
            seen.append(on_cupy.cuda.runtime.getDevice())
            raise RuntimeError("inside")

    with pytest.raises(RuntimeError, match="inside"):
        fail_inside_guard()
    assert seen == [0]
    assert on_cupy.cuda.runtime.getDevice() == 1


@pytest.mark.gpu
def test_gpu_memory_info_sees_an_allocation(on_cupy: Any) -> None:
    cuda.free_memory()
    before = cuda.memory_info()
    assert before is not None
    block = on_cupy.empty(512 * MiB, dtype=on_cupy.uint8)
    during = cuda.memory_info()
    assert during is not None
    assert during[0] <= before[0] - 500 * MiB
    del block
    cuda.free_memory()
    after = cuda.memory_info()
    assert after is not None
    assert after[0] >= during[0] + 500 * MiB


@pytest.mark.gpu
def test_gpu_free_memory_lowers_pool_held_bytes(on_cupy: Any) -> None:
    cuda.free_memory()  # no cached block that the new array could be carved from
    block = on_cupy.ones(64 * MiB, dtype=on_cupy.uint8)
    stats = cuda.memory_stats()
    assert stats is not None
    assert stats.used_bytes >= 64 * MiB
    del block
    cached = cuda.memory_stats()
    assert cached is not None
    assert cached.cached_bytes >= 64 * MiB  # released to the pool, not to the driver
    cuda.free_memory()
    freed = cuda.memory_stats()
    assert freed is not None
    assert freed.held_bytes <= cached.held_bytes - 64 * MiB
    assert freed.cached_bytes < 64 * MiB


@pytest.mark.gpu
def test_gpu_free_memory_releases_pinned_blocks(cupy: Any) -> None:
    pinned = cuda.pin_memory(np.ones(MiB))
    del pinned
    assert cupy.get_default_pinned_memory_pool().n_free_blocks() >= 1
    cuda.free_memory()
    assert cupy.get_default_pinned_memory_pool().n_free_blocks() == 0


@pytest.mark.gpu
def test_gpu_pin_memory_is_page_locked(cupy: Any) -> None:
    values = np.arange(1000, dtype=np.float32).reshape(10, 100)[:, ::2]  # not contiguous
    pinned = cuda.pin_memory(values)
    assert type(pinned) is np.ndarray
    np.testing.assert_array_equal(pinned, values)
    assert pinned.flags.c_contiguous
    runtime = cupy.cuda.runtime
    assert runtime.pointerGetAttributes(pinned.ctypes.data).type == runtime.memoryTypeHost
    ordinary = np.ones(1000)
    assert runtime.pointerGetAttributes(ordinary.ctypes.data).type != runtime.memoryTypeHost


@pytest.mark.gpu
def test_gpu_pin_memory_copies_a_cupy_array(cupy: Any) -> None:
    pinned = cuda.pin_memory(cupy.arange(6).reshape(2, 3))
    assert type(pinned) is np.ndarray
    np.testing.assert_array_equal(pinned, np.arange(6).reshape(2, 3))


@pytest.mark.gpu
def test_gpu_stream_is_new_non_blocking_and_current(on_cupy: Any) -> None:
    outside = on_cupy.cuda.get_current_stream()
    with cuda.stream() as s:
        assert isinstance(s, on_cupy.cuda.Stream)
        assert s is not outside
        assert cuda.current_stream() is s
        assert s.is_non_blocking
        # cudaStreamNonBlocking == 1
        assert on_cupy.cuda.runtime.streamGetFlags(s.ptr) == 1
    assert cuda.current_stream() is outside


def test_int_stream_handles_are_wrapped_without_deprecated_classes() -> None:
    """A raw handle becomes a CuPy stream on the given GPU that does not own it (no GPU used)."""
    cupy = pytest.importorskip("cupy")
    from cunumpy.cuda._streams import _wrap_handle

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        wrapped = _wrap_handle(cupy, 12345, 0)
    assert isinstance(wrapped, (cupy.cuda.Stream, cupy.cuda.ExternalStream))
    assert (wrapped.ptr, wrapped.device_id) == (12345, 0)


@pytest.mark.gpu
def test_gpu_new_stream_waits_for_work_queued_before_it(on_cupy: Any) -> None:
    """An array uploaded just before the block is complete inside it, with no sync."""
    host = np.arange(2**22, dtype=np.float64)
    for _ in range(3):
        x = on_cupy.asarray(host)  # an asynchronous copy on the outer stream
        with cuda.stream():
            total = float((x * 2).sum())
        assert total == float(host.sum() * 2)


@pytest.mark.gpu
def test_gpu_stream_makes_an_existing_stream_current(on_cupy: Any) -> None:
    mine = on_cupy.cuda.Stream()
    with cuda.stream(mine) as s:
        assert s is mine
        assert on_cupy.cuda.get_current_stream() is mine
    with cuda.stream(mine.ptr) as handle:
        assert isinstance(handle, (on_cupy.cuda.Stream, on_cupy.cuda.ExternalStream))
        assert on_cupy.cuda.get_current_stream().ptr == mine.ptr
    cuda.synchronize(stream=mine)
    cuda.synchronize(0, stream=mine.ptr)


@pytest.mark.gpu
def test_gpu_stream_on_numpy_backend_accepts_an_explicit_stream(cupy: Any) -> None:
    mine = cupy.cuda.Stream(non_blocking=True)
    with cuda.stream(mine) as s:
        assert s is mine
        assert cupy.cuda.get_current_stream() is mine
    with cuda.stream() as none:
        assert none is None


@pytest.mark.gpu
def test_gpu_two_streams_give_the_results_of_one(on_cupy: Any) -> None:
    a = on_cupy.arange(2_000_000, dtype=on_cupy.float64)
    expected_sum = float((a * 2).sum())
    expected_max = float(on_cupy.sqrt(a).max())
    with cuda.streams(2) as (s1, s2):
        assert s1 is not s2
        with cuda.stream(s1):
            total = (a * 2).sum()
        with cuda.stream(s2):
            peak = on_cupy.sqrt(a).max()
    assert float(total) == expected_sum  # joined at the end of the block: no synchronize()
    assert float(peak) == expected_max
    with cuda.stream() as first:
        pass
    with cuda.stream() as second:
        pass
    assert first is second  # one block after the other: the pool's stream again


@pytest.mark.gpu
def test_gpu_synchronize_on_numpy_backend_waits_for_loaded_cupy(cupy: Any) -> None:
    x = cupy.arange(10)
    cuda.synchronize()
    assert isinstance(cuda.memory_info(), tuple)  # CuPy holds work: the current GPU (issue 50)
    assert int(x.sum()) == 45


@pytest.mark.skipif(cunumpy.cupy_available(), reason="CuPy is usable here: GPU 0 exists")
@pytest.mark.parametrize(
    ("func", "call"),
    [
        ("device", lambda: cuda.device(1).__enter__()),
        ("memory_info", lambda: cuda.memory_info(0)),
        ("zeros", lambda: cunumpy.zeros(2, device=1)),
        ("asarray", lambda: cunumpy.asarray([1.0], device="cuda:1")),
    ],
)
def test_naming_a_gpu_without_one_raises_one_error_with_the_index_and_the_count(
    func: str, call: Any
) -> None:
    with pytest.raises(
        cunumpy.CupyUnavailableError,
        match=rf"^{func}: GPU \d was asked for, but this process has 0 usable GPUs: the CuPy backend is not usable: ",
    ):
        call()


@pytest.mark.parametrize(
    ("bad", "kind"), [("al", ValueError), ("every", ValueError), (1.5, TypeError)]
)
def test_free_memory_names_all_among_the_accepted_devices(bad: Any, kind: type) -> None:
    with pytest.raises(
        kind, match=rf"^free_memory: .*{re.escape(repr(bad))}.*, or 'all' for every visible GPU\.$"
    ):
        cuda.free_memory(bad)


def test_free_memory_all_is_spelled_as_devices_are() -> None:
    """``"all"`` is read as the other device strings are: any case, spaces around it."""
    assert cuda.free_memory(" ALL ") is None


@pytest.mark.gpu
def test_gpu_the_driver_tells_whether_cupy_holds_work_without_a_context() -> None:
    """In a fresh process on the NumPy backend, CuPy imported by ``cupy_available()`` holds
    no work (the driver shows no context on the GPU, and the helpers create none); after an
    array on the GPU it does (``cuDevicePrimaryCtxGetState`` through ctypes)."""
    script = textwrap.dedent(
        """
        import cunumpy as xp
        import cunumpy.cuda as cuda
        from cunumpy import profiling
        from cunumpy._settings import _cupy_probe as probe
        assert xp.cupy_available()
        cuda.synchronize()
        with profiling.timed_region() as idle:
            pass
        before = (probe._primary_context_state(0)[1], probe.loaded_cupy() is None,
                  idle.device_time is None, cuda.current_device())
        x = xp.ones(3, device="cuda:0")
        with profiling.timed_region() as busy:
            pass
        after = (probe._primary_context_state(0)[1], probe.loaded_cupy() is None,
                 busy.device_time is None, cuda.current_device())
        print(before, after)
        """
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("CUNUMPY_")}
    env["CUNUMPY_BACKEND"] = "numpy"
    env["CUDA_VISIBLE_DEVICES"] = env.get("CUDA_VISIBLE_DEVICES", "0").split(",")[0] or "0"
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "(0, True, True, 'cpu') (1, False, False, 0)"
