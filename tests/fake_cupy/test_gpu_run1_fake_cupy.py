"""What the first GPU run (an H200, CuPy 14.2, Open MPI without CUDA) found, caught on the
fake CuPy (not a GPU check; the GPU tests that failed there are named in each test)."""

from __future__ import annotations

from typing import Any

import cupy
import numpy as np
import pytest

import cunumpy as xp
from cunumpy import kernels, mpi
from cunumpy.mpi import _aware
from cunumpy.mpi._aware import CudaAwareness
from cunumpy.testing import strategies as cst


def test_host_call_finds_a_device_array_of_several_elements() -> None:
    # tests/test_compat071_toplevel.py::test_gpu_host_call_copies_each_way_once_and_counts_them:
    # `first or second` took the truth value of the CuPy array found first
    out = xp.host_call(np.cumsum, cupy.asarray([1.0, 2.0, 3.0]))
    assert isinstance(out, cupy.ndarray)
    np.testing.assert_array_equal(out.get(), [1.0, 3.0, 6.0])


def test_elementwise_kernel_passes_cupy_no_none_launch_options() -> None:
    # tests/test_kernels_cuda_c.py's GPU tests: CuPy 14 takes no size=None ("'NoneType'
    # object cannot be interpreted as an integer")
    calls: list[dict[str, Any]] = []

    def launch(*args: Any, **options: Any) -> Any:
        calls.append(options)
        return args[0]

    kernel = kernels.ElementwiseKernel("T x", "T y", "y = x", "copy")
    kernel._cupy_kernel = launch  # the CuPy kernel object, as CuPy would call it
    x = cupy.arange(3.0)
    kernel(x)
    kernel(x, block_size=64)
    assert calls == [{}, {"block_size": 64}]


def test_strategies_take_cunumpy_on_the_cupy_backend_without_a_warning() -> None:
    # tests/test_testing_strategies.py on CuPy, and the conformance harness: CuPy arrays
    # have no __array_namespace__, so Hypothesis warned (an error under the suite's filters)
    with xp.use_backend("cupy"):
        assert cst._known_namespace(xp)
        example = cst.dtypes(xp, kind="real floating")
        assert example is not None


def test_the_probe_is_not_sent_where_the_library_says_it_is_not_cuda_aware(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # tests/test_mpi_buffers.py's two-rank CuPy tests: Open MPI without CUDA, which says
    # so (Query_cuda_support() is False), crashed on the probe's device address
    probes: list[object] = []
    monkeypatch.setattr(_aware, "is_serial", lambda comm: False)  # as a real MPI library
    monkeypatch.setattr(
        _aware, "known_cuda_awareness", lambda func: CudaAwareness(False, "the query says no")
    )
    monkeypatch.setattr(_aware, "_probe", lambda comm: probes.append(comm) or True)
    comm = mpi.get_mpi(False).COMM_WORLD
    with xp.use_backend("cupy"):
        try:
            assert mpi.mpi_is_cuda_aware(comm) is False
            assert probes == []
            monkeypatch.setattr(_aware, "known_cuda_awareness", lambda func: None)
            assert mpi.mpi_is_cuda_aware(comm) is True  # nothing says no: probed
            assert probes == [comm]
        finally:
            mpi.set_mpi_cuda_aware(None)


def test_complex_sign_of_a_zero_is_plus_zero() -> None:
    # the public suite's sign special case on CuPy: sign(-0 - 0j) gave -0 + 0j
    out = xp.sign(cupy.asarray([-0.0 - 0.0j, 0.0 - 0.0j, -0.0 + 0.0j])).get()
    assert not np.signbit(out.real).any() and not np.signbit(out.imag).any(), out


def test_vecdot_does_not_broadcast_along_its_axis() -> None:
    # the public suite's test_vecdot and test_linalg_vecdot on CuPy
    for vecdot in (xp.vecdot, xp.linalg.vecdot):
        with pytest.raises(ValueError, match=r"vecdot: .*same length along `axis` -1, not 3 and 1"):
            vecdot(cupy.ones((2, 3)), cupy.ones(1))
    np.testing.assert_array_equal(xp.vecdot(cupy.ones((2, 3)), cupy.ones(3)).get(), [3.0, 3.0])


def test_cross_broadcasts_and_takes_only_three_element_vectors() -> None:
    # the public suite's test_cross on CuPy 14: x1 (0, 3) against x2 (3,)
    out = xp.linalg.cross(cupy.ones((0, 3)), cupy.asarray([0.0, 0.0, 1.0]))
    assert out.shape == (0, 3)
    out = xp.linalg.cross(cupy.asarray([[1.0, 0.0, 0.0]] * 2), cupy.asarray([0.0, 1.0, 0.0]))
    np.testing.assert_array_equal(out.get(), [[0.0, 0.0, 1.0]] * 2)
    with pytest.raises(ValueError, match=r"linalg.cross: .*length 3 along `axis` -1, not 2 and 2"):
        xp.linalg.cross(cupy.ones(2), cupy.ones(2))
