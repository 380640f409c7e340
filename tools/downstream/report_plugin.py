"""Pytest plugin of the downstream check: a per-test report that survives crashes, and a selection.

Loaded with ``-p report_plugin`` (``tools/downstream`` on ``PYTHONPATH``) by
``tools/downstream/struphy.sh``. Environment:

- ``CUNUMPY_DOWNSTREAM_REPORT``: the report, one JSON line per test as it ends (its id,
  outcome ``passed``/``failed``/``error``/``skipped``, duration in seconds with setup and
  teardown, and the last line of its failure). A test that starts writes a ``crashed``
  line first, so a test that ends the process stays recorded. Tests already in the
  report when the session starts are deselected: running the same command again
  resumes after a crash.
- ``CUNUMPY_DOWNSTREAM_KEEP``: a file of test ids, one a line; the other tests are
  deselected.

Under pytest-xdist (``-n 1``) only the controller writes the report: it sees every test's
start and reports, and a test that kills its worker as a failure ("worker 'gw0' crashed
while running ..."), after which the worker is restarted and the run goes on. A restarted
worker deselects the tests its first one did (those in the report's first lines, as many
as the controller found there at its start): xdist requires the same collection.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

_RESULTS: dict[str, dict[str, object]] = {}
_RANK = {"passed": 0, "skipped": 1, "failed": 2, "error": 3, "crashed": 4}


def _report() -> Path | None:
    path = os.environ.get("CUNUMPY_DOWNSTREAM_REPORT")
    return Path(path) if path else None


def _write(entry: dict[str, object]) -> None:
    path = _report()
    if path is not None and "PYTEST_XDIST_WORKER" not in os.environ:  # xdist's controller writes
        with path.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(entry) + "\n")


def pytest_configure(config: pytest.Config) -> None:
    path = _report()
    if path is not None and "PYTEST_XDIST_WORKER" not in os.environ:  # the workers inherit it
        lines = path.read_text(encoding="utf-8").count("\n") if path.exists() else 0
        os.environ["CUNUMPY_DOWNSTREAM_DONE_LINES"] = str(lines)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    keep: set[str] | None = None
    if os.environ.get("CUNUMPY_DOWNSTREAM_KEEP"):
        with open(os.environ["CUNUMPY_DOWNSTREAM_KEEP"], encoding="utf-8") as handle:
            keep = {line.strip() for line in handle if line.strip()}
    path = _report()
    lines = int(os.environ.get("CUNUMPY_DOWNSTREAM_DONE_LINES", "0"))
    done = set(load(path, lines)) if path is not None and lines else set()
    selected = [i for i in items if (keep is None or i.nodeid in keep) and i.nodeid not in done]
    deselected = [i for i in items if i not in selected]
    if deselected:
        config.hook.pytest_deselected(items=deselected)
    items[:] = selected


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> object:
    """The report, also when pytest cannot format the failure.

    A test stopped by pytest-timeout in compiled code can leave a traceback entry without
    a line number, which pytest fails to format (an INTERNALERROR that ends the run): the
    test is then reported failed with the exception's message.
    """
    try:
        return (yield)
    except TypeError:
        excinfo = call.excinfo
        message = f"{excinfo.typename}: {excinfo.value}" if excinfo else "failed"
        return pytest.TestReport(
            item.nodeid, item.location, dict(item.keywords), "failed", message, call.when,
            duration=call.duration, start=call.start, stop=call.stop,
        )  # fmt: skip


def pytest_runtest_logstart(nodeid: str) -> None:
    _write(
        {
            "test": nodeid,
            "outcome": "crashed",
            "duration": 0.0,
            "message": "the test process ended in this test",
        }
    )


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    entry = _RESULTS.setdefault(
        report.nodeid, {"test": report.nodeid, "outcome": "passed", "duration": 0.0, "message": ""}
    )
    entry["duration"] = float(entry["duration"]) + report.duration  # type: ignore[arg-type]
    # xdist reports a test that killed its worker once, in no phase ("???"): ``crashed``
    ended = report.when not in ("setup", "call")
    if not report.passed:
        outcome = "skipped" if report.skipped else "failed" if report.when == "call" else "error"
        crashed = report.when not in ("setup", "call", "teardown")
        if crashed:
            outcome = "crashed"
        if _RANK[outcome] > _RANK[str(entry["outcome"])]:
            entry["outcome"] = outcome
            longrepr = report.longrepr
            if report.skipped and isinstance(longrepr, tuple):  # (path, line, "Skipped: why")
                longrepr = longrepr[2]
            lines = [line for line in str(longrepr or "").splitlines() if line.strip()]
            entry["message"] = (lines[-1].strip() if lines else "")[:300]
            if crashed:  # xdist names the worker (gw0, gw1, ...): one message for every crash
                entry["message"] = "the test ended its xdist worker's process (see the log)"
    if ended:
        _write(_RESULTS.pop(report.nodeid))


def load(path: str | Path, lines: int | None = None) -> dict[str, dict[str, object]]:
    """The report at ``path`` (its first ``lines`` lines, or all): each test's last line."""
    results = {}
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle):
            if lines is not None and number >= lines:
                break
            if line.strip():
                entry = json.loads(line)
                results[entry["test"]] = entry
    return results
