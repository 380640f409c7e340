"""The example project of docs/testing.md: the docs show its files verbatim, and it passes
when run with its own pytest invocation."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from plugin_entry_point import entry_point_args

import cunumpy

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "testing"
DOC = ROOT / "docs" / "testing.md"
BLOCK = re.compile(r"```\{code-block\} python\n:caption: (\S+)\n\n(.*?)```\n", re.DOTALL)


def test_the_docs_show_the_example_files_verbatim() -> None:
    blocks = dict(BLOCK.findall(DOC.read_text()))
    assert set(blocks) == {
        "examples/testing/softmax.py",
        "examples/testing/tests/test_softmax.py",
    }
    assert not (EXAMPLE / "conftest.py").exists()  # the entry point loads the plugin
    for path, text in blocks.items():
        assert (ROOT / path).read_text() == text, path


def _run_example(*options: str) -> tuple[int, str]:
    """Run ``pytest`` in the example project; its exit status and output."""
    # ROOT first, and the caller's PYTHONPATH kept (gpu_check.sh carries packages there).
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    env.pop("CUNUMPY_BACKEND", None)
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *entry_point_args(), *options],
        cwd=EXAMPLE,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    return result.returncode, result.stdout + result.stderr


DOC_REASON = "no NVIDIA driver found (libcuda cannot be loaded)"


def _documented_output() -> list[str]:
    """The lines docs/testing.md shows of a run of the example without a GPU."""
    text = DOC.read_text().split("its header and summary say", 1)[1]
    block = re.search(r"```text\n(.*?)```", text, re.DOTALL)
    assert block is not None
    return [line for line in block.group(1).splitlines() if line != "..."]


@pytest.mark.slow
def test_the_example_project_passes_as_documented() -> None:
    # `cd examples/testing && pytest`: every usable namespace, torch and JAX included
    returncode, output = _run_example()
    assert returncode == 0, output
    assert re.search(r"=+ \d+ passed", output), output
    if not cunumpy.cupy_available():  # the docs show a run without a GPU, line for line
        reason = str(cunumpy.cupy_unavailable_reason())
        lines = output.splitlines()
        for shown in _documented_output():
            assert shown.replace(DOC_REASON, reason) in lines, (shown, output)


@pytest.mark.slow
def test_the_example_project_runs_each_test_once_per_namespace_and_device() -> None:
    names = "numpy,cupy,array_api_strict,cunumpy"  # torch and jax left out: counts are known
    returncode, output = _run_example(f"--xp={names}")
    assert returncode == 0, output
    gpus = cunumpy.cuda.device_count() if cunumpy.cupy_available() else 0
    # test_known_values and the property: once per namespace; the NumPy comparison: once
    # per device (cpu; each GPU; array-api-strict's 5 devices; the top-level's cpu and GPUs).
    per_namespace = 2 * 4
    per_device = 1 + max(gpus, 1) + 5 + 1 + gpus
    skipped = 0 if gpus else 3  # cupy, for each of the three tests
    summary = f"{per_namespace + per_device - skipped} passed"
    if skipped:
        summary += f", {skipped} skipped"
    assert re.search(rf"=+ {summary} in ", output), output
    if not gpus:
        assert f"cupy: {cunumpy.cupy_unavailable_reason()}" in output
