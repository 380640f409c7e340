"""Simulator tests: the CUDA target's Python path under Numba's official CUDA simulator.

They run in their own process with ``NUMBA_ENABLE_CUDASIM=1`` (Numba reads it at import),
started by ``tests/test_kernels_simulator.py``; the main test run does not collect this
folder (see ``tests/conftest.py``). Every kernel here is the real CUDA-target code: views,
merged loop dimensions, loaders, callers and grid-stride loops, with NumPy arrays in the
simulator's device memory. They prove indexing and argument handling, not speed; the
simulator runs two blocks of a few threads, so every launch also walks its grid-stride loops.
"""

from __future__ import annotations

import math
import os

import numpy as np
import pytest

from cunumpy import kernels

pytestmark = pytest.mark.simulator

if os.environ.get("NUMBA_ENABLE_CUDASIM") != "1":  # pragma: no cover - guarded by conftest
    pytest.skip("needs NUMBA_ENABLE_CUDASIM=1 before Numba is imported", allow_module_level=True)


@kernels.elementwise(["float32(float32, float32)", "float64(float64, float64)"])
def wave(x, y):
    return math.exp(-0.5 * x) * math.sin(3.0 * x) + 0.25 * y


@kernels.elementwise(
    ["int64(int64, int64)", "bool(bool, bool)", "complex128(complex128, complex128)"]
)
def add(x, y):
    return x + y


@kernels.elementwise(
    ["float64(float64, float64, float64, float64, float64, float64, float64, float64, float64,"
     " float64, float64, float64)"]
)  # fmt: skip
def twelve(a, b, c, d, e, f, g, h, i, j, k, m):
    return (
        a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g + 8 * h + 9 * i + 10 * j + 11 * k + 12 * m
    )


@kernels.generalized("(n),(n)->()", ["float64(float64, float64)"])
def dot(x, y, out):
    total = 0.0
    for i in range(x.shape[0]):
        total += x[i] * y[i]
    out[0] = total


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


def _wave(x, y):
    return np.exp(-0.5 * x) * np.sin(3.0 * x) + 0.25 * y


def test_simulator_contiguous_one_dimension() -> None:
    x, y = np.linspace(0.0, 1.0, 37), np.linspace(1.0, 2.0, 37)
    np.testing.assert_allclose(wave._simulate(x, y), _wave(x, y), rtol=1e-13)


def test_simulator_broadcast_two_dimensions() -> None:
    x = np.linspace(0.0, 1.0, 5)
    y = np.arange(3.0)[:, None]
    result = wave._simulate(x, y)
    assert result.shape == (3, 5)
    np.testing.assert_allclose(result, _wave(x, y), rtol=1e-13)


def test_simulator_strided_three_dimensions() -> None:
    base = np.arange(2 * 3 * 10, dtype=np.float64).reshape(2, 3, 10) / 60
    x = base[:, ::-1, ::3]  # reversed and stepped: three loop dimensions stay
    y = np.ones(4)
    np.testing.assert_allclose(wave._simulate(x, y), _wave(x, y), rtol=1e-13)


def test_simulator_more_than_three_dimensions_are_copied_first() -> None:
    x = np.arange(2 * 3 * 2 * 3 * 2, dtype=np.float64).reshape(2, 3, 2, 3, 2)[:, :, :, ::-1, :] / 72
    y = np.linspace(0.0, 1.0, 2 * 3 * 2).reshape(3, 1, 2, 1, 2)[:, :, :, :, ::-1][0]
    out = np.zeros((2, 3, 2, 3, 2, 2))[..., 0]  # strided: written through a temporary
    result = wave._simulate(x, y, out=out)
    assert result is out
    np.testing.assert_allclose(out, _wave(x, y), rtol=1e-13)


def test_simulator_scalars_and_casts() -> None:
    x32 = np.linspace(0.0, 1.0, 9, dtype=np.float32)
    result = wave._simulate(x32, 2.0)  # weak Python scalar, passed by value
    assert result.dtype == np.float32
    np.testing.assert_allclose(result, _wave(x32, 2.0), rtol=2e-6)
    widened = wave._simulate(x32, np.float64(2.0))  # float32 elements cast in the loader
    assert widened.dtype == np.float64
    np.testing.assert_allclose(widened, _wave(x32.astype(np.float64), 2.0), rtol=1e-13)
    zero_d = wave._simulate(np.float64(0.5), 1.0)
    assert zero_d.shape == () and float(zero_d) == pytest.approx(float(_wave(0.5, 1.0)))


def test_simulator_integer_bool_and_complex_loops() -> None:
    np.testing.assert_array_equal(add._simulate(np.arange(10), np.int32(3)), np.arange(10) + 3)
    flags = np.array([True, False, False])
    np.testing.assert_array_equal(add._simulate(flags, np.array([False, False, True])), [1, 0, 1])
    z = np.array([1 + 2j, 3 - 1j])
    np.testing.assert_array_equal(add._simulate(z, 1j), z + 1j)


def test_simulator_twelve_operands() -> None:
    args = [np.full(5, float(k)) for k in range(12)]
    expected = sum((k + 1) * float(k) for k in range(12))
    np.testing.assert_array_equal(twelve._simulate(*args), np.full(5, expected))


def test_simulator_out_aliasing_and_overlapping() -> None:
    x = np.linspace(0.0, 1.0, 11)
    expected = _wave(x, 1.0)
    wave._simulate(x, 1.0, out=x)  # the same view: read and written at one index
    np.testing.assert_allclose(x, expected, rtol=1e-13)
    data = np.linspace(0.0, 1.0, 12)
    shifted = _wave(data[:-1], 1.0)
    wave._simulate(data[:-1], 1.0, out=data[1:])  # overlapping: the input is copied first
    np.testing.assert_allclose(data[1:], shifted, rtol=1e-13)


def test_simulator_empty_result_launches_nothing() -> None:
    result = wave._simulate(np.zeros((0, 4)), 1.0)
    assert result.shape == (0, 4)


def test_simulator_generalized_loops_of_every_rank() -> None:
    rng = np.random.default_rng(0)
    x, y = rng.random(7), rng.random((6, 7))
    np.testing.assert_allclose(dot._simulate(y, x), y @ x, rtol=1e-13)
    left, right = rng.random((4, 1, 7)), rng.random((1, 5, 7))  # two loop dimensions
    np.testing.assert_allclose(
        dot._simulate(left, right),
        np.einsum("abi,abi->ab", *np.broadcast_arrays(left, right)),
        rtol=1e-13,
    )
    cube = rng.random((2, 3, 4, 7))[:, ::-1]  # three loop dimensions
    np.testing.assert_allclose(dot._simulate(cube, x), cube @ x, rtol=1e-13)
    five = rng.random((2, 2, 2, 2, 2, 7))[:, :, ::-1, :, ::-1]  # more than three: copied
    np.testing.assert_allclose(dot._simulate(five, x), five @ x, rtol=1e-13)


def test_simulator_generalized_several_outputs_scalars_and_casts() -> None:
    rng = np.random.default_rng(1)
    a = rng.random((3, 4, 5))
    x32 = rng.random(5).astype(np.float32)  # cast to the float64 loop on the device
    out, total = affine._simulate(a, x32, 0.5)  # a Python scalar core input
    expected = a @ x32.astype(np.float64) + 0.5
    np.testing.assert_allclose(out, expected, rtol=1e-13)
    np.testing.assert_allclose(total, expected.sum(axis=1), rtol=1e-13)
    given = (np.zeros((3, 4, 2))[..., 0], np.zeros((3, 2))[:, 1])  # strided outputs
    result = affine._simulate(a, x32, np.array([0.0, 1.0, 2.0]), out=given)
    assert result[0] is given[0] and result[1] is given[1]
    shifted = a @ x32.astype(np.float64) + np.array([0.0, 1.0, 2.0])[:, None]
    np.testing.assert_allclose(given[0], shifted, rtol=1e-13)
    np.testing.assert_allclose(given[1], shifted.sum(axis=1), rtol=1e-13)


def test_simulator_argument_errors_match_the_cpu_target() -> None:
    with pytest.raises(TypeError, match="no declared signature accepts"):
        wave._simulate(np.arange(3), 1.0)
    with pytest.raises(ValueError, match="cannot be broadcast together"):
        wave._simulate(np.ones(3), np.ones(4))
    with pytest.raises(ValueError, match="dimension 'n'"):
        dot._simulate(np.ones(3), np.ones(4))
