"""Shared by the tests that run pytest with cunumpy's plugin as its entry point loads it."""

from __future__ import annotations

import importlib.metadata


def entry_point_args() -> tuple[str, ...]:
    """``-p _cunumpy_pytestplugin`` where cunumpy's ``pytest11`` entry point is not installed
    (a checkout used from ``PYTHONPATH``); nothing where it is (pytest loads it itself)."""
    installed = {ep.name for ep in importlib.metadata.entry_points(group="pytest11")}
    return () if "cunumpy" in installed else ("-p", "_cunumpy_pytestplugin")
