"""The test suite collects without the optional test libraries (the GPU machine may lack them)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_suite_collects_without_array_api_strict_and_with_a_sphinx_that_is_not_sphinx() -> None:
    # None in sys.modules makes every `import array_api_strict` raise ImportError, as
    # on a machine without it; the modules that need it skip with the reason. A `sphinx`
    # module without `sphinx.application` is what the GPU machine has: `import sphinx`
    # works there, and the docs' modules must still skip, not fail to import.
    code = (
        "import sys, types; sys.modules['array_api_strict'] = None; "
        "sys.modules['sphinx'] = types.ModuleType('sphinx'); import pytest; "
        "sys.exit(pytest.main(['--collect-only', '-q', '-p', 'no:cacheprovider']))"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-4000:]
    collected = re.search(r"(\d+) tests collected", run.stdout)
    assert collected is not None and int(collected.group(1)) > 1000, run.stdout[-2000:]
    assert "could not import 'array_api_strict'" in run.stdout  # the skips say why
    # The files that need Sphinx are not imported: each has one stand-in item, which skips.
    assert "tests/test_docs.py::test_docs.py" in run.stdout
    code = code.replace("'--collect-only', ", "").replace("'no:cacheprovider'", (
        "'no:cacheprovider', '-rs', 'docs/conf.py', 'docs/_ext', 'tests/test_docs.py'"
    ))  # fmt: skip
    run = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-4000:]
    assert "3 skipped" in run.stdout, run.stdout[-2000:]
    reason = "sphinx.application cannot be imported: needs Sphinx (the docs extra)"
    assert run.stdout.count(reason) == 3, run.stdout[-2000:]
