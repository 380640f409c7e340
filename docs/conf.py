"""Sphinx configuration: MyST markdown pages plus the API reference from docstrings."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import cunumpy

project = "cunumpy"
author = "The cunumpy developers"
release = cunumpy.__version__
extensions = ["myst_parser", "sphinx.ext.autodoc", "sphinx.ext.napoleon"]
source_suffix = {".md": "markdown"}
myst_enable_extensions = ["colon_fence"]
myst_heading_anchors = 3
exclude_patterns = ["_build"]
napoleon_google_docstring = False
napoleon_numpy_docstring = True
autodoc_typehints = "none"
autodoc_member_order = "bysource"
html_theme = "alabaster"
suppress_warnings = ["myst.xref_missing"]
