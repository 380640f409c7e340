"""``Kernel`` and ``KernelCatalog`` on NumPy data, and with a stand-in CUDA kernel.

Device data runs on the fake CuPy in ``tests/fake_cupy/`` (emulated) and on a GPU in
``tests/test_kernels_gpu.py``.
"""

from __future__ import annotations

import numpy as np
import pytest

from cunumpy import kernels


def _host(x, out):
    out[:] = 2 * x


def test_a_pair_runs_the_host_kernel_on_numpy_data() -> None:
    calls = []
    pair = kernels.Kernel(_host, lambda *a, **k: calls.append((a, k)))
    out = np.zeros(3)
    pair(np.arange(3.0), out)
    np.testing.assert_array_equal(out, [0.0, 2.0, 4.0])
    assert calls == []
    assert pair.selected() == "host"
    assert pair.implementations == ("host", "cuda")
    assert pair.has_cuda and pair.name == "_host"


def test_a_stream_with_numpy_data_cannot_be_honoured() -> None:
    pair = kernels.Kernel(_host)
    with pytest.raises(TypeError, match="stream"):
        pair(np.zeros(1), np.zeros(1), stream="fast")


def test_a_pair_checks_its_settings() -> None:
    with pytest.raises(ValueError, match="'sometimes'"):
        kernels.Kernel(_host, missing_cuda="sometimes")
    with pytest.raises(ValueError, match="'data'"):
        kernels.Kernel(_host, dispatch="data")
    with pytest.raises(TypeError, match="CudaKernel"):
        kernels.Kernel(_host, "scale.cu")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="host_options"):
        kernels.Kernel(kernels.PyccelKernel(_host), host_options={"outputs": (1,)})


def test_check_signature_compares_parameter_names() -> None:
    class Cuda:
        class P:
            def __init__(self, name: str) -> None:
                self.name = name

        signature = (P("x"), P("result"))

        def __call__(self, *args: object) -> None:
            pass

    with pytest.raises(ValueError, match=r"\(x, out\), the CUDA kernel \(x, result\)"):
        kernels.Kernel(_host, Cuda()).check_signature()


def test_the_catalog_finds_the_kernel_folders() -> None:
    catalog = kernels.KernelCatalog.from_package("tests.kernel_pkgs.demo", outputs="annotations")
    assert sorted(catalog) == ["count", "scale", "shift"]
    assert catalog.with_cuda == ["count", "scale"]
    assert str(catalog) == "CUDA kernels: 2 of 3 (missing: shift)"
    assert [name for name, _ in catalog.parity_cases()] == ["count", "scale"]
    assert catalog["scale"].host_kernel.outputs == ("out",)
    assert catalog["scale"].test_args_module == "tests.kernel_pkgs.demo.scale.scale_test_args"
    assert catalog["shift"].test_args_module is None
    assert catalog["count"].implementations == ("pyccel", "numpy", "python", "cuda")
    catalog.check_signatures()


def test_catalog_kernels_run_their_host_implementation_on_numpy_data() -> None:
    catalog = kernels.KernelCatalog.from_package("tests.kernel_pkgs.demo")
    hist = np.zeros(16, dtype=np.int32)
    bins = np.array([1, 1, 3], dtype=np.int32)
    with kernels.use_host_kernel_implementation("numpy"):
        catalog["count"](bins, hist, 3)
        assert catalog["count"].selected() == "numpy"
    assert catalog["count"].selected() == "pyccel"  # the host module as it is
    assert hist[1] == 2 and hist[3] == 1 and hist.sum() == 3
    x = np.ones(2)
    catalog["shift"](x)
    np.testing.assert_array_equal(x, [2.0, 2.0])


def test_the_catalog_refuses_duplicates_and_other_objects() -> None:
    catalog = kernels.KernelCatalog()
    catalog.register(kernels.Kernel(_host, name="a"))
    with pytest.raises(KeyError, match="'a'"):
        catalog.register(kernels.Kernel(_host, name="a"))
    with pytest.raises(TypeError, match="Kernel"):
        catalog.register(_host)  # type: ignore[arg-type]
    assert len(catalog) == 1 and "a" in catalog


def test_a_folder_without_host_kernel_is_reported() -> None:
    with pytest.raises(FileNotFoundError, match="no host kernel"):
        kernels.Kernel.from_folder("tests.kernel_pkgs.demo.scale", host_suffix="_pyccel")
    with pytest.raises(ModuleNotFoundError, match="not a package"):
        kernels.Kernel.from_folder("tests.kernel_pkgs.demo.scale.scale_kernels")


def test_compile_host_compiles_on_first_use_and_falls_back() -> None:
    built = []

    def compile_host(module):
        built.append(module.__name__)
        raise RuntimeError("no Fortran compiler")

    catalog = kernels.KernelCatalog.from_package(
        "tests.kernel_pkgs.demo",
        compile_host=compile_host,
        host_fallback={"shift": lambda x: x.__isub__(1)},
    )
    assert built == []  # nothing is compiled when the catalog is made
    x = np.zeros(2)
    catalog["shift"](x)  # pyccel fails to build: the NumPy fallback runs
    np.testing.assert_array_equal(x, [-1.0, -1.0])
    assert built == ["tests.kernel_pkgs.demo.shift.shift_kernels"]
    assert catalog["shift"].selected() == "numpy"


@pytest.mark.gpu
def test_the_porting_example_passes_its_parity_tests_on_the_gpu() -> None:
    """The GPU run of examples/porting (CUNUMPY_REQUIRE_CUDA: fail, never skip)."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    path = os.pathsep.join(p for p in (str(root), os.environ.get("PYTHONPATH", "")) if p)
    env = {k: v for k, v in os.environ.items() if k != "CUNUMPY_FAKE_CUPY"}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "examples/porting", "-q", "-p", "no:cacheprovider"],
        capture_output=True,
        text=True,
        cwd=root,
        env={**env, "CUNUMPY_REQUIRE_CUDA": "1", "PYTHONPATH": path},
        timeout=300,
        check=False,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert "2 passed" in output, output


def test_a_name_too_long_for_pyccels_fortran_backend_warns(monkeypatch: pytest.MonkeyPatch) -> None:
    from cunumpy.kernels._catalog import _kernel_folder as _catalog

    monkeypatch.setattr(_catalog, "FORTRAN_NAME_LIMIT", 15)  # "bind_c_scale_kernels" has 20
    with pytest.warns(
        UserWarning, match=r"'bind_c_scale_kernels' has 20 characters, more than Fortran's 15"
    ) as record:
        kernels.Kernel.from_folder("tests.kernel_pkgs.demo.scale")
    assert record[0].filename == __file__  # the user's call, not cunumpy's
    with pytest.warns(UserWarning, match=r"more than Fortran's 15") as record:
        kernels.KernelCatalog.from_package("tests.kernel_pkgs.demo")  # every demo kernel warns
    assert any("'bind_c_scale_kernels'" in str(r.message) for r in record)
    assert {r.filename for r in record} == {__file__}
    kernels.Kernel.from_folder(
        "tests.kernel_pkgs.demo.scale", check_name_length=False
    )  # no warning
