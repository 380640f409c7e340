"""Print the result of CuNumpy 0.7.1's examples of rng, algorithms, integrate and optimize.

Run it with 0.7.1 installed and with cunumpy, and compare the outputs line by line:

    /path/to/venv071/bin/python tools/compare071_rng_algorithms.py > 071.txt
    PYTHONPATH=. python tools/compare071_rng_algorithms.py > ours.txt
    diff 071.txt ours.txt

``tests/test_compat071_rng_algorithms.py`` holds the 0.7.1 output as expected values.
"""

import numpy as np

import cunumpy as xp

EXAMPLES = {
    "philox4x32_10": "xp.rng.philox4x32_10(np.zeros(4, dtype=np.uint32), 0, 0)",
    "philox_uniform2": "xp.rng.philox_uniform2(42, xp.arange(3, dtype=xp.uint64), 0)",
    "philox_uniform": "xp.rng.philox_uniform(42, xp.arange(3, dtype=xp.uint64), 0)",
    "philox_normal2": "[z.round(12) for z in xp.rng.philox_normal2(42, xp.arange(5, dtype=xp.uint64), 3)]",
    "philox_normal_shape": "(lambda z: (z[0].shape, z[0].dtype))(xp.rng.philox_normal2(42, xp.arange(1000, dtype=xp.uint64), 0))",
    "philox_normal": "xp.rng.philox_normal(42, xp.arange(4, dtype=xp.uint64), 0).round(12)",
    "streams_repr": "(lambda s: (s.seed(42, rank=1), repr(s))[1])(xp.rng.RandomStreams())",
    "streams_uniform": "(lambda s: (s.seed(42, rank=1), s.uniform(0.0, 1.0, 3))[1])(xp.rng.RandomStreams())",
    "streams_normal": "(lambda s: (s.seed(3, rank=2, bit_generator='SFC64'), s.normal(1.0, 2.0, 4))[1])(xp.rng.RandomStreams())",
    "streams_legacy": "(lambda s: (s.seed(5, rank=0), np.random.random(2))[1])(xp.rng.RandomStreams())",
    "random_streams_seeded": "(xp.rng.random_streams.seed(42, rank=0), xp.rng.random_streams.normal(0.0, 1.0, (2, 3)))[1]",
    "get_rng": "xp.rng.get_rng(seed=7).random(2)",
    "get_rng_readme": "xp.rng.get_rng(seed=42).normal(size=1000)[:3]",
    "bit_generators": "xp.rng.BIT_GENERATORS",
    "segment_boundaries": "xp.algorithms.segment_boundaries(xp.asarray([3, 3, 5, 9, 9, 9]))",
    "cell_offsets": "xp.algorithms.cell_offsets(xp.asarray([0, 0, 2]), 3)",
    "segment_plan": "xp.algorithms.SegmentPlan(xp.asarray([0, 1, 0, -1]), 2).sum(xp.asarray([1.0, 2.0, 3.0, 4.0]))",
    "segment_sum": "xp.algorithms.segment_sum(xp.asarray([1.0, 2.0, 3.0, 4.0]), xp.asarray([0, 1, 0, -1]), 2)",
    "segment_sum_2d": "xp.algorithms.segment_sum(xp.asarray([[1, 2], [3, 4], [5, 6]]), xp.asarray([1, 1, 0]), 3)",
    "sort_by_key": "xp.algorithms.sort_by_key(xp.asarray([2, 0, 1, 0]), xp.asarray([10.0, 11.0, 12.0, 13.0]))",
    "sort_by_key_axis": "xp.algorithms.sort_by_key(xp.asarray([2, 0, 1]), xp.asarray([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), axis=-1)",
    "compact_by_mask": "(lambda x: x[:xp.algorithms.compact_by_mask(xp.asarray([True, False, True, False]), x)])(xp.asarray([1.0, 2.0, 3.0, 4.0]))",
    "morton_encode": "xp.algorithms.morton_encode(xp.asarray([1, 0, 3]), xp.asarray([0, 1, 3]))",
    "morton_encode3": "xp.algorithms.morton_encode(xp.asarray([1, 0, 3, 2097151]), xp.asarray([0, 1, 3, 5]), xp.asarray([1, 1, 0, 7]))",
    "morton_decode": "xp.algorithms.morton_decode(xp.asarray([1, 2, 15], dtype=np.uint64), 2)",
    "morton_scales": "xp.algorithms.morton_scales([0.0, 0.0], [1.0, 2.0], 4)",
    "morton_keys": "xp.algorithms.morton_keys(xp.asarray([[0.1, 0.1], [0.9, 0.1], [0.9, 0.9]]), [0.0, 0.0], [1.0, 1.0], levels=2)",
    "morton_keys3": "xp.algorithms.morton_keys(xp.asarray([[0.1, 0.2, 0.3], [1.5, -0.1, 0.5], [0.25, 0.5, 0.75]]), [0.0, 0.0, 0.0], [1.0, 1.0, 1.0], levels=5)",
    "max_levels": "xp.algorithms.MAX_MORTON_LEVELS",
    "newton": "(lambda s: xp.optimize.newton(lambda x: x**2 - s, xp.ones(3), fprime=lambda x: 2 * x))(xp.asarray([2.0, 3.0, 4.0]))",
    "secant": "(lambda s: xp.optimize.newton(lambda x: x**3 - s, xp.ones(3)))(xp.asarray([2.0, 3.0, 4.0]))",
    "newton_full": "tuple(xp.optimize.newton(lambda x: x**2 - 4.0, xp.asarray([1.0, 3.0]), fprime=lambda x: 2 * x, full_output=True))",
    "fsolve": "xp.optimize.fsolve(lambda x: x**2 - xp.asarray([4.0, 9.0]), xp.ones(2))",
    "root": "(lambda r: (r.success, r.x))(xp.optimize.root(lambda x: x**3 - 8.0, xp.ones(1)))",
    "minimize": "bool(xp.allclose(xp.optimize.minimize(lambda x: xp.sum((x - 1.0) ** 2), xp.zeros(2)).x, 1.0, atol=1e-6))",
    "quad": "round(xp.integrate.quad(lambda x: x**2, 0.0, 3.0)[0], 12)",
    "odeint": "bool(xp.allclose(xp.integrate.odeint(lambda y, t: -y, xp.ones(1), xp.asarray([0.0, 1.0]))[-1], np.exp(-1.0), rtol=1e-6))",
}

for name, code in EXAMPLES.items():
    try:
        print(f"{name}: {eval(code, {'xp': xp, 'np': np})!r}")
    except Exception as exc:  # report, don't stop
        print(f"{name}: ERROR {type(exc).__name__}: {exc}")
