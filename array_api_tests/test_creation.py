"""copy= and device= semantics of creation functions, and to_device."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest


def _device(xp: ModuleType) -> Any:
    return xp.__array_namespace_info__().default_device()


def _shares(xp: ModuleType, a: Any, b: Any) -> bool:
    """Whether writing to ``a`` is visible in ``b``."""
    before = float(b[0])
    a[0] = before + 1
    changed = float(b[0]) != before
    a[0] = before
    return changed


def test_asarray_copy_true(xp: ModuleType) -> None:
    x = xp.asarray([1.0, 2.0])
    y = xp.asarray(x, copy=True)
    assert not _shares(xp, x, y)


def test_asarray_copy_false_shares(xp: ModuleType) -> None:
    x = xp.asarray([1.0, 2.0])
    y = xp.asarray(x, copy=False)
    assert _shares(xp, x, y)


def test_asarray_copy_none_reuses(xp: ModuleType) -> None:
    x = xp.asarray([1.0, 2.0])
    y = xp.asarray(x)
    assert _shares(xp, x, y)


def test_asarray_copy_false_needs_copy_raises(xp: ModuleType) -> None:
    x = xp.asarray([1.0, 2.0], dtype=xp.float64)
    with pytest.raises(ValueError):  # noqa: PT011 - the standard names only the type
        xp.asarray(x, dtype=xp.float32, copy=False)
    with pytest.raises(ValueError):  # noqa: PT011 - the standard names only the type
        xp.asarray([1.0, 2.0], copy=False)


def test_asarray_dtype_copy_none(xp: ModuleType) -> None:
    x = xp.asarray([1.0, 2.0], dtype=xp.float32)
    y = xp.asarray(x, dtype=xp.float64)
    assert y.dtype == xp.float64
    assert not _shares(xp, y, x)


@pytest.mark.parametrize(
    "make",
    [
        lambda xp, d: xp.asarray([1.0], device=d),
        lambda xp, d: xp.zeros((2,), device=d),
        lambda xp, d: xp.ones((2,), device=d),
        lambda xp, d: xp.empty((2,), device=d),
        lambda xp, d: xp.full((2,), 3.0, device=d),
        lambda xp, d: xp.arange(3, device=d),
        lambda xp, d: xp.linspace(0, 1, 3, device=d),
        lambda xp, d: xp.eye(2, device=d),
        lambda xp, d: xp.zeros_like(xp.ones(2), device=d),
        lambda xp, d: xp.ones_like(xp.ones(2), device=d),
        lambda xp, d: xp.full_like(xp.ones(2), 2.0, device=d),
        lambda xp, d: xp.empty_like(xp.ones(2), device=d),
        lambda xp, d: xp.from_dlpack(xp.ones(2), device=d),
    ],
    ids=["asarray", "zeros", "ones", "empty", "full", "arange", "linspace", "eye",
         "zeros_like", "ones_like", "full_like", "empty_like", "from_dlpack"],
)  # fmt: skip
def test_device_keyword(xp: ModuleType, make: Any) -> None:
    device = _device(xp)
    x = make(xp, device)
    assert x.device == device


def test_to_device(xp: ModuleType) -> None:
    device = _device(xp)
    x = xp.asarray([1.0, 2.0])
    moved = x.to_device(device) if hasattr(x, "to_device") else xp.to_device(x, device)
    assert moved.device == device
    assert float(xp.sum(moved)) == 3.0


def test_astype_copy(xp: ModuleType) -> None:
    x = xp.asarray([1.0, 2.0])
    y = xp.astype(x, xp.float64, copy=True)
    assert not _shares(xp, x, y)
    z = xp.astype(x, xp.float64, copy=False)
    assert _shares(xp, x, z)
    assert xp.astype(x, xp.float32, device=_device(xp)).dtype == xp.float32
