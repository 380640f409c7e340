"""Shared fixtures: backend reset around every test, per-backend parametrization, GPU skips."""

from __future__ import annotations

from collections.abc import Iterator
from types import ModuleType

import pytest

import cunumpy
from cunumpy import _config

BACKENDS = ("numpy", "cupy")


def _gpu_usable() -> bool:
    return cunumpy.cupy_available()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip tests marked ``gpu`` (with CuPy's reason) when no GPU is usable."""
    if _gpu_usable():
        return
    skip = pytest.mark.skip(reason=f"no usable GPU: {cunumpy.cupy_unavailable_reason()}")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def _reset_backend() -> Iterator[None]:
    """Every test starts on the NumPy backend, and its changes do not leak."""
    saved = _config._default.namespace
    token = _config._context.set(_config._default)  # no use_backend block is open
    cunumpy.set_backend("numpy")
    yield
    _config._context.reset(token)
    _config._default.namespace = saved


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """The name of each usable backend; CuPy is skipped, with the reason, without a GPU."""
    name: str = request.param
    if name == "cupy" and not _gpu_usable():
        pytest.skip(f"CuPy backend not usable: {cunumpy.cupy_unavailable_reason()}")
    return name


@pytest.fixture
def xp(backend: str) -> Iterator[ModuleType]:
    """cunumpy with ``backend`` as the current backend."""
    with cunumpy.use_backend(backend):
        yield cunumpy


@pytest.fixture
def library(backend: str) -> ModuleType:
    """The array library itself (``numpy`` or ``cupy``) of each usable backend."""
    return pytest.importorskip(backend)
