"""Run CuNumpy 0.7.1's README examples that need no GPU on 0.7.1 and on cunumpy; diff stdout.

Usage::

    python tools/compare_071.py --071 /path/to/venv071/bin/python [--ours python] [-v]

Each snippet is a program from 0.7.1's README (its examples, completed only with data
and ``print`` calls so that there is output to compare). It runs in a fresh process of
each interpreter, in an empty directory; cunumpy is imported from this checkout
(``PYTHONPATH``), 0.7.1 from its own environment (no ``PYTHONPATH``). A snippet agrees
when both exit with the same status and print the same stdout (warnings go to stderr).
The exit status is the number of snippets that differ.

With ``--fake``, the programs are instead 0.7.1's own: every ``python`` block of its
README and the examples of every docstring of its public names
(``tools/compare071_programs.py`` finds and runs them), under both fake CuPys
(``CUNUMPY_FAKE_CUPY=1 CUNUMPY_BACKEND=cupy``). It prints the programs whose output
differs, with and without the cosmetic differences of :data:`COSMETIC`, and the counts:
run, failing on 0.7.1 itself, differing, differing after cosmetic differences (the
exit status).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

SNIPPETS: dict[str, str] = {
    "first example": """
        values = xp.arange(5, dtype=xp.float64)
        print(values * 2)
        print(xp.get_backend())
    """,
    "choose a backend": """
        xp.set_backend("cupy")
        print(xp.get_backend())
        values = xp.arange(5)
        print(type(values).__module__, values)
    """,
    "strict selection": """
        try:
            xp.set_backend("cupy", strict=True)
        except RuntimeError:
            print("RuntimeError")
        print(xp.get_backend())
    """,
    "use_backend block": """
        with xp.use_backend("numpy"):
            cpu_values = xp.linspace(0, 1, 100)
            assert xp.get_backend() == "numpy"
        print(cpu_values[:3], xp.get_backend())
    """,
    "two backend questions": """
        xp.set_backend("numpy")
        cpu_values = xp.arange(3)
        print(xp.get_backend(), xp.get_array_backend(cpu_values))
        print(xp.is_cpu(cpu_values), xp.is_gpu(cpu_values))
        try:
            xp.to_cupy(cpu_values)
        except ImportError:
            print("ImportError")
    """,
    "backend-generic function": """
        def vector_norm(values):
            array_xp = xp.get_array_module(values)
            return array_xp.sqrt(array_xp.sum(values * values))
        print(float(vector_norm(xp.asarray([3.0, 4.0]))))
    """,
    "move data": """
        host = xp.to_numpy([1, 2])
        active = xp.to_cunumpy(host)
        print(repr(host), repr(active), type(active).__name__)
    """,
    "count transfers": """
        def propagator(dt):
            return xp.ones(4) * dt
        with xp.profiling.count_transfers() as counter:
            propagator(0.1)
        assert counter.to_host == counter.to_device == 0, counter.report()
        print(counter.bytes_to_host, counter.bytes_to_device)
    """,
    "random numbers": """
        rng = xp.rng.get_rng(seed=42)
        samples = rng.normal(size=1000)
        print(samples.shape, type(samples).__name__)
    """,
    "default float dtype": """
        x = xp.asarray([1.0, 2.0], dtype=xp.default_float_dtype())
        print(x.dtype)
    """,
    "gpu selection on the cpu": """
        print("visible GPUs:", xp.cuda.device_count())
        xp.cuda.set_device(0)
        print("memory (free, total):", xp.cuda.memory_info())
    """,
    "timed region and nvtx": """
        with xp.profiling.timed_region("fft") as timing:
            transformed = xp.fft.fft(xp.ones(8))
        print(timing.elapsed >= 0, timing.synced)

        @xp.profiling.nvtx_range("step")
        def step(dt):
            return dt * 2
        print(step(1.5))
    """,
    "pyccel kernel": """
        def scale_in_place(values, factor):
            values[:] *= factor
            return values

        scale = xp.kernels.PyccelKernel(scale_in_place, outputs=(0,))
        with xp.use_backend("cupy"):
            values = xp.arange(5, dtype=xp.float64)
            returned = scale(values, 3.0)
            xp.synchronize()
        print(values, returned)
    """,
    "kernel pair": """
        AXPY = r'''
        extern "C" __global__
        void axpy(double a, const double* x, double* y, int n) {
            int i = blockDim.x * blockIdx.x + threadIdx.x;
            if (i < n) y[i] += a * x[i];
        }
        '''

        def axpy(a, x, y, n):
            for i in range(n):
                y[i] += a * x[i]

        kernel = xp.kernels.Kernel(axpy, xp.kernels.CudaKernel(AXPY, "axpy"))
        with xp.use_backend("cupy"):
            x = xp.arange(1000, dtype=xp.float64)
            y = xp.zeros(1000)
            kernel(2.0, x, y, 1000)
        print(y[:4], y[-1])
    """,
    "numpy names": """
        print(xp.array([1, 2]), xp.pad(xp.array([1.0, 2.0]), 1), xp.nanmax(xp.array([1.0, 3.0])))
        print(xp.dot(xp.array([1.0, 2.0]), xp.array([3.0, 4.0])), xp.linalg.norm(xp.array([3.0, 4.0])))
        print(xp.fft.fftshift(xp.arange(4)), xp.random.default_rng(0).integers(10, size=3))
        print(xp.float16, xp.ndarray, xp.einsum("i,i->", xp.ones(3), xp.ones(3)))
    """,
    "host call": """
        import numpy as np
        print(xp.host_call(np.cumsum, xp.asarray([1, 2, 3])))

        class Profile:
            @xp.setup_on_host
            def __init__(self, n):
                self.x = xp.linspace(0.0, 1.0, n)

            @xp.evaluate_on_host
            def cumulative(self, x):
                return np.cumsum(x)

        print(Profile(3).cumulative(xp.asarray([1, 2, 3])), xp.get_array_backend(Profile(3).x))
    """,
    "backend checks": """
        import numpy as np
        print(xp.same_backend(np.zeros(2), np.ones(3)), xp.same_backend())
        xp.assert_same_backend(np.zeros(2), np.ones(2))
        print(xp.numpy_backend, xp.cupy_backend, xp.backend_info()["backend"])
        try:
            xp.as_device_array((3, 3, 3), "int32", 1, name="degree")
        except RuntimeError:
            print("RuntimeError")
    """,
    "versions": """
        print(xp.cupy_version_supported("14.2.0"), xp.cupy_version_supported("13.6.0"))
        xp.require_version("0.4.0")
        print(type(xp.__version__).__name__)
    """,
    "scipy": """
        import numpy as np
        v = xp.asarray([0.0, 0.5, 1.0])
        print(xp.scipy.special.erf(v))
        n = 4
        A = xp.scipy.sparse.csr_matrix((np.full(n, 2.0), (np.arange(n), np.arange(n))), shape=(n, n))
        x, info = xp.scipy.sparse.linalg.cg(A, np.ones(n))
        print(x, info)
    """,
}


def _run(python: str, code: str, ours: bool, cwd: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "CUNUMPY_BACKEND")}
    if ours:
        env["PYTHONPATH"] = str(ROOT)
    program = "import cunumpy as xp\n" + textwrap.dedent(code)
    return subprocess.run(
        [python, "-c", program], capture_output=True, text=True, env=env, cwd=cwd, timeout=300
    )


# Differences that say nothing about behaviour (each package's fake has its own memory
# figures, stream classes and file).
COSMETIC = (
    (r"0x[0-9a-fA-F]+", "0x?"),  # addresses
    (r"<[\w.]*?_?(Stream|Event)\b[^>]*>", r"<\1>"),  # the class names of streams and events
    (r"\(\d+, \d+\)", "(free, total)"),  # the fakes' memory figures
    (r"\b(?:\d+\.\d+e-\d+|0\.000\d+)\b", "<short time>"),  # timings of the host clock
    (r"<module 'cupy' from '[^']*'>", "<module 'cupy'>"),  # where each fake's file is
    (r"'/usr/bin/(?:c|g)\+\+'", "'<C++ compiler>'"),  # one compiler, found by two names
    (r"// Generated .*", "// Generated"),  # the first line of a generated header
)


def cosmetic(text: str) -> str:
    """`text` with the differences of :data:`COSMETIC` made equal."""
    for pattern, replacement in COSMETIC:
        text = re.sub(pattern, replacement, text)
    return text


def _programs(python: str, ours: bool, cwd: str, *args: str) -> Any:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "CUNUMPY_BACKEND")}
    env.update(CUNUMPY_FAKE_CUPY="1", CUNUMPY_BACKEND="cupy", OMP_NUM_THREADS="1")
    if ours:
        env["PYTHONPATH"] = str(ROOT)
    script = str(ROOT / "tools" / "compare071_programs.py")
    done = subprocess.run(
        [python, script, *args], capture_output=True, text=True, env=env, cwd=cwd, timeout=3600
    )
    if done.returncode:
        msg = f"compare071_programs.py {args[0]} failed with {python}:\n{done.stderr[-3000:]}"
        raise RuntimeError(msg)
    return json.loads(done.stdout)


def fake_mode(old_python: str, our_python: str, verbose: bool) -> int:
    """0.7.1's README and docstring programs under both fake CuPys; returns the count that differ."""
    with tempfile.TemporaryDirectory() as cwd:
        programs = _programs(old_python, False, cwd, "extract")
        path = Path(cwd) / "programs.json"
        path.write_text(json.dumps(programs))
        old = _programs(old_python, False, cwd, "run", str(path))
        new = _programs(our_python, True, cwd, "run", str(path))
    fail_old = differ = remain = 0
    for program in programs:
        name = program["name"]
        before, after = old[name], new[name]
        fail_old += before["failed"]
        if before["failed"] or before["output"] == after["output"]:
            continue
        differ += 1
        if cosmetic(before["output"]) == cosmetic(after["output"]):
            print(f"cosmetic   {name}")
            continue
        remain += 1
        print(f"DIFFERENT  {name}")
        if verbose:
            for label, result in (("0.7.1", before), ("ours", after)):
                print(textwrap.indent(f"{label}:\n{result['output'].strip()}", "    "))
    print(
        f"{len(programs)} programs run, {fail_old} fail on 0.7.1, {differ} of the others "
        f"differ, {remain} after cosmetic differences"
    )
    return remain


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--071", dest="old", required=True, help="python with CuNumpy 0.7.1")
    parser.add_argument("--ours", default=sys.executable, help="python for this checkout")
    parser.add_argument("-v", "--verbose", action="store_true", help="show the differences")
    parser.add_argument(
        "--fake",
        action="store_true",
        help="run 0.7.1's README and docstring programs under both fake CuPys instead",
    )
    args = parser.parse_args(argv)
    if args.fake:
        return fake_mode(args.old, args.ours, args.verbose)
    differ = 0
    with tempfile.TemporaryDirectory() as cwd:
        for name, code in SNIPPETS.items():
            old = _run(args.old, code, ours=False, cwd=cwd)
            new = _run(args.ours, code, ours=True, cwd=cwd)
            same = (old.returncode, old.stdout) == (new.returncode, new.stdout)
            differ += not same
            print(f"{'same' if same else 'DIFFERENT':9}  {name}")
            if not same:
                for label, result in (("0.7.1", old), ("ours", new)):
                    print(f"    {label} (exit {result.returncode}): {result.stdout.strip()!r}")
                    if args.verbose or result.returncode:
                        tail = result.stderr.strip().splitlines()[-1:] or [""]
                        print(f"    {label} stderr: {tail[0]}")
    print(f"{len(SNIPPETS) - differ} of {len(SNIPPETS)} snippets give the same output")
    return differ


if __name__ == "__main__":
    sys.exit(main())
