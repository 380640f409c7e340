"""The findings still open (issue 43), as data: what the suite's seeded budget finds today.

``known_open.json`` lists the ``(class, name)`` pairs that the suite's budget (``SEED``,
``CALLS``) finds outside the deliberate list, each with one reproducer. The suite fails on
a pair not listed (a new difference) and on a listed pair no longer found (fixed: take it
out). Regenerate it after a fix with ``python -m tests.differential --suite --write-known``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from .findings import HERE, Tally

PATH = HERE / "known_open.json"
ISSUE = 43
SEED = 43
CALLS = 12000


def load(path: Path = PATH) -> dict[str, Any]:
    """The file's content: ``numpy`` (the version it was made with), ``seed``, ``calls`` and
    ``findings`` (``class``, ``name``, ``issue``, ``detail``, ``call``)."""
    return json.loads(path.read_text())


def pairs(known: dict[str, Any]) -> set[tuple[str, str]]:
    """The ``(class, name)`` pairs of the known list."""
    return {(entry["class"], entry["name"]) for entry in known["findings"]}


def write(tally: Tally, path: Path = PATH) -> None:
    """Write the pairs ``tally`` found as the known list, for the suite's budget."""
    findings = [
        {"class": cls, "name": name, "issue": ISSUE, "detail": tally.examples[cls, name]["detail"],
         "call": tally.examples[cls, name]["call"]}
        for cls, name in sorted(tally.by_name)
    ]  # fmt: skip
    content = {
        "about": "Differences the differential test's suite budget finds today (issue 43); "
        "regenerate: python -m tests.differential --suite --write-known",
        "numpy": np.__version__,
        "seed": SEED,
        "calls": CALLS,
        "findings": findings,
    }
    path.write_text(json.dumps(content, indent=1) + "\n")
