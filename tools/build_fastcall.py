"""Build cunumpy's C fast path (``cunumpy/_calls/_fastcall.c``) in place, with setuptools.

``hatch_build.py`` calls ``compile_in_place`` during ``pip install``; run this file to build
it in a checkout used from ``PYTHONPATH`` (``gpu_check.sh`` does). Without a C compiler or
setuptools it says why and exits 1; cunumpy then runs its top level in pure Python.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

SOURCE = "cunumpy/_calls/_fastcall.c"


def compile_in_place(root: Path) -> Path:
    """Build the extension next to its source; return the file built."""
    from setuptools import Distribution, Extension
    from setuptools.command.build_ext import build_ext

    here = Path.cwd()
    os.chdir(root)
    try:
        extension = Extension("cunumpy._calls._fastcall", [SOURCE])
        command = build_ext(Distribution({"name": "cunumpy-xp", "ext_modules": [extension]}))
        command.inplace = True
        command.ensure_finalized()
        command.run()
        return root / command.get_ext_filename(extension.name)
    finally:
        os.chdir(here)


def main() -> int:
    root = Path(__file__).resolve().parent.parent
    try:
        built = compile_in_place(root)
    except Exception as exc:  # no compiler, no headers, no setuptools
        print(f"build_fastcall: not built ({type(exc).__name__}: {exc}); pure Python")
        return 1
    print(f"build_fastcall: built {built.relative_to(root)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
