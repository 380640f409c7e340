"""Run the public Array API test suite (data-apis/array-api-tests) against cunumpy.

The suite is not part of this repository: check it out yourself, with its ``array-api``
submodule at the commit it pins, and point this script at the checkout (docs/testing.md,
"The Array API conformance suite", gives every command). The script runs from a source
checkout of cunumpy (it is not in the wheel); its prerequisites are the ``conformance``
extra, and a missing one is one line naming the package::

    python -m array_api_tests.public_suite.run /path/to/array-api-tests \\
        --backend numpy --max-examples 200 --seed 0 -q

``--backend dask`` runs the suite against ``cunumpy.dask`` (Dask arrays of NumPy chunks).
``--module`` tests another namespace module under the same backend's lists (for example
``--backend dask --module array_api_compat.dask.array``, to measure array-api-compat's
Dask namespace in the same run), and ``--no-shrink`` turns Hypothesis's shrinking off, so
that a failing test reports its first counterexample instead of shrinking it for minutes.
Arguments the script does not know are passed on to pytest.
The expected failures and skips of each backend are ``xfails-<backend>.txt`` and
``skips-<backend>.txt`` beside this file: one test id per line, each followed by
``  # reason``. An entry without a reason is an error. The exit status is pytest's.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
BACKENDS = ("numpy", "cupy", "dask")
# The module each backend is tested through: cunumpy on NumPy and CuPy, cunumpy.dask on Dask.
MODULES = {"numpy": "cunumpy", "cupy": "cunumpy", "dask": "cunumpy.dask"}


def read_entries(path: Path) -> list[tuple[str, str]]:
    """Read ``id  # reason`` lines; blank lines and ``#`` comment lines are ignored."""
    entries = []
    if not path.exists():
        return entries
    for number, raw in enumerate(path.read_text().splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        test_id, sep, reason = line.partition("  # ")
        if not sep or not reason.strip():
            msg = f"{path.name}:{number}: entry {test_id!r} has no reason (write `id  # reason`)"
            raise ValueError(msg)
        entries.append((test_id.strip(), reason.strip()))
    return entries


#: The modules the public suite imports, and the package that brings each (the `conformance` extra).
PREREQUISITES = {
    "pytest": "pytest",
    "hypothesis": "hypothesis",
    "ndindex": "ndindex",
    "pytest_jsonreport": "pytest-json-report",
}


def missing_prerequisite() -> str | None:
    """One line naming the first package the suite needs that is not installed, or ``None``."""
    for module, package in PREREQUISITES.items():
        if importlib.util.find_spec(module) is None:
            return (
                f"the public Array API test suite needs {package}, which is not installed: "
                f"pip install {package} (from a source checkout of cunumpy: pip install "
                f"'.[conformance]')"
            )
    return None


def _ids_file(entries: list[tuple[str, str]], directory: str, name: str) -> str:
    path = Path(directory) / name
    path.write_text("".join(f"{test_id}\n" for test_id, _ in entries))
    return str(path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkout", type=Path, help="a checkout of data-apis/array-api-tests")
    parser.add_argument("--backend", choices=BACKENDS, default="numpy")
    parser.add_argument("--max-examples", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--module", help="the namespace module to test (default: the backend's)")
    parser.add_argument("--no-shrink", action="store_true", help="turn Hypothesis shrinking off")
    args, pytest_args = parser.parse_known_args(argv)
    missing = missing_prerequisite()
    if missing is not None:
        parser.exit(2, f"{parser.prog}: {missing}\n")
    suite = args.checkout / "array_api_tests"
    if not suite.is_dir():
        parser.error(f"{args.checkout} is not a checkout of array-api-tests (no array_api_tests/)")
    if not (args.checkout / "array-api" / "src").is_dir():
        parser.error(f"{args.checkout}/array-api is missing: check out the pinned submodule")
    xfails = read_entries(HERE / f"xfails-{args.backend}.txt")
    skips = read_entries(HERE / f"skips-{args.backend}.txt")
    env = {
        **os.environ,
        "ARRAY_API_TESTS_MODULE": args.module or MODULES[args.backend],
        "ARRAY_API_TESTS_VERSION": "2025.12",
        "CUNUMPY_BACKEND": "numpy" if args.backend == "dask" else args.backend,
        # HERE for the no_shrink_plugin: the checkout's own array_api_tests package hides ours.
        "PYTHONPATH": os.pathsep.join([str(ROOT), str(HERE), os.environ.get("PYTHONPATH", "")]),
    }
    with tempfile.TemporaryDirectory() as scratch:
        command = [
            sys.executable, "-m", "pytest", "array_api_tests", "-p", "no:cacheprovider",
            f"--max-examples={args.max_examples}", f"--hypothesis-seed={args.seed}",
            f"--xfails-file={_ids_file(xfails, scratch, 'xfails.txt')}",
            f"--skips-file={_ids_file(skips, scratch, 'skips.txt')}",
            *(["-p", "no_shrink_plugin"] if args.no_shrink else []),
            *pytest_args,
        ]  # fmt: skip
        return subprocess.run(command, cwd=args.checkout, env=env, check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
