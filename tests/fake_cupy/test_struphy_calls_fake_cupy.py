"""The fake CuPy as Struphy and feectools call it (issue 29): ``cupy.diff`` with CuPy's
``prepend=None``/``append=None``, the in-place ``ndarray.shape`` setter and ``cupyx.scipy``
backed by SciPy on the host buffers (fake CuPy, not a GPU check)."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import cunumpy as xp
from cunumpy.kernel_testing import host_buffer


def test_diff_takes_none_as_absent_as_cupy_does() -> None:
    import cupy

    a = cupy.asarray([1.0, 4.0, 9.0, 16.0])
    assert type(cupy.diff(a, prepend=None, append=None)) is cupy.ndarray
    assert host_buffer(cupy.diff(a, prepend=None, append=None)).tolist() == [3.0, 5.0, 7.0]
    assert host_buffer(cupy.diff(a, n=2)).tolist() == [2.0, 2.0]
    assert host_buffer(cupy.diff(a, prepend=0.0)).tolist() == [1.0, 3.0, 5.0, 7.0]
    end = cupy.asarray([20.0])
    assert host_buffer(cupy.diff(a, append=end)).tolist() == [3.0, 5.0, 7.0, 4.0]
    with xp.use_backend("cupy"):
        assert host_buffer(xp.diff(xp.asarray([[1.0, 2.0], [4.0, 8.0]]), axis=0)).tolist() == [
            [3.0, 6.0]
        ]


def test_diff_refuses_host_arrays() -> None:
    import cupy

    with pytest.raises(TypeError, match=r"cupy\.diff.*numpy\.ndarray"):
        cupy.diff(cupy.arange(3.0), append=np.zeros(1))


def test_shape_setter_reshapes_in_place() -> None:
    import cupy

    a = cupy.arange(6.0)
    a.shape = (2, 3)
    assert a.shape == (2, 3)
    assert host_buffer(a)[1].tolist() == [3.0, 4.0, 5.0]
    with pytest.raises(AttributeError, match=r"cannot set the shape \(6,\).*\(3, 2\)"):
        a.T.shape = (6,)  # a transposed view cannot be flattened without a copy


def test_cupyx_scipy_interpolate_gives_fake_arrays() -> None:
    pytest.importorskip("scipy", reason="cupyx.scipy of the fake CuPy runs SciPy (the test extra)")
    import cupy
    import cupyx.scipy.interpolate as interpolate

    x = cupy.linspace(0.0, 1.0, 8)
    spline = interpolate.UnivariateSpline(x, x**2, k=3, s=0.0, ext=3)
    at = spline(cupy.asarray([0.5, 2.0]))
    assert type(at) is cupy.ndarray
    assert np.allclose(host_buffer(at), [0.25, 1.0])  # ext=3 holds the boundary value
    z = x[:, None] * x[None, :]
    bx = interpolate.make_interp_spline(x, z, k=3)
    assert type(bx.c) is cupy.ndarray
    by = interpolate.make_interp_spline(x, bx.c.T, k=3)
    surface = interpolate.NdBSpline((bx.t, by.t), by.c.T, (3, 3))
    assert np.allclose(host_buffer(surface(cupy.asarray([[0.5, 0.4]]))), [0.2])
    with pytest.raises(TypeError, match=r"make_interp_spline.*numpy\.ndarray"):
        interpolate.make_interp_spline(np.linspace(0.0, 1.0, 8), x)


def test_cupyx_scipy_sparse_products_stay_on_the_fake_device() -> None:
    pytest.importorskip("scipy", reason="cupyx.scipy of the fake CuPy runs SciPy (the test extra)")
    import cupy

    with xp.use_backend("cupy"):
        matrix = xp.scipy.sparse.csr_matrix(cupy.asarray([[2.0, 0.0], [0.0, 3.0]]))
        product = matrix @ cupy.asarray([1.0, 1.0])
    assert type(product) is cupy.ndarray
    assert host_buffer(product).tolist() == [2.0, 3.0]


def test_cupyx_scipy_imports_no_scipy_until_used() -> None:
    code = "import cunumpy, sys, cupyx.scipy.sparse; print('scipy' in sys.modules)"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert out.stdout.strip() == "False"


def test_asarray_takes_a_sequence_of_device_arrays() -> None:
    import cupy

    parts = [cupy.asarray(-0.5), cupy.asarray(2.0)]
    assert host_buffer(cupy.asarray(parts)).tolist() == [-0.5, 2.0]
    assert host_buffer(cupy.array((parts, [1.0, cupy.asarray(3.0)]))).tolist() == [
        [-0.5, 2.0],
        [1.0, 3.0],
    ]
    with xp.use_backend("cupy"):
        assert type(xp.asarray([cupy.asarray(-1.0)])) is cupy.ndarray


def test_asarray_of_device_arrays_is_no_host_transfer() -> None:
    import cupy

    from cunumpy.profiling import count_transfers

    parts = [cupy.asarray(-0.5), cupy.asarray(2.0)]
    with xp.use_backend("cupy"), count_transfers() as record:
        xp.asarray(parts)
        xp.asarray([parts, parts])
        xp.asarray([1.0, 2.0])  # host data: one copy to the device
    assert record.to_device == 1
    assert record.device_copies == 2


def test_asarray_gives_a_device_array_back_itself_when_no_copy_is_needed() -> None:
    import cupy

    a = cupy.arange(4, dtype=cupy.int64)
    assert cupy.asarray(a) is a
    assert cupy.ascontiguousarray(a, dtype=np.int64) is a
    assert cupy.asarray(a, dtype=np.float64) is not a  # a dtype conversion copies
    assert cupy.array(a) is not a  # cupy.array copies by default
    transposed = cupy.arange(6.0).reshape(3, 2).T
    contiguous = cupy.ascontiguousarray(transposed)
    assert contiguous is not transposed
    assert contiguous.flags.c_contiguous
    assert host_buffer(contiguous).tolist() == [[0.0, 2.0, 4.0], [1.0, 3.0, 5.0]]
