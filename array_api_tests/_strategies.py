"""Hypothesis settings and strategies shared by the property-based tests."""

from __future__ import annotations

from functools import cache
from types import ModuleType
from typing import Any

from hypothesis import settings
from hypothesis.extra.array_api import make_strategies_namespace

SETTINGS = settings(settings.get_profile("array_api_tests"))


@cache
def strategies(xp: ModuleType) -> Any:
    return make_strategies_namespace(xp, api_version="2024.12")
