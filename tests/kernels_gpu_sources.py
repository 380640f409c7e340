"""CUDA C sources of the kernel tests: compiled for sm_90 on every machine, launched on GPUs.

``SLOW_FILL`` waits a given number of nanoseconds (on the GPU's global timer, so the
wait does not depend on the clock speed) and then writes ``value`` to every element.
Work that is wrongly not ordered after it on a stream reads the old contents.
``test_kernels_cuda_c.py`` compiles every source here (and those of the docs, examples
and docstrings) with ``tests/cuda_compile.py``.
"""

from __future__ import annotations

from typing import Any

__all__ = ["SLOW_FILL", "SLOW_FILL_NAME", "slow_fill"]

SLOW_FILL_NAME = "cunumpy_kernels_slow_fill"

SLOW_FILL = r"""
extern "C" __global__ void cunumpy_kernels_slow_fill(
        double* out, long long n, double value, unsigned long long delay_ns) {
    unsigned long long start, now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
    now = start;
    long long first_cycle = clock64();
    // The cycle bound (about 10 s at 2 GHz) only guards against a timer that never moves.
    while (now - start < delay_ns && clock64() - first_cycle < 20000000000LL) {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    }
    long long stride = (long long)blockDim.x * gridDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        out[i] = value;
    }
}
"""

_compiled: dict[int, Any] = {}


def slow_fill(x: Any, value: float, delay_s: float = 0.2) -> None:
    """Queue on the current stream a kernel that waits ``delay_s``, then fills ``x`` with ``value``.

    ``x`` is a C-contiguous float64 CuPy array on the current GPU.
    """
    import cupy
    import numpy as np

    device = int(cupy.cuda.runtime.getDevice())
    kernel = _compiled.get(device)
    if kernel is None:
        kernel = _compiled[device] = cupy.RawKernel(SLOW_FILL, SLOW_FILL_NAME)
    assert x.dtype == np.float64 and x.flags.c_contiguous
    args = (x, np.int64(x.size), np.float64(value), np.uint64(int(delay_s * 1e9)))
    kernel((1,), (256,), args)
