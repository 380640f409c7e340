"""cunumpy.dask on Dask arrays of CuPy chunks, on a real GPU (marked ``gpu``)."""

from __future__ import annotations

import numpy as np
import pytest

import cunumpy

da = pytest.importorskip("dask.array", reason="Dask is not installed (the dask extra)")

pytestmark = pytest.mark.gpu


def test_cupy_chunks_run_cunumpys_cupy_namespace_per_chunk_gpu() -> None:
    import cupy

    import cunumpy.dask as xp

    x = da.from_array(cupy.asarray([np.inf, -3.0, 7.0, 2.5]), chunks=2)
    assert cunumpy.array_namespace(x) is xp
    assert xp.device(x) == cupy.cuda.Device(0)
    y = xp.floor_divide(x, 2.0)
    assert isinstance(y._meta, cupy.ndarray)
    out = y.compute()
    assert isinstance(out, cupy.ndarray)
    np.testing.assert_array_equal(out.get(), [np.inf, -2.0, 3.0, 1.0])
    inv = xp.linalg.inv(xp.asarray(np.eye(3) * 2.0, device="cuda:0")).compute()
    assert isinstance(inv, cupy.ndarray)
    np.testing.assert_allclose(inv.get(), np.eye(3) / 2.0)


def test_to_device_moves_chunks_between_host_and_gpu_gpu() -> None:
    import cupy

    import cunumpy.dask as xp

    host = xp.arange(6.0)
    gpu = xp.to_device(host, "cuda:0")
    assert isinstance(gpu._meta, cupy.ndarray)
    assert isinstance(gpu.compute(), cupy.ndarray)
    back = xp.to_device(gpu * 2.0, "cpu").compute()
    assert isinstance(back, np.ndarray)
    np.testing.assert_array_equal(back, np.arange(6.0) * 2.0)


def test_expm1_tanh_and_floor_divide_of_cupy_chunks_give_cupy_chunks_gpu() -> None:
    # GPU run 2: Dask inferred their dtype by calling CuPy's function on NumPy arrays, which
    # CuPy refuses, and returned NotImplemented; fixed on a CPU (fake CuPy), rerun here.
    import cupy

    import cunumpy.dask as xp

    values = np.array([-1.5, 0.0, 0.25, 3.0])
    x = da.from_array(cupy.asarray(values), chunks=2)
    for name, expected in [
        ("expm1", np.expm1(values)),
        ("tanh", np.tanh(values)),
        ("floor_divide", np.floor_divide(values, 0.5)),
    ]:
        result = getattr(xp, name)(x, 0.5) if name == "floor_divide" else getattr(xp, name)(x)
        assert isinstance(result._meta, cupy.ndarray), name
        computed = result.compute()
        assert isinstance(computed, cupy.ndarray), name
        np.testing.assert_allclose(computed.get(), expected, rtol=1e-14, err_msg=name)
