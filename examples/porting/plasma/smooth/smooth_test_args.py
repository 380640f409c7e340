"""The parity test's arguments of ``smooth``: the same data on each backend."""

import numpy as np

import cunumpy as xp

N_THREADS = 1000
RTOL = 1e-14


def make_args(backend, seed):
    device = "cpu" if backend == "numpy" else "cuda"
    u = xp.asarray(np.random.default_rng(seed).random(1000), device=device)
    return (u, xp.zeros(1000, device=device), 1000)
