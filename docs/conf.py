"""Sphinx configuration: MyST markdown pages plus the API reference from docstrings.

The reference pages (``api/*.rst``) are written at each build by ``_ext/api_pages.py``
from the public modules' ``__all__``.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent / "_ext"))

from api_pages import all_pages

import cunumpy

project = "cunumpy"
author = "The cunumpy developers"
copyright = "The cunumpy developers"
release = cunumpy.__version__
version = cunumpy.__version__
extensions = ["myst_parser", "sphinx.ext.autodoc", "sphinx.ext.napoleon", "api_pages"]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
myst_enable_extensions = ["colon_fence"]
myst_heading_anchors = 3
exclude_patterns = ["_build", "_ext"]
napoleon_google_docstring = False
napoleon_numpy_docstring = True
autodoc_typehints = "none"
autodoc_member_order = "bysource"
suppress_warnings = ["myst.xref_missing"]

html_theme = "pydata_sphinx_theme"
html_title = f"cunumpy {release}"
html_theme_options = {
    "navbar_align": "left",
    "show_toc_level": 1,
    "header_links_before_dropdown": 6,
    "navbar_persistent": [],
    "navbar_end": ["search-button", "theme-switcher"],
    "navigation_with_keys": False,
    "secondary_sidebar_items": ["page-toc"],
    "footer_start": ["copyright"],
    "footer_end": ["sphinx-version"],
}
# Only the API reference has pages below it to list; elsewhere the left sidebar stays empty.
# Each page is named (Sphinx warns when a page matches two patterns with wildcards).
html_sidebars = {"**": [], **{f"api/{page}": ["sidebar-nav-bs"] for page in all_pages()}}
# The theme's light/dark switch starts from this mode; without it, every page's script
# logs "Got invalid theme mode" in the browser console.
html_context = {"default_mode": "auto"}
