"""The parity test's arguments of ``scale``."""

import numpy as np

import cunumpy as xp

N_THREADS = 300
OUTPUTS = ("out",)


def make_args(backend, seed):
    device = "cpu" if backend == "numpy" else "cuda"
    x = xp.asarray(np.random.default_rng(seed).random(300), device=device)
    return (x, 1.5, xp.zeros_like(x), 300)
