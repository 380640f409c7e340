"""The CuPy paths of cunumpy.mpi's buffers and of cunumpy.memory on the fake CuPy: staging
through the host, packing of views, the transfer log, device mirrors, background copies
(fake CuPy, not a GPU check; the GPU runs are the gpu-marked tests of test_mpi_buffers.py
and test_memory.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import cupy
import numpy as np

import cunumpy as xp
from cunumpy import memory, mpi
from cunumpy._placement._transfer_log import listening


def test_mpi_buffer_stages_and_packs_on_the_fake_cupy() -> None:
    MPI = mpi.get_mpi(False)
    x = cupy.arange(6.0).reshape(2, 3)
    seen: list[str] = []
    with (
        listening(lambda kind, *_: seen.append(kind)),
        mpi.mpi_buffer(x, recv=True, cuda_aware=False) as buf,
    ):
        assert isinstance(buf, np.ndarray) and not isinstance(buf, cupy.ndarray)
        buf += 1.0  # what MPI would write
    assert seen == ["sync", "to_host", "to_device"]
    np.testing.assert_array_equal(x.get(), np.arange(1.0, 7.0).reshape(2, 3))
    column = cupy.zeros((3, 2))
    with mpi.mpi_buffer(column[:, 1], send=False, recv=True, cuda_aware=False) as buf:
        MPI.COMM_WORLD.Allreduce(np.full(3, 2.0), buf, op=MPI.SUM)
    np.testing.assert_array_equal(column.get(), [[0, 2], [0, 2], [0, 2]])
    with mpi.mpi_buffer(x, cuda_aware=True) as buf:
        assert buf is x
    staging = mpi.MPIStaging((2, 3), np.float64)
    with staging.buffer(x, cuda_aware=False) as first:
        pass
    with staging.buffer(x, cuda_aware=False) as second:
        assert second is first  # the pinned memory is reused


def test_exchange_and_collectives_follow_the_recorded_answer_on_the_fake_cupy() -> None:
    comm = mpi.get_mpi(False).COMM_WORLD
    for aware in (False, True):
        out = cupy.zeros(4, dtype=cupy.int32)
        mpi.exchange(
            comm,
            sends=[(cupy.arange(4, dtype=cupy.int32), 0, 0)],
            receives=[(out, 0, 0)],
            cuda_aware=aware,
        )
        np.testing.assert_array_equal(out.get(), [0, 1, 2, 3])
    mpi.set_mpi_cuda_aware(False)
    try:
        total = mpi.allreduce(cupy.ones(3))
    finally:
        mpi.set_mpi_cuda_aware(None)
    assert isinstance(total, cupy.ndarray)
    np.testing.assert_array_equal(total.get(), np.ones(3))


def test_cuda_awareness_probe_on_the_fake_cupy() -> None:
    with xp.use_backend("cupy"):
        try:
            assert mpi.mpi_is_cuda_aware(mpi.get_mpi(False).COMM_WORLD) is True
            assert mpi.get_mpi_cuda_aware() is True
        finally:
            mpi.set_mpi_cuda_aware(None)
    mpi.synchronize_for_mpi(cupy.ones(2), stream=cupy.cuda.Stream())


def test_device_mirror_on_the_fake_cupy() -> None:
    with xp.use_backend("cupy"):
        data = np.arange(4.0)
        mirror = memory.DeviceMirror(data)
        device = mirror.device
        assert isinstance(device, cupy.ndarray)
        device *= 10.0
        assert mirror.to_host().host is data
        np.testing.assert_array_equal(data, [0.0, 10.0, 20.0, 30.0])
        owner = np.zeros((4, 4))
        strided = memory.DeviceMirror(owner[:, 1])
        strided.zero().device[...] = 5.0
        strided.to_host()
        np.testing.assert_array_equal(owner[:, 1], np.full(4, 5.0))
        assert not owner[:, 0].any()


def test_host_staging_and_to_host_async_on_the_fake_cupy() -> None:
    staging = memory.HostStaging(5, np.float64)
    y = cupy.full(5, 1.0)
    copy = staging.copy(y)
    y += 1.0  # a later step does not change the snapshot
    np.testing.assert_array_equal(copy.result(), np.ones(5))
    assert copy.ready()
    pending = xp.to_host_async(cupy.asarray(3.25))
    assert pending.result() == 3.25 and pending.ready()


def test_bind_local_device_reads_the_node_local_rank_without_loading_cunumpy_mpi() -> None:
    """``cunumpy.cuda.bind_local_device`` on the fake CuPy: the launcher's variables give
    the node-local rank (a bad one is ``local_rank``'s error), and neither ``cunumpy.mpi``
    nor mpi4py is imported (the rank is ``_mpi_job``'s, below both)."""
    code = (
        "import os, sys, cunumpy\n"
        "with cunumpy.use_backend('cupy'):\n"
        "    assert cunumpy.cuda.bind_local_device() == 0  # rank 2 of a node with one GPU\n"
        "    os.environ['MPI_LOCALRANKID'] = 'two'\n"
        "    try:\n"
        "        cunumpy.cuda.bind_local_device()\n"
        "    except ValueError as exc:\n"
        "        print(exc)\n"
        "print(sorted(m for m in ('cunumpy.mpi', 'mpi4py') if m in sys.modules))\n"
    )
    root = str(Path(__file__).resolve().parents[2])
    env = {**os.environ, "CUNUMPY_FAKE_CUPY": "1", "SLURM_LOCALID": "2", "PYTHONPATH": root}
    env.pop("MPI_LOCALRANKID", None)
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 0, done.stderr
    error, loaded = done.stdout.strip().splitlines()
    assert error == (
        "local_rank: the environment variable MPI_LOCALRANKID='two' is not a non-negative "
        "integer, as a launcher would set it."
    )
    assert loaded == "[]"
