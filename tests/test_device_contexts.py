"""Bind first, probe where you work: which GPUs get a CUDA context (fake CuPy, issue 50).

Every test runs a fresh process on the fake CuPy (``CUNUMPY_FAKE_CUPY=1``) with several
fake GPUs (``CUNUMPY_FAKE_CUPY_DEVICES``), which records the CUDA contexts the process
creates on each device and can refuse a second process on a device (exclusive mode).
None of it is a GPU check: it shows what cunumpy asks of CuPy, as CUDA would count it.
The last test replaces CuPy by a stub in this process, to see the kernel check's error.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from mpi_run import run_mpi

ROOT = Path(__file__).resolve().parent.parent
WORKER = ROOT / "tests" / "mpi_workers" / "device_contexts.py"


def _fake_cupy(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a new process on the fake CuPy with ``env`` added (fake CuPy)."""
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    variables = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("CUNUMPY_", "OMPI_"))},
        "CUNUMPY_FAKE_CUPY": "1",
        "PYTHONPATH": path,
        **env,
    }
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=variables,
        timeout=120,
        check=False,
    )


def _answer(done: subprocess.CompletedProcess[str]) -> object:
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.fake_cupy
@pytest.mark.parametrize("value", ["cupy", "auto"])
def test_choosing_cupy_at_import_creates_no_context_fake_cupy(value: str) -> None:
    done = _fake_cupy(
        """
        import json
        import cunumpy
        from cunumpy._emulation._fake import contexts
        print(json.dumps([cunumpy.get_backend(), list(contexts())]))
        """,
        CUNUMPY_BACKEND=value,
        CUNUMPY_FAKE_CUPY_DEVICES="4",
    )
    assert _answer(done) == ["cupy", []]


@pytest.mark.fake_cupy
def test_set_backend_cupy_creates_no_context_fake_cupy() -> None:
    done = _fake_cupy(
        """
        import json
        import cunumpy
        from cunumpy._emulation._fake import contexts
        cunumpy.set_backend("cupy", strict=True)
        usable = cunumpy.cupy_available()
        print(json.dumps([usable, cunumpy.cuda.device_count(), list(contexts())]))
        """,
        CUNUMPY_FAKE_CUPY_DEVICES="4",
    )
    assert _answer(done) == [True, 4, []]


@pytest.mark.fake_cupy
@pytest.mark.parametrize("local_rank", [0, 3, 5])
def test_bind_local_device_creates_one_context_on_its_own_gpu_fake_cupy(local_rank: int) -> None:
    done = _fake_cupy(
        """
        import json
        import cunumpy
        from cunumpy._emulation._fake import contexts
        device = cunumpy.cuda.bind_local_device()
        x = cunumpy.ones(3)
        print(json.dumps([device, x.device.id, list(contexts())]))
        """,
        CUNUMPY_BACKEND="cupy",
        CUNUMPY_FAKE_CUPY_DEVICES="4",
        OMPI_COMM_WORLD_LOCAL_RANK=str(local_rank),
    )
    gpu = local_rank % 4
    assert _answer(done) == [gpu, gpu, [gpu]]


@pytest.mark.fake_cupy
def test_free_memory_frees_the_current_gpu_unless_told_all_fake_cupy() -> None:
    done = _fake_cupy(
        """
        import json
        import cunumpy
        from cunumpy._emulation._fake import contexts
        cunumpy.cuda.bind_local_device()
        del_me = cunumpy.ones(1000)
        del del_me
        cunumpy.cuda.free_memory()
        current = list(contexts())
        cunumpy.cuda.free_memory(2)
        named = list(contexts())
        cunumpy.cuda.free_memory("all")
        print(json.dumps([current, named, sorted(contexts()), cunumpy.cuda.current_device()]))
        """,
        CUNUMPY_BACKEND="cupy",
        CUNUMPY_FAKE_CUPY_DEVICES="4",
        OMPI_COMM_WORLD_LOCAL_RANK="1",
    )
    assert _answer(done) == [[1], [1, 2], [0, 1, 2, 3], 1]


@pytest.mark.fake_cupy
def test_exclusive_gpu_held_by_another_process_fails_bind_naming_it_fake_cupy(
    tmp_path: Path,
) -> None:
    # this test's own process (alive) holds fake GPU 1, as EXCLUSIVE_PROCESS mode counts it
    (tmp_path / "device-1.lock").write_text(str(os.getpid()))
    code = """
        import json
        import cunumpy
        from cunumpy._emulation._fake import contexts
        try:
            cunumpy.cuda.bind_local_device()
        except RuntimeError as exc:
            print(json.dumps([type(exc).__name__, str(exc), list(contexts())]))
        else:
            print(json.dumps(["bound", cunumpy.cuda.current_device(), list(contexts())]))
        """
    env = {
        "CUNUMPY_BACKEND": "cupy",
        "CUNUMPY_FAKE_CUPY_DEVICES": "2",
        "CUNUMPY_FAKE_CUPY_EXCLUSIVE": "1",
        "CUNUMPY_FAKE_CUPY_CONTEXTS": str(tmp_path),
    }
    kind, message, created = _answer(_fake_cupy(code, **env, OMPI_COMM_WORLD_LOCAL_RANK="1"))  # type: ignore[misc]
    assert kind == "CupyUnavailableError", message
    assert message.startswith("bind_local_device: "), message
    assert "exclusive" in message, message
    assert created == [], created  # no context on GPU 0 on the way
    # the free GPU binds, and its process then holds it
    assert _answer(_fake_cupy(code, **env, OMPI_COMM_WORLD_LOCAL_RANK="0")) == ["bound", 0, [0]]
    assert (tmp_path / "device-0.lock").read_text().strip().isdigit()


@pytest.mark.fake_cupy
def test_the_fake_has_the_devices_it_is_given_fake_cupy() -> None:
    done = _fake_cupy(
        """
        import json
        import cunumpy  # installs the fake CuPy (CUNUMPY_FAKE_CUPY=1)
        import cupy
        from cunumpy._emulation._fake import contexts
        count = cupy.cuda.runtime.getDeviceCount()
        try:
            cupy.cuda.Device(count)
        except RuntimeError as exc:
            error = str(exc)
        with cupy.cuda.Device(2):
            x = cupy.zeros(3)
        print(json.dumps([count, error, x.device.id, cupy.cuda.runtime.getDevice(),
                          list(contexts())]))
        """,
        CUNUMPY_FAKE_CUPY_DEVICES="3",
    )
    count, error, device, current, created = _answer(done)  # type: ignore[misc]
    assert count == 3
    assert "cudaErrorInvalidDevice" in error, error
    # entering GPU 2 creates its context; leaving sets GPU 0 back, which creates 0's (CUDA 12)
    assert (device, current, created) == (2, 0, [2, 0])


@pytest.mark.fake_cupy
def test_a_bad_device_count_names_the_variable_fake_cupy() -> None:
    done = _fake_cupy("import cunumpy", CUNUMPY_FAKE_CUPY_DEVICES="none")
    assert done.returncode != 0
    assert "CUNUMPY_FAKE_CUPY_DEVICES='none'" in done.stderr, done.stderr


@pytest.mark.fake_cupy
@pytest.mark.mpi
def test_four_ranks_on_four_fake_gpus_one_context_each_exclusive_fake_cupy(
    tmp_path: Path,
) -> None:
    env = {
        "CUNUMPY_FAKE_CUPY": "1",
        "CUNUMPY_FAKE_CUPY_DEVICES": "4",
        "CUNUMPY_FAKE_CUPY_EXCLUSIVE": "1",
        "CUNUMPY_FAKE_CUPY_CONTEXTS": str(tmp_path),
    }
    done = run_mpi(4, WORKER, backend="cupy", env=env)
    log = f"stdout:\n{done.stdout}\nstderr:\n{done.stderr}"
    assert done.returncode == 0, log
    failed = [
        line
        for line in done.stdout.splitlines()
        if line.startswith("RESULT") and "PASS" not in line
    ]
    assert not failed, log
    assert done.stdout.count(" PASS") == 4 * 6, log
    # rank, its node-local rank, its GPU, the GPUs it has a context on
    per_rank = sorted(
        [int(word) for word in line.split()[1:]]
        for line in done.stdout.splitlines()
        if line.startswith("CONTEXTS ")
    )
    assert [rank for rank, *_ in per_rank] == [0, 1, 2, 3], log
    assert all(
        local == device and created == [device] for _, local, device, *created in per_rank
    ), log
    assert sorted(device for _, _, device, *_ in per_rank) == [0, 1, 2, 3], log
    # the fake's own record, one file per process: one context each, on four distinct GPUs
    records = [p.read_text().split() for p in sorted(tmp_path.glob("contexts-*.txt"))]
    assert sorted(records) == [["0"], ["1"], ["2"], ["3"]], records


@pytest.mark.fake_cupy
def test_two_fake_gpus_guard_follow_the_data_and_copy_between_them_fake_cupy() -> None:
    """The multi-GPU paths that docs/devices.md labels "tested on the fake CuPy only"."""
    done = _fake_cupy(
        """
        import json
        import cunumpy as xp
        from cunumpy._emulation._fake import contexts
        x0 = xp.ones(3, device="cuda:0")
        x1 = xp.arange(3.0, device="cuda:1")
        try:
            xp.add(x0, x1)
        except ValueError as exc:
            error = str(exc)
        y = xp.multiply(x1, 2)  # runs on GPU 1, the current GPU staying 0
        z = xp.to_device(x0, "cuda:1")
        with xp.cuda.device(1):
            w = xp.zeros(2)
            inside = xp.cuda.current_device()
        print(json.dumps([error, y.device.id, xp.to_numpy(y).tolist(), z.device.id,
                          w.device.id, inside, xp.cuda.current_device(), sorted(contexts())]))
        """,
        CUNUMPY_BACKEND="cupy",
        CUNUMPY_FAKE_CUPY_DEVICES="2",
    )
    error, *rest = _answer(done)  # type: ignore[misc]
    assert "cuda:0" in error and "cuda:1" in error, error
    assert rest == [1, [0.0, 2.0, 4.0], 1, 1, 1, 0, [0, 1]]


def test_a_gpu_that_fails_the_test_kernel_is_named_with_the_reason(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The kernel check runs on the current GPU, once, and its error names GPU and reason."""
    import types

    from cunumpy._settings import _cupy_probe

    calls: list[str] = []

    def arange(*args: object, **kwargs: object) -> object:
        calls.append("arange")
        msg = "cudaErrorNoKernelImageForDevice: no kernel image is available for execution"
        raise RuntimeError(msg)

    runtime = types.SimpleNamespace(getDevice=lambda: 1, getDeviceCount=lambda: 2)
    stub = types.SimpleNamespace(
        cuda=types.SimpleNamespace(runtime=runtime), arange=arange, float32="float32"
    )
    monkeypatch.setitem(sys.modules, "cupy", stub)
    monkeypatch.setattr(_cupy_probe, "_probe_result", None)  # the count said: usable
    monkeypatch.setattr(_cupy_probe, "_device_results", {})
    with pytest.raises(_cupy_probe.CupyUnavailableError) as info:
        _cupy_probe.require_device("bind_local_device")
    message = str(info.value)
    assert message.startswith("bind_local_device: GPU 1 cannot run CuPy's kernels: "), message
    assert "no code for this GPU" in message, message
    assert "cudaErrorNoKernelImageForDevice" in message, message
    assert _cupy_probe.cupy_available()  # choosing the backend still sees a usable CuPy
    with pytest.raises(_cupy_probe.CupyUnavailableError):
        _cupy_probe.require_device("bind_local_device")
    assert calls == ["arange"]  # checked once per GPU


@pytest.mark.fake_cupy
def test_set_device_checks_the_gpu_it_selects_and_names_a_held_one_fake_cupy(
    tmp_path: Path,
) -> None:
    (tmp_path / "device-1.lock").write_text(str(os.getpid()))  # this live process holds GPU 1
    done = _fake_cupy(
        """
        import json
        import cunumpy
        from cunumpy._emulation._fake import contexts
        from cunumpy._settings import _cupy_probe
        cunumpy.set_backend("cupy")
        cunumpy.cuda.set_device(2)
        checked = sorted(_cupy_probe._device_results)
        try:
            cunumpy.cuda.set_device(1)
        except RuntimeError as exc:
            error = f"{type(exc).__name__}: {exc}"
        print(json.dumps([checked, cunumpy.cuda.current_device(), list(contexts()), error]))
        """,
        CUNUMPY_FAKE_CUPY_DEVICES="3",
        CUNUMPY_FAKE_CUPY_EXCLUSIVE="1",
        CUNUMPY_FAKE_CUPY_CONTEXTS=str(tmp_path),
    )
    checked, current, created, error = _answer(done)  # type: ignore[misc]
    assert (checked, current, created) == ([2], 2, [2])
    assert error.startswith("CupyUnavailableError: set_device: GPU 1 cannot be used: "), error
    assert "exclusive" in error, error


@pytest.mark.fake_cupy
def test_synchronizing_one_fake_gpu_leaves_the_other_gpus_streams_running_fake_cupy() -> None:
    """As in CUDA, a device synchronization waits for that device's streams only: what a
    stream block on GPU 1 read stays kept alive across ``synchronize(0)``, and is released
    by ``synchronize(1)`` (the poisoned pool of two fake GPUs)."""
    done = _fake_cupy(
        """
        import gc, json
        import numpy as np
        import cunumpy as xp
        import cunumpy.cuda as cuda
        from cunumpy._emulation._fake import _pool
        from cunumpy._placement import _keep_alive
        with cuda.device(1):
            field = xp.asarray(np.arange(4.0), device=1)
            with cuda.stream():
                total = xp.sum(xp.multiply(field, 2))
            del field
            gc.collect()
            cuda.synchronize(0)
            held_after_gpu0 = _keep_alive.retained_arrays()
            xp.asarray(np.ones(4), device=1)  # would reuse the block were it freed
            cuda.synchronize(1)
            held_after_gpu1 = _keep_alive.retained_arrays()
        print(json.dumps([held_after_gpu0 > 0, held_after_gpu1, float(total), _pool.poisoned]))
        """,
        CUNUMPY_BACKEND="cupy",
        CUNUMPY_FAKE_CUPY_DEVICES="2",
    )
    assert _answer(done) == [True, 0, 12.0, []]


@pytest.mark.fake_cupy
def test_cupy_imported_alone_is_no_gpu_work_for_the_helpers_fake_cupy() -> None:
    """On the NumPy backend, CuPy imported by ``cupy_available()`` holds no work: the
    helpers create no context (on a cluster, one on GPU 0 per rank); once an array lives on
    the GPU, they act there (issue 50 item 2 after item 1's context-free probe)."""
    done = _fake_cupy(
        """
        import json
        import cunumpy as xp
        import cunumpy.cuda as cuda
        from cunumpy import mpi, profiling
        from cunumpy._emulation._fake import contexts
        assert xp.cupy_available()
        cuda.synchronize()
        mpi.synchronize_for_mpi()
        cuda.free_memory()
        with profiling.timed_region() as idle, cuda.stream() as s:
            pass
        before = [sorted(contexts()), cuda.current_device(), cuda.memory_stats() is None,
                  s is None, idle.device_time is None]
        x = xp.ones(3, device="cuda:0")
        with profiling.timed_region() as busy, cuda.stream() as s:
            pass
        after = [sorted(contexts()), cuda.current_device(), cuda.memory_stats() is None,
                 s is None, busy.device_time is None]
        print(json.dumps([before, after]))
        """,
        CUNUMPY_BACKEND="numpy",
    )
    assert _answer(done) == [[[], "cpu", True, True, True], [[0], 0, False, False, False]]
