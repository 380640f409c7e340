"""Backend selection: set_backend, get_backend, use_backend and CUNUMPY_BACKEND."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

import cunumpy


def test_default_backend_is_numpy() -> None:
    assert cunumpy.get_backend() == "numpy"
    assert isinstance(cunumpy.zeros(2), np.ndarray)


def test_unknown_backend_lists_the_valid_names() -> None:
    with pytest.raises(ValueError, match=r"set_backend: unknown backend 'jax'.*'numpy', 'cupy'"):
        cunumpy.set_backend("jax")
    with pytest.raises(TypeError, match=r"use_backend: `name` must be a str"):
        cunumpy.use_backend(1).__enter__()  # type: ignore[arg-type]


def test_use_backend_restores_on_exception() -> None:
    def fail_inside() -> None:
        with cunumpy.use_backend("numpy") as namespace:
            assert namespace is cunumpy.array_namespace(np.ones(1))
            raise KeyError("boom")

    with pytest.raises(KeyError):
        fail_inside()
    assert cunumpy.get_backend() == "numpy"


@pytest.mark.skipif(cunumpy.cupy_available(), reason="checks the path where CuPy is not usable")
def test_cupy_backend_without_usable_cupy_raises_with_the_reason() -> None:
    reason = cunumpy.cupy_unavailable_reason()
    assert reason
    with pytest.raises(RuntimeError, match="set_backend: the CuPy backend is not usable") as info:
        cunumpy.set_backend("cupy")
    assert reason in str(info.value)
    assert cunumpy.get_backend() == "numpy"


def _import_with(value: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "CUNUMPY_BACKEND": value}
    code = "import cunumpy; print(cunumpy.get_backend())"
    return subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120
    )


@pytest.mark.parametrize("value", ["numpy", " NumPy ", ""])
def test_environment_variable_numpy(value: str) -> None:
    result = _import_with(value)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "numpy"


def test_environment_variable_auto_picks_what_is_usable() -> None:
    result = _import_with("auto")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == ("cupy" if cunumpy.cupy_available() else "numpy")


def test_malformed_environment_variable_is_an_import_error_naming_it() -> None:
    result = _import_with("gpu-please")
    assert result.returncode != 0
    assert (
        "ValueError: cunumpy: the environment variable CUNUMPY_BACKEND='gpu-please'"
        in result.stderr
    )


@pytest.mark.skipif(cunumpy.cupy_available(), reason="checks the path where CuPy is not usable")
def test_environment_variable_cupy_without_gpu_fails_at_import_with_reason() -> None:
    result = _import_with("cupy")
    assert result.returncode != 0
    assert "RuntimeError: cunumpy: CUNUMPY_BACKEND='cupy' asks for CuPy" in result.stderr


def test_import_loads_no_gpu_or_mpi_library() -> None:
    code = (
        "import sys, cunumpy, cunumpy.linalg, cunumpy.fft\n"
        "x = cunumpy.sum(cunumpy.ones(3)); cunumpy.array_namespace(x)\n"
        "print(sorted(m for m in ('cupy', 'mpi4py', 'torch', 'jax', 'dask') if m in sys.modules))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "CUNUMPY_BACKEND": "numpy"},
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"
