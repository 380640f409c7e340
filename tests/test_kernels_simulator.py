"""The CUDA target of portable kernels without a GPU: loop planning, and the simulator run.

``test_cuda_target_under_the_numba_cuda_simulator`` runs ``tests/simulator/`` in a new
process with ``NUMBA_ENABLE_CUDASIM=1`` (Numba reads it once, at import) and requires
every simulator test there to pass.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from cunumpy import kernels
from cunumpy.kernels._portable._numba_cuda import plan_loop

ROOT = Path(__file__).resolve().parent.parent
SIMULATOR_TESTS = ROOT / "tests" / "simulator" / "test_cuda_target.py"


def _pythonpath() -> str:
    """The repository first, then the caller's PYTHONPATH (the GPU machine's carried wheels)."""
    return os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)


# numba-cuda 0.30 builds a unit-less timedelta at import, which NumPy 2.5 deprecates; the
# warning is numba-cuda's (NVIDIA/numba-cuda#907), not cunumpy's, so only it is ignored.
_NUMBA_CUDA_ON_NUMPY_25 = (
    "ignore:The 'generic' unit for NumPy timedelta is deprecated:DeprecationWarning"
)


def _numba_cuda_missing() -> str | None:
    if importlib.util.find_spec("numba") is None:
        return "Numba is not installed (pip install numba; from a source checkout: pip install '.[kernels]')"
    try:
        import numba.cuda  # noqa: F401
    except ImportError as exc:
        return f"numba-cuda is not importable ({exc}); pip install 'numba-cuda[cu12]' (from a source checkout: pip install '.[cuda12]')"
    return None


@pytest.mark.simulator
def test_cuda_target_under_the_numba_cuda_simulator() -> None:
    reason = _numba_cuda_missing()
    if reason is not None:
        pytest.skip(reason)
    expected = len(re.findall(r"^def test_", SIMULATOR_TESTS.read_text(), re.MULTILINE))
    done = subprocess.run(
        [sys.executable, "-m", "pytest", str(SIMULATOR_TESTS.parent), "-q", "-p",
         "no:cacheprovider", "-m", "simulator", "-W", "error", "-W", _NUMBA_CUDA_ON_NUMPY_25],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "NUMBA_ENABLE_CUDASIM": "1", "PYTHONPATH": _pythonpath()},
        timeout=600,
        check=False,
    )  # fmt: skip
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert re.search(rf"\b{expected} passed\b", output), output
    assert "skipped" not in output, output


def test_simulated_run_needs_the_simulator() -> None:
    pytest.importorskip("numba")
    if _numba_cuda_missing() is not None:
        pytest.skip(_numba_cuda_missing())

    @kernels.elementwise(["float64(float64)"])
    def ident(x):
        return x

    with pytest.raises(
        RuntimeError, match="ident: the CUDA target runs on NumPy arrays only under"
    ):
        ident._simulate(np.ones(2))


# --- loop planning (pure Python) -------------------------------------------------------------


def test_plan_merges_contiguous_operands_into_one_dimension() -> None:
    dims, strides = plan_loop((2, 3, 4), [(96, 32, 8), (48, 16, 4)])
    assert dims == (24,)
    assert strides == [(8,), (4,)]


def test_plan_keeps_broadcast_dimensions_apart() -> None:
    # out (3, 4) contiguous, x broadcast along rows (stride 0), y along columns
    dims, strides = plan_loop((3, 4), [(32, 8), (0, 8), (8, 0)])
    assert dims == (3, 4)
    assert strides == [(32, 8), (0, 8), (8, 0)]


def test_plan_merges_stride_zero_dimensions_together() -> None:
    dims, strides = plan_loop((5, 6), [(48, 8), (0, 0)])
    assert dims == (30,)
    assert strides == [(8,), (0,)]


def test_plan_orders_by_the_first_operand_and_drops_size_one() -> None:
    # a Fortran-ordered output: the loop walks it in memory order
    dims, strides = plan_loop((3, 1, 4), [(8, 999, 24), (32, 0, 8)])
    assert dims == (4, 3)
    assert strides == [(24, 8), (8, 32)]


def test_plan_of_a_single_element() -> None:
    assert plan_loop((), [(), ()]) == ((1,), [(0,), (0,)])
    assert plan_loop((1, 1), [(8, 8)]) == ((1,), [(0,)])


def test_plan_keeps_reversed_dimensions() -> None:
    dims, strides = plan_loop((4, 5), [(40, 8), (-40, 8)])
    assert dims == (4, 5)
    assert strides == [(40, 8), (-40, 8)]
