"""Tests of cunumpy.rng: Philox4x32-10 against Random123's known answers, streams, get_rng.

The known-answer vectors are the three ``philox4x32 10`` lines of Random123's
``kat_vectors`` file (counter words, key words, expected words). The other Philox tests
compare with ``_reference_philox``, a scalar Python version written here from the
published algorithm. GPU tests check that CuPy gives the same bits as NumPy.
"""

from __future__ import annotations

import numpy as np
import pytest

import cunumpy
from cunumpy import rng
from cunumpy._placement._transfer_log import listening

# Random123 kat_vectors, "philox4x32 10": counter[4], key[2] -> output[4].
KNOWN_ANSWERS = [
    ((0, 0, 0, 0), (0, 0), (0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8)),
    (
        (0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF),
        (0xFFFFFFFF, 0xFFFFFFFF),
        (0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD),
    ),
    (
        (0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344),
        (0xA4093822, 0x299F31D0),
        (0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1),
    ),
]


def _reference_philox(counter: tuple[int, ...], key: tuple[int, int]) -> tuple[int, ...]:
    """Philox4x32-10 on Python ints, one block at a time."""
    mask = 0xFFFFFFFF
    c0, c1, c2, c3 = counter
    k0, k1 = key
    for _ in range(10):
        hi0, lo0 = divmod(0xD2511F53 * c0, 2**32)
        hi1, lo1 = divmod(0xCD9E8D57 * c2, 2**32)
        c0, c1, c2, c3 = hi1 ^ c1 ^ k0, lo1, hi0 ^ c3 ^ k1, lo0
        k0, k1 = (k0 + 0x9E3779B9) & mask, (k1 + 0xBB67AE85) & mask
    return c0, c1, c2, c3


def _reference_uniform(seed: int, stream: int, counter: int) -> tuple[float, float]:
    words = _reference_philox(
        (counter % 2**32, counter >> 32, stream % 2**32, stream >> 32), (seed % 2**32, seed >> 32)
    )
    first = ((words[0] << 32) | words[1]) >> 11
    second = ((words[2] << 32) | words[3]) >> 11
    return first / 2**53, second / 2**53


@pytest.mark.parametrize(("counter", "key", "expected"), KNOWN_ANSWERS)
def test_philox4x32_10_gives_the_published_known_answers(counter, key, expected) -> None:
    words = rng.philox4x32_10(np.asarray(counter, dtype=np.uint32), key[0], key[1])
    assert words.dtype == np.uint32
    assert words.tolist() == list(expected)


def test_the_reference_gives_the_published_known_answers() -> None:
    for counter, key, expected in KNOWN_ANSWERS:
        assert _reference_philox(counter, key) == expected


def test_philox4x32_10_broadcasts_blocks_and_keys() -> None:
    counters = np.asarray([answer[0] for answer in KNOWN_ANSWERS], dtype=np.uint32)
    keys = np.asarray([answer[1] for answer in KNOWN_ANSWERS], dtype=np.uint32)
    words = rng.philox4x32_10(counters, keys[:, 0], keys[:, 1])
    assert words.shape == (3, 4)
    assert words.tolist() == [list(answer[2]) for answer in KNOWN_ANSWERS]
    grid = rng.philox4x32_10(np.zeros((2, 5, 4), dtype=np.uint64), 7, 9)
    assert grid.shape == (2, 5, 4)
    assert (grid == grid[0, 0]).all()


def test_philox_uniform2_matches_the_reference_for_wide_seeds_and_streams() -> None:
    seeds = [0, 42, 2**40 + 3, 2**64 - 1]
    streams = np.asarray([0, 1, 2**33 + 5, 2**64 - 2], dtype=np.uint64)
    counters = np.asarray([0, 7, 2**35, 2**63], dtype=np.uint64)
    for seed in seeds:
        u0, u1 = rng.philox_uniform2(seed, streams, counters)
        expected = [_reference_uniform(seed, int(s), int(c)) for s, c in zip(streams, counters)]
        assert u0.tolist() == [pair[0] for pair in expected]
        assert u1.tolist() == [pair[1] for pair in expected]
        assert rng.philox_uniform(seed, streams, counters).tolist() == u0.tolist()


def test_philox_uniform_is_in_the_unit_interval_and_looks_uniform() -> None:
    u0, u1 = rng.philox_uniform2(1, np.arange(100_000, dtype=np.uint64), 3)
    both = np.concatenate([u0, u1])
    assert both.min() >= 0.0
    assert both.max() < 1.0
    assert abs(both.mean() - 0.5) < 0.005
    assert abs(both.var() - 1 / 12) < 0.002
    histogram = np.histogram(both, bins=10, range=(0.0, 1.0))[0]
    assert (abs(histogram / both.size - 0.1) < 0.005).all()


def test_philox_normal2_is_box_muller_of_the_uniforms() -> None:
    ids = np.arange(50, dtype=np.uint64)
    u0, u1 = rng.philox_uniform2(9, ids, 4)
    z0, z1 = rng.philox_normal2(9, ids, 4)
    radius = np.sqrt(-2.0 * np.log1p(-u0))
    np.testing.assert_allclose(z0, radius * np.cos(2 * np.pi * u1), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(z1, radius * np.sin(2 * np.pi * u1), rtol=1e-12, atol=1e-14)
    np.testing.assert_array_equal(rng.philox_normal(9, ids, 4), z0)


def test_philox_normal_has_unit_moments() -> None:
    z0, z1 = rng.philox_normal2(2024, np.arange(200_000, dtype=np.uint64), 0)
    both = np.concatenate([z0, z1])
    assert abs(both.mean()) < 0.01
    assert abs(both.std() - 1.0) < 0.01
    assert abs(np.corrcoef(z0, z1)[0, 1]) < 0.01


def test_philox_python_ints_give_numpy_and_differ_per_argument() -> None:
    value = rng.philox_uniform(1, 2, 3)
    assert isinstance(value, np.float64)  # as 0.7.1: a NumPy scalar for Python ints
    assert value == _reference_uniform(1, 2, 3)[0]
    others = {float(rng.philox_uniform(*args)) for args in ((2, 2, 3), (1, 3, 3), (1, 2, 4))}
    assert float(value) not in others
    assert len(others) == 3


@pytest.mark.parametrize(
    ("args", "error", "match"),
    [
        ((-1, 0, 0), ValueError, "`seed` must be an integer in"),
        ((0, 2**64, 0), ValueError, "`stream` must be an integer in"),
        ((0, 0, 1.5), TypeError, "`counter` must be integers"),
        ((0, np.zeros(3), 0), TypeError, "`stream` must have an integer dtype"),
        ((True, 0, 0), ValueError, "`seed` must be an integer"),
    ],
)
def test_philox_uniform_rejects_bad_arguments(args, error, match) -> None:
    with pytest.raises(error, match=match):
        rng.philox_uniform2(*args)


def test_philox4x32_10_rejects_a_counter_without_four_words() -> None:
    with pytest.raises(ValueError, match=r"philox4x32_10: `counter` must have shape \(\.\.\., 4\)"):
        rng.philox4x32_10(np.zeros(3, dtype=np.uint32), 0, 0)
    with pytest.raises(ValueError, match="`key0` must be an integer in"):
        rng.philox4x32_10(np.zeros(4, dtype=np.uint32), 2**32, 0)


# --- streams and generators ---------------------------------------------------------------


def test_random_streams_reproduce_a_seed_and_rank() -> None:
    first, second = rng.RandomStreams(), rng.RandomStreams()
    first.seed(11, rank=3)
    second.seed(11, rank=3)
    np.testing.assert_array_equal(first.random(5), second.random(5))
    np.testing.assert_array_equal(first.normal(1.0, 2.0, (2, 2)), second.normal(1.0, 2.0, (2, 2)))


def test_random_streams_of_ranks_are_the_seed_sequence_children() -> None:
    streams = rng.RandomStreams()
    draws = []
    for rank in range(3):
        streams.seed(5, rank=rank)
        draws.append(streams.random(4))
        child = np.random.SeedSequence(5, spawn_key=(rank, 0))
        np.testing.assert_array_equal(
            draws[-1], np.random.Generator(np.random.PCG64(child)).random(4)
        )
    assert not np.array_equal(draws[0], draws[1])
    assert not np.array_equal(draws[1], draws[2])


def test_random_streams_bit_generator_and_repr() -> None:
    streams = rng.RandomStreams()
    assert repr(streams) == "RandomStreams(not seeded)"
    streams.seed(8, rank=2, bit_generator="Philox")
    assert repr(streams) == "RandomStreams(entropy=8, spawn_key=(2,), bit_generator='Philox')"
    assert isinstance(streams.generator().bit_generator, np.random.Philox)
    with pytest.raises(ValueError, match="unknown `bit_generator` 'Mersenne'"):
        streams.seed(8, bit_generator="Mersenne")
    with pytest.raises(ValueError, match="must be non-negative"):
        streams.seed(8, rank=-1)


def test_random_streams_seed_the_global_numpy_state_and_replace_generators() -> None:
    """0.7.1 documents that ``seed`` also seeds ``numpy.random``'s global state."""
    saved = np.random.get_state()  # noqa: NPY002
    try:
        streams = rng.RandomStreams()
        streams.seed(4)
        generator = streams.generator()
        first = np.random.random(3)  # noqa: NPY002
        streams.seed(4)
        assert streams.generator() is not generator
        np.testing.assert_array_equal(np.random.random(3), first)  # noqa: NPY002
    finally:
        np.random.set_state(saved)  # noqa: NPY002


def test_random_streams_generator_checks_the_backend_name() -> None:
    streams = rng.RandomStreams()
    with pytest.raises(ValueError, match="`backend` must be 'numpy', 'cupy' or None, not 'torch'"):
        streams.generator("torch")
    assert streams.make_generator(None, "numpy") is streams.generator("numpy")
    np.testing.assert_array_equal(
        streams.make_generator(3, "numpy").random(2), np.random.default_rng(3).random(2)
    )


def test_unseeded_streams_draw_fresh_entropy() -> None:
    assert not np.array_equal(rng.RandomStreams().random(4), rng.RandomStreams().random(4))


def test_draw_methods_fall_back_for_generators_without_them() -> None:
    class Minimal:
        def __init__(self) -> None:
            self.inner = np.random.default_rng(0)

        def random(self, size=None):
            return self.inner.random(size=size)

        def standard_normal(self, size=None):
            return self.inner.standard_normal(size=size)

    streams = rng.RandomStreams()
    uniform = streams.uniform(2.0, 4.0, 3, rng=Minimal())
    np.testing.assert_array_equal(uniform, 2.0 + 2.0 * np.random.default_rng(0).random(3))
    normal = streams.normal(1.0, 3.0, 3, rng=Minimal())
    np.testing.assert_array_equal(normal, 1.0 + 3.0 * np.random.default_rng(0).standard_normal(3))


def test_get_rng_is_numpy_default_rng_on_the_numpy_backend() -> None:
    generator = rng.get_rng(seed=42)
    assert isinstance(generator, np.random.Generator)
    np.testing.assert_array_equal(
        generator.normal(size=5), np.random.default_rng(42).normal(size=5)
    )


@pytest.mark.skipif(cunumpy.cupy_available(), reason="checks the error without a usable GPU")
def test_cupy_generators_without_a_gpu_raise_with_the_reason() -> None:
    with pytest.raises(RuntimeError, match=r"RandomStreams\.generator"):
        rng.RandomStreams().generator("cupy")


def test_rng_is_a_lazy_top_level_submodule_with_exactly_its_names() -> None:
    assert cunumpy.rng is rng
    assert dir(rng) == sorted(rng.__all__)
    assert "rng" in cunumpy.__all__


# --- CuPy: the same bits ------------------------------------------------------------------


@pytest.mark.gpu
def test_philox_on_cupy_gives_the_known_answers_and_numpy_bits() -> None:
    import cupy

    for counter, key, expected in KNOWN_ANSWERS:
        words = rng.philox4x32_10(cupy.asarray(counter, dtype=cupy.uint32), *key)
        assert isinstance(words, cupy.ndarray)
        assert words.get().tolist() == list(expected)
    ids = np.arange(10_000, dtype=np.uint64) * np.uint64(2**31 + 1)
    for host, device in zip(
        rng.philox_uniform2(2**63 + 5, ids, 17),
        rng.philox_uniform2(2**63 + 5, cupy.asarray(ids), 17),
    ):
        np.testing.assert_array_equal(host, device.get())
    for host, device in zip(
        rng.philox_normal2(3, ids, 1), rng.philox_normal2(3, cupy.asarray(ids), 1)
    ):
        np.testing.assert_allclose(host, device.get(), rtol=1e-13, atol=1e-13)


@pytest.mark.gpu
def test_cupy_generators_and_streams() -> None:
    import cupy

    with cunumpy.use_backend("cupy"):
        assert isinstance(rng.get_rng(1).random(2), cupy.ndarray)
        streams = rng.RandomStreams()
        streams.seed(1, rank=1)
        first = streams.random(4)
        assert isinstance(first, cupy.ndarray)
        streams.seed(1, rank=1)
        cupy.testing.assert_array_equal(streams.random(4), first)
    with pytest.raises(TypeError, match="mix a NumPy array and a CuPy array"):
        rng.philox_uniform(np.arange(2, dtype=np.uint64), cupy.arange(2, dtype=cupy.uint64), 0)


@pytest.mark.gpu
def test_cupy_generators_and_streams_draw_normal_on_the_gpu() -> None:
    # GPU run 2: CuPy 14's Generator has no normal; get_rng and RandomStreams add it (on
    # the GPU, from standard_normal), fixed on a CPU and rerun here.
    import cupy

    with cunumpy.use_backend("cupy"):
        samples = rng.get_rng(7).normal(2.0, 0.5, size=100_000)
        assert isinstance(samples, cupy.ndarray)
        cupy.testing.assert_array_equal(samples, rng.get_rng(7).normal(2.0, 0.5, size=100_000))
        assert abs(float(samples.mean()) - 2.0) < 0.01
        assert abs(float(samples.std()) - 0.5) < 0.01
        streams = rng.RandomStreams()
        streams.seed(3, rank=0)
        first = streams.normal(1.0, 3.0, 4)
        assert isinstance(first, cupy.ndarray)
        streams.seed(3, rank=0)
        cupy.testing.assert_array_equal(streams.normal(1.0, 3.0, 4), first)


def test_philox_notes_no_transfer_on_numpy() -> None:
    seen: list[str] = []
    with listening(lambda kind, *rest: seen.append(kind)):
        rng.philox_normal2(1, np.arange(4, dtype=np.uint64), 0)
    assert seen == []


def test_get_rng_gives_normal_where_the_device_generator_lacks_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """CuPy 14's Generator has no ``normal`` (found on an H200): get_rng adds NumPy's."""
    from types import SimpleNamespace

    from cunumpy.rng import _random_streams as _streams

    class Bare:  # standard_normal only, as cupy.random.Generator
        def __init__(self, seed: int) -> None:
            self.rng = np.random.default_rng(seed)

        def standard_normal(self, size: object = None, dtype: object = np.float64) -> object:
            return self.rng.standard_normal(size, dtype)

    library = SimpleNamespace(random=SimpleNamespace(default_rng=Bare), __name__="cupy")
    monkeypatch.setattr(_streams, "_cupy", lambda func: library)
    monkeypatch.setattr(_streams, "get_backend", lambda: "cupy")
    samples = _streams.get_rng(42).normal(5.0, 2.0, size=1000)
    expected = 5.0 + 2.0 * np.random.default_rng(42).standard_normal(1000)
    np.testing.assert_array_equal(samples, expected)
    assert not hasattr(Bare(0), "normal")
