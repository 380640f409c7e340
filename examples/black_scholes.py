"""European option prices by Black-Scholes: one fused kernel, the same code on CPUs and GPUs.

A generalized kernel prices the call and the put of every option in one pass over memory,
with ``math.erf`` for the normal distribution. The same prices written as Array API
expressions (which have no ``erf``: the normal distribution is the polynomial of
Abramowitz and Stegun 26.2.17, with a branch on the sign done by ``where``) are the
reference and the baseline. For each backend the program prints the time of the first
call (which compiles the kernel), the median time of later calls of the kernel and of
the array expressions, and the largest difference between the two::

    python examples/black_scholes.py                   # NumPy, and CuPy where usable
    python examples/black_scholes.py --options 100000 --backend numpy

On CuPy the times are GPU times (``cunumpy.profiling.benchmark``).
"""

from __future__ import annotations

import argparse
import math
import time
from typing import Any

import numpy as np

import cunumpy
from cunumpy import kernels, profiling

SIGNATURES = [
    "(float64, float64)(float64, float64, float64, float64, float64)",
    "(float32, float32)(float32, float32, float32, float32, float32)",
]


@kernels.generalized("(),(),(),(),()->(),()", SIGNATURES, cpu_target="parallel")
def black_scholes(s, k, t, r, sigma, call, put):  # type: ignore[no-untyped-def]
    """Call and put prices of options on ``s`` with strike ``k`` and maturity ``t``."""
    sqrt_t = math.sqrt(t)
    d1 = (math.log(s / k) + (r + 0.5 * sigma * sigma) * t) / (sigma * sqrt_t)
    d2 = d1 - sigma * sqrt_t
    discounted = k * math.exp(-r * t)
    n1 = 0.5 * (1.0 + math.erf(d1 / math.sqrt(2.0)))
    n2 = 0.5 * (1.0 + math.erf(d2 / math.sqrt(2.0)))
    call[0] = s * n1 - discounted * n2
    put[0] = discounted * (1.0 - n2) - s * (1.0 - n1)


def normal_cdf(x: Any) -> Any:
    """The standard normal distribution function, to 7.5e-8 (Abramowitz and Stegun 26.2.17)."""
    xp = cunumpy.array_namespace(x)
    z = 1.0 / (1.0 + 0.2316419 * xp.abs(x))
    poly = z * (0.319381530 + z * (-0.356563782 + z * (1.781477937 + z * (-1.821255978 + z * 1.330274429))))  # fmt: skip
    upper = 1.0 - xp.exp(-0.5 * x * x) / math.sqrt(2.0 * math.pi) * poly
    return xp.where(x >= 0, upper, 1.0 - upper)


def black_scholes_arrays(s: Any, k: Any, t: Any, r: float, sigma: float) -> tuple[Any, Any]:
    """The same prices as Array API expressions: the reference and the baseline."""
    xp = cunumpy.array_namespace(s, k, t)
    sqrt_t = xp.sqrt(t)
    d1 = (xp.log(s / k) + (r + 0.5 * sigma * sigma) * t) / (sigma * sqrt_t)
    d2 = d1 - sigma * sqrt_t
    discounted = k * xp.exp(-r * t)
    n1, n2 = normal_cdf(d1), normal_cdf(d2)
    return s * n1 - discounted * n2, discounted * (1.0 - n2) - s * (1.0 - n1)


def market(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Spot prices, strikes and maturities (years) of ``n`` options, on the host."""
    rng = np.random.default_rng(seed)
    return rng.uniform(5.0, 30.0, n), rng.uniform(1.0, 100.0, n), rng.uniform(0.25, 10.0, n)


def run(backend: str, n: int, r: float = 0.02, sigma: float = 0.30) -> dict[str, Any]:
    """Price ``n`` options on ``backend``; returns the times and the largest difference."""
    with cunumpy.use_backend(backend):
        s, k, t = (cunumpy.asarray(a) for a in market(n))
        start = time.perf_counter()
        call, put = black_scholes(s, k, t, r, sigma)  # compiles for this backend
        cunumpy.synchronize()
        first = time.perf_counter() - start
        kernel = profiling.benchmark(black_scholes, s, k, t, r, sigma, n_repeat=10, n_warmup=1)
        arrays = profiling.benchmark(black_scholes_arrays, s, k, t, r, sigma, n_repeat=10, n_warmup=1)  # fmt: skip
        ref_call, ref_put = black_scholes_arrays(s, k, t, r, sigma)
        diff = max(
            float(cunumpy.max(cunumpy.abs(call - ref_call))),
            float(cunumpy.max(cunumpy.abs(put - ref_put))),
        )
    return {"first": first, "kernel": kernel.median, "arrays": arrays.median, "diff": diff}


def compared(kernel: float, arrays: float) -> str:
    """The kernel's time against the array expressions', as a speedup or a slowdown.

    >>> compared(1.0, 2.5)
    'kernel 2.50x faster'
    >>> compared(1.0, 0.5)
    'kernel 2.00x slower'
    """
    if kernel <= arrays:
        return f"kernel {arrays / kernel:.2f}x faster"
    return f"kernel {kernel / arrays:.2f}x slower"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--options", type=int, default=2_000_000, help="number of options")
    parser.add_argument("--backend", choices=["numpy", "cupy", "all"], default="all")
    args = parser.parse_args(argv)
    backends = ["numpy", "cupy"] if args.backend == "all" else [args.backend]
    print(f"Black-Scholes, {args.options} options (call and put), one fused kernel")
    print("=" * 60)
    failed = False
    for backend in backends:
        if backend == "cupy" and not kernels.gpu_available():
            print(f"  cupy   not run: {kernels.gpu_unavailable_reason()}")
            failed = failed or args.backend == "cupy"
            continue
        result = run(backend, args.options)
        rate = args.options / result["kernel"] / 1e6
        print(
            f"  {backend:6} first call {result['first'] * 1e3:9.1f} ms (compiles)   "
            f"kernel {result['kernel'] * 1e3:8.3f} ms ({rate:7.1f} M options/s)   "
            f"arrays {result['arrays'] * 1e3:8.3f} ms   "
            f"{compared(result['kernel'], result['arrays'])}   "
            f"max |difference| {result['diff']:.1e}"
        )
        failed = failed or not result["diff"] < 1e-4
    print("OK" if not failed else "FAILED")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
