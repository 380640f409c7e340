"""CuNumpy 0.7.1's documented examples of rng, algorithms, integrate and optimize, on ours.

Each program is one of 0.7.1's README or docstring examples (or a variation of it) that
runs without a GPU; the expected values are the output of CuNumpy 0.7.1 itself, run in a
separate virtual environment (see the report of the change that added this file), and
cunumpy must print the same.
"""

from __future__ import annotations

import hashlib

import numpy as np
import pytest
from signatures071 import lookup, parameters

import cunumpy as xp

# (example, expected repr): the repr printed by CuNumpy 0.7.1 for the same expression.
EXAMPLES = {
    "philox4x32_10": (
        lambda: xp.rng.philox4x32_10(np.zeros(4, dtype=np.uint32), 0, 0),
        "array([1713891541, 3781805453, 3159862348, 2600524760], dtype=uint32)",
    ),
    "philox_uniform2": (
        lambda: xp.rng.philox_uniform2(42, xp.arange(3, dtype=xp.uint64), 0),
        "(array([0.61295988, 0.01005884, 0.3984137 ]), array([0.07323174, 0.23206617, 0.42161735]))",
    ),
    "philox_uniform": (
        lambda: xp.rng.philox_uniform(42, xp.arange(3, dtype=xp.uint64), 0),
        "array([0.61295988, 0.01005884, 0.3984137 ])",
    ),
    "philox_normal2": (
        lambda: [z.round(12) for z in xp.rng.philox_normal2(42, xp.arange(5, dtype=xp.uint64), 3)],
        "[array([-1.38479151,  0.11233806, -0.04587885,  0.56347817, -0.6523427 ]), "
        "array([-0.83549561,  0.49149996,  0.32049749, -0.47673973, -0.15640537])]",
    ),
    "philox_normal": (
        lambda: xp.rng.philox_normal(42, xp.arange(4, dtype=xp.uint64), 0).round(12),
        "array([ 1.23454182,  0.01598893, -0.88834022, -0.04837005])",
    ),
    "philox_scalar": (lambda: xp.rng.philox_uniform(1, 2, 3), "np.float64(0.867320973984757)"),
    "get_rng": (lambda: xp.rng.get_rng(seed=7).random(2), "array([0.62509547, 0.8972138 ])"),
    "get_rng_readme": (
        lambda: xp.rng.get_rng(seed=42).normal(size=1000)[:3],
        "array([ 0.30471708, -1.03998411,  0.7504512 ])",
    ),
    "bit_generators": (
        lambda: xp.rng.BIT_GENERATORS,
        "('MT19937', 'PCG64', 'PCG64DXSM', 'Philox', 'SFC64')",
    ),
    "segment_boundaries": (
        lambda: xp.algorithms.segment_boundaries(xp.asarray([3, 3, 5, 9, 9, 9])),
        "(array([3, 5, 9]), array([0, 2, 3]), array([2, 3, 6]))",
    ),
    "cell_offsets": (
        lambda: xp.algorithms.cell_offsets(xp.asarray([0, 0, 2]), 3),
        "array([0, 2, 2, 3])",
    ),
    "segment_plan": (
        lambda: xp.algorithms.SegmentPlan(xp.asarray([0, 1, 0, -1]), 2).sum(
            xp.asarray([1.0, 2.0, 3.0, 4.0])
        ),
        "array([4., 2.])",
    ),
    "segment_sum": (
        lambda: xp.algorithms.segment_sum(
            xp.asarray([1.0, 2.0, 3.0, 4.0]), xp.asarray([0, 1, 0, -1]), 2
        ),
        "array([4., 2.])",
    ),
    "segment_sum_2d": (
        lambda: xp.algorithms.segment_sum(
            xp.asarray([[1, 2], [3, 4], [5, 6]]), xp.asarray([1, 1, 0]), 3
        ),
        "array([[5., 6.],\n       [4., 6.],\n       [0., 0.]])",
    ),
    "sort_by_key": (
        lambda: xp.algorithms.sort_by_key(
            xp.asarray([2, 0, 1, 0]), xp.asarray([10.0, 11.0, 12.0, 13.0])
        ),
        "(array([0, 0, 1, 2]), array([1, 3, 2, 0]), array([11., 13., 12., 10.]))",
    ),
    "sort_by_key_axis": (
        lambda: xp.algorithms.sort_by_key(
            xp.asarray([2, 0, 1]), xp.asarray([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), axis=-1
        ),
        "(array([0, 1, 2]), array([1, 2, 0]), array([[2., 3., 1.],\n       [5., 6., 4.]]))",
    ),
    "morton_encode": (
        lambda: xp.algorithms.morton_encode(xp.asarray([1, 0, 3]), xp.asarray([0, 1, 3])),
        "array([ 1,  2, 15], dtype=uint64)",
    ),
    "morton_encode3": (
        lambda: xp.algorithms.morton_encode(
            xp.asarray([1, 0, 3, 2097151]), xp.asarray([0, 1, 3, 5]), xp.asarray([1, 1, 0, 7])
        ),
        "array([                  5,                   6,                  27,\n"
        "       1317624576693539823], dtype=uint64)",
    ),
    "morton_decode": (
        lambda: xp.algorithms.morton_decode(xp.asarray([1, 2, 15], dtype=np.uint64), 2),
        "(array([1, 0, 3], dtype=uint64), array([0, 1, 3], dtype=uint64))",
    ),
    "morton_scales": (
        lambda: xp.algorithms.morton_scales([0.0, 0.0], [1.0, 2.0], 4),
        "array([16.,  8.])",
    ),
    "morton_keys": (
        lambda: xp.algorithms.morton_keys(
            xp.asarray([[0.1, 0.1], [0.9, 0.1], [0.9, 0.9]]), [0.0, 0.0], [1.0, 1.0], levels=2
        ),
        "array([ 0,  5, 15], dtype=uint64)",
    ),
    "morton_keys3": (
        lambda: xp.algorithms.morton_keys(
            xp.asarray([[0.1, 0.2, 0.3], [1.5, -0.1, 0.5], [0.25, 0.5, 0.75]]),
            [0.0, 0.0, 0.0],
            [1.0, 1.0, 1.0],
            levels=5,
        ),
        "array([ 2205, 21065, 27136], dtype=uint64)",
    ),
    "max_levels": (lambda: xp.algorithms.MAX_MORTON_LEVELS, "{2: 32, 3: 21}"),
    "newton": (
        lambda: xp.optimize.newton(
            lambda x: x**2 - xp.asarray([2.0, 3.0, 4.0]), xp.ones(3), fprime=lambda x: 2 * x
        ),
        "array([1.41421356, 1.73205081, 2.        ])",
    ),
    "secant": (
        lambda: xp.optimize.newton(lambda x: x**3 - xp.asarray([2.0, 3.0, 4.0]), xp.ones(3)),
        "array([1.25992105, 1.44224957, 1.58740105])",
    ),
    "newton_full": (
        lambda: tuple(
            xp.optimize.newton(
                lambda x: x**2 - 4.0,
                xp.asarray([1.0, 3.0]),
                fprime=lambda x: 2 * x,
                full_output=True,
            )
        ),
        "(array([2., 2.]), array([ True,  True]), array([False, False]))",
    ),
    "fsolve": (
        lambda: xp.optimize.fsolve(lambda x: x**2 - xp.asarray([4.0, 9.0]), xp.ones(2)),
        "array([2., 3.])",
    ),
    "root": (
        lambda: (lambda r: (r.success, r.x))(xp.optimize.root(lambda x: x**3 - 8.0, xp.ones(1))),
        "(True, array([2.]))",
    ),
    "quad": (lambda: round(xp.integrate.quad(lambda x: x**2, 0.0, 3.0)[0], 12), "9.0"),
}


# The examples that run SciPy on the host: skipped where SciPy is missing (the GPU machine).
NEEDS_SCIPY = {"fsolve", "root", "quad"}


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_example_gives_the_result_of_cunumpy_071(name: str) -> None:
    if name in NEEDS_SCIPY:
        pytest.importorskip("scipy", reason="scipy is not installed: needs SciPy (the test extra)")
    example, expected = EXAMPLES[name]
    assert repr(example()) == expected


def test_random_streams_give_the_numbers_of_cunumpy_071() -> None:
    streams = xp.rng.RandomStreams()
    streams.seed(42, rank=1)
    assert repr(streams) == "RandomStreams(entropy=42, spawn_key=(1,), bit_generator='PCG64')"
    assert repr(streams.uniform(0.0, 1.0, 3)) == "array([0.57002868, 0.9724905 , 0.50377011])"
    other = xp.rng.RandomStreams()
    other.seed(3, rank=2, bit_generator="SFC64")
    expected = "array([ 2.19385258,  0.74852412, -1.34038797, -2.4144648 ])"
    assert repr(other.normal(1.0, 2.0, 4)) == expected


def test_seeding_the_process_streams_seeds_numpy_random_as_in_cunumpy_071() -> None:
    saved = np.random.get_state()  # noqa: NPY002
    try:
        xp.rng.random_streams.seed(5, rank=0)
        assert repr(np.random.random(2)) == "array([0.09145696, 0.85291268])"  # noqa: NPY002
        xp.rng.random_streams.seed(42, rank=0)
        drawn = xp.rng.random_streams.normal(0.0, 1.0, (2, 3))
        expected = np.asarray(
            [[-1.3148378, 1.75039845, -0.11517501], [-0.92768643, -1.65587716, 2.06304648]]
        )
        np.testing.assert_allclose(drawn, expected, atol=5e-9)
    finally:
        xp.rng.random_streams.seed(None)  # a fresh stream, as before the test
        np.random.set_state(saved)  # noqa: NPY002


def test_compact_minimize_and_odeint_examples_of_cunumpy_071() -> None:
    x = xp.asarray([1.0, 2.0, 3.0, 4.0])
    n = xp.algorithms.compact_by_mask(xp.asarray([True, False, True, False]), x)
    assert repr(x[:n]) == "array([1., 3.])"
    pytest.importorskip("scipy", reason="scipy is not installed: needs SciPy (the test extra)")
    res = xp.optimize.minimize(lambda x: xp.sum((x - 1.0) ** 2), xp.zeros(2))
    np.testing.assert_allclose(xp.to_numpy(res.x), 1.0, atol=1e-6)
    y = xp.integrate.odeint(lambda y, t: -y, xp.ones(1), xp.asarray([0.0, 1.0]))
    np.testing.assert_allclose(xp.to_numpy(y[-1]), np.exp(-1.0), rtol=1e-6)


# The parameters of every function and method, as CuNumpy 0.7.1's signatures give them
# ("kw:" for keyword-only), read from 0.7.1 with inspect.signature.
PARAMETERS_071 = {
    "rng.RandomStreams": "",
    "rng.RandomStreams.generator": "backend=None",
    "rng.RandomStreams.make_generator": "seed=None, backend=None",
    "rng.RandomStreams.normal": "loc=0.0, scale=1.0, size=None, rng=None",
    "rng.RandomStreams.random": "size=None, rng=None",
    "rng.RandomStreams.seed": "value, rank=0, bit_generator=None",
    "rng.RandomStreams.standard_normal": "size=None, rng=None",
    "rng.RandomStreams.uniform": "low=0.0, high=1.0, size=None, rng=None",
    "rng.get_rng": "seed=None",
    "rng.philox4x32_10": "counter, key0, key1",
    "rng.philox_normal": "seed, stream, counter",
    "rng.philox_normal2": "seed, stream, counter",
    "rng.philox_uniform": "seed, stream, counter",
    "rng.philox_uniform2": "seed, stream, counter",
    "algorithms.SegmentPlan": "keys, n_segments",
    "algorithms.SegmentPlan.sum": "values, kw:out=None",
    "algorithms.cell_offsets": "sorted_cells, n_cells",
    "algorithms.compact_by_mask": "mask, *arrays, kw:axis=0",
    "algorithms.morton_decode": "keys, ndim",
    "algorithms.morton_encode": "*cells",
    "algorithms.morton_keys": "positions, lower, upper, levels",
    "algorithms.morton_scales": "lower, upper, levels",
    "algorithms.segment_boundaries": "sorted_keys",
    "algorithms.segment_sum": "values, keys, n_segments, kw:out=None",
    "algorithms.sort_by_key": "keys, *arrays, kw:axis=0",
    "integrate.odeint": "func, y0, t, args=(), Dfun=None, **kwargs",
    "integrate.quad": "func, a, b, args=(), **kwargs",
    "optimize.fsolve": "func, x0, args=(), fprime=None, **kwargs",
    "optimize.minimize": "fun, x0, args=(), jac=None, hess=None, hessp=None, bounds=None, constraints=(), callback=None, **kwargs",
    "optimize.newton": "func, x0, fprime=None, args=(), tol=1.48e-08, maxiter=50, rtol=0.0, full_output=False",
    "optimize.root": "fun, x0, args=(), jac=None, callback=None, **kwargs",
}


@pytest.mark.parametrize("path", sorted(PARAMETERS_071))
def test_signature_matches_cunumpy_071(path: str) -> None:
    assert parameters(lookup(path)) == PARAMETERS_071[path]


# SHA-256 of the bytes of results computed by CuNumpy 0.7.1 from the inputs of
# `_exact_results` (exact integer and IEEE-addition results only: no libm function).
DIGESTS_071 = {
    "u": "9ea499695cccbc8b0b5604ec9487a43b7f52b354b23f711c1185d03212e2685f",
    "w": "fcc932d5c496b5c0a6bcfa17d664172952d3f8ea792324f6fa3f810b96b6e34b",
    "m3": "03085005edd5e93190e410176dfaba86b25bfd6bd2920f6d033105692b912ca8",
    "m2": "e1ce20657a94f02d7d0797a45526f966f77697dd16afec7d14a1567e72aa803f",
    "s": "f79a01e5a2b8ee9fbbb7ef69193fc59ae73b3c33a7095e2d36a7d7f981739c4d",
    "o": "ba278a8c169f5a36a80f35e1a0246edb13c65b80994ed48fe9ef365604c40d64",
}


def _exact_results() -> dict[str, np.ndarray]:
    g = np.random.default_rng(1)
    ids = g.integers(0, 2**63, 5000, dtype=np.int64).astype(np.uint64) * np.uint64(2)
    counters = g.integers(0, 2**32, (500, 4), dtype=np.int64).astype(np.uint32)
    key0 = g.integers(0, 2**32, 500, dtype=np.int64).astype(np.uint32)
    positions3 = g.random((5000, 3)) * 1.4 - 0.2
    positions2 = g.random((5000, 2))
    keys = g.integers(-1, 700, 20000)
    values = g.normal(size=(20000, 2))
    sort_keys = g.integers(0, 2**40, 10000)
    return {
        "u": np.stack(xp.rng.philox_uniform2(2**64 - 7, ids, 12345)),
        "w": xp.rng.philox4x32_10(counters, key0, key0[::-1]),
        "m3": xp.algorithms.morton_keys(positions3, [0, 0, 0], [1, 1, 1], 21),
        "m2": xp.algorithms.morton_keys(positions2, [1, 0], [0, 1], 32),
        "s": xp.algorithms.segment_sum(values, keys, 700),
        "o": xp.algorithms.sort_by_key(sort_keys)[1],
    }


def test_large_results_are_bit_identical_to_cunumpy_071() -> None:
    results = _exact_results()
    digests = {
        name: hashlib.sha256(np.ascontiguousarray(array).tobytes()).hexdigest()
        for name, array in results.items()
    }
    assert digests == DIGESTS_071
