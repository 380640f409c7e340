"""Hypothesis settings and strategies shared by the property-based tests."""

from __future__ import annotations

from functools import cache
from types import ModuleType
from typing import Any

from hypothesis import settings

from cunumpy.testing.strategies import _quiet_namespace

SETTINGS = settings(settings.get_profile("array_api_tests"))


@cache
def strategies(xp: ModuleType) -> Any:
    return _quiet_namespace(xp, "2024.12")
