"""The ``pytest11`` entry point of ``cunumpy.testing.plugin``: loads the plugin late.

pytest imports entry-point plugins before it applies ``pythonpath`` and loads conftest
files. Importing ``cunumpy.testing.plugin`` there would import ``cunumpy`` from wherever it
is installed, even in a source checkout whose tests ask for the checkout's own ``cunumpy``
(``pythonpath = ["."]``). This module imports nothing but pytest; it registers the plugin
once the search path is final, as hypothesis does with ``_hypothesis_pytestplugin``.

``-p no:cunumpy`` turns it off; ``-p no:cunumpy.testing.plugin`` turns off the plugin itself.
"""

from __future__ import annotations

import pytest

__all__ = ["pytest_load_initial_conftests"]

PLUGIN = "cunumpy.testing.plugin"


@pytest.hookimpl(trylast=True)
def pytest_load_initial_conftests(early_config: pytest.Config) -> None:
    """Register ``cunumpy.testing.plugin``, unless it is blocked or already registered."""
    early_config.pluginmanager.import_plugin(PLUGIN)
