"""``tools/numpy_corpus.py``: NumPy's own docstring examples run with ``np`` as cunumpy.

The full corpus, with CuNumpy 0.7.1 beside ours, is the tool's job (``python
tools/numpy_corpus.py --071 PYTHON``); CI runs a small, fast subset: the examples of
NumPy's ufunc methods and of a few functions on both sides of the standard.
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import numpy as np

import cunumpy

ROOT = Path(__file__).resolve().parent.parent
TOOL = ROOT / "tools" / "numpy_corpus.py"
SUBSET = (
    "ufunc.reduce", "ufunc.accumulate", "ufunc.reduceat", "ufunc.outer", "ufunc.at", "cumsum",
    "linalg.norm", "fft.fft2", "take_along_axis", "vecdot", "unique", "pow",
)  # fmt: skip


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("numpy_corpus", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_subset_of_numpys_examples_gives_numpys_output_on_ours() -> None:
    done = subprocess.run(
        [sys.executable, str(TOOL), "--only", *SUBSET],
        capture_output=True, text=True, cwd=ROOT, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    figures = re.search(r"(\d+) functions compared; ours matches NumPy on (\d+)", done.stdout)
    assert figures is not None, done.stdout
    assert figures.group(1) == figures.group(2) == str(len(SUBSET)), done.stdout


def test_the_comparison_finds_the_first_difference() -> None:
    tool = _tool()
    same = [["array([1, 2])\n", []], ["", ["ValueError", "Exception"]]]
    assert tool._difference(same, same) is None
    assert tool._difference(same, [same[0], ["", ["AxisError", "ValueError"]]]) is None
    assert tool._difference(same, [["array([1., 2.])\n", []], same[1]]) == 0
    assert tool._difference(same, [same[0], ["", ["TypeError", "Exception"]]]) == 1
    assert tool._difference(same, [same[0], ["", []]]) == 1
    assert tool._difference(same, same[:1]) == 1
    address = [["<object at 0x7f00aa11bb22>\n", []]]
    assert tool._difference(address, [["<object at 0x7f00cc33dd44>\n", []]]) is None


def test_examples_run_in_order_and_record_output_and_exceptions() -> None:
    tool = _tool()
    sources = [
        "import numpy as np\n",
        "x = np.add.reduce([1, 2, 3])\n",
        "x\n",
        "np.sin.reduce(x)\n",
    ]
    expected = tool._run(sources, np, rewrite=False)
    got = tool._run(sources, cunumpy, rewrite=True)
    assert expected[2] == ["np.int64(6)\n", []] == got[2]
    assert expected[3][1][0] == "ValueError" and "ValueError" in got[3][1]
    assert tool._difference(expected, got) is None


def test_examples_with_random_output_are_left_out() -> None:
    tool = _tool()
    assert tool._examples("fft.fft", np.fft.fft) is None  # its examples draw random numbers
    sources = tool._examples("cumsum", np.cumsum)
    assert sources is not None and any("np.cumsum" in source for source in sources)
