"""Tests of cunumpy.memory (DeviceMirror, HostStaging, StagedCopy, HostCopy) and
cunumpy.to_host_async: no-copy stand-ins on NumPy, real copies on a GPU (``gpu``-marked)."""

from __future__ import annotations

import re
import subprocess
import sys

import numpy as np
import pytest

import cunumpy
from cunumpy import memory
from cunumpy._placement._transfer_log import listening


def test_public_names_and_lazy_import() -> None:
    assert memory.__all__ == ["DeviceMirror", "HostCopy", "HostStaging", "StagedCopy"]
    assert "to_host_async" in cunumpy.__all__ and "memory" in cunumpy.__all__
    code = (
        "import sys, cunumpy\n"
        "assert 'cunumpy.memory' not in sys.modules\n"
        "cunumpy.to_host_async(1.0).result()\n"
        "cunumpy.memory.DeviceMirror(__import__('numpy').ones(2)).zero()\n"
        "print([m for m in ('cupy', 'mpi4py', 'maybempi') if m in sys.modules])\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


# --- DeviceMirror on NumPy: the device array is the host array ---


def test_mirror_on_numpy_writes_into_the_host_array() -> None:
    data = np.arange(6.0).reshape(2, 3)
    mirror = memory.DeviceMirror(data)
    assert mirror.device is data and mirror.host is data
    assert (mirror.shape, mirror.dtype) == ((2, 3), np.float64)
    assert mirror.zero() is mirror
    assert not data.any()
    mirror.device[1, 2] = 4.0
    assert mirror.to_host().to_device() is mirror
    assert data[1, 2] == 4.0
    assert repr(mirror) == "DeviceMirror(shape=(2, 3), dtype=float64, device='cpu')"
    seen: list[str] = []
    with listening(lambda kind, *_: seen.append(kind)):
        mirror.to_device().to_host().zero()
    assert seen == []  # nothing is copied on NumPy


def test_mirror_errors() -> None:
    with pytest.raises(TypeError, match=r"DeviceMirror: `host` must be a numpy.ndarray .*list"):
        memory.DeviceMirror([1.0, 2.0])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"DeviceMirror: `host` must not have an object dtype"):
        memory.DeviceMirror(np.empty(2, dtype=object))
    data = np.zeros(4)
    mirror = memory.DeviceMirror(data)
    data.resize(5, refcheck=False)  # the owner reallocated its buffer in place
    with pytest.raises(ValueError, match=r"DeviceMirror.to_host: the host array now has shape"):
        mirror.to_host()
    with pytest.raises(ValueError, match=r"DeviceMirror.to_host: pass at most one of `stream`"):
        mirror.to_host(stream=object(), event=object())
    new = np.ones(3, dtype=np.float32)
    assert mirror.rebind(new).host is new and mirror.shape == (3,)
    assert mirror.zero().device is new and not new.any()


# --- HostStaging and to_host_async on NumPy: copies made at once ---


def test_host_staging_copies_host_arrays_at_once() -> None:
    staging = memory.HostStaging((2, 2), np.int32, buffers=2)
    assert (staging.shape, staging.dtype, staging.buffers) == ((2, 2), np.int32, 2)
    source = np.full((2, 2), 3, dtype=np.int32)
    first = staging.copy(source)
    source[...] = 7  # the copy is a snapshot
    assert first.ready()
    np.testing.assert_array_equal(first.result(), np.full((2, 2), 3))
    second = staging.copy(source)
    np.testing.assert_array_equal(second.result(), np.full((2, 2), 7))
    staging.copy(source)  # the third copy reuses the first buffer
    with pytest.raises(RuntimeError, match=r"StagedCopy.result: this copy's host buffer was reu"):
        first.result()
    staging.synchronize()
    assert repr(staging) == "HostStaging(shape=(2, 2), dtype=int32, buffers=2)"


def test_host_staging_errors() -> None:
    with pytest.raises(ValueError, match=r"HostStaging: `buffers` must be at least 1, not 0"):
        memory.HostStaging(2, float, buffers=0)
    with pytest.raises(TypeError, match=r"HostStaging: `buffers` must be an int, not 1.5"):
        memory.HostStaging(2, float, buffers=1.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"HostStaging: `shape` must not be negative"):
        memory.HostStaging((2, -1), float)
    with pytest.raises(TypeError, match=r"HostStaging: `dtype` must not be object"):
        memory.HostStaging(2, object)
    staging = memory.HostStaging(3, np.float64)
    with pytest.raises(ValueError, match=r"HostStaging.copy: the staging is for shape \(3,\) .*"):
        staging.copy(np.ones(4))
    with pytest.raises(ValueError, match=r"HostStaging.copy: the staging is for .*'float32'"):
        staging.copy(np.ones(3, dtype=np.float32))
    with pytest.raises(TypeError, match=r"HostStaging.copy: `array` must be a NumPy or CuPy"):
        staging.copy([1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match=r"HostStaging.copy: pass at most one of `stream`"):
        staging.copy(np.ones(3), stream=object(), event=object())


def test_to_host_async_of_host_values() -> None:
    scalar = cunumpy.to_host_async(np.float32(2.5))
    assert scalar.ready()
    value = scalar.result()
    assert type(value) is np.float32 and value == 2.5
    source = np.arange(3)
    pending = cunumpy.to_host_async(source)
    source[0] = 9  # the copy was made at once
    np.testing.assert_array_equal(pending.result(), [0, 1, 2])
    assert cunumpy.to_host_async(7).result() == 7
    assert isinstance(pending, memory.HostCopy)


# --- on a GPU ---


@pytest.mark.gpu
def test_mirror_on_cupy_copies_in_place_and_logs() -> None:
    import cupy

    cunumpy.set_backend("cupy")
    data = np.arange(4.0)
    mirror = memory.DeviceMirror(data)
    seen: list[tuple[str, int | None]] = []
    with listening(lambda kind, what, nbytes, *_: seen.append((kind, nbytes))):
        device = mirror.device
        assert type(device) is cupy.ndarray
        device *= 10.0
        assert mirror.to_host().host is data
    np.testing.assert_array_equal(data, [0.0, 10.0, 20.0, 30.0])
    assert seen == [("to_device", 32), ("to_host", 32)]
    data[:] = 1.0
    mirror.to_device()
    np.testing.assert_array_equal(mirror.device.get(), np.ones(4))
    mirror.zero()
    np.testing.assert_array_equal(data, np.ones(4))  # zero() touches the device only
    stream = cupy.cuda.Stream(non_blocking=True)
    with stream:
        mirror.device[...] += 2.0  # in place: `device` is a read-only property, as in 0.7.1
    mirror.to_host(stream=stream)
    np.testing.assert_array_equal(data, np.full(4, 2.0))


@pytest.mark.gpu
def test_mirror_of_a_strided_host_view_on_cupy() -> None:
    cunumpy.set_backend("cupy")
    owner = np.zeros((4, 4))
    column = owner[:, 1]  # not contiguous
    mirror = memory.DeviceMirror(column)
    mirror.zero().device[...] = 5.0
    assert mirror.to_host().host is column
    np.testing.assert_array_equal(owner, np.outer(np.ones(4), [0.0, 5.0, 0.0, 0.0]))
    column[:] = 2.0
    np.testing.assert_array_equal(mirror.to_device().device.get(), np.full(4, 2.0))


@pytest.mark.gpu
def test_host_staging_of_device_arrays_takes_snapshots() -> None:
    import cupy

    staging = memory.HostStaging(1000, np.float64, buffers=2)
    x = cupy.full(1000, 1.0)
    first = staging.copy(x)
    x += 1.0  # later work does not change the copy
    second = staging.copy(x)
    np.testing.assert_array_equal(first.result(), np.full(1000, 1.0))
    np.testing.assert_array_equal(second.result(), np.full(1000, 2.0))
    assert second.ready()
    staging.synchronize()


@pytest.mark.gpu
def test_to_host_async_of_a_device_scalar() -> None:
    import cupy

    x = cupy.asarray(3.25)
    seen: list[tuple[str, bool]] = []
    with listening(lambda kind, what, nbytes, blocking, implicit: seen.append((kind, blocking))):
        pending = cunumpy.to_host_async(x)
    x += 1.0  # after the copy was queued
    assert pending.result() == 3.25
    assert pending.ready()
    assert seen[0] == ("to_host", False)


# --- CuNumpy 0.7.1's names of cunumpy.mpi and cunumpy.memory (its __all__ lists) ---

MPI_071 = (
    "OVERRIDE_VARIABLE", "MPIStaging", "SerialComm", "SerialMPI", "SerialRequest",
    "SerialStatus", "exchange", "get_mpi", "get_mpi_cuda_aware", "is_serial",
    "launched_under_mpi", "local_rank", "mpi_buffer", "mpi_is_cuda_aware",
    "require_cuda_aware_mpi", "set_mpi_cuda_aware", "synchronize_for_mpi",
)  # fmt: skip
MEMORY_071 = ("DeviceMirror", "HostCopy", "HostStaging", "StagedCopy")


def test_every_071_name_is_at_its_path_and_in_the_migration_table() -> None:
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "docs" / "migrating.md").read_text()
    rows = set(re.findall(r"^\| `([\w.]+)` \|", text, re.MULTILINE))
    for name in MPI_071:
        assert name in cunumpy.mpi.__all__, name
        assert f"mpi.{name}" in rows, name
    for name in MEMORY_071:
        assert name in memory.__all__, name
        assert f"memory.{name}" in rows, name
    assert {"to_host_async", "cuda.bind_local_device", "petsc.petsc_vec"} <= rows
    assert cunumpy.cuda.bind_local_device is cunumpy.mpi.bind_local_device
