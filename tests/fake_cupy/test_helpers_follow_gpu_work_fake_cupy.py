"""Issue 50, "one rule for the helpers" (fake CuPy): on the NumPy backend, with arrays made
by ``device="cuda:0"``, the helpers that wait for or manage GPU work act on the GPU, and
creation of an array without ``device=`` keeps a GPU array where it lives.

Fake CuPy (host memory, one device): this checks which library and device each call
reaches, never a GPU.
"""

from __future__ import annotations

import cupy
import numpy as np
import pytest

import cunumpy as xp
import cunumpy.cuda as cuda
from cunumpy import profiling


@pytest.fixture
def on_gpu() -> cupy.ndarray:
    """A GPU array made on the NumPy backend (compute follows data)."""
    assert xp.get_backend() == "numpy"
    return xp.asarray([1.0, 2.0, 3.0], device="cuda:0")


def test_stream_blocks_are_gpu_branches_when_cupy_holds_work_fake_cupy(
    on_gpu: cupy.ndarray,
) -> None:
    outer = cupy.cuda.get_current_stream()
    with cuda.stream() as s:
        assert isinstance(s, cupy.cuda.Stream) and s != outer
        assert cuda.current_stream() is s
        doubled = xp.multiply(on_gpu, 2)
    with cuda.streams(2) as branches:
        assert all(isinstance(b, cupy.cuda.Stream) for b in branches)
        assert branches[0] != branches[1]
    assert cupy.cuda.get_current_stream() == outer
    assert xp.to_numpy(doubled).tolist() == [2.0, 4.0, 6.0]


def test_memory_and_device_helpers_name_the_gpu_when_cupy_holds_work_fake_cupy(
    on_gpu: cupy.ndarray,
) -> None:
    assert cuda.current_device() == 0
    info = cuda.memory_info()
    assert isinstance(info, tuple) and len(info) == 2 and 0 <= info[0] <= info[1]
    assert cuda.memory_stats() is not None
    assert cuda.memory_info("cpu") is None  # asked for the CPU: still nothing


def test_creation_keeps_a_gpu_array_where_it_lives_on_the_numpy_backend_fake_cupy(
    on_gpu: cupy.ndarray,
) -> None:
    with profiling.count_transfers() as counter:
        results = {
            "asarray": xp.asarray(on_gpu),
            "asarray copy=True": xp.asarray(on_gpu, copy=True),
            "asarray dtype": xp.asarray(on_gpu, dtype=xp.float32),
            "array": xp.array(on_gpu),
            "array copy=False": xp.array(on_gpu, copy=False),
            "asanyarray": xp.asanyarray(on_gpu),
            "ascontiguousarray": xp.ascontiguousarray(on_gpu),
        }
    for name, result in results.items():
        assert type(result) is cupy.ndarray, name
        assert xp.to_numpy(result).tolist() == [1.0, 2.0, 3.0], name
    assert results["asarray"] is on_gpu
    assert results["asarray copy=True"] is not on_gpu
    assert counter.to_host == 0 and counter.to_device == 0


def test_host_data_on_the_cupy_backend_is_still_a_counted_copy_fake_cupy() -> None:
    host = np.arange(3.0)
    with xp.use_backend("cupy"), profiling.count_transfers() as counter:
        from_array = xp.asarray(host)
        from_array_copy = xp.array(host)
    assert type(from_array) is cupy.ndarray and type(from_array_copy) is cupy.ndarray
    assert counter.to_device == 2


def test_without_gpu_work_the_seeds_table_holds_in_a_fresh_process_fake_cupy() -> None:
    """Where CuPy was never imported, the helpers are no-ops that import nothing."""
    import os
    import subprocess
    import sys

    script = (
        "import sys, cunumpy.cuda as cuda\n"
        "with cuda.stream() as s:\n"
        "    pass\n"
        "print(s, cuda.memory_info(), cuda.current_device(), cuda.current_stream(),\n"
        "      'cupy' in sys.modules)\n"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("CUNUMPY_FAKE_CUPY", "CUNUMPY_BACKEND")}
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["None", "None", "cpu", "None", "False"]
