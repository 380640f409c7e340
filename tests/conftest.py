"""Shared fixtures: backend reset around every test, GPU skips.

The ``xp`` and ``device`` fixtures that run a test on every namespace come from
``cunumpy.testing.plugin``, enabled in the top-level ``conftest.py``.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import cunumpy
from cunumpy._backend_choice import _config, _landscape


def _gpu_usable() -> bool:
    # the fake CuPy of cunumpy.kernel_testing is usable, but it is no GPU
    return cunumpy.cupy_available() and not cunumpy.kernel_testing.fake_cupy_active()


def _no_gpu_reason() -> str:
    if cunumpy.kernel_testing.fake_cupy_active():
        return "the fake CuPy is active (CUNUMPY_FAKE_CUPY=1), which is no GPU"
    return f"no usable GPU: {cunumpy.cupy_unavailable_reason()}"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip tests marked ``gpu`` (with CuPy's reason) when no GPU is usable; under
    ``CUNUMPY_REQUIRE_CUDA=1`` (a GPU job's guard) they fail instead, at set-up."""
    if _gpu_usable() or cunumpy.kernel_testing.cuda_required():
        return
    skip = pytest.mark.skip(reason=_no_gpu_reason())
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Fail a ``gpu`` test without a GPU when ``CUNUMPY_REQUIRE_CUDA=1`` asks for one."""
    if "gpu" in item.keywords and cunumpy.kernel_testing.cuda_required() and not _gpu_usable():
        pytest.fail(f"CUNUMPY_REQUIRE_CUDA is set, but {_no_gpu_reason()}", pytrace=False)


@pytest.fixture(autouse=True)
def _reset_backend() -> Iterator[None]:
    """Every test starts on the NumPy backend, and its changes do not leak."""
    saved = _config._default.namespace
    listeners = list(_config.listeners)  # cunumpy.xp.array_backend's: none outlives its test
    token = _config._context.set(_config._default)  # no use_backend block is open
    blocks = _config._blocks.set(())
    cunumpy.set_backend("numpy")
    yield
    _config._blocks.reset(blocks)
    _config._context.reset(token)
    _landscape.change_default(saved)  # rebinds the top level's names, as set_backend does
    _config.listeners[:] = listeners
