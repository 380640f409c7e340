"""``cunumpy.kernel_testing`` in the main test process: without a GPU and without the fake
CuPy (its own process runs ``tests/fake_cupy/``), what skips, what raises, what is named."""

from __future__ import annotations

import numpy as np
import pytest

import cunumpy as xp
from cunumpy import kernel_testing, kernels


def _host(x, out):
    out[:] = x


def test_the_public_names_are_those_of_0_7_1() -> None:
    names = {
        "BACKENDS", "assert_kernels_agree", "backend", "bounds_check_views_available",
        "check_parity", "compile_for_emulation", "cuda_required", "device_backend_available",
        "device_function_kernel", "emulate_cuda_kernel", "emulated_launches",
        "emulation_cache_dir", "emulation_compiler", "fake_cupy_active", "fake_cupy_session",
        "high_dim_cuda_views_available", "host_buffer", "install_fake_cupy", "parity_cases",
        "requires_bounds_check_views", "requires_cupy", "requires_device_backend",
        "requires_high_dim_cuda_views", "requires_warp_shuffle", "run_in_fake_cupy_subprocess",
        "warp_shuffle_available",
    }  # fmt: skip
    assert set(kernel_testing.__all__) == names
    for name in names:
        assert getattr(kernel_testing, name) is not None


def test_without_the_fake_the_sessions_say_how_to_get_it() -> None:
    if kernel_testing.fake_cupy_active():
        pytest.skip("this process runs on the fake CuPy")
    with (
        pytest.raises(RuntimeError, match="CUNUMPY_FAKE_CUPY=1"),
        kernel_testing.fake_cupy_session(),
    ):
        pass


def test_parity_without_a_device_backend_skips_with_the_reason(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    if xp.cupy_available():
        pytest.skip("CuPy is usable here")
    monkeypatch.delenv("CUNUMPY_REQUIRE_CUDA", raising=False)
    pair = kernels.Kernel(_host, lambda *a, **k: None)
    with pytest.raises(pytest.skip.Exception, match="CUDA kernels cannot run here"):
        kernel_testing.assert_kernels_agree(pair, lambda backend, seed: (np.ones(2), np.zeros(2)))
    monkeypatch.setenv("CUNUMPY_REQUIRE_CUDA", "1")
    assert kernel_testing.cuda_required()
    with pytest.raises(pytest.fail.Exception, match="CUNUMPY_REQUIRE_CUDA is set"):
        kernel_testing.assert_kernels_agree(pair, lambda backend, seed: (np.ones(2), np.zeros(2)))


def test_parity_checks_its_arguments() -> None:
    with pytest.raises(TypeError, match=r"cunumpy\.kernels\.Kernel"):
        kernel_testing.assert_kernels_agree(_host, lambda b, s: ())  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="has no CUDA version"):
        kernel_testing.assert_kernels_agree(kernels.Kernel(_host), lambda b, s: ())
    pair = kernels.Kernel(_host, lambda *a, **k: None)
    with pytest.raises(ValueError, match="n_calls"):
        kernel_testing.assert_kernels_agree(pair, lambda b, s: (), n_calls=0)
    with pytest.raises(ValueError, match=r"_host_test_args\.py"):
        kernel_testing.check_parity(pair)


def test_parity_cases_skip_ports_without_test_arguments() -> None:
    catalog = kernels.KernelCatalog(
        {"copy": kernels.Kernel(_host, lambda *a, **k: None), "host": kernels.Kernel(_host)}
    )
    (case,) = kernel_testing.parity_cases(catalog)
    assert case.id == "copy"
    (mark,) = case.marks
    assert mark.name == "skip" and "add copy_test_args.py" in mark.kwargs["reason"]


def test_the_markers_skip_cuda_without_a_gpu() -> None:
    if xp.cupy_available():
        pytest.skip("CuPy is usable here")
    mark = kernel_testing.requires_cupy.mark
    assert mark.name == "skipif" and mark.args == (True,)
    assert kernel_testing.BACKENDS[0] == "numpy"
    assert not kernel_testing.warp_shuffle_available()
    assert not kernel_testing.device_backend_available()


def test_the_emulated_examples_are_marked_emulated() -> None:
    """The doctests that run the CPU emulator carry the marker (gpu_check.sh leaves them out)."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    path = os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH")]))
    done = subprocess.run(
        [
            *(sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--collect-only"),
            *("-m", "emulated", "cunumpy/kernel_testing", "docs/kernel_testing.md"),
        ],
        capture_output=True,
        text=True,
        cwd=root,
        env={**os.environ, "PYTHONPATH": path},
        timeout=120,
        check=False,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    ids = {line for line in output.splitlines() if "::" in line}
    assert ids == {
        "cunumpy/kernel_testing/_emulate.py::cunumpy.kernel_testing._emulate.compile_for_emulation",
        "cunumpy/kernel_testing/_emulate.py::cunumpy.kernel_testing._emulate.emulate_cuda_kernel",
        "cunumpy/kernel_testing/_device_function.py::"
        "cunumpy.kernel_testing._device_function.device_function_kernel",
        "docs/kernel_testing.md::kernel_testing.md",
    }, output


def test_view_features_are_unavailable_without_a_gpu_and_without_the_fake() -> None:
    if xp.cupy_available():
        pytest.skip("CuPy (a GPU or the fake CuPy) is usable here")
    # no CUDA kernel runs here at all: neither view feature can work (0.7.1 answers the same)
    assert not kernel_testing.bounds_check_views_available()
    assert not kernel_testing.high_dim_cuda_views_available()


def test_require_cuda_fails_every_gpu_test_instead_of_skipping_it() -> None:
    """docs/porting_kernels.md step 6: with CUNUMPY_REQUIRE_CUDA=1 and no GPU, the porting
    example's tests (both of them) and this suite's ``gpu`` tests fail, none skips."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    if xp.cupy_available() and not kernel_testing.fake_cupy_active():
        pytest.skip("a GPU is usable here: the tests would pass")
    root = Path(__file__).resolve().parent.parent
    path = os.pathsep.join(p for p in (str(root), os.environ.get("PYTHONPATH", "")) if p)
    env = {k: v for k, v in os.environ.items() if k != "CUNUMPY_FAKE_CUPY"}
    done = subprocess.run(
        [
            sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
            "examples/porting", "tests/test_sets.py::test_unique_functions_are_sorted_on_cupy",
        ],
        capture_output=True,
        text=True,
        cwd=root,
        env={**env, "CUNUMPY_REQUIRE_CUDA": "1", "PYTHONPATH": path},
        timeout=300,
        check=False,
    )  # fmt: skip
    output = done.stdout + done.stderr
    assert done.returncode == 1, output
    assert "skipped" not in output, output
    assert "test_the_program_gives_the_same_energy_on_both_backends" in output, output
    assert "test_unique_functions_are_sorted_on_cupy" in output, output
    assert output.count("CUNUMPY_REQUIRE_CUDA is set, but") >= 2, output
