"""``python -m cunumpy``: the environment report and self-check to paste into a bug report.

The report lists versions, each backend (usable or not, and why), each GPU with its
memory, and the current backend. The self-check then runs a few operations on every
usable backend, compares them with NumPy, and ends with a one-line verdict. The exit
status is 1 when a usable backend fails its self-check or ``CUNUMPY_BACKEND`` is invalid,
else 0.

This is the tool users run when their environment is wrong, so it never dies at import:
an invalid ``CUNUMPY_BACKEND`` (which makes ``import cunumpy`` raise in any other
program) is reported here as a failed check, with the reason, on the NumPy backend.

Under the fake CuPy of ``cunumpy.kernel_testing`` (``CUNUMPY_FAKE_CUPY=1``), every line
about CuPy says "fake CuPy (CPU)" and the verdict says that no GPU was used: the fake
runs CuPy's code paths on the CPU, it is no GPU.
"""

from __future__ import annotations

import sys

# First, with the standard library only: after `pip uninstall cunumpy` (the registry's
# CuNumpy, which shares the package) the rest of cunumpy may be gone, this file not.
from cunumpy._settings._distributions import installation_problem

if __name__ == "__main__" and not hasattr(sys.modules.get("cunumpy"), "__version__"):
    print(f"python -m cunumpy: {installation_problem() or 'cunumpy is not importable'}")
    sys.exit(1)

import argparse
import importlib.metadata
import importlib.util
import json
import os
import platform
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

import cunumpy
from cunumpy._backend_choice import _config
from cunumpy._settings._cupy_probe import device_unusable_reason, visible_gpu_count

__all__ = ["collect_report", "main", "self_check"]

#: What the report calls CuPy while the fake CuPy stands in for it.
FAKE = "fake CuPy (CPU)"

_DISTRIBUTIONS = {
    "numpy": ("numpy",),
    "cupy": ("cupy", "cupy-cuda13x", "cupy-cuda12x", "cupy-cuda11x"),
    "array-api-compat": ("array-api-compat",),
    "mpi4py": ("mpi4py",),
}


def _fast_path() -> str:
    """Whether the top-level standard functions have their compiled fast path (C)."""
    from cunumpy._calls._fast_path import compiled

    for extension in ("cunumpy.linalg", "cunumpy.fft"):  # loaded on first use; theirs count too
        importlib.import_module(extension)

    count, why = compiled()
    return f"compiled (C), {count} functions" if count else f"pure Python: {why}"


def _numba() -> str:
    """Whether Numba compiles ``np.sqrt`` as ``numpy.sqrt`` here: Numba installed, and
    cunumpy's ``numba_extensions`` entry point in the metadata (``cunumpy/_numba_names.py``)."""
    if importlib.util.find_spec("numba") is None:
        return "not installed (the kernels extra)"
    points = importlib.metadata.entry_points(group="numba_extensions", name="init")
    if any(point.value == "_cunumpy_numba:init" for point in points):
        return "np.<name> compiles as NumPy's name (numba_extensions entry point)"
    return (
        "no numba_extensions entry point of cunumpy's (a source checkout not installed): "
        "np.<name> compiles in @njit only where numba is imported before cunumpy "
        "(the entry point comes with an install of the checkout: pip install -e .)"
    )


def _version(names: Sequence[str]) -> str | None:
    for name in names:
        try:
            return importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            continue
    return None


def _fake_cupy() -> bool:
    """Whether the fake CuPy of ``cunumpy.kernel_testing`` is this process's ``cupy``."""
    return bool(getattr(sys.modules.get("cupy"), "__cunumpy_fake__", False))


def _gpus() -> list[dict[str, Any]]:
    if not cunumpy.cupy_available() or _fake_cupy():
        return []
    import cupy

    gpus = []
    for index in range(visible_gpu_count()):
        with cupy.cuda.Device(index):
            free, total = cupy.cuda.runtime.memGetInfo()
            name = cupy.cuda.runtime.getDeviceProperties(index)["name"]
        gpus.append(
            {
                "index": index,
                "name": name.decode() if isinstance(name, bytes) else str(name),
                "free_bytes": int(free),
                "total_bytes": int(total),
            }
        )
    return gpus


# Each check: a name, the operation written once for any namespace, and NumPy's answer.
_CHECKS: tuple[tuple[str, Callable[[Any], Any], Callable[[], Any]], ...] = (
    (
        "arange + sum",
        lambda xp: xp.sum(xp.arange(10, dtype=xp.float64)),
        lambda: np.float64(45.0),
    ),
    (
        "elementwise",
        lambda xp: xp.sqrt(xp.abs(xp.linspace(-4.0, 4.0, 9))),
        lambda: np.sqrt(np.abs(np.linspace(-4.0, 4.0, 9))),
    ),
    (
        "matmul",
        lambda xp: xp.reshape(xp.arange(6.0), (2, 3)) @ xp.reshape(xp.arange(6.0), (3, 2)),
        lambda: np.arange(6.0).reshape(2, 3) @ np.arange(6.0).reshape(3, 2),
    ),
    (
        "sort descending",
        lambda xp: xp.sort(xp.asarray([3, 1, 2]), descending=True),
        lambda: np.asarray([3, 2, 1]),
    ),
    (
        "linalg.solve",
        lambda xp: xp.linalg.solve(xp.eye(3) * 2.0, xp.ones((3, 1))),
        lambda: np.full((3, 1), 0.5),
    ),
    (
        "fft.fft",
        lambda xp: xp.fft.fft(xp.asarray([1.0, 0.0, 0.0, 0.0])),
        lambda: np.ones(4, dtype=np.complex128),
    ),
    (
        "mean/std",
        lambda xp: xp.stack([xp.mean(xp.arange(5.0)), xp.std(xp.arange(5.0))]),
        lambda: np.asarray([2.0, np.sqrt(2.0)]),
    ),
)


def self_check(backend: str) -> list[dict[str, Any]]:
    """Run the self-check operations on ``backend`` and compare each with NumPy's answer."""
    results = []
    for name, check, reference in _CHECKS:
        try:
            with cunumpy.use_backend(backend) as namespace:
                got = cunumpy.to_numpy(check(namespace))
            expected = np.asarray(reference())
            ok = got.shape == expected.shape and bool(
                np.allclose(got, expected, rtol=1e-6, atol=1e-12)
            )
            detail = "" if ok else f"got {got!r}, expected {expected!r}"
        except Exception as exc:
            ok, detail = False, f"{type(exc).__name__}: {exc}"
        results.append({"check": name, "ok": ok, "detail": detail})
    return results


def collect_report(*, run_checks: bool = True) -> dict[str, Any]:
    """Gather the report as plain data (what ``--json`` prints)."""
    fake = _fake_cupy() and cunumpy.cupy_available()
    # the test kernel, on the current GPU (it creates that GPU's CUDA context)
    reason = cunumpy.cupy_unavailable_reason() or device_unusable_reason()
    backends: dict[str, dict[str, Any]] = {
        "numpy": {"usable": True, "reason": None},
        "cupy": {"usable": reason is None, "reason": reason, "fake": fake},
    }
    versions = {key: _version(names) for key, names in _DISTRIBUTIONS.items()}
    if fake:  # the installed CuPy's version is not what runs
        versions["cupy"] = f"{FAKE}, standing in for " + (
            f"the installed CuPy {versions['cupy']}" if versions["cupy"] else "CuPy"
        )
    report: dict[str, Any] = {
        "versions": {
            "python": platform.python_version(),
            "cunumpy": cunumpy.__version__,
            **versions,
        },
        "platform": platform.platform(),
        "llm_guide": str(Path(cunumpy.__file__).parent / "LLM_GUIDE.md"),
        "fast_path": _fast_path(),
        "numba": _numba(),
        "backends": backends,
        "gpus": _gpus(),  # real GPUs only: none under the fake CuPy
        "current_backend": cunumpy.get_backend(),
        "environment": {
            "variable": _config.ENV_VAR,
            "value": os.environ.get(_config.ENV_VAR),
            "error": _config.environment_error,
            "note": _config.environment_note,
        },
        "installation_problem": installation_problem(),
    }
    if run_checks:
        report["self_check"] = {
            name: self_check(name) for name, info in backends.items() if info["usable"]
        }
        failed = [
            f"{name}: {r['check']}"
            for name, results in report["self_check"].items()
            for r in results
            if not r["ok"]
        ]
        if _config.environment_error is not None:
            failed.insert(0, _config.environment_error)
        if report["installation_problem"] is not None:
            failed.insert(0, "the installation (see above)")
        report["verdict"] = _verdict(failed, backends)
        report["ok"] = not failed
    return report


def _verdict(failed: list[str], backends: dict[str, dict[str, Any]]) -> str:
    """The one-line verdict: what failed, or on which backends all checks passed."""
    if failed:
        return f"FAILED: {len(failed)} check(s) failed ({'; '.join(failed)})"
    usable = [name for name, info in backends.items() if info["usable"]]
    if backends["cupy"].get("fake"):
        return (
            f"OK on NumPy and on the {FAKE}: all {len(_CHECKS)} checks passed; no GPU was "
            f"used (the {FAKE} runs CuPy's code paths on the CPU)"
        )
    if backends["cupy"]["usable"]:
        return f"OK: all {len(_CHECKS)} checks passed on {', '.join(usable)}"
    return (
        f"OK on NumPy: all {len(_CHECKS)} checks passed; CuPy not usable: "
        f"{backends['cupy']['reason']}"
    )


def _print_text(report: dict[str, Any]) -> None:
    print("cunumpy environment report")
    print("==========================")
    for name, version in report["versions"].items():
        print(f"{name + ':':<18}{version or 'not installed'}")
    print(f"{'platform:':<18}{report['platform']}")
    print(f"{'guide for AI:':<18}{report['llm_guide']}")
    print(f"{'fast path:':<18}{report['fast_path']}")
    print(f"{'numba:':<18}{report['numba']}")
    print()
    print("Backends")
    fake = report["backends"]["cupy"].get("fake", False)
    for name, info in report["backends"].items():
        state = "usable" if info["usable"] else f"not usable ({info['reason']})"
        if info.get("fake"):
            state = f"{FAKE}: usable for CPU tests of the CuPy code paths, not a GPU"
        print(f"  {name:<8}{state}")
    current = report["current_backend"]
    print(f"  current: {current}" + (f" ({FAKE})" if fake and current == "cupy" else ""))
    environment = report["environment"]
    if environment["error"] is not None:
        print(f"  FAIL {environment['variable']}: {environment['error']}")
    if environment.get("note") is not None:
        print(f"  note {environment['variable']}: {environment['note']}")
    if report["installation_problem"] is not None:
        print(f"  FAIL installation: {report['installation_problem']}")
    print()
    print("GPUs")
    if not report["gpus"]:
        print(f"  none usable (the {FAKE} is active; it is no GPU)" if fake else "  none usable")
    for gpu in report["gpus"]:
        print(
            f"  [{gpu['index']}] {gpu['name']}: {gpu['free_bytes'] / 2**30:.1f} GiB free of "
            f"{gpu['total_bytes'] / 2**30:.1f} GiB"
        )
    if "self_check" in report:
        print()
        print("Self-check")
        for backend, results in report["self_check"].items():
            for r in results:
                mark = "ok  " if r["ok"] else "FAIL"
                suffix = f"  {r['detail']}" if r["detail"] else ""
                label = FAKE if fake and backend == "cupy" else backend
                print(f"  {mark} {label:<6} {r['check']}{suffix}")
        print()
        print(report["verdict"])


def main(argv: Sequence[str] | None = None) -> int:
    """Print the report (``--json`` for JSON); return 1 if a check or the environment failed.

    ``python -m cunumpy trace [options] app.py args...`` runs ``app.py`` under a recording
    of ``cunumpy.profiling.trace`` instead (``python -m cunumpy trace --help``).
    """
    arguments = sys.argv[1:] if argv is None else list(argv)
    if arguments[:1] == ["trace"]:
        from cunumpy.profiling._trace_program import run_program

        return run_program(arguments[1:])
    parser = argparse.ArgumentParser(
        prog="python -m cunumpy", description="cunumpy environment report and self-check"
    )
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--no-check", action="store_true", help="skip the self-check")
    parser.add_argument(
        "--version", action="version", version=f"cunumpy {cunumpy.__version__}",
        help="print cunumpy's version and exit",
    )  # fmt: skip
    args = parser.parse_args(arguments)
    report = collect_report(run_checks=not args.no_check)
    try:
        if args.json:
            print(json.dumps(report, indent=2))
        else:
            _print_text(report)
        sys.stdout.flush()
    except BrokenPipeError:
        _quiet_stdout()  # the reader (``| head -1``) has stopped reading: nothing to say
    ok = (
        report.get("ok", True)
        and report["environment"]["error"] is None
        and report["installation_problem"] is None
    )
    return 0 if ok else 1


def _quiet_stdout() -> None:
    """Point stdout at the null device, so that Python's final flush of what the closed
    pipe did not take cannot raise a second ``BrokenPipeError`` at exit."""
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, sys.stdout.fileno())
    os.close(null)


if __name__ == "__main__":
    sys.exit(main())
