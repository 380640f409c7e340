"""tools/compare_071.py's fake mode: its runner of programs and its cosmetic differences.

The comparison itself needs CuNumpy 0.7.1 (``--071``); these tests check the parts that run
with this checkout alone, on the fake CuPy's CuPy backend (a fake-CuPy child process).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
try:
    from compare_071 import cosmetic
finally:
    sys.path.pop(0)


def test_cosmetic_differences_are_made_equal_and_nothing_else() -> None:
    old = "<cupy._Stream object at 0x7f46d9b66690>\n(1073741824, 1073741824)\n4.68e-05 True"
    new = "<Stream 4096 (device 0)>\n(17179869184, 17179869184)\n3.1e-05 True"
    assert cosmetic(old) == cosmetic(new)
    assert cosmetic("fakecupy.array([1., 2.])") != cosmetic("array([1., 2.])")
    assert cosmetic("False") != cosmetic("True")


@pytest.mark.fake_cupy
def test_the_runner_prints_each_programs_output_and_failures_on_the_fake_cupy(
    tmp_path: Path,
) -> None:
    programs = [
        {"name": "README block 1", "examples": [["values = xp.arange(3.0)\n", ""]],
         "session": "README"},
        {"name": "README block 2", "examples": [["print(repr(values * 2))\n", ""]],
         "session": "README"},
        {"name": "doc", "examples": [["xp.rng.get_rng(1).random(2).shape\n", "(2,)\n"],
                                     ["1 / 0\n", "Traceback (most recent call last):\n"]],
         "session": None},
        {"name": "broken", "examples": [["undefined_name\n", "1\n"]], "session": None},
    ]  # fmt: skip
    path = tmp_path / "programs.json"
    path.write_text(json.dumps(programs))
    env = {**os.environ, "CUNUMPY_FAKE_CUPY": "1", "CUNUMPY_BACKEND": "cupy",
           "PYTHONPATH": str(ROOT)}  # fmt: skip
    done = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "compare071_programs.py"), "run", str(path)],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout)
    assert results["README block 2"] == {
        "output": "fakecupy.array([0., 2., 4.])\n",
        "failed": False,
    }
    assert results["doc"] == {"output": "(2,)\n!ZeroDivisionError\n", "failed": False}
    assert results["broken"] == {"output": "!NameError\n", "failed": True}
