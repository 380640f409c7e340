"""Pytest plugin of the downstream check: a per-test JSON report and a kept selection.

Loaded with ``-p report_plugin`` (``tools/downstream`` on ``PYTHONPATH``) by
``tools/downstream/struphy.sh``. Environment:

- ``CUNUMPY_DOWNSTREAM_REPORT``: path of the JSON report to write, one entry per test id
  with its outcome (``passed``, ``failed``, ``error``, ``skipped``), its duration in
  seconds (setup, call and teardown) and the last line of its failure.
- ``CUNUMPY_DOWNSTREAM_KEEP``: path of a file of test ids, one a line; the other tests
  are deselected.
"""

from __future__ import annotations

import json
import os

import pytest

_RESULTS: dict[str, dict[str, object]] = {}
_RANK = {"passed": 0, "skipped": 1, "failed": 2, "error": 3}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    keep_path = os.environ.get("CUNUMPY_DOWNSTREAM_KEEP")
    if not keep_path:
        return
    with open(keep_path, encoding="utf-8") as handle:
        keep = {line.strip() for line in handle if line.strip()}
    selected = [item for item in items if item.nodeid in keep]
    deselected = [item for item in items if item.nodeid not in keep]
    if deselected:
        config.hook.pytest_deselected(items=deselected)
    items[:] = selected


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    entry = _RESULTS.setdefault(
        report.nodeid, {"outcome": "passed", "duration": 0.0, "message": ""}
    )
    entry["duration"] = float(entry["duration"]) + report.duration  # type: ignore[arg-type]
    if report.passed:
        return
    if report.skipped:
        outcome = "skipped"
    elif report.when == "call":
        outcome = "failed"
    else:
        outcome = "error"
    if _RANK[outcome] > _RANK[str(entry["outcome"])]:
        entry["outcome"] = outcome
        text = str(report.longrepr or "")
        lines = [line for line in text.splitlines() if line.strip()]
        errors = [line for line in lines if line.startswith("E ")]
        entry["message"] = (errors[-1] if errors else lines[-1] if lines else "")[:300]


def pytest_sessionfinish(session: pytest.Session) -> None:
    path = os.environ.get("CUNUMPY_DOWNSTREAM_REPORT")
    if path:
        with open(path, "w", encoding="utf-8") as handle:
            json.dump(_RESULTS, handle, indent=0, sort_keys=True)
