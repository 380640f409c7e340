"""``profiling.trace`` and the timing helpers on the CuPy path, on the fake CuPy with CUDA C
emulated on the CPU (fake CuPy, emulated: never a GPU check; the GPU checks are in
gpu_check.sh). The fake's events time the host, so device intervals here test where they
are placed and on which stream, not what a GPU would measure.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cupy
import numpy as np
import pytest

import cunumpy as xp
from cunumpy import profiling

SCALE = r"""
extern "C" __global__ void scale(double* x, double a, int n) {
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i < n) x[i] *= a;
}"""


def _events(path: Path) -> list[dict[str, Any]]:
    return json.loads(path.read_text())["traceEvents"]


def _track_of(events: list[dict[str, Any]], event: dict[str, Any]) -> str:
    names = {
        (e["pid"], e["tid"]): e["args"]["name"]
        for e in events
        if e["ph"] == "M" and e["name"] == "thread_name"
    }
    return names[(event["pid"], event["tid"])]


# --- issue 50, item 2: the timing helpers act whenever CuPy holds work ---------------------
def test_timed_region_waits_and_times_the_device_on_the_numpy_backend() -> None:
    assert xp.get_backend() == "numpy"
    x = xp.ones(1000, device="cuda:0")  # compute follows data: a (fake) CuPy array
    assert isinstance(x, cupy.ndarray)
    with profiling.timed_region("gpu work on the numpy backend") as region:
        y = 2.0 * x
    assert region.synced is True  # it waited for the device (it did not on 6ec2476)
    assert region.device_time is not None and region.device_time >= 0.0
    assert isinstance(y, cupy.ndarray)


def test_benchmark_measures_device_time_on_the_numpy_backend() -> None:
    x = xp.ones(100, device="cuda:0")
    result = profiling.benchmark(lambda: x * 3.0, n_repeat=3, n_warmup=1)
    assert result.device_times is not None and result.device_times.shape == (3,)


# --- the CuPy path of a recording --------------------------------------------------------------
def test_device_intervals_lie_inside_their_regions_on_their_stream(tmp_path: Path) -> None:
    with xp.use_backend("cupy"), profiling.trace(tmp_path / "gpu.json", summary=False):
        x = xp.ones(4096)
        with profiling.timed_region("solve"):
            for _ in range(3):
                x = x * 1.5
        with xp.cuda.stream() as side, profiling.timed_region("on a side stream"):
            z = x + 1.0
        host = xp.to_numpy(z)
        xp.cuda.synchronize()
    np.testing.assert_allclose(host, 1.5**3 + 1.0)
    events = _events(tmp_path / "gpu.json")
    (region,) = [e for e in events if e.get("cat") == "region" and e["name"] == "solve"]
    (device,) = [e for e in events if e.get("cat") == "device" and e["name"] == "solve"]
    assert region["ts"] <= device["ts"] <= device["ts"] + device["dur"] <= region["ts"] + region["dur"] + 1.0  # fmt: skip
    assert _track_of(events, region) == "host MainThread"
    assert _track_of(events, device) == "cuda:0 stream null"
    (side_device,) = [e for e in events if e.get("cat") == "device" and e["name"] == "on a side stream"]  # fmt: skip
    assert _track_of(events, side_device) == f"cuda:0 stream {hex(side.ptr)}"
    copies = [e for e in events if e.get("cat") == "copy"]
    (copy,) = [e for e in copies if _track_of(events, e) == "host MainThread"]
    (on_stream,) = [e for e in copies if _track_of(events, e) == "cuda:0 stream null"]
    assert on_stream["name"] == "to_host" and on_stream["ts"] >= copy["ts"]
    assert copy["name"] == "to_host" and copy["args"]["bytes"] == 4096 * 8
    assert copy["args"]["call site"].startswith(f"{__file__}:")
    assert copy["args"]["stream"] == "cuda:0 stream null"
    assert copy["args"]["memory"] == "pageable"
    waits = [e["name"] for e in events if e.get("cat") == "wait"]
    assert waits == ["to_numpy: copy to the host", "synchronize of cuda:0"]
    pool = [e for e in events if e["ph"] == "C" and e["name"] == "CuPy pool"]
    assert len(pool) >= 4  # at the recording's ends and at each region's boundaries
    assert all(e["args"]["used"] >= 0 for e in pool)


@pytest.mark.emulated
def test_kernel_launches_have_name_grid_and_stream(tmp_path: Path) -> None:
    kernel = xp.kernels.RawKernel(SCALE, "scale")
    with xp.use_backend("cupy"):
        x = xp.ones(64)
    with profiling.trace(tmp_path / "k.json", summary=False) as recording, xp.use_backend("cupy"):
        with xp.cuda.stream() as s:
            kernel((2,), (32,), (x, 3.0, np.int32(64)), stream=s)
        xp.cuda.synchronize()
    np.testing.assert_array_equal(x.get(), 3.0)
    events = _events(tmp_path / "k.json")
    launches = [e for e in events if e.get("cat") == "kernel"]
    host = [e for e in launches if _track_of(events, e) == "host MainThread"]
    device = [e for e in launches if _track_of(events, e).startswith("cuda:0 stream 0x")]
    assert [e["name"] for e in host] == ["scale"] and [e["name"] for e in device] == ["scale"]
    assert host[0]["args"]["grid"] == "(2,)" and host[0]["args"]["block"] == "(32,)"
    assert host[0]["args"]["stream"] == f"cuda:0 stream {hex(s.ptr)}"
    assert recording.summary is not None and "scale" in recording.summary


def test_copies_to_the_device_have_bytes_memory_and_stream(tmp_path: Path) -> None:
    with xp.use_backend("cupy"), profiling.trace(tmp_path / "c.json", summary=False):
        xp.asarray(np.arange(256.0))
    events = _events(tmp_path / "c.json")
    copies = [e for e in events if e.get("cat") == "copy"]
    assert sorted(_track_of(events, e) for e in copies) == ["cuda:0 stream null", "host MainThread"]
    (copy,) = [e for e in copies if _track_of(events, e) == "host MainThread"]
    assert copy["name"] == "to_device" and copy["args"]["memory"] == "pageable"
    assert copy["args"]["bytes"] == 256 * 8 and copy["args"]["stream"] == "cuda:0 stream null"
    assert copy["args"]["call site"].startswith(f"{__file__}:")


def test_a_background_copy_is_on_its_own_stream_and_blocks_nothing(tmp_path: Path) -> None:
    with xp.use_backend("cupy"):
        x = xp.arange(512.0)
    with profiling.trace(tmp_path / "a.json", summary=False):
        pending = xp.to_host_async(x)
        value = pending.result()
    np.testing.assert_array_equal(value, np.arange(512.0))
    events = _events(tmp_path / "a.json")
    copies = [e for e in events if e.get("cat") == "copy"]
    (host,) = [e for e in copies if _track_of(events, e) == "host MainThread"]
    (device,) = [e for e in copies if _track_of(events, e) != "host MainThread"]
    assert host["args"]["blocking"] is False and host["args"]["memory"] == "pinned"
    assert _track_of(events, device) == host["args"]["stream"] != "cuda:0 stream null"
    assert not [e for e in events if e.get("cat") == "wait" and "copy to the host" in e["name"]]


def test_nested_recordings_both_get_the_device_intervals(tmp_path: Path) -> None:
    with xp.use_backend("cupy"), profiling.trace(tmp_path / "outer.json", summary=False):
        x = xp.ones(64)
        with profiling.trace(tmp_path / "inner.json", summary=False):
            with profiling.timed_region("inner work"):
                x = x + 1.0
            xp.to_numpy(x)
    for name in ("outer", "inner"):
        events = _events(tmp_path / f"{name}.json")
        (device,) = [e for e in events if e.get("cat") == "device"]
        (region,) = [e for e in events if e.get("cat") == "region"]
        assert region["ts"] <= device["ts"] <= region["ts"] + region["dur"]
        copies = [e for e in events if e.get("cat") == "copy"]
        assert sorted(_track_of(events, e) for e in copies) == ["cuda:0 stream null", "host MainThread"]  # fmt: skip
