"""Tests of cunumpy.algorithms against plain NumPy and Python references (Hypothesis).

Each property compares with a reference written here: Morton keys bit by bit in Python,
``numpy.argsort(kind="stable")`` for the sorts, ``numpy.add.at`` for the sums (bit for
bit: the documented order), ``numpy.unique`` for the runs. GPU tests check that CuPy
gives the same results, bit for bit.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import cunumpy
from cunumpy import algorithms

SETTINGS = settings(max_examples=40, deadline=None)


def _reference_key(cells: list[int], bits: int) -> int:
    key = 0
    for bit in range(bits):
        for axis, cell in enumerate(cells):
            key |= ((cell >> bit) & 1) << (len(cells) * bit + axis)
    return key


# --- Morton keys --------------------------------------------------------------------------


@SETTINGS
@given(st.sampled_from([2, 3]), st.data())
def test_morton_encode_interleaves_bits_and_decode_inverts_it(ndim: int, data) -> None:
    bits = algorithms.MAX_MORTON_LEVELS[ndim]
    n = data.draw(st.integers(0, 20))
    cells = [
        np.asarray(
            data.draw(st.lists(st.integers(0, 2**bits - 1), min_size=n, max_size=n)),
            dtype=np.uint64,
        )
        for _ in range(ndim)
    ]
    keys = algorithms.morton_encode(*cells)
    assert keys.dtype == np.uint64
    assert keys.tolist() == [_reference_key([int(c[i]) for c in cells], bits) for i in range(n)]
    decoded = algorithms.morton_decode(keys, ndim)
    for axis in range(ndim):
        np.testing.assert_array_equal(decoded[axis], cells[axis])


@SETTINGS
@given(
    hnp.arrays(
        np.float64, st.tuples(st.integers(0, 30), st.just(2)), elements=st.floats(-0.5, 1.5)
    ),
    st.integers(1, 12),
)
def test_morton_keys_are_the_keys_of_the_clipped_cells(positions: np.ndarray, levels: int) -> None:
    lower, upper = [-0.25, 0.0], [1.0, 1.25]
    keys = algorithms.morton_keys(positions, lower, upper, levels)
    scales = 2.0**levels / (np.asarray(upper) - np.asarray(lower))
    cells = np.clip(np.floor((positions - np.asarray(lower)) * scales), 0, 2**levels - 1).astype(
        int
    )
    assert keys.tolist() == [_reference_key(list(row), levels) for row in cells.tolist()]


def test_morton_keys_order_quadtree_nodes_and_reverse_axes() -> None:
    points = np.asarray([[0.1, 0.1], [0.9, 0.1], [0.1, 0.9], [0.9, 0.9]])
    keys = algorithms.morton_keys(points, [0.0, 0.0], [1.0, 1.0], levels=3)
    assert (keys >> np.uint64(4)).tolist() == [0, 1, 2, 3]  # depth-1 quadrants: x is bit 0
    reversed_x = algorithms.morton_keys(points, [1.0, 0.0], [0.0, 1.0], levels=3)
    assert (reversed_x >> np.uint64(4)).tolist() == [1, 0, 3, 2]


def test_morton_scales_and_errors() -> None:
    np.testing.assert_array_equal(
        algorithms.morton_scales([0, 0, 0], [1, 2, 4], 3), [8.0, 4.0, 2.0]
    )
    with pytest.raises(ValueError, match=r"`levels` must be from 1 to 21 in 3D, not 22"):
        algorithms.morton_scales([0, 0, 0], [1, 1, 1], 22)
    with pytest.raises(ValueError, match="must differ on every axis"):
        algorithms.morton_scales([0, 1], [1, 1], 3)
    with pytest.raises(ValueError, match="2 or 3 dimensions, not 4"):
        algorithms.morton_encode(*[np.zeros(2, dtype=int)] * 4)
    with pytest.raises(TypeError, match="the cells must be integers, not float64"):
        algorithms.morton_encode(np.zeros(2), np.zeros(2))
    with pytest.raises(ValueError, match="the box has 2 axes but the points have 3"):
        algorithms.morton_keys(np.zeros((2, 3)), [0, 0], [1, 1], 2)


# --- sorting and compaction ---------------------------------------------------------------


@SETTINGS
@given(
    hnp.arrays(
        st.sampled_from([np.int8, np.int64, np.uint64, np.float64]),
        st.integers(0, 6000),
        elements={"min_value": 0, "max_value": 100},
    ),
    st.sampled_from([0, 2**40, -(2**40), -100]),
    st.booleans(),
)
def test_sort_by_key_is_numpys_stable_argsort(keys: np.ndarray, offset: int, flip: bool) -> None:
    if keys.dtype.kind == "i" and (keys.dtype.itemsize == 8 or offset == -100):
        # wide signed ranges take several radix digits; int8 from -100 to 100 overflows int8
        keys = (keys * (2 if flip else 1) + keys.dtype.type(offset)).astype(keys.dtype)
    values = np.arange(keys.shape[0]) * 1.5
    markers = np.stack([values, -values])
    sorted_keys, order, sorted_values, sorted_markers = algorithms.sort_by_key(
        keys, values, markers, axis=-1
    )
    expected = np.argsort(keys, kind="stable")
    assert order.dtype == np.int64
    np.testing.assert_array_equal(order, expected)
    np.testing.assert_array_equal(sorted_keys, keys[expected])
    np.testing.assert_array_equal(sorted_values, values[expected])
    np.testing.assert_array_equal(sorted_markers, markers[:, expected])


def test_sort_by_key_treats_signed_zeros_as_equal_and_puts_nans_last() -> None:
    keys = np.asarray([0.0, np.nan, -0.0, -1.0, 0.0, np.nan])
    _, order = algorithms.sort_by_key(keys)
    assert order.tolist() == [3, 0, 2, 4, 1, 5]


def test_sort_by_key_errors() -> None:
    with pytest.raises(ValueError, match=r"`keys` must be 1-D, not of shape \(2, 2\)"):
        algorithms.sort_by_key(np.zeros((2, 2)))
    with pytest.raises(
        ValueError, match=r"array 0 has shape \(3,\); it needs 2 entries along axis 0"
    ):
        algorithms.sort_by_key(np.zeros(2), np.zeros(3))
    with pytest.raises(ValueError, match="array 0 has 1 axes, so it has no axis 1"):
        algorithms.sort_by_key(np.zeros(2), np.zeros(2), axis=1)


@SETTINGS
@given(st.lists(st.booleans(), max_size=50))
def test_compact_by_mask_keeps_the_masked_rows_in_order(flags: list[bool]) -> None:
    mask = np.asarray(flags, dtype=bool)
    values = np.arange(mask.shape[0], dtype=np.float64)
    markers = np.stack([values, 2 * values])
    expected_values, expected_markers = values[mask], markers[:, mask]
    n = algorithms.compact_by_mask(mask, values, markers, axis=-1)
    assert n == int(mask.sum())
    np.testing.assert_array_equal(values[:n], expected_values)
    np.testing.assert_array_equal(markers[:, :n], expected_markers)


def test_compact_by_mask_errors() -> None:
    with pytest.raises(
        TypeError, match="`mask` must be a 1-D boolean array, not a 1-D array of int64"
    ):
        algorithms.compact_by_mask(np.zeros(2, dtype=np.int64), np.zeros(2))


# --- segments -----------------------------------------------------------------------------

sorted_keys = hnp.arrays(np.int64, st.integers(0, 40), elements=st.integers(-5, 5)).map(np.sort)


@SETTINGS
@given(sorted_keys)
def test_segment_boundaries_are_numpys_runs(keys: np.ndarray) -> None:
    unique, starts, stops = algorithms.segment_boundaries(keys)
    expected, first, counts = np.unique(keys, return_index=True, return_counts=True)
    np.testing.assert_array_equal(unique, expected)
    np.testing.assert_array_equal(starts, first)
    np.testing.assert_array_equal(stops, first + counts)
    assert starts.dtype == stops.dtype == np.int64


@SETTINGS
@given(sorted_keys.map(lambda k: k - k.min() if k.size else k), st.integers(0, 3))
def test_cell_offsets_bound_every_cell(cells: np.ndarray, extra: int) -> None:
    n_cells = (int(cells.max()) + 1 if cells.size else 0) + extra
    offsets = algorithms.cell_offsets(cells, n_cells)
    expected = np.concatenate([[0], np.cumsum(np.bincount(cells, minlength=n_cells))])
    np.testing.assert_array_equal(offsets, expected)


@SETTINGS
@given(
    hnp.arrays(np.int64, st.integers(0, 200), elements=st.integers(-1, 6)),
    st.sampled_from([np.float64, np.float32, np.float16, np.complex128, np.int32]),
    st.sampled_from([(), (3,)]),
    st.integers(0, 2**32 - 1),
)
def test_segment_sum_adds_in_row_order_as_numpy_add_at(keys, dtype, tail, seed) -> None:
    values = np.random.default_rng(seed).normal(size=(keys.shape[0], *tail)).astype(dtype)
    if np.dtype(dtype).kind == "c":
        values = values + 1j * values[::-1]
    out = algorithms.segment_sum(values, keys, 7)
    result_dtype = values.dtype if values.dtype.kind in "fc" else np.dtype(np.float64)
    assert out.dtype == result_dtype
    assert out.shape == (7, *tail)
    reference = np.zeros((7, *tail), dtype=result_dtype)
    np.add.at(reference, keys[keys >= 0], values[keys >= 0].astype(result_dtype))
    np.testing.assert_array_equal(out, reference)  # bit for bit: the same order


def test_segment_plan_is_reusable_and_copies_its_keys() -> None:
    keys = np.asarray([2, 0, 2, 2, -1, 0])
    plan = algorithms.SegmentPlan(keys, 3)
    keys[:] = 1
    out = np.full(3, 99.0)
    assert plan.sum(np.arange(6.0), out=out) is out
    np.testing.assert_array_equal(out, [6.0, 0.0, 5.0])
    np.testing.assert_array_equal(plan.sum(np.ones(6, dtype=bool)), [2.0, 0.0, 3.0])
    assert plan.n_segments == 3


def test_segment_sum_of_integers_is_exact() -> None:
    keys = np.random.default_rng(1).integers(0, 50, 10_000)
    values = np.random.default_rng(2).integers(-1000, 1000, 10_000)
    np.testing.assert_array_equal(
        algorithms.segment_sum(values, keys, 50), np.bincount(keys, weights=values, minlength=50)
    )


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda: algorithms.segment_sum(np.ones(2), np.asarray([0, 3]), 3), ValueError, "every key must be below n_segments=3, not 3"),
        (lambda: algorithms.segment_sum(np.ones(2), np.zeros(2), 3), TypeError, "`keys` must have an integer dtype, not float64"),
        (lambda: algorithms.segment_sum(np.ones(3), np.zeros(2, dtype=int), 3), ValueError, "`values` needs 2 rows"),
        (lambda: algorithms.segment_sum(np.asarray(["a", "b"]), np.zeros(2, dtype=int), 1), TypeError, "`values` must be numeric"),
        (lambda: algorithms.segment_sum(np.ones(2), np.zeros(2, dtype=int), -1), ValueError, "`n_segments` must be non-negative"),
        (lambda: algorithms.segment_sum(np.ones(2), np.zeros(2, dtype=int), 1, out=np.zeros(2)), ValueError, r"`out` must have shape \(1,\)"),
        (lambda: algorithms.cell_offsets(np.asarray([0, 3]), 3), ValueError, r"cell ids must be in \[0, 3\), not from 0 to 3"),
        (lambda: algorithms.cell_offsets(np.asarray([1, 0]), 3), ValueError, "must be sorted in nondecreasing order"),
        (lambda: algorithms.segment_boundaries(np.asarray([1.0])), TypeError, "must have an integer dtype"),
    ],
)  # fmt: skip
def test_segment_errors_name_the_function_and_value(call, error, match) -> None:
    with pytest.raises(error, match=match):
        call()


def test_segment_sum_rejects_out_aliasing_values() -> None:
    values = np.zeros(4)
    with pytest.raises(ValueError, match="`out` must not share memory with `values`"):
        algorithms.segment_sum(values, np.zeros(4, dtype=int), 4, out=values)


def test_algorithms_reject_arrays_of_other_libraries() -> None:
    strict = pytest.importorskip("array_api_strict")
    with pytest.raises(TypeError, match="sort_by_key: arrays of array_api_strict"):
        algorithms.sort_by_key(strict.asarray([1, 0]))


def test_algorithms_is_a_lazy_top_level_submodule_with_exactly_its_names() -> None:
    assert cunumpy.algorithms is algorithms
    assert dir(algorithms) == sorted(algorithms.__all__)


# --- CuPy: the same results ---------------------------------------------------------------


@pytest.mark.gpu
def test_algorithms_on_cupy_equal_numpy_bit_for_bit() -> None:
    import cupy

    generator = np.random.default_rng(5)
    positions = generator.random((20_000, 3))
    keys = algorithms.morton_keys(positions, [0, 0, 0], [1, 1, 1], 21)
    gpu_keys = algorithms.morton_keys(cupy.asarray(positions), [0, 0, 0], [1, 1, 1], 21)
    assert isinstance(gpu_keys, cupy.ndarray)
    np.testing.assert_array_equal(gpu_keys.get(), keys)
    cells = (keys >> np.uint64(54)).astype(np.int64)  # 8 bits: many equal keys
    host = algorithms.sort_by_key(cells, positions)
    device = algorithms.sort_by_key(cupy.asarray(cells), cupy.asarray(positions))
    for a, b in zip(host, device):
        np.testing.assert_array_equal(a, b.get())
    floats = np.asarray([0.0, -0.0, np.nan, -1.0, 0.0])
    np.testing.assert_array_equal(
        algorithms.sort_by_key(cupy.asarray(floats))[1].get(), algorithms.sort_by_key(floats)[1]
    )
    values = generator.normal(size=(20_000, 3))
    segment_keys = generator.integers(-1, 300, 20_000)
    host_sum = algorithms.segment_sum(values, segment_keys, 300)
    device_sum = algorithms.segment_sum(cupy.asarray(values), cupy.asarray(segment_keys), 300)
    np.testing.assert_array_equal(device_sum.get(), host_sum)  # deterministic, bit for bit
    for a, b in zip(
        algorithms.segment_boundaries(np.sort(segment_keys)),
        algorithms.segment_boundaries(cupy.asarray(np.sort(segment_keys))),
    ):
        np.testing.assert_array_equal(a, b.get())
    mask = values[:, 0] > 0
    gpu_values = cupy.asarray(values)
    assert algorithms.compact_by_mask(cupy.asarray(mask), gpu_values) == algorithms.compact_by_mask(
        mask, values
    )
    np.testing.assert_array_equal(gpu_values.get()[: mask.sum()], values[: mask.sum()])
    with pytest.raises(TypeError, match="mix a NumPy array and a CuPy array"):
        algorithms.segment_sum(values, cupy.asarray(segment_keys), 300)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.complex64, np.complex128])
@pytest.mark.parametrize("c_contiguous", [True, False])
def test_the_gpu_segment_sum_kernel_compiles_for_sm90(dtype, c_contiguous: bool) -> None:
    """The CUDA source CuPy generates for the GPU sums, compiled with NVRTC (no GPU needed)."""
    pytest.importorskip("cupy")
    from cuda_compile import compile_cuda, compiler_or_skip, elementwise_source

    from cunumpy.algorithms._sums import _sequential_sum_kernel

    compiler_or_skip()
    kernel = _sequential_sum_kernel()
    dtypes = (np.int64, np.int64, np.int64, dtype, np.int64)
    source = elementwise_source(kernel, dtypes, scalars=(2,), ndim=2, c_contiguous=c_contiguous)
    assert 'extern "C" __global__ void cunumpy_segment_sum(' in source
    compile_cuda(source, name=kernel.name)


@SETTINGS
@given(hnp.arrays(np.int64, st.integers(0, 60), elements=st.integers(-1, 5)))
def test_the_sorted_layout_of_gpu_plans_sums_each_segment_in_row_order(keys: np.ndarray) -> None:
    """The layout a CuPy plan builds, here built with NumPy, and the GPU kernel's loop in Python."""
    from cunumpy.algorithms._sums import sorted_layout

    kept = np.nonzero(keys >= 0)[0]
    rows, starts, stops, segments = sorted_layout(np, keys[kept], kept)
    values = np.random.default_rng(keys.size).normal(size=keys.size)
    sums = np.zeros(6)
    for start, stop, segment in zip(starts.tolist(), stops.tolist(), segments.tolist()):
        total = 0.0
        for r in range(start, stop):  # the kernel's loop over one segment
            total = total + values[rows[r]]
        sums[segment] = total
    reference = np.zeros(6)
    np.add.at(reference, keys[kept], values[kept])
    np.testing.assert_array_equal(sums, reference)
    assert len(set(segments.tolist())) == len(segments)
