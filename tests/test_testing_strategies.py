"""cunumpy.testing.strategies: arrays, dtypes and shapes for any namespace and device."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cunumpy
from cunumpy.testing import strategies as cst

SETTINGS = settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@pytest.mark.xp("numpy", "cupy", "array_api_strict", "cunumpy", "cunumpy:cupy", "torch")
def test_arrays_of_the_namespace_on_its_default_device(xp: ModuleType) -> None:
    default = xp.__array_namespace_info__().default_device()

    @SETTINGS
    @given(x=cst.arrays(xp, cst.dtypes(xp, kind="numeric"), cst.shapes(min_dims=0)))
    def check(x: Any) -> None:
        assert cunumpy.array_namespace(x) is cunumpy.array_namespace(xp.asarray(0))
        assert x.device == default
        assert x.dtype in xp.__array_namespace_info__().dtypes(kind="numeric").values()

    check()


@pytest.mark.xp("array_api_strict", "cunumpy", "cunumpy:cupy")
def test_arrays_on_each_device(xp: ModuleType, device: Any) -> None:
    @SETTINGS
    @given(
        x=cst.arrays(xp, cst.dtypes(xp, kind="real floating", device=device), (3,), device=device)
    )
    def check(x: Any) -> None:
        assert x.device == device
        assert x.dtype in xp.__array_namespace_info__().dtypes(device=device).values()

    check()


def test_dtypes_follow_the_inspection_api() -> None:
    xps = pytest.importorskip("array_api_strict")
    no_float64 = xps.Device("no_float64")
    seen: set[Any] = set()

    @settings(max_examples=40, deadline=None)
    @given(dtype=cst.dtypes(xps, kind="real floating", device=no_float64))
    def check(dtype: Any) -> None:
        seen.add(dtype)

    check()
    assert seen == {xps.float32}


def test_dtypes_errors() -> None:
    with pytest.raises(ValueError, match="unknown kind 'reals'"):
        cst.dtypes(cunumpy, kind="reals")
    # NumPy's own namespace names neither the function nor the kinds; the error does
    with pytest.raises(
        ValueError, match=r"dtypes: the namespace numpy refuses kind='reals': .*'real floating'"
    ):
        cst.dtypes(np, kind="reals")
    with pytest.raises(TypeError, match="dtypes: `xp` must be an array namespace"):
        cst.dtypes("numpy")  # type: ignore[arg-type]


@settings(max_examples=30, deadline=None)
@given(shape=cst.shapes(min_dims=0, max_dims=2, min_side=0, max_side=3))
def test_shapes_respect_their_bounds(shape: tuple[int, ...]) -> None:
    assert 0 <= len(shape) <= 2
    assert all(0 <= side <= 3 for side in shape)


@settings(max_examples=20, deadline=None)
@given(
    x=cst.arrays(
        cunumpy,
        cunumpy.float64,
        st.just((4,)),
        elements={"min_value": -1.0, "max_value": 1.0, "allow_nan": False},
        unique=True,
    )
)
def test_elements_and_unique_are_passed_to_hypothesis(x: np.ndarray) -> None:
    assert isinstance(x, np.ndarray)
    assert np.all(np.abs(x) <= 1.0)
    assert len(np.unique(x)) == 4


def test_arrays_argument_errors() -> None:
    with pytest.raises(TypeError, match="arrays: `unique` must be True or False, not 1"):
        cst.arrays(cunumpy, cunumpy.float64, (2,), unique=1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="arrays: `xp` must be an array namespace"):
        cst.arrays(np.float64, cunumpy.float64, (2,))  # type: ignore[arg-type]


@pytest.mark.gpu
def test_cupy_arrays_are_drawn_on_the_host_and_placed_on_the_gpu() -> None:
    from cunumpy._backends import cupy as cupy_namespace

    @settings(max_examples=10, deadline=None)
    @given(x=cst.arrays(cupy_namespace, cupy_namespace.float32, (2, 2), device=0))
    def check(x: Any) -> None:
        assert cunumpy.is_cupy_array(x)
        assert int(x.device.id) == 0
        assert x.dtype == cupy_namespace.float32

    check()


def test_without_hypothesis_the_strategies_say_what_to_install() -> None:
    import subprocess
    import sys

    code = (
        "import sys; sys.modules['hypothesis'] = None\n"
        "try:\n    import cunumpy.testing.strategies\n"
        "except ImportError as exc:\n    print(exc)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == (
        "cunumpy.testing.strategies needs Hypothesis; to install it: pip install pytest "
        "hypothesis array-api-strict (from a source checkout of cunumpy: pip install "
        "'.[testing]')."
    )
