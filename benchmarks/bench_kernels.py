"""Portable kernels against array expressions: ``exp(-a*x) * sin(b*x) + c*y`` fused in one kernel.

CPU, over 10^7 ``float64``: the portable kernel on Numba's ``parallel`` target against the
same NumPy expression (bound: at least 2x faster), and, for information, the ``cpu``
target. The detail gives the kernel's memory traffic (two arrays read, one written)
against the copy bandwidth measured here (``numpy.copyto``), the threads and the load of
the machine: the figure needs idle cores, and a busy shared machine shows it in the spread.

GPU, when CuPy is usable, same size: the portable kernel on CuPy arrays against a CuPy
``ElementwiseKernel`` with the same body in CUDA C (bound: at least 0.9x its speed) and
against the CuPy expression (bound: at least 1.5x faster). The bounds apply to
*pipelined* times (20 calls back to back between two synchronizations: the steady state
of a program that queues work ahead of the GPU); the *per-call* ratio (each call
synchronized alone, so host launch costs count) is given for information, and so is the
host's time to queue a portable kernel against its pipelined time (near 1: the launch
path, not the GPU, sets the pace; the first GPU run, an H200, measured the portable
kernel at 0.228 of the ElementwiseKernel's speed, pipelined).

Host time to queue one call (the GPU idle at the start of each batch of 20, no
synchronization inside it): the portable kernel against the ``ElementwiseKernel`` (bound:
at most 2x), and, as numba-cuda's own floor, a bare ``numba.cuda.jit`` kernel with the
same body on the same arrays (Numba device arrays made once; and CuPy arrays, Numba's
usual path), and numba-cuda's lowest launch call alone (``cuda.core``'s ``launch`` with a
prepared argument list). The detail then splits one portable call into its stages
(checks and loop choice, device and stream, operands and views, the launch, its argument
list), host time per call each, and lists a ``cProfile`` of 200 calls. Without a GPU the
GPU figures are skipped with CuPy's reason.

Run: ``python benchmarks/bench_kernels.py [--quick | --full]`` (or ``python -m benchmarks``).
"""

from __future__ import annotations

import functools
import math
import os
import statistics
import sys
import time
from typing import Any

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
import cunumpy
from benchmarks._harness import (
    Check,
    Mode,
    Progress,
    Result,
    Skipped,
    interleaved_times,
    main,
)
from cunumpy import kernels, profiling

TITLE = "Fused portable kernel against NumPy, CuPy ElementwiseKernel and CuPy expressions"
NEEDS: tuple[str, ...] = ("numba",)

A, B, C = 0.5, 3.0, 0.25
SIZE = 10**7
CPU_BOUND = 2.0
GPU_BOUND_VS_ELEMENTWISE = 0.9
GPU_BOUND_VS_EXPRESSION = 1.5
HOST_BOUND_VS_ELEMENTWISE = 2.0
SIGNATURE = "float64(float64, float64, float64, float64, float64)"
WAVE_CUDA_C = "z = exp(-a * x) * sin(b * x) + c * y"


def _wave(x, y, a, b, c):  # type: ignore[no-untyped-def]
    return math.exp(-a * x) * math.sin(b * x) + c * y


@functools.cache
def wave_kernels() -> tuple[Any, Any]:
    """The fused kernel on the ``parallel`` and ``cpu`` targets, made on first use, so
    that importing this module (to read ``TITLE``) needs no Numba."""
    return (
        kernels.elementwise([SIGNATURE], cpu_target="parallel")(_wave),
        kernels.elementwise([SIGNATURE], cpu_target="cpu")(_wave),
    )


def expression(x: Any, y: Any, a: float, b: float, c: float) -> Any:
    """The same computation as array expressions, in the namespace of the arrays."""
    xp = cunumpy.array_namespace(x, y)
    return xp.exp(-a * x) * xp.sin(b * x) + c * y


def _ratios(times: dict[str, list[float]], numerator: str, denominator: str) -> tuple[float, ...]:
    return tuple(n / d for n, d in zip(times[numerator], times[denominator]))


def host_times(
    runs: dict[str, Any], *, number: int, repeat: int, sync: Any
) -> dict[str, list[float]]:
    """Host seconds to queue one call of each run: ``sync`` (untimed), then ``number``
    calls timed without synchronizing; the runs interleaved, rotated per repeat."""
    times = interleaved_times(runs, number=number, repeat=repeat, sync=sync, sync_after=False)
    sync()
    return times


@functools.cache
def _bare_numba_kernel() -> Any:
    """The same body as a bare ``numba.cuda.jit`` kernel (a grid-stride loop)."""
    from numba import cuda

    @cuda.jit
    def bare(out, x, y, a, b, c):  # type: ignore[no-untyped-def]
        start, step = cuda.grid(1), cuda.gridsize(1)  # type: ignore[call-arg, var-annotated]
        for i in range(start, out.shape[0], step):
            out[i] = math.exp(-a * x[i]) * math.sin(b * x[i]) + c * y[i]

    return bare


def _numba_cuda_launch_shape(size: int) -> tuple[Any, ...]:
    """The grid and block of the portable kernel's one-dimensional launch over ``size``."""
    from cunumpy.kernels._portable import _numba_cuda

    return _numba_cuda._launch_shape((size,), False)


def launch_stages(
    kernel: Any, args: tuple[Any, ...], elementwise: Any, repeat: int, progress: Progress
) -> tuple[dict[str, list[float]], str]:
    """Host time per call of each stage of one portable call, and of the floors."""
    import cProfile
    import io
    import pstats

    import cupy
    from numba import cuda

    from cunumpy.kernels._portable import _numba_cuda

    progress.step("GPU: the launch path stage by stage, host time per call")
    stream = cupy.cuda.get_current_stream()
    where, loop, _, shape = kernel._prepare(args, None, None)
    loops = kernel._cuda_loops()
    captured: dict[str, Any] = {}
    launch = loops._launch

    def capture(*call: Any) -> None:
        captured["call"] = call
        launch(*call)

    loops._launch = capture  # one call through the instance, to read what it launches
    try:
        kernel(*args)
        kernel(*args)
    finally:
        del loops._launch
    compiled, _, _, memory, dims, launch_args, views = captured["call"]
    launcher = loops._launchers.get((compiled, memory.device, *(v.key for v in views)))
    if not launcher:
        msg = "bench_kernels: the portable kernel has no fast launcher (Numba launches it)"
        raise RuntimeError(msg)
    grid, block = _numba_cuda._launch_shape(dims, False)
    core_stream = memory.stream()
    kernel_args = launcher.arguments(launch_args)
    config = launcher._config(grid, block)
    out = cupy.empty(shape)
    bare = _bare_numba_kernel()
    nb_stream = cuda.external_stream(stream.ptr)
    configured = bare[grid, block, nb_stream]
    device = tuple(cuda.as_cuda_array(a, sync=False) for a in (out, args[0], args[1]))
    scalars = args[2:]
    runs = {
        "portable kernel, whole call": lambda: kernel(*args),
        "ElementwiseKernel": lambda: elementwise(*args),
        "numba.cuda.jit, Numba device arrays": lambda: configured(*device, *scalars),
        "numba.cuda.jit, CuPy arrays": lambda: bare[grid, block, nb_stream](
            out, args[0], args[1], *scalars
        ),
        "cuda.core launch alone": lambda: launcher._launch(
            core_stream, config, launcher._function, *kernel_args
        ),
        "1 checks, loop choice": lambda: kernel._prepare(args, None, None),
        "2 device and stream": lambda: _enter(kernel._on_gpu(where, None, args)),
        "3+4 operands, views, launch": lambda: loops.run_elementwise(
            loop, args, None, shape, memory
        ),
        "4 launch (Launcher)": lambda: launcher(grid, block, core_stream, launch_args),
        "4a its argument list": lambda: launcher.arguments(launch_args),
    }
    times = host_times(runs, number=20, repeat=repeat, sync=stream.synchronize)
    profile = cProfile.Profile()
    profile.enable()
    for _ in range(200):
        kernel(*args)
    profile.disable()
    stream.synchronize()
    text = io.StringIO()
    pstats.Stats(profile, stream=text).sort_stats("tottime").print_stats(15)
    med = {label: statistics.median(t) * 1e6 for label, t in times.items()}
    lines = [f"  {label:<40}{us:9.1f} us" for label, us in med.items()]
    lines.insert(5, "  stages of one portable call:")
    table = (
        "host time to queue one call (median of the rounds; 20 calls per round, the GPU idle "
        "at the start):\n"
        + "\n".join(lines)
        + "\ncProfile of 200 portable calls (tottime):\n"
        + "\n".join(text.getvalue().splitlines()[:40])
    )
    return times, table


def _enter(manager: Any) -> None:
    with manager:
        pass


def measure_cpu(size: int, repeat: int, progress: Progress) -> list[Result]:
    import numba

    progress.step(f"CPU: compiling the kernels, then {repeat} interleaved rounds over {size}")
    wave_parallel, wave_serial = wave_kernels()
    rng = np.random.default_rng(0)
    x, y = rng.random(size), rng.random(size)
    start = time.perf_counter()
    result = wave_parallel(x, y, A, B, C)
    compile_s = time.perf_counter() - start
    np.testing.assert_allclose(result, expression(x, y, A, B, C), rtol=1e-12)
    copy_out = np.empty_like(x)
    times = interleaved_times(
        {
            "numpy": lambda: expression(x, y, A, B, C),
            "parallel": lambda: wave_parallel(x, y, A, B, C),
            "cpu": lambda: wave_serial(x, y, A, B, C),
            "copy": lambda: np.copyto(copy_out, x),
        },
        number=1,
        repeat=repeat,
    )
    med = {label: statistics.median(t) for label, t in times.items()}
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    copy_bw = 2 * 8 * size / med["copy"]
    kernel_bw = 3 * 8 * size / med["parallel"]
    progress.detail(
        f"CPU: {size} float64; Numba {numba.__version__}, {numba.get_num_threads()} threads "
        f"({numba.threading_layer()}), {os.cpu_count()} CPUs, load average {load:.2f}\n"
        f"  first call of the parallel kernel (compiles): {compile_s * 1e3:.0f} ms\n"
        f"  median: NumPy expression {med['numpy'] * 1e3:.1f} ms, parallel kernel "
        f"{med['parallel'] * 1e3:.1f} ms, cpu kernel {med['cpu'] * 1e3:.1f} ms\n"
        f"  memory traffic: kernel {3 * 8 * size / 1e9:.2f} GB at {kernel_bw / 1e9:.1f} GB/s = "
        f"{100 * kernel_bw / copy_bw:.0f}% of the copy bandwidth ({copy_bw / 1e9:.1f} GB/s); "
        f"the NumPy expression moves {16 * 8 * size / 1e9:.2f} GB (7 passes)"
    )
    return [
        Check(
            f"NumPy / parallel kernel time, {size:.0e} float64",
            _ratios(times, "numpy", "parallel"),
            bound=CPU_BOUND,
            higher_is_better=True,
        ),
        Check(f"NumPy / cpu-target kernel time, {size:.0e}", _ratios(times, "numpy", "cpu")),
        Check(
            "parallel kernel bandwidth / copy bandwidth",
            tuple((3 * c) / (2 * p) for c, p in zip(times["copy"], times["parallel"])),
        ),
    ]


def measure_gpu(size: int, repeat: int, progress: Progress) -> list[Result]:
    reason = kernels.gpu_unavailable_reason()
    if reason is not None:
        return [Skipped("GPU figures", reason)]
    import cupy

    progress.step(f"GPU: compiling, then {repeat} rounds, per call and pipelined, over {size}")
    wave_parallel, _ = wave_kernels()
    with cunumpy.use_backend("cupy"):
        x = cupy.random.default_rng(0).random(size)
        y = cupy.random.default_rng(1).random(size)
        elementwise = cupy.ElementwiseKernel(
            "float64 x, float64 y, float64 a, float64 b, float64 c", "float64 z", WAVE_CUDA_C,
            "cunumpy_bench_wave",
        )  # fmt: skip
        stream = cupy.cuda.get_current_stream()
        start = time.perf_counter()
        result = wave_parallel(x, y, A, B, C)
        stream.synchronize()
        compile_s = time.perf_counter() - start
        assert float(cupy.abs(result - elementwise(x, y, A, B, C)).max()) < 1e-12
        from numba import cuda

        grid, block = _numba_cuda_launch_shape(size)
        bare = _bare_numba_kernel()[grid, block, cuda.external_stream(stream.ptr)]
        numba_out = cupy.empty_like(x)
        numba_arrays = tuple(cuda.as_cuda_array(a, sync=False) for a in (numba_out, x, y))
        runs = {
            "expression": lambda: expression(x, y, A, B, C),
            "elementwise": lambda: elementwise(x, y, A, B, C),
            "portable": lambda: wave_parallel(x, y, A, B, C),
            "numba": lambda: bare(*numba_arrays, A, B, C),
        }
        piped = interleaved_times(runs, number=20, repeat=repeat, sync=stream.synchronize)
        single = interleaved_times(runs, number=1, repeat=repeat * 5, sync=stream.synchronize)
        # The host's time to queue a call (no synchronization): near the pipelined time, the
        # launch path bounds the kernel, not the GPU (the first GPU run's open question).
        queued = interleaved_times(
            {key: runs[key] for key in ("elementwise", "portable")}, number=20, repeat=repeat
        )
        stream.synchronize()
        try:
            stages, stage_table = launch_stages(
                wave_parallel, (x, y, A, B, C), elementwise, repeat, progress
            )
        except Exception as exc:  # reported in the table, the other figures kept
            import traceback

            progress.detail(traceback.format_exc())
            stages, stage_table = {}, f"launch stages: failed ({exc!r})"
    name = cupy.cuda.runtime.getDeviceProperties(cupy.cuda.Device().id)["name"].decode()
    med = {label: statistics.median(t) for label, t in piped.items()}
    progress.detail(
        f"GPU: {size} float64 on {name}, CuPy {cupy.__version__}\n"
        f"  first call of the portable kernel (compiles): {compile_s * 1e3:.0f} ms\n"
        f"  pipelined, per call: CuPy expression {med['expression'] * 1e6:.1f} us, "
        f"ElementwiseKernel {med['elementwise'] * 1e6:.1f} us, portable kernel "
        f"{med['portable'] * 1e6:.1f} us ({3 * 8 * size / med['portable'] / 1e9:.0f} GB/s)\n"
        f"  host time to queue a call: ElementwiseKernel "
        f"{statistics.median(queued['elementwise']) * 1e6:.1f} us, portable kernel "
        f"{statistics.median(queued['portable']) * 1e6:.1f} us\n{stage_table}"
    )
    return [
        *_host_checks(stages),
        Check(
            "ElementwiseKernel / portable kernel time, pipelined",
            _ratios(piped, "elementwise", "portable"),
            bound=GPU_BOUND_VS_ELEMENTWISE,
            higher_is_better=True,
        ),
        Check(
            "ElementwiseKernel / bare numba.cuda.jit time, pipelined",
            _ratios(piped, "elementwise", "numba"),
        ),
        Check(
            "CuPy expression / portable kernel time, pipelined",
            _ratios(piped, "expression", "portable"),
            bound=GPU_BOUND_VS_EXPRESSION,
            higher_is_better=True,
        ),
        Check(
            "ElementwiseKernel / portable kernel time, per call",
            _ratios(single, "elementwise", "portable"),
        ),
        Check(
            "portable kernel: host time to queue / pipelined time",
            tuple(q / p for q, p in zip(queued["portable"], piped["portable"])),
        ),
    ]


def _host_checks(stages: dict[str, list[float]]) -> list[Result]:
    """The host-time figures of ``launch_stages`` (skipped where it failed)."""
    if not stages:
        return [Skipped("host time to queue a call", "the launch stages failed: see above")]

    def over(numerator: str, denominator: str) -> tuple[float, ...]:
        return _ratios(stages, numerator, denominator)

    whole, numba_device = "portable kernel, whole call", "numba.cuda.jit, Numba device arrays"
    return [
        Check(
            "portable / ElementwiseKernel, host time to queue",
            over(whole, "ElementwiseKernel"),
            bound=HOST_BOUND_VS_ELEMENTWISE,
        ),
        Check("portable / numba.cuda.jit (device arrays), host time", over(whole, numba_device)),
        Check(
            "numba.cuda.jit (device arrays) / ElementwiseKernel, host",
            over(numba_device, "ElementwiseKernel"),
        ),
        Check(
            "numba.cuda.jit (CuPy arrays) / ElementwiseKernel, host",
            over("numba.cuda.jit, CuPy arrays", "ElementwiseKernel"),
        ),
        Check(
            "cuda.core launch alone / ElementwiseKernel, host",
            over("cuda.core launch alone", "ElementwiseKernel"),
        ),
    ]


def measure(size: int, repeat: int, progress: Progress) -> list[Result]:
    """Every figure, for arrays of ``size`` elements and ``repeat`` rounds."""
    results = measure_cpu(size, repeat, progress) + measure_gpu(size, repeat, progress)
    profiling.reset()  # the kernels' compile times
    return results


def run(mode: Mode, progress: Progress) -> list[Result]:
    return measure(SIZE, 5 if mode == "quick" else 15, progress)


if __name__ == "__main__":
    sys.exit(main(run, TITLE, NEEDS))
