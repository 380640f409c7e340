"""Host kernels get no zero stride where the stride is free (issue 35): Pyccel's wrapper
divides by the strides, and a zero there ended Struphy's test process with SIGFPE."""

from __future__ import annotations

import numpy as np
import pytest

from cunumpy import kernels


def _pyccel_wrapper(array: np.ndarray) -> None:
    """The divisions of Pyccel 2.x's wrapper for a C-ordered view (``//`` where it divides)."""
    if array.base is None:  # it folds the strides of views only
        return
    step = array.strides[-1] // array.itemsize  # the section step of the last axis
    current = array.itemsize
    for i in range(array.ndim - 1, 0, -1):  # the C part: strides folded into a base shape
        current *= array.strides[i - 1] // current
    (array.shape[-1] - 1 + step) // step  # the Fortran part: the section's extent


def _pyccel_like(x: np.ndarray, out: np.ndarray) -> None:
    _pyccel_wrapper(x)
    _pyccel_wrapper(out)
    out[...] = 2.0 * x


@pytest.mark.parametrize(
    "make",
    [
        lambda: np.linspace(0.0, 1.0, 7)[:, None, None],  # strides (8, 0, 0)
        lambda: np.linspace(0.0, 1.0, 5)[None, :, None],  # strides (0, 8, 0)
        lambda: np.full((6, 0), 0.5)[::2],  # empty: strides (0, 0)
    ],
    ids=["new-axes", "middle-axis", "empty-view"],
)
def test_a_zero_stride_on_a_free_axis_reaches_the_kernel_as_a_nonzero_stride(make) -> None:
    x = make()
    assert 0 in x.strides
    out_memory = np.zeros(x.size)
    out = out_memory.reshape(x.shape) if x.size else np.zeros((3, 0))[::1]
    kernels.PyccelKernel(_pyccel_like, outputs=(1,))(x, out)  # ZeroDivisionError before
    np.testing.assert_array_equal(out, 2.0 * x)


def test_the_kernel_writes_through_a_refolded_view_into_the_callers_array() -> None:
    whole = np.zeros(4)
    out = whole[None, :]  # strides (0, 8)
    seen = []

    def kernel(x, out):
        seen.append(out.strides)
        out[...] = x

    kernels.PyccelKernel(kernel, outputs=(1,))(np.arange(4.0)[None, :], out)
    assert seen == [(32, 8)]
    np.testing.assert_array_equal(whole, [0.0, 1.0, 2.0, 3.0])


def test_a_broadcast_array_and_contiguous_arrays_pass_unchanged() -> None:
    broadcast = np.broadcast_to(np.arange(3.0), (4, 3))  # stride 0 on an axis of length 4
    x = np.arange(3.0)
    seen = []
    kernels.PyccelKernel(lambda *args: seen.extend(args), outputs=())(broadcast, x)
    assert seen[0].strides == (0, 8) and seen[1] is x


def test_the_converting_call_refolds_too() -> None:
    x = np.linspace(0.0, 1.0, 7)[:, None, None]
    out = np.zeros((7, 1, 1))
    kernels.PyccelKernel(_pyccel_like, use_cupy=True, outputs=(1,))(x, out)
    np.testing.assert_array_equal(out, 2.0 * x)
