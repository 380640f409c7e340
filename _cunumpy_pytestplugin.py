"""The ``pytest11`` entry point of ``cunumpy.testing.plugin``: loads the plugin late.

pytest imports entry-point plugins before it applies ``pythonpath`` and loads conftest
files. Importing ``cunumpy.testing.plugin`` there would import ``cunumpy`` from wherever it
is installed, even in a source checkout whose tests ask for the checkout's own ``cunumpy``
(``pythonpath = ["."]``). This module imports nothing but pytest; it registers the plugin
once the search path is final, as hypothesis does with ``_hypothesis_pytestplugin``.

Once the initial ``conftest.py`` files are loaded, it gives the plugin's ``--cunumpy-xp`` its
short name ``--xp``, unless one of them (or another plugin) has taken that name: a project
with its own ``--xp`` keeps it.

``-p no:cunumpy`` turns it off; ``-p no:cunumpy.testing.plugin`` turns off the plugin itself.
"""

from __future__ import annotations

from collections.abc import Generator

import pytest

__all__ = ["ShortOption", "pytest_addoption", "pytest_load_initial_conftests"]

PLUGIN = "cunumpy.testing.plugin"
SHORT_OPTION = "cunumpy-short-option"


@pytest.hookimpl(trylast=True)
def pytest_load_initial_conftests(early_config: pytest.Config) -> None:
    """Register ``cunumpy.testing.plugin``, unless it is blocked or already registered."""
    early_config.pluginmanager.import_plugin(PLUGIN)


class ShortOption:
    """Gives the plugin's ``--cunumpy-xp`` the short name ``--xp`` once the initial
    ``conftest.py`` files have added their options, where the name is still free. A plugin
    object of its own: this module's ``pytest_load_initial_conftests`` registers the plugin
    and cannot also wrap the loading of the conftest files."""

    @pytest.hookimpl(wrapper=True)
    def pytest_load_initial_conftests(
        self, early_config: pytest.Config, parser: pytest.Parser
    ) -> Generator[None, None, None]:
        """Add ``--xp`` after the initial ``conftest.py`` files, if it is free."""
        yield
        plugin = early_config.pluginmanager.get_plugin(PLUGIN)
        if plugin is not None:
            plugin._add_short_option(parser)


def pytest_addoption(pluginmanager: pytest.PytestPluginManager) -> None:
    """Register ``ShortOption`` (this hook runs when pytest loads this module)."""
    if not pluginmanager.has_plugin(SHORT_OPTION):
        pluginmanager.register(ShortOption(), SHORT_OPTION)
