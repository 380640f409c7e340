"""MPI worker for tests/test_device_contexts.py: one CUDA context per rank, on its own GPU.

Run as ``mpiexec -n N python tests/mpi_workers/device_contexts.py`` with the fake CuPy
(``CUNUMPY_FAKE_CUPY=1``), ``CUNUMPY_FAKE_CUPY_DEVICES`` fake GPUs and
``CUNUMPY_BACKEND=cupy``, so that choosing the backend at import is part of the run. Each
rank binds its GPU, computes, talks to the others and frees its pool, then prints
``RESULT <rank> <check> PASS|FAIL <why>`` per check and one line
``CONTEXTS <rank> <local rank> <device> <devices with a context>``. Fake CuPy; never a
GPU.
"""

from __future__ import annotations

from _report import report  # tests/mpi_workers/_report.py, next to this script

import cunumpy
from cunumpy import mpi
from cunumpy._emulation._fake import contexts


def main() -> None:
    at_import = contexts()
    device = cunumpy.cuda.bind_local_device()
    after_bind = contexts()
    MPI = mpi.get_mpi()
    comm = MPI.COMM_WORLD
    rank = comm.Get_rank()
    checks = {}
    checks["backend_is_cupy"] = cunumpy.get_backend() == "cupy"
    checks["no_context_at_import"] = at_import == ()
    checks["bind_creates_one_context_on_its_gpu"] = after_bind == (device,)
    x = cunumpy.arange(10.0) * (rank + 1)
    total = float(mpi.allreduce(cunumpy.sum(x)))
    checks["allreduce"] = total == 45.0 * sum(range(1, comm.Get_size() + 1))
    checks["arrays_on_its_gpu"] = x.device.id == device
    cunumpy.cuda.synchronize()
    cunumpy.cuda.free_memory()
    checks["one_context_at_the_end"] = contexts() == (device,)
    for name, passed in checks.items():
        report(rank, name, None if passed else AssertionError(f"contexts {contexts()}"))
    local = mpi.local_rank()
    print(f"CONTEXTS {rank} {local} {device} {' '.join(map(str, contexts()))}", flush=True)


if __name__ == "__main__":
    main()
