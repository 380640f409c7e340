"""Portable kernels on CuPy arrays: numba-cuda's CUDA target on the GPU that holds them.

Marked ``gpu``: skipped, with CuPy's reason, without a usable GPU. The ordering tests
queue a slow fill (``gpu_kernels.slow_fill``) on a non-blocking stream, then the
kernel on that stream, then CuPy work reading the kernel's result: a kernel queued on any
other stream would read the zeros the fill has not yet overwritten.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from gpu_kernels import slow_fill

import cunumpy
from cunumpy import kernels

cupy = pytest.importorskip("cupy")
pytest.importorskip(
    "numba",
    reason="portable kernels need Numba (pip install numba; from a source checkout: pip install '.[kernels]')",
)

# A GPU alone is not enough: numba-cuda must also compile with the installed NumPy.
_GPU_TARGET_PROBLEM = kernels.gpu_unavailable_reason() if cunumpy.cupy_available() else None
pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(_GPU_TARGET_PROBLEM is not None, reason=str(_GPU_TARGET_PROBLEM)),
]


@kernels.elementwise(["float32(float32, float32)", "float64(float64, float64)"])
def gpu_wave(x, y):
    return math.exp(-0.5 * x) * math.sin(3.0 * x) + 0.25 * y


@kernels.elementwise(["int64(int64, int64)", "bool(bool, bool)"])
def gpu_add(x, y):
    return x + y


@kernels.generalized("(n),(n)->()", ["float64(float64, float64)"])
def gpu_dot(x, y, out):
    total = 0.0
    for i in range(x.shape[0]):
        total += x[i] * y[i]
    out[0] = total


@kernels.generalized("(m,n),(n),()->(m),()", ["(float64, float64)(float64, float64, float64)"])
def gpu_affine(a, x, shift, out, total):
    t = 0.0
    for i in range(a.shape[0]):
        acc = shift
        for j in range(a.shape[1]):
            acc += a[i, j] * x[j]
        out[i] = acc
        t += acc
    total[0] = t


def _wave(x, y):
    return np.exp(-0.5 * x) * np.sin(3.0 * x) + 0.25 * y


def _gpus() -> int:
    return int(cupy.cuda.runtime.getDeviceCount())


def test_elementwise_on_cupy_matches_numpy() -> None:
    rng = np.random.default_rng(0)
    x, y = rng.random(100_003), rng.random(100_003)
    result = gpu_wave(cupy.asarray(x), cupy.asarray(y))
    assert isinstance(result, cupy.ndarray) and result.dtype == np.float64
    np.testing.assert_allclose(cupy.asnumpy(result), _wave(x, y), rtol=1e-12)
    x32 = cupy.asarray(x[:1000], dtype=np.float32)
    result32 = gpu_wave(x32, 2.0)
    assert result32.dtype == np.float32
    np.testing.assert_allclose(cupy.asnumpy(result32), _wave(x[:1000], 2.0), rtol=1e-5)
    assert any(key.endswith("cuda rank 1") for key in gpu_wave.compile_times)


def test_elementwise_on_cupy_broadcasts_strides_and_casts() -> None:
    base = np.arange(2 * 3 * 10, dtype=np.float64).reshape(2, 3, 10) / 60
    x = base[:, ::-1, ::3]
    y = np.linspace(0.0, 1.0, 4).astype(np.float32)  # cast to float64 in the kernel
    result = gpu_wave(cupy.asarray(base)[:, ::-1, ::3], cupy.asarray(y))
    np.testing.assert_allclose(cupy.asnumpy(result), _wave(x, y.astype(np.float64)), rtol=1e-12)
    column = cupy.arange(3.0)[:, None]
    np.testing.assert_allclose(
        cupy.asnumpy(gpu_wave(cupy.linspace(0.0, 1.0, 5), column)),
        _wave(np.linspace(0.0, 1.0, 5), np.arange(3.0)[:, None]),
        rtol=1e-12,
    )
    five = np.arange(2 * 3 * 2 * 3 * 2, dtype=np.float64).reshape(2, 3, 2, 3, 2) / 72
    result = gpu_wave(cupy.asarray(five)[:, :, :, ::-1], 1.0)
    np.testing.assert_allclose(cupy.asnumpy(result), _wave(five[:, :, :, ::-1], 1.0), rtol=1e-12)


def test_elementwise_on_cupy_out_and_scalars() -> None:
    x = cupy.linspace(0.0, 1.0, 1000)
    out = cupy.empty((1000, 2))[:, 1]
    assert gpu_wave(x, np.float64(0.5), out=out) is out
    np.testing.assert_allclose(
        cupy.asnumpy(out), _wave(np.linspace(0.0, 1.0, 1000), 0.5), rtol=1e-12
    )
    np.testing.assert_array_equal(cupy.asnumpy(gpu_add(cupy.arange(5), 7)), np.arange(5) + 7)
    flags = gpu_add(cupy.asarray([True, False]), True)
    assert flags.dtype == np.bool_ and cupy.asnumpy(flags).tolist() == [True, True]
    in_place = cupy.linspace(0.0, 1.0, 10)
    expected = _wave(cupy.asnumpy(in_place), 1.0)
    gpu_wave(in_place, 1.0, out=in_place)
    np.testing.assert_allclose(cupy.asnumpy(in_place), expected, rtol=1e-12)


def test_generalized_on_cupy_matches_numpy() -> None:
    rng = np.random.default_rng(1)
    left, right = rng.random((40, 1, 16)), rng.random((1, 30, 16))
    result = gpu_dot(cupy.asarray(left), cupy.asarray(right))
    assert result.shape == (40, 30)
    np.testing.assert_allclose(cupy.asnumpy(result), (left * right).sum(axis=-1), rtol=1e-12)
    a, x = rng.random((8, 5, 6)), rng.random(6).astype(np.float32)
    out, total = gpu_affine(cupy.asarray(a), cupy.asarray(x), 0.5)
    expected = a @ x.astype(np.float64) + 0.5
    np.testing.assert_allclose(cupy.asnumpy(out), expected, rtol=1e-12)
    np.testing.assert_allclose(cupy.asnumpy(total), expected.sum(axis=1), rtol=1e-12)


def _compiled(kernel: Any, *args: Any) -> None:
    """Compile ``kernel`` for ``args`` before an ordering test queues its slow fill.

    A kernel compiled inside the call would start only after the compiler's second or more,
    when the fill has long finished: the test would pass whatever the ordering.
    """
    kernel(*args)
    cupy.cuda.Device().synchronize()


def test_kernel_waits_for_earlier_work_on_the_given_stream() -> None:
    n = 1 << 20
    x = cupy.zeros(n)
    _compiled(gpu_wave, x, 1.0)
    stream = cupy.cuda.Stream(non_blocking=True)
    with stream:
        slow_fill(x, 3.0)
    y = gpu_wave(x, 1.0, stream=stream)  # queued on `stream`, after the fill
    with stream:
        doubled = y * 2  # CuPy work after the kernel, on the same stream
    stream.synchronize()
    expected = float(_wave(3.0, 1.0))
    assert float(cupy.abs(y - expected).max()) < 1e-12
    assert float(cupy.abs(doubled - 2 * expected).max()) < 1e-12


def test_kernel_on_another_stream_waits_for_the_current_stream() -> None:
    x = cupy.zeros(1 << 20)
    _compiled(gpu_wave, x, 1.0)
    slow_fill(x, 3.0)  # on the current stream: it may still be producing x
    stream = cupy.cuda.Stream(non_blocking=True)
    y = gpu_wave(x, 1.0, stream=stream)  # waits for the current stream first, on the GPU
    stream.synchronize()
    assert float(cupy.abs(y - float(_wave(3.0, 1.0))).max()) < 1e-12


def test_kernel_accepts_a_raw_stream_handle() -> None:
    x = cupy.zeros(1 << 16)
    _compiled(gpu_dot, x.reshape(256, 256), x.reshape(256, 256))
    stream = cupy.cuda.Stream(non_blocking=True)
    with stream:
        slow_fill(x, 2.0, delay_s=0.1)
    y = gpu_dot(x.reshape(256, 256), x.reshape(256, 256), stream=stream.ptr)
    stream.synchronize()
    np.testing.assert_allclose(cupy.asnumpy(y), np.full(256, 4.0 * 256))


def test_kernel_uses_the_current_stream_of_a_stream_block() -> None:
    x = cupy.zeros(1 << 16)
    _compiled(gpu_wave, x, 0.0)
    with cunumpy.use_backend("cupy"), cunumpy.cuda.stream() as stream:
        slow_fill(x, 1.5, delay_s=0.1)
        y = gpu_wave(x, 0.0)  # no stream=: the block's stream
        total = float(y.sum())  # waits for the stream
    stream.synchronize()
    assert total == pytest.approx(x.size * float(_wave(1.5, 0.0)), rel=1e-12)


def test_inputs_of_a_kernel_on_another_stream_are_not_reused_under_it() -> None:
    # The input is allocated on the current stream and released right after the call; CuPy
    # would hand its memory to the next allocation on the current stream at once, and the
    # fill below would overwrite it before the delayed kernel on `stream` reads it.
    n = 1 << 20
    stream = cupy.cuda.Stream(non_blocking=True)
    _compiled(gpu_wave, cupy.zeros(n), 1.0)
    with stream:
        slow_fill(cupy.zeros(1 << 10), 0.0)  # holds `stream` back for 0.2 s
    y = gpu_wave(cupy.full(n, 3.0), 1.0, stream=stream)
    reused = cupy.empty(n)  # on the current stream, which does not wait for `stream`
    reused.fill(-100.0)
    stream.synchronize()
    assert float(cupy.abs(y - float(_wave(3.0, 1.0))).max()) < 1e-12


def test_arrays_of_two_libraries_are_a_type_error() -> None:
    with pytest.raises(TypeError, match=r"gpu_wave: the arguments mix NumPy .* and CuPy"):
        gpu_wave(cupy.ones(3), np.ones(3))
    with pytest.raises(TypeError, match="mix NumPy"):
        gpu_wave(np.ones(3), np.ones(3), out=cupy.empty(3))


def test_arrays_on_two_gpus_are_a_value_error() -> None:
    if _gpus() < 2:
        pytest.skip(f"needs two GPUs; {_gpus()} visible")
    with cupy.cuda.Device(0):
        a = cupy.ones(3)
    with cupy.cuda.Device(1):
        b = cupy.ones(3)
        other = cupy.cuda.Stream(non_blocking=True)
    with pytest.raises(ValueError, match=r"gpu_wave: the arguments live on GPUs \[0, 1\]"):
        gpu_wave(a, b)
    with pytest.raises(ValueError, match="belongs to GPU 1, but the work runs on GPU 0"):
        gpu_wave(a, a, stream=other)
    with cupy.cuda.Device(0):  # arrays on GPU 1 run there, whatever the current device
        np.testing.assert_allclose(cupy.asnumpy(gpu_wave(b, b)), _wave(np.ones(3), np.ones(3)))


def test_later_calls_launch_without_numba_and_match_numba_argument_lists() -> None:
    # The first call of each version launches through Numba (and compiles); the launcher
    # it leaves (built only where its argument list equals the one Numba built) runs the
    # later ones. False in the cache would mean every call of that version goes to Numba.
    from cunumpy.kernels._portable import _numba_cuda

    launches = []
    original = _numba_cuda.CupyMemory.launch

    def counted(self: Any, *args: Any) -> Any:
        launches.append(args[0])
        return original(self, *args)

    fresh = kernels.elementwise(["float64(float64, float64)"])(gpu_wave.py_func)  # no versions yet
    rng = np.random.default_rng(3)
    base = rng.random((6, 40))
    cases = [
        (cupy.asarray(base), 0.5),  # C-ordered, a scalar
        (cupy.asarray(base)[:, ::3], cupy.asarray(base[0, ::3])),  # strided, broadcast
        (cupy.asarray(base).T, cupy.asarray(base.T, dtype=np.float32)),  # F-ordered, a cast
    ]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_numba_cuda.CupyMemory, "launch", counted)
        for x, y in cases:
            for _ in range(3):
                result = fresh(x, y)
                expected = _wave(cupy.asnumpy(x), cupy.asnumpy(y).astype(np.float64))
                np.testing.assert_allclose(cupy.asnumpy(result), expected, rtol=1e-12)
    assert len(launches) == len(cases)  # one Numba launch per version: C, strided, F and cast
    made = list(fresh._cuda_loops()._launchers.values())
    assert len(made) == len(cases)
    assert all(isinstance(v, _numba_cuda._kernels().Launcher) for v in made), made
