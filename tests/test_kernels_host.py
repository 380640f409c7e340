"""Host kernels on NumPy data: direct calls, declared outputs, implementations, helpers.

Their CuPy side (copies to the host and back, counted) runs on the fake CuPy in
``tests/fake_cupy/test_host_kernels_fake_cupy.py``; the GPU run is in ``tests/test_kernels_gpu.py``.
"""

from __future__ import annotations

import threading
import warnings

import numpy as np
import pytest

import cunumpy as xp
from cunumpy import kernels
from cunumpy._placement._transfer_log import listening


def test_a_host_kernel_on_numpy_data_is_a_direct_call_without_copies() -> None:
    seen = []

    def scale(a, x, out):
        seen.append((x, out))
        out[:] = a * x

    x, out = np.arange(3.0), np.zeros(3)
    log: list[tuple] = []
    with listening(lambda *event: log.append(event)):
        kernels.PyccelKernel(scale, outputs=(2,))(2.0, x, out)
    assert seen[0][0] is x and seen[0][1] is out
    np.testing.assert_array_equal(out, [0.0, 2.0, 4.0])
    assert log == []


def test_outputs_must_be_a_sequence_of_indices_or_names() -> None:
    with pytest.raises(TypeError, match=r"outputs=\(2,\)"):
        kernels.PyccelKernel(print, outputs=2)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"1\.5"):
        kernels.PyccelKernel(print, outputs=(1.5,))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="callable"):
        kernels.PyccelKernel(3)  # type: ignore[arg-type]


def test_a_host_kernel_reports_its_settings() -> None:
    def push(x, v):
        pass

    kernel = kernels.PyccelKernel(push, outputs=("v",), object_modules=("my.",))
    assert kernel.name == "push"
    assert kernel.outputs == ("v",)
    assert kernel.object_modules == ("my.",)
    assert kernel.use_cupy is False
    assert kernel.parameter_names() == ["x", "v"]
    assert "push" in repr(kernel)


def test_the_default_host_implementation_is_the_first_that_loads() -> None:
    def broken():
        raise ImportError("no numba here")

    host = kernels.HostImplementations(
        "k", {"numba": broken, "numpy": lambda: len, "python": lambda: sum}
    )
    assert host.names == ("numba", "numpy", "python")
    assert host.selected() == "numpy"
    assert host([1, 2]) == 2
    assert "numba" in host.errors
    with pytest.raises(LookupError, match="no numba here"):
        host.get("numba")
    with pytest.raises(LookupError, match="has no 'pyccel'"):
        host.get("pyccel")


def test_without_a_compiled_implementation_python_runs_with_a_warning() -> None:
    host = kernels.HostImplementations("k", {"python": lambda: abs})
    with pytest.warns(RuntimeWarning, match="uncompiled Python version"):
        assert host(-2) == 2
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert host(-3) == 3  # once


def test_the_host_implementation_setting_chooses_and_restores() -> None:
    host = kernels.HostImplementations("k", {"numpy": lambda: min, "python": lambda: max})
    with kernels.use_host_kernel_implementation("python"):
        assert kernels.get_host_kernel_implementation() == "python"
        assert host([1, 5]) == 5
    assert kernels.get_host_kernel_implementation() is None
    assert host([1, 5]) == 1
    with pytest.raises(ValueError, match="'fortran'"):
        kernels.set_host_kernel_implementation("fortran")
    with (
        kernels.use_host_kernel_implementation("pyccel"),
        pytest.raises(LookupError, match="pyccel"),
    ):
        host([1])


def test_a_use_block_holds_for_its_own_thread_only() -> None:
    seen: list[str | None] = []
    inside, done = threading.Event(), threading.Event()

    def other() -> None:
        inside.wait(10)
        seen.append(kernels.get_host_kernel_implementation())
        done.set()

    thread = threading.Thread(target=other)
    thread.start()
    with kernels.use_host_kernel_implementation("python"):
        inside.set()
        done.wait(10)
        assert kernels.get_host_kernel_implementation() == "python"
    thread.join(10)
    assert seen == [None]  # the other thread kept the process default
    kernels.set_host_kernel_implementation("numpy")
    try:
        with kernels.use_host_kernel_implementation("python"):
            kernels.set_host_kernel_implementation("numba")  # the default; the block wins
            assert kernels.get_host_kernel_implementation() == "python"
        assert kernels.get_host_kernel_implementation() == "numba"
    finally:
        kernels.set_host_kernel_implementation(None)


def test_the_device_implementation_setting_is_checked() -> None:
    assert kernels.DEVICE_IMPLEMENTATIONS == ("cuda",)
    assert kernels.HOST_IMPLEMENTATIONS == ("pyccel", "numba", "numpy", "python")
    with pytest.raises(ValueError, match="'metal'"):
        kernels.set_device_kernel_implementation("metal")
    with kernels.use_device_kernel_implementation("cuda"):
        assert kernels.get_device_kernel_implementation() == "cuda"
    assert kernels.get_device_kernel_implementation() is None


def test_a_compiled_host_kernel_falls_back_when_compiling_fails() -> None:
    def fails(module):
        raise RuntimeError("no Pyccel")

    kernel = kernels.CompiledHostKernel("math", "sqrt", fails)
    with pytest.warns(RuntimeWarning, match="no Pyccel"):
        assert kernel(9.0) == 3.0
    assert kernel.compiled is False
    assert isinstance(kernel.error, RuntimeError)

    import math

    compiled = kernels.CompiledHostKernel("math", "floor", lambda module: math)
    assert compiled(2.5) == 2
    assert compiled.compiled is True


def test_as_kernel_array_copies_only_what_does_not_fit() -> None:
    grid = np.zeros((2, 3))
    assert kernels.as_kernel_array(grid, like=grid) is grid
    strided = np.zeros((4, 6))[:, :3]
    assert not strided.flags.c_contiguous
    assert kernels.as_kernel_array(strided, like=grid, strided=True) is strided
    copy = kernels.as_kernel_array(strided, like=grid)
    assert copy.flags.c_contiguous and copy is not strided
    floats = kernels.as_kernel_array([1, 2], like=grid, dtype=np.float32)
    assert floats.dtype == np.float32


def test_kernel_outputs_write_converted_buffers_back() -> None:
    x, counts = np.zeros(2), np.zeros(2, dtype=np.float32)
    with kernels.kernel_outputs(x, counts, like=x, dtype=np.float64) as (a, b):
        assert a is x and b is not counts
        a[:] = 1.0
        b[:] = 2.5
    np.testing.assert_array_equal(counts, [2.5, 2.5])
    out = np.zeros(2, dtype=np.int32)

    def fails() -> None:
        with kernels.kernel_output(out, like=out, dtype=float) as buf:
            buf[:] = 7
            raise ZeroDivisionError

    with pytest.raises(ZeroDivisionError):
        fails()
    np.testing.assert_array_equal(out, [0, 0])  # not written back after an error


def test_outputs_are_read_from_annotations() -> None:
    def push(x: Final[float[:]], dt: float, v: float[:], w):  # noqa: F821
        pass

    assert kernels.outputs_from_annotations(push) == ("v", "w")
    assert kernels.outputs_from_annotations(lambda a, b: None) is None
    assert kernels.outputs_from_annotations(len) is None


def test_every_new_kernels_name_is_exported() -> None:
    names = {
        "PyccelKernel", "kernel_output", "kernel_outputs", "outputs_from_annotations",
        "as_kernel_array", "HostImplementations", "HOST_IMPLEMENTATIONS", "CompiledHostKernel",
        "set_host_kernel_implementation", "get_host_kernel_implementation",
        "use_host_kernel_implementation", "set_device_kernel_implementation",
        "get_device_kernel_implementation", "use_device_kernel_implementation",
        "DEVICE_IMPLEMENTATIONS", "Kernel", "KernelCatalog",
    }  # fmt: skip
    assert names <= set(xp.kernels.__all__)


def test_fuse_calls_the_function_on_numpy_data() -> None:
    @kernels.fuse(kernel_name="p")
    def pressure(rho, t, gamma):
        return (gamma - 1.0) * rho * t

    np.testing.assert_array_equal(
        pressure(np.array([1.0, 2.0]), np.array([3.0, 3.0]), 2.0), [3.0, 6.0]
    )
    assert pressure.__name__ == "pressure"
    with pytest.raises(TypeError, match="callable"):
        kernels.fuse(3)  # type: ignore[arg-type]


def test_the_pyccel_cache_names_its_settings_and_needs_pyccel(
    monkeypatch: pytest.MonkeyPatch, tmp_path
) -> None:
    import importlib.util
    import json

    cache = kernels.PyccelCache("tree-d.3d")
    assert (cache.cache_env, cache.openmp_env) == ("TREE_D_3D_KERNEL_CACHE", "TREE_D_3D_OPENMP")
    monkeypatch.setenv("TREE_D_3D_KERNEL_CACHE", str(tmp_path))
    monkeypatch.setenv("TREE_D_3D_OPENMP", "0")
    assert cache.cache_root() == tmp_path
    assert not cache.openmp_enabled()
    with pytest.raises(ValueError, match="non-empty"):
        kernels.PyccelCache("")
    if importlib.util.find_spec("pyccel") is None:
        with pytest.raises(ImportError, match="Pyccel is not installed"):
            cache(json)  # a failed build, which CompiledHostKernel records
        host = kernels.CompiledHostKernel(
            "tests.kernel_pkgs.demo.shift.shift_kernels", "shift", cache, fallback=np.negative
        )
        assert host(np.ones(1))[0] == -1.0
        assert isinstance(host.error, ImportError)
