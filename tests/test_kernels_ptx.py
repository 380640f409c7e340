"""The CUDA target's kernels compile with numba-cuda for sm_90, here, without a GPU.

The simulator tests run the CUDA target's Python; these check what the simulator cannot:
that every kernel shape (loop rank 1 to 3; array, cast and scalar operands; core views of
generalized kernels) types and lowers for the real CUDA target. numba-cuda compiles to
PTX with NVVM (from the CUDA toolkit) and lists architectures with NVRTC (the
``nvidia-cuda-nvrtc*`` wheels CI installs); without them these tests skip, saying which is
missing, or fail where ``CUNUMPY_CUDA_COMPILE_REQUIRED=1`` (as in CI). ``ptxas``, where found, then assembles the PTX for sm_90.

numba-cuda asks the current GPU for its compute capability when it compiles a device
function; with no GPU, the tests answer (9, 0) for it through ``monkeypatch``. Nothing
runs: only the compiler is told which architecture to target.
"""

from __future__ import annotations

import math
import os
import shutil
import subprocess
import types
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cunumpy import kernels
from cunumpy.kernels._portable._loop_types import LoopSignature
from cunumpy.kernels._portable._numba_cuda import _Operand

numba = pytest.importorskip(
    "numba",
    reason="needs Numba (pip install numba; from a source checkout: pip install '.[kernels]')",
)
cuda = pytest.importorskip(
    "numba.cuda",
    reason="needs numba-cuda (pip install 'numba-cuda[cu12]'; from a source checkout: pip install '.[cuda12]')",
)
nbtypes = numba.types

F64, F32 = np.dtype("float64"), np.dtype("float32")


@kernels.elementwise(["float64(float64, float64, float64)"])
def fused(x, y, z):
    if x > 0.5:
        return math.exp(-x) * math.sin(y) + z
    return math.sqrt(x) * y - z


@kernels.elementwise(["complex128(complex128, float64)", "int64(int64, int64)", "bool(bool, bool)"])
def mixed(x, y):
    return x * y


@kernels.generalized("(m,n),(n),()->(m),()", ["(float64, float64)(float64, float64, float64)"])
def affine(a, x, shift, out, total):
    t = 0.0
    for i in range(a.shape[0]):
        acc = shift
        for j in range(a.shape[1]):
            acc += a[i, j] * x[j]
        out[i] = acc
        t += acc
    total[0] = t


@pytest.fixture(scope="module")
def sm90() -> Any:
    """numba-cuda told to compile for sm_90; skips when NVVM or NVRTC cannot be found."""
    from cunumpy.kernels._portable._numba_import import cuda_target_problem

    problem = cuda_target_problem()  # numba-cuda and NumPy that do not work together
    if problem is not None:
        pytest.skip(problem)
    patch = pytest.MonkeyPatch()
    dispatcher = pytest.importorskip("numba.cuda.dispatcher")
    if not hasattr(dispatcher, "get_current_device"):
        pytest.skip("this numba-cuda asks for the current device elsewhere; nothing to patch")
    patch.setattr(
        dispatcher, "get_current_device", lambda: types.SimpleNamespace(compute_capability=(9, 0))
    )

    def probe(out: Any) -> None:
        out[0] = 1.0

    try:
        cuda.compile_ptx(probe, (nbtypes.float64[::1],), cc=(9, 0))
    except Exception as exc:  # the toolkit libraries are looked up only now
        patch.undo()
        text = f"{type(exc).__name__}: {exc}"
        if any(word in text for word in ("nvrtc", "NVRTC", "nvvm", "NVVM", "libdevice")):
            reason = f"numba-cuda cannot compile here: {text.splitlines()[0]}"
            if os.environ.get("CUNUMPY_CUDA_COMPILE_REQUIRED") == "1":  # as CI sets it
                pytest.fail(f"CUNUMPY_CUDA_COMPILE_REQUIRED=1 but {reason}")
            pytest.skip(reason)
        raise
    yield
    patch.undo()


def _ptx(kernel: Any, signature: tuple[Any, ...]) -> str:
    ptx, _ = cuda.compile_ptx(kernel.py_func, signature, cc=(9, 0))
    assert ".target sm_90" in ptx and ".entry" in ptx
    ptxas = shutil.which("ptxas") or (
        "/usr/local/cuda/bin/ptxas" if Path("/usr/local/cuda/bin/ptxas").exists() else None
    )
    if ptxas is not None:
        done = subprocess.run(
            [ptxas, "-arch=sm_90", "-o", "/dev/null", "-"],
            input=ptx, capture_output=True, text=True, check=False, timeout=120,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
    return ptx


def _array(dtype: Any, ndim: int, layout: str = "A") -> Any:
    return nbtypes.Array(numba.from_dtype(np.dtype(dtype)), ndim, layout)


@pytest.mark.parametrize("rank", [1, 2, 3])
def test_elementwise_kernel_compiles_for_sm90(sm90: Any, rank: int) -> None:
    loop = LoopSignature((F64, F64, F64), (F64,))
    operands = [
        _Operand("array", None),
        _Operand("array", None, "float64"),
        _Operand("scalar", 0.0),
    ]
    kernel = fused._cuda_loops()._kernel("elementwise", loop, operands, rank)
    ops = nbtypes.Tuple((_array(F64, rank, "C"), _array(F32, rank), nbtypes.float64))
    ptx = _ptx(kernel, (_array(F64, rank, "C"), ops))
    assert "sin" in ptx or "sin.approx" in ptx or "call" in ptx  # the user's function is in it


@pytest.mark.parametrize(
    ("loop", "argument_types"),
    [
        (LoopSignature((np.dtype("complex128"), F64), (np.dtype("complex128"),)), ("complex64", "float32")),
        (LoopSignature((np.dtype("int64"),) * 2, (np.dtype("int64"),)), ("int8", "uint32")),
        (LoopSignature((np.dtype("bool"),) * 2, (np.dtype("bool"),)), ("bool", "bool")),
    ],
    ids=["complex", "int", "bool"],
)  # fmt: skip
def test_elementwise_casts_compile_for_sm90(
    sm90: Any, loop: LoopSignature, argument_types: tuple[str, str]
) -> None:
    operands = [
        _Operand("array", None, None if np.dtype(t) == d else d.name)
        for t, d in zip(argument_types, loop.inputs)
    ]
    kernel = mixed._cuda_loops()._kernel("elementwise", loop, operands, 1)
    ops = nbtypes.Tuple(tuple(_array(t, 1) for t in argument_types))
    _ptx(kernel, (_array(loop.outputs[0], 1, "C"), ops))


def test_elementwise_scalar_bool_operand_compiles_for_sm90(sm90: Any) -> None:
    loop = LoopSignature((np.dtype("bool"),) * 2, (np.dtype("bool"),))
    kernel = mixed._cuda_loops()._kernel(
        "elementwise", loop, [_Operand("array", None), _Operand("scalar", True)], 1
    )
    _ptx(kernel, (_array("bool", 1, "C"), nbtypes.Tuple((_array("bool", 1), nbtypes.boolean))))


@pytest.mark.parametrize("rank", [1, 2, 3])
def test_generalized_kernel_compiles_for_sm90(sm90: Any, rank: int) -> None:
    loop = LoopSignature((F64, F64, F64), (F64, F64))
    kernel = affine._cuda_loops()._kernel("generalized", loop, [_Operand("array", None)] * 5, rank)
    ops = nbtypes.Tuple(
        (_array(F64, rank + 2), _array(F64, rank + 1), _array(F64, rank),
         _array(F64, rank + 1), _array(F64, rank + 1, "C"))
    )  # fmt: skip
    _ptx(kernel, (ops, nbtypes.UniTuple(nbtypes.int64, rank)))
