"""The parity test's arguments of ``count``."""

import numpy as np

import cunumpy as xp

N_THREADS = 1000


def make_args(backend, seed):
    bins = np.random.default_rng(seed).integers(0, 16, 1000).astype(np.int32)
    device = "cpu" if backend == "numpy" else "cuda"
    return (xp.asarray(bins, device=device), xp.zeros(16, dtype=xp.int32, device=device), 1000)
