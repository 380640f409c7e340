"""A pytest plugin that turns Hypothesis's shrinking off (``run.py --no-shrink``).

The suite's conftest loads its own Hypothesis profile in ``pytest_configure``; this hook
runs after it and loads a copy of that profile without the shrink phase. A failing test
then reports the first counterexample it found instead of shrinking it, which on a slow
namespace (Dask builds a graph per call) can take minutes per failure.
"""

from __future__ import annotations

import pytest
from hypothesis import Phase, settings


@pytest.hookimpl(trylast=True)
def pytest_configure(config: pytest.Config) -> None:
    """Load the current profile again, minus :data:`hypothesis.Phase.shrink`."""
    current = settings()
    phases = tuple(phase for phase in current.phases if phase is not Phase.shrink)
    settings.register_profile("no-shrink", parent=current, phases=phases)
    settings.load_profile("no-shrink")
