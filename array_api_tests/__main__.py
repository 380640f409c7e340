"""``python -m array_api_tests --module NAME [pytest args...]``."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import pytest

from array_api_tests import DEFAULT_MODULE, ENV_VAR


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m array_api_tests",
        description="Run cunumpy's Array API 2025.12 conformance harness against a namespace.",
    )
    parser.add_argument("--module", default=os.environ.get(ENV_VAR) or DEFAULT_MODULE)
    args, rest = parser.parse_known_args(argv)
    os.environ[ENV_VAR] = args.module
    here = Path(__file__).resolve().parent
    return int(pytest.main([str(here), "-p", "no:cacheprovider", *rest]))


if __name__ == "__main__":
    sys.exit(main())
