"""CUDA sources the GPU tests launch; ``test_cuda_sources.py`` compiles them on every machine.

``SLOW_FILL`` is the long kernel of the stream-ordering tests: it spins for a given
number of nanoseconds (on the GPU's global timer) before it writes ``value`` to every
element. Work that is wrongly not ordered after it sees the old contents. ``SPIN`` only
spins, for the timing tests of ``cunumpy.profiling``. Both wait on the global timer, not
on clock cycles, so their duration does not depend on the clock the GPU runs at.
"""

from __future__ import annotations

from typing import Any

__all__ = ["SLOW_FILL", "SLOW_FILL_NAME", "SPIN", "SPIN_NAME", "slow_fill"]

SLOW_FILL_NAME = "cunumpy_test_slow_fill"

SLOW_FILL = r"""
extern "C" __global__ void cunumpy_test_slow_fill(
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

SPIN_NAME = "cunumpy_test_spin"

SPIN = r"""
extern "C" __global__ void cunumpy_test_spin(unsigned long long delay_ns) {
    unsigned long long start, now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
    now = start;
    long long first_cycle = clock64();
    while (now - start < delay_ns && clock64() - first_cycle < 20000000000LL) {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    }
}
"""

_kernels: dict[int, Any] = {}


def slow_fill(x: Any, value: float, delay_s: float = 0.2) -> None:
    """Queue, on the current stream, a kernel that waits ``delay_s`` and then fills ``x``.

    ``x`` is a C-contiguous float64 CuPy array on the current GPU.
    """
    import cupy
    import numpy as np

    assert x.dtype == np.float64 and x.flags.c_contiguous, (x.dtype, x.flags)
    device = int(cupy.cuda.runtime.getDevice())
    assert x.device.id == device, (x.device.id, device)
    kernel = _kernels.get(device)
    if kernel is None:
        kernel = _kernels[device] = cupy.RawKernel(SLOW_FILL, SLOW_FILL_NAME)
    args = (x, np.int64(x.size), np.float64(value), np.uint64(int(delay_s * 1e9)))
    kernel((4,), (256,), args)
