"""A checker of the Chrome trace event format (JSON object form) for the trace tests.

It follows the format's specification ("Trace Event Format", the document chrome://tracing
and Perfetto implement): the object holds ``traceEvents``, a list of events; every event
has ``name``, ``ph``, ``pid`` and ``tid``; every event but metadata has ``ts`` in
microseconds; complete events (``X``) have a ``dur`` >= 0; metadata events (``M``) name
a process or thread in ``args.name`` or sort it in ``args.sort_index``; counters (``C``)
carry numbers in ``args``; instant events (``i``) have a scope ``s`` of g, p or t. Every
process that holds events has a ``process_name``, and every thread a ``thread_name``.
"""

from __future__ import annotations

from typing import Any

__all__ = ["PHASES", "check_trace_document"]

PHASES = frozenset("BEXiIbneCMsftPONDc")  # the phases the format defines (and R, mark)
METADATA = frozenset({"process_name", "process_labels", "process_sort_index", "thread_name", "thread_sort_index"})  # fmt: skip


def check_trace_document(document: Any) -> list[dict[str, Any]]:
    """Raise AssertionError at the first departure from the format; return the events."""
    assert isinstance(document, dict), f"a trace must be a JSON object, not {type(document)}"
    events = document.get("traceEvents")
    assert isinstance(events, list), "the object must hold a list `traceEvents`"
    if "displayTimeUnit" in document:
        assert document["displayTimeUnit"] in ("ms", "ns")
    for n, event in enumerate(events):
        where = f"event {n} {event!r:.200}"
        assert isinstance(event, dict), where
        for key in ("name", "ph", "pid", "tid"):
            assert key in event, f"{where}: no {key!r}"
        assert isinstance(event["name"], str), where
        assert event["ph"] in PHASES or event["ph"] == "R", f"{where}: unknown phase"
        assert isinstance(event["pid"], int) and isinstance(event["tid"], int), where
        if event["ph"] == "M":
            assert event["name"] in METADATA, f"{where}: unknown metadata event"
            args = event.get("args")
            assert isinstance(args, dict), where
            key = "sort_index" if event["name"].endswith("sort_index") else "name"
            assert key in args, f"{where}: metadata without args.{key}"
            continue
        assert isinstance(event.get("ts"), (int, float)), f"{where}: `ts` must be a number"
        if event["ph"] == "X":
            dur = event.get("dur")
            assert isinstance(dur, (int, float)) and dur >= 0, f"{where}: `dur` must be >= 0"
        if event["ph"] == "C":
            args = event.get("args")
            assert isinstance(args, dict) and args, where
            assert all(isinstance(v, (int, float)) for v in args.values()), where
        if event["ph"] in ("i", "I"):
            assert event.get("s", "t") in ("g", "p", "t"), where
        if "args" in event:
            assert isinstance(event["args"], dict), where
    # Every process and thread that holds events is named by a metadata event.
    named = {(e["pid"], e["tid"]) for e in events if e["ph"] == "M" and e["name"] == "thread_name"}
    processes = {e["pid"] for e in events if e["ph"] == "M" and e["name"] == "process_name"}
    for event in events:
        if event["ph"] != "M":
            assert event["pid"] in processes, f"process {event['pid']} has no process_name"
            if event.get("s") != "p":  # a process-wide instant belongs to no thread
                assert (event["pid"], event["tid"]) in named, f"thread of {event!r:.120} unnamed"
    return events
