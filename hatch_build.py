"""Build hook: compile cunumpy's C fast path (``cunumpy/_calls/_fastcall.c``) when it can.

The top-level standard functions run in pure Python without it, with the same answers
(``cunumpy/_calls/_fast_path.py``), so a machine without a C compiler still installs:
the hook says why nothing was compiled and builds a pure-Python wheel. The extension is
built in place (``build_ext --inplace``), which serves editable installs, and is added to
a regular wheel, which is then tagged for this interpreter and platform. Set
``CUNUMPY_PURE_PYTHON=1`` to build without it.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

sys.path.insert(0, str(Path(__file__).resolve().parent / "tools"))
from build_fastcall import compile_in_place


class FastPathHook(BuildHookInterface):  # type: ignore[type-arg]
    """Compile the fast path for wheels and editable installs."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel":
            return
        if os.environ.get("CUNUMPY_PURE_PYTHON") == "1":
            self.app.display_info("cunumpy: CUNUMPY_PURE_PYTHON=1, the C fast path is not built")
            return
        try:
            built = compile_in_place(Path(self.root))
        except Exception as exc:  # no compiler, no headers, no setuptools: pure Python
            self.app.display_warning(
                f"cunumpy: the C fast path was not built ({type(exc).__name__}: {exc}); "
                "the top-level functions run in pure Python, with the same answers."
            )
            return
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        if version != "editable":
            build_data["force_include"][str(built)] = str(built.relative_to(self.root))
