"""Compare two per-test reports of the downstream check (baseline 0.7.0 against ours).

``python compare.py BASELINE.json OURS.json [--max-seconds S] [--keep OUT]`` prints the
outcomes of both runs over the selection (the tests the baseline ran in at most
``S`` seconds; all when ``S`` is 0), every regression (passed on the baseline, not on
ours) grouped by its message, and the tests that fail on ours for a missing name.
``--keep OUT`` only writes the selection, one test id a line, and prints its size.
"""

from __future__ import annotations

import argparse
import collections
import re

_MISSING = re.compile(r"(ImportError|ModuleNotFoundError|AttributeError).*cunumpy")


def _load(path: str) -> dict[str, dict[str, object]]:
    from report_plugin import load

    return load(path)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("baseline")
    parser.add_argument("ours", nargs="?")
    parser.add_argument("--max-seconds", type=float, default=0.0)
    parser.add_argument("--keep")
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
    missing = {"outcome": "not run", "duration": 0.0, "message": "not collected on ours"}
    for name, run in (("baseline", baseline), ("ours", ours)):
        counts = collections.Counter(str(run.get(test, missing)["outcome"]) for test in selection)
        print(f"{name}: " + ", ".join(f"{n} {outcome}" for outcome, n in sorted(counts.items())))
    regressions = [
        test
        for test in selection
        if baseline[test]["outcome"] == "passed" and ours.get(test, missing)["outcome"] != "passed"
    ]
    print(f"regressions: {len(regressions)} of {len(selection)} selected tests")
    groups: dict[str, list[str]] = collections.defaultdict(list)
    for test in regressions:
        entry = ours.get(test, missing)
        groups[f"[{entry['outcome']}] {entry['message']}"].append(test)
    for message, tests in sorted(groups.items(), key=lambda item: -len(item[1])):
        print(f"\n{len(tests)} x {message}")
        for test in tests:
            print(f"    {test}")
    names = [
        test for test in regressions if _MISSING.search(str(ours.get(test, missing)["message"]))
    ]
    print(f"\nregressions for a missing cunumpy name: {len(names)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
