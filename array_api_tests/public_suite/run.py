"""Run the public Array API test suite (data-apis/array-api-tests) against cunumpy.

The suite is not part of this repository: check it out yourself, with its ``array-api``
submodule at the commit it pins, and point this script at the checkout::

    python -m array_api_tests.public_suite.run /path/to/array-api-tests \\
        --backend numpy --max-examples 200 --seed 0 -q

Arguments the script does not know are passed on to pytest.
The expected failures and skips of each backend are ``xfails-<backend>.txt`` and
``skips-<backend>.txt`` beside this file: one test id per line, each followed by
``  # reason``. An entry without a reason is an error. The exit status is pytest's.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
BACKENDS = ("numpy", "cupy")


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
    args, pytest_args = parser.parse_known_args(argv)
    suite = args.checkout / "array_api_tests"
    if not suite.is_dir():
        parser.error(f"{args.checkout} is not a checkout of array-api-tests (no array_api_tests/)")
    if not (args.checkout / "array-api" / "src").is_dir():
        parser.error(f"{args.checkout}/array-api is missing: check out the pinned submodule")
    xfails = read_entries(HERE / f"xfails-{args.backend}.txt")
    skips = read_entries(HERE / f"skips-{args.backend}.txt")
    env = {
        **os.environ,
        "ARRAY_API_TESTS_MODULE": "cunumpy",
        "ARRAY_API_TESTS_VERSION": "2025.12",
        "CUNUMPY_BACKEND": args.backend,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    with tempfile.TemporaryDirectory() as scratch:
        command = [
            sys.executable, "-m", "pytest", "array_api_tests", "-p", "no:cacheprovider",
            f"--max-examples={args.max_examples}", f"--hypothesis-seed={args.seed}",
            f"--xfails-file={_ids_file(xfails, scratch, 'xfails.txt')}",
            f"--skips-file={_ids_file(skips, scratch, 'skips.txt')}",
            *pytest_args,
        ]  # fmt: skip
        return subprocess.run(command, cwd=args.checkout, env=env, check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
