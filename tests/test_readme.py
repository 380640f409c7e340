"""Every Python block of README.md runs, in a fresh interpreter, and prints what it shows.

A ``python`` block is a whole program: it runs in its own process with the checkout first
on the path and no ``CUNUMPY_BACKEND``, and must exit 0. When a ``text`` block follows it
directly, that is its output, compared line by line. Other blocks are ``bash`` commands or
``text`` output; any other language fails the test, so no Python example escapes it. On a
GPU machine the same programs run on CuPy (they guard their GPU lines).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()

FENCE = re.compile(r"^```(\S*)\n(.*?)^```\s*$", re.MULTILINE | re.DOTALL)
KNOWN_LANGUAGES = {"bash", "text", "python"}


def _blocks(text: str) -> list[tuple[str, str, int, int]]:
    """(language, body, start, end) of each fenced block, in order."""
    return [(m.group(1), m.group(2), m.start(), m.end()) for m in FENCE.finditer(text)]


def _programs(text: str) -> list[tuple[str, str | None]]:
    """(code, expected output or None) of each ``python`` block."""
    blocks = _blocks(text)
    programs = []
    for i, (language, body, _, end) in enumerate(blocks):
        if language != "python":
            continue
        expected = None
        if i + 1 < len(blocks):
            next_language, next_body, next_start, _ = blocks[i + 1]
            if next_language == "text" and not text[end:next_start].strip():
                expected = next_body
        programs.append((body, expected))
    return programs


def _run(code: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "CUNUMPY_BACKEND"}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True, text=True, timeout=120, check=False, cwd=ROOT, env=env,
    )  # fmt: skip


def test_the_parser_pairs_programs_with_their_output() -> None:
    text = "```python\nprint(1)\n```\n\n```text\n1\n```\n\nprose\n\n```python\npass\n```\n"
    assert _programs(text) == [("print(1)\n", "1\n"), ("pass\n", None)]
    apart = "```python\nprint(1)\n```\nsome words\n```text\n1\n```\n"
    assert _programs(apart) == [("print(1)\n", None)]


def test_every_block_has_a_known_language() -> None:
    languages = [language for language, *_ in _blocks(README)]
    assert set(languages) <= KNOWN_LANGUAGES, "a block the test suite would not run"
    assert languages.count("python") >= 2  # library code and application code


PROGRAMS = _programs(README)


@pytest.mark.parametrize(
    ("code", "expected"), PROGRAMS, ids=[f"program{i + 1}" for i in range(len(PROGRAMS))]
)
def test_readme_program_runs_and_prints_what_it_shows(code: str, expected: str | None) -> None:
    done = _run(code)
    assert done.returncode == 0, done.stderr
    if expected is not None:
        assert done.stdout.splitlines() == expected.splitlines()


def test_readme_names_the_benchmark_command_and_the_architecture_map() -> None:
    assert "python -m benchmarks" in README
    assert "--quick" in README and "--full" in README
    assert "docs/architecture.md" in README
    assert (ROOT / "docs" / "architecture.md").is_file()


def test_the_readme_is_for_users_set_up_then_two_ways_in_then_links() -> None:
    # Issue 53: set-up first, the two ways in (application, then library code) right after,
    # links at the end; what only contributors run is in CONTRIBUTING.md.
    assert re.findall(r"^## (.+)$", README, re.MULTILINE) == [
        "Set up",
        "Two ways in",
        "Documentation",
    ]
    ways = README.split("## Two ways in", 1)[1].split("\n## ", 1)[0]
    assert ways.index("import cunumpy as xp") < ways.index("cunumpy.array_namespace(")
    contributing = (ROOT / "CONTRIBUTING.md").read_text()
    for contributors in (".ci/run", "gpu_check.sh", "tools/downstream/struphy.sh", "| leg |"):
        assert contributors not in README, contributors
        assert contributors in contributing, contributors
    assert "CONTRIBUTING.md" in README.split("## Documentation", 1)[1]
    assert len(README.splitlines()) <= 120
