"""cunumpy.dask on Dask arrays of (fake) CuPy chunks: the chunk type is read from the meta,
and fixed functions run cunumpy's CuPy namespace per chunk (fake CuPy, not a GPU check;
the GPU run is tests/test_dask_gpu.py)."""

from __future__ import annotations

import cupy
import numpy as np
import pytest

import cunumpy

da = pytest.importorskip("dask.array", reason="Dask is not installed (the dask extra)")


def test_cupy_chunks_give_cunumpy_dask_and_run_the_cupy_namespace_per_chunk() -> None:
    import cunumpy.dask as xp

    x = da.from_array(cupy.asarray(np.array([np.inf, -3.0, 7.0, 2.5])), chunks=2)
    assert cunumpy.array_namespace(x) is xp
    assert xp.device(x) == cupy.asarray(np.ones(1)).device
    y = xp.sort(x, descending=True)  # map_blocks of cunumpy's CuPy sort
    assert isinstance(y._meta, cupy.ndarray)
    out = y.compute()
    assert isinstance(out, cupy.ndarray)
    np.testing.assert_array_equal(cunumpy.to_numpy(out), [np.inf, 7.0, 2.5, -3.0])


@pytest.mark.parametrize(
    ("name", "args"),
    [("floor_divide", ("x", 2.0)), ("floor_divide", (3.0, "x")), ("expm1", ("x",)),
     ("tanh", ("x",)), ("floor_divide", ("i", "i"))],
)  # fmt: skip
def test_fixed_elementwise_functions_run_per_cupy_chunk(name: str, args: tuple) -> None:
    # Dask's elemwise infers a dtype by calling the function on NumPy arrays, which CuPy's
    # functions refuse: without a dtype of ours, elemwise returned NotImplemented.
    import cunumpy.dask as xp
    from cunumpy._backends import cupy as cupy_namespace

    data = {"x": np.array([np.inf, -3.0, 7.0, 2.5], np.float32), "i": np.array([7, -3], np.int16)}
    lazy = [da.from_array(cupy.asarray(data[a]), chunks=1) if a in data else a for a in args]
    eager = [cupy.asarray(data[a]) if a in data else a for a in args]
    y = getattr(xp, name)(*lazy)
    assert isinstance(y, da.Array), y
    assert isinstance(y._meta, cupy.ndarray)
    out = y.compute()
    expected = getattr(cupy_namespace, name)(*eager)
    assert isinstance(out, cupy.ndarray)
    assert y.dtype == out.dtype == expected.dtype
    np.testing.assert_array_equal(cunumpy.to_numpy(out), cunumpy.to_numpy(expected))


def test_device_requests_choose_the_chunk_type() -> None:
    import cunumpy.dask as xp

    gpu = xp.zeros(3, device="cuda:0")
    assert isinstance(gpu._meta, cupy.ndarray)
    host = xp.to_device(gpu, "cpu")
    assert isinstance(host._meta, np.ndarray)
    assert isinstance(host.compute(), np.ndarray)
    assert xp.device(xp.asarray([1.0, 2.0], device="cuda:0")) == gpu._meta.device


def test_to_device_moves_host_chunks_to_the_fake_gpu() -> None:
    """Each chunk is copied onto the GPU (fake CuPy), and a chunk already there stays."""
    import cunumpy.dask as xp

    host = da.from_array(np.arange(4.0), chunks=2)
    gpu = xp.to_device(host, "cuda:0")
    assert isinstance(gpu._meta, cupy.ndarray)
    out = gpu.compute()
    assert isinstance(out, cupy.ndarray)
    np.testing.assert_array_equal(cunumpy.to_numpy(out), np.arange(4.0))
    again = xp.to_device(gpu * 2.0, "cuda:0").compute()
    np.testing.assert_array_equal(cunumpy.to_numpy(again), 2.0 * np.arange(4.0))


def test_asarray_of_cupy_data_gives_cupy_chunks_without_a_device() -> None:
    import cunumpy.dask as xp

    x = xp.asarray(cupy.asarray(np.arange(3.0)))
    assert isinstance(x._meta, cupy.ndarray)
    assert isinstance(xp.asarray([1.0, 2.0])._meta, np.ndarray)
