"""The CuPy versions cunumpy supports: the pins in pyproject.toml and the check at the probe."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import tomllib

from cunumpy._settings._cupy_probe import MIN_CUPY, unsupported_cupy_version

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"


@pytest.mark.parametrize(
    ("version", "supported"),
    [
        ("12.3.0", False),
        ("13.3.0", False),
        ("13.4.1", False),
        ("13.5.0", True),
        ("13.5.1", True),
        ("13.10.0", True),
        ("14.2.0", True),
        ("15.0.0rc1", True),
        ("14.0.0a1", True),
    ],
)
def test_versions_below_the_floor_are_named_in_the_reason(version: str, supported: bool) -> None:
    reason = unsupported_cupy_version(version)
    if supported:
        assert reason is None
    else:
        assert reason is not None
        assert reason.startswith(f"CuPy {version} is older than 13.5")


def test_an_unreadable_version_is_a_reason() -> None:
    assert unsupported_cupy_version("dev") == "CuPy reports an unreadable version 'dev'"


def test_pyproject_pins_are_the_floor_or_above() -> None:
    extras = tomllib.loads(PYPROJECT.read_text())["project"]["optional-dependencies"]
    floors = {}
    for name in ("cuda12", "cuda13", "cuda12-ctk", "cuda13-ctk"):
        (requirement,) = [r for r in extras[name] if r.startswith("cupy-")]  # also numba-cuda
        match = re.fullmatch(r"cupy-cuda1[23]x(\[ctk\])?>=(\d+)\.?(\d*)", requirement)
        assert match, requirement
        floors[name] = (int(match[2]), int(match[3] or 0))
    assert floors["cuda12"] == MIN_CUPY  # the lowest version claimed is the one checked
    assert all(floor >= MIN_CUPY for floor in floors.values())
