"""Findings: the deliberate differences (data), the tally by class and name, the tables.

A finding is a dict: ``name`` (as written after ``np.``), ``class``, ``detail`` and ``call``
(the reproducer, runnable as ``xp.<call>`` and ``np.<call>``). The deliberate differences
are the entries of ``deliberate.json``: a finding matching an entry's ``name`` (a
``fnmatch`` pattern), ``classes``, and the regular expressions ``detail`` and ``call``
(where given) is one of them, counted apart with the entry's ``reason``.
"""

from __future__ import annotations

import fnmatch
import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
#: Reproducers kept per class and name: one for each of the first details that differ in words.
VARIANTS = 4
_VALUES = re.compile(r"[-+\d.e]+|'[^']*'|<[^>]*>|\([^)]*\)|\[[^\]]*\]")
CLASSES = ("silent", "accepts", "refuses", "exception-class", "warning", "crash")


def load_deliberate(path: Path = HERE / "deliberate.json") -> list[dict[str, Any]]:
    """The deliberate differences, each with its compiled conditions."""
    entries = json.loads(path.read_text())["deliberate"]
    for entry in entries:
        assert entry.get("reason"), entry  # every deliberate difference says why
        entry["_detail"] = re.compile(entry.get("detail", ""))
        entry["_call"] = re.compile(entry.get("call", ""))
    return entries


def deliberate_entry(finding: dict[str, Any], entries: list[dict[str, Any]]) -> dict | None:
    """The deliberate entry that ``finding`` is an instance of, or ``None``."""
    for entry in entries:
        if (
            fnmatch.fnmatchcase(finding["name"], entry["name"])
            and finding["class"] in entry["classes"]
            and entry["_detail"].search(finding["detail"])
            and entry["_call"].search(finding["call"])
        ):
            return entry
    return None


class Tally:
    """The findings of a run, by class and name, with the first reproducer of each."""

    def __init__(self, entries: list[dict[str, Any]]) -> None:
        self.entries = entries
        self.calls = 0
        self.by_class: Counter[str] = Counter()
        self.by_name: Counter[tuple[str, str]] = Counter()
        self.examples: dict[tuple[str, str], dict[str, Any]] = {}
        self.deliberate: Counter[str] = Counter()
        self.variants: dict[tuple[str, str], dict[str, dict[str, Any]]] = {}

    def add(self, finding: dict[str, Any]) -> None:
        entry = deliberate_entry(finding, self.entries)
        if entry is not None:
            self.deliberate[entry["reason"]] += 1
            return
        key = (finding["class"], finding["name"])
        self.by_class[finding["class"]] += 1
        self.by_name[key] += 1
        self.examples.setdefault(key, finding)
        variants = self.variants.setdefault(key, {})
        if len(variants) < VARIANTS:
            variants.setdefault(_VALUES.sub("", finding["detail"])[:60], finding)

    def open_pairs(self) -> set[tuple[str, str]]:
        """The ``(class, name)`` pairs found, deliberate ones left out."""
        return set(self.by_name)

    def table(self) -> str:
        """The findings by class, then by class and name, as plain text."""
        lines = [f"{self.calls} calls, {sum(self.by_class.values())} findings "
                 f"(+{sum(self.deliberate.values())} deliberate)", "", "class            findings  names"]  # fmt: skip
        for cls in CLASSES:
            names = sorted(n for c, n in self.by_name if c == cls)
            lines.append(f"{cls:<16} {self.by_class[cls]:>8}  {len(names):>5}")
        for cls in CLASSES:
            names = sorted(
                (n for c, n in self.by_name if c == cls), key=lambda n: -self.by_name[cls, n]
            )
            if names:
                lines.append(
                    f"\n{cls}: " + ", ".join(f"{n} ({self.by_name[cls, n]})" for n in names)
                )
        if self.deliberate:
            lines.append(
                "\ndeliberate: " + "; ".join(f"{n} x {r}" for r, n in self.deliberate.most_common())
            )
        return "\n".join(lines)

    def markdown(self, header: str) -> str:
        """The table by class, and for each class its names, each with a reproducer for each
        of its first ``VARIANTS`` kinds of detail."""
        out = [header, "", "| class | findings | names |", "|---|---|---|"]
        for cls in CLASSES:
            names = [n for c, n in self.by_name if c == cls]
            out.append(f"| {cls} | {self.by_class[cls]} | {len(names)} |")
        for cls in CLASSES:
            keys = sorted((k for k in self.by_name if k[0] == cls), key=lambda k: k[1])
            if not keys:
                continue
            out += ["", f"## {cls} ({len(keys)} names)", ""]
            for key in keys:
                out.append(f"- `{key[1]}` ({self.by_name[key]}):")
                for example in self.variants[key].values():
                    out.append(f"  - {example['detail']}  ")
                    out.append(f"    `xp.{example['call'][:400]}`")
        if self.deliberate:
            out += ["", "## deliberate (deliberate.json)", ""]
            out += [f"- {n}: {r}" for r, n in self.deliberate.most_common()]
        return "\n".join(out) + "\n"
