"""Output shapes of reductions (axis/keepdims) and manipulation functions."""

from __future__ import annotations

from types import ModuleType

import pytest
from hypothesis import given
from hypothesis import strategies as st

from array_api_tests._strategies import SETTINGS, strategies

pytestmark = pytest.mark.usefixtures("quiet_fp")

REDUCTIONS = ("sum", "prod", "max", "min", "mean", "std", "var", "all", "any", "count_nonzero")


def _reduced(shape: tuple[int, ...], axes: tuple[int, ...], keepdims: bool) -> tuple[int, ...]:
    if keepdims:
        return tuple(1 if i in axes else n for i, n in enumerate(shape))
    return tuple(n for i, n in enumerate(shape) if i not in axes)


@pytest.mark.parametrize("name", REDUCTIONS)
def test_reduction_shape(xp: ModuleType, name: str) -> None:
    s = strategies(xp)

    @SETTINGS
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        shape = data.draw(s.array_shapes(min_dims=1, max_dims=4, min_side=1, max_side=3))
        x = data.draw(
            s.arrays(dtype=xp.float64, shape=shape, elements={"min_value": -8.0, "max_value": 8.0})
        )
        axes = tuple(sorted(data.draw(st.sets(st.integers(0, len(shape) - 1), min_size=1))))
        keepdims = data.draw(st.booleans())
        axis = axes[0] if len(axes) == 1 and data.draw(st.booleans()) else axes
        out = getattr(xp, name)(x, axis=axis, keepdims=keepdims)
        assert out.shape == _reduced(shape, axes, keepdims)
        full = getattr(xp, name)(x)
        assert full.shape == ()

    run()


@pytest.mark.parametrize("name", ["argmax", "argmin", "cumulative_sum", "cumulative_prod"])
def test_axis_functions(xp: ModuleType, name: str) -> None:
    x = xp.reshape(xp.arange(24, dtype=xp.float64), (2, 3, 4))
    if name.startswith("arg"):
        assert getattr(xp, name)(x, axis=1).shape == (2, 4)
        assert getattr(xp, name)(x, axis=1, keepdims=True).shape == (2, 1, 4)
        assert getattr(xp, name)(x).shape == ()
    else:
        assert getattr(xp, name)(x, axis=1).shape == (2, 3, 4)
        assert getattr(xp, name)(x, axis=1, include_initial=True).shape == (2, 4, 4)


def test_manipulation_shapes(xp: ModuleType) -> None:
    x = xp.reshape(xp.arange(24), (2, 3, 4))
    assert xp.permute_dims(x, (2, 0, 1)).shape == (4, 2, 3)
    assert xp.expand_dims(x, axis=1).shape == (2, 1, 3, 4)
    assert xp.expand_dims(x, axis=(0, -1)).shape == (1, 2, 3, 4, 1)
    assert xp.squeeze(xp.expand_dims(x, axis=0), axis=0).shape == (2, 3, 4)
    assert xp.concat([x, x], axis=1).shape == (2, 6, 4)
    assert xp.concat([x, x], axis=None).shape == (48,)
    assert xp.stack([x, x], axis=-1).shape == (2, 3, 4, 2)
    assert xp.flip(x, axis=(0, 2)).shape == (2, 3, 4)
    assert xp.roll(x, 2, axis=1).shape == (2, 3, 4)
    assert xp.moveaxis(x, 0, -1).shape == (3, 4, 2)
    assert xp.tile(x, (2, 1, 1)).shape == (4, 3, 4)
    assert xp.repeat(x, 2, axis=1).shape == (2, 6, 4)
    assert xp.repeat(x, 2).shape == (48,)
    assert xp.broadcast_to(xp.ones((3, 1)), (2, 3, 4)).shape == (2, 3, 4)
    assert [a.shape for a in xp.broadcast_arrays(xp.ones((3, 1)), xp.ones(4))] == [(3, 4)] * 2
    assert tuple(xp.broadcast_shapes((3, 1), (4,))) == (3, 4)
    assert len(xp.unstack(x, axis=1)) == 3
    assert xp.unstack(x, axis=1)[0].shape == (2, 4)
    assert xp.reshape(x, (6, -1)).shape == (6, 4)
    assert [a.shape for a in xp.meshgrid(xp.ones(2), xp.ones(3))] == [(3, 2)] * 2
    assert [a.shape for a in xp.meshgrid(xp.ones(2), xp.ones(3), indexing="ij")] == [(2, 3)] * 2
    assert xp.take(x, xp.asarray([0, 2]), axis=2).shape == (2, 3, 2)
    assert xp.take_along_axis(x, xp.zeros((2, 3, 1), dtype=xp.int64), axis=2).shape == (2, 3, 1)
    assert xp.matrix_transpose(x).shape == (2, 4, 3)
    assert x.mT.shape == (2, 4, 3)
    assert xp.tril(x).shape == xp.triu(x).shape == (2, 3, 4)


@pytest.mark.parametrize("name", ["sort", "argsort"])
def test_sorting_shapes(xp: ModuleType, name: str) -> None:
    x = xp.asarray([[3.0, 1.0, 2.0], [0.0, -1.0, 5.0]])
    out = getattr(xp, name)(x, axis=0, descending=True, stable=True)
    assert out.shape == (2, 3)
    assert getattr(xp, name)(x).shape == (2, 3)
