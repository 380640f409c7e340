"""Compare two per-test reports of the downstream check (baseline 0.7.0 against ours).

``python compare.py BASELINE.json OURS.json [--max-seconds S] [--name NAME]
[--new-failures] [--keep OUT]`` prints the outcomes of both runs over the selection (the
tests the baseline ran in at most ``S`` seconds; all when ``S`` is 0), every regression
(passed on the baseline, not on ours) grouped by its message, and the tests that fail on
ours for a missing name. ``--name NAME`` prints the outcomes as a table (passed, failed,
skipped; a test that ended its process counts as failed) with the most common reasons
for skipping. ``--new-failures`` also prints ours' failures on tests that the baseline
did not pass: those it skipped (it cannot run them) and those that fail on both. ``--keep
OUT`` only writes the selection, one test id a line, and prints its size.
"""

from __future__ import annotations

import argparse
import collections
import re

_MISSING = re.compile(r"(ImportError|ModuleNotFoundError|AttributeError).*cunumpy")
_FAILED = ("failed", "error", "crashed")
_NOT_RUN = {"outcome": "not run", "duration": 0.0, "message": "not collected on ours"}

Report = dict[str, dict[str, object]]


def _load(path: str) -> Report:
    from report_plugin import load

    return load(path)


def _outcome(run: Report, test: str) -> str:
    return str(run.get(test, _NOT_RUN)["outcome"])


def _grouped(title: str, tests: list[str], run: Report) -> None:
    """``title`` with the number of ``tests``, then the tests grouped by ``run``'s message."""
    print(f"{title}: {len(tests)}")
    groups: dict[str, list[str]] = collections.defaultdict(list)
    for test in tests:
        entry = run.get(test, _NOT_RUN)
        groups[f"[{entry['outcome']}] {entry['message']}"].append(test)
    for message, members in sorted(groups.items(), key=lambda item: -len(item[1])):
        print(f"\n{len(members)} x {message}")
        for test in members:
            print(f"    {test}")
    print()


def _table(name: str, runs: dict[str, Report], selection: list[str]) -> None:
    """The outcomes of each run as a Markdown table, then its most common skip reasons."""
    print("| | passed | failed | skipped |\n|---|---|---|---|")
    skips: dict[str, list[tuple[str, int]]] = {}
    for label, run in runs.items():
        outcomes = collections.Counter(_outcome(run, test) for test in selection)
        failed = sum(outcomes[outcome] for outcome in _FAILED)
        print(f"| {name} on {label} | {outcomes['passed']} | {failed} | {outcomes['skipped']} |")
        reasons = collections.Counter(
            str(run[test]["message"]) for test in selection if _outcome(run, test) == "skipped"
        )
        skips[label] = reasons.most_common(3)
    for label, common in skips.items():
        for reason, n in common:
            print(f"    skipped on {label}: {n} x {reason}")
    print()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("baseline")
    parser.add_argument("ours", nargs="?")
    parser.add_argument("--max-seconds", type=float, default=0.0)
    parser.add_argument("--keep")
    parser.add_argument("--name")
    parser.add_argument("--new-failures", action="store_true")
    args = parser.parse_args()
    baseline = _load(args.baseline)
    selection = sorted(
        test
        for test, entry in baseline.items()
        if not args.max_seconds or float(entry["duration"]) <= args.max_seconds  # type: ignore[arg-type]
    )
    if args.keep:
        with open(args.keep, "w", encoding="utf-8") as handle:
            handle.writelines(f"{test}\n" for test in selection)
        print(f"selection: {len(selection)} of {len(baseline)} tests")
        return 0
    ours = _load(args.ours)
    if args.name:
        _table(args.name, {"0.7.0": baseline, "ours": ours}, selection)
    for name, run in (("baseline", baseline), ("ours", ours)):
        counts = collections.Counter(_outcome(run, test) for test in selection)
        print(f"{name}: " + ", ".join(f"{n} {outcome}" for outcome, n in sorted(counts.items())))
    regressions = [
        test
        for test in selection
        if baseline[test]["outcome"] == "passed" and _outcome(ours, test) != "passed"
    ]
    _grouped(f"regressions (of {len(selection)} selected tests)", regressions, ours)
    if args.new_failures:
        failing = [test for test in selection if _outcome(ours, test) in _FAILED]
        _grouped(
            "failures of ours on tests 0.7.0 cannot run (skipped there)",
            [test for test in failing if baseline[test]["outcome"] == "skipped"],
            ours,
        )
        _grouped(
            "failures of ours on tests that fail on 0.7.0 too",
            [test for test in failing if baseline[test]["outcome"] in _FAILED],
            ours,
        )
    names = [
        test for test in regressions if _MISSING.search(str(ours.get(test, _NOT_RUN)["message"]))
    ]
    print(f"regressions for a missing cunumpy name: {len(names)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
