"""The GPU benchmarks start, and without a usable GPU stop with the reason (status 2).

On a GPU machine they run for real from ``gpu_check.sh`` instead, so these tests skip there.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import cunumpy

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    "script", ["bench_cupy_dispatch.py", "bench_transfer.py", "bench_streams.py"]
)
def test_gpu_benchmark_without_a_gpu_exits_with_the_reason(script: str) -> None:
    if cunumpy.cupy_available():
        pytest.skip("a GPU is usable: gpu_check.sh runs this benchmark for real")
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / script)],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 2, done.stdout + done.stderr
    assert "no usable GPU" in done.stdout
    reason = cunumpy.cupy_unavailable_reason()
    assert reason is not None and reason in done.stdout
