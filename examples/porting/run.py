"""A time loop whose kernels run where the data is: the same program on NumPy and CuPy.

python examples/porting/run.py                           # NumPy (the host kernels)
CUNUMPY_BACKEND=cupy python examples/porting/run.py      # a GPU: the CUDA ports
CUNUMPY_FAKE_CUPY=1 CUNUMPY_BACKEND=cupy python examples/porting/run.py  # CPU CI, emulated
"""

import warnings

import numpy as np
from plasma import catalog

import cunumpy as xp


def run(steps: int = 20, n: int = 200) -> float:
    """Smooth a noisy profile ``steps`` times; return its energy."""
    u = xp.asarray(
        np.random.default_rng(0).random(n), device=xp.__array_namespace_info__().default_device()
    )
    out = xp.zeros_like(u)
    total = xp.zeros(1, dtype=u.dtype, device=xp.device(u))
    for _ in range(steps):
        catalog["smooth"](u, out, n, n_threads=n)
        u, out = out, u
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # energy is not ported yet: a fallback
        catalog["energy"](u, total, n)
    return float(xp.to_numpy(total)[0])


if __name__ == "__main__":
    print(catalog)
    print(f"backend {xp.get_backend()}: energy {run():.12f}")
