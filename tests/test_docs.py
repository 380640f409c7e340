"""The API reference documents every public name at its public path, one page per module.

Builds the site once (Sphinx, into a temporary folder) and reads its object inventory,
the index that search and cross-references use: ``cunumpy.sum``, ``cunumpy.linalg.solve``
and ``cunumpy.cuda.stream`` must be there, not ``cunumpy._api.statistics.sum``.
"""

from __future__ import annotations

import html
import importlib
import re
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

pytest.importorskip(
    "sphinx.application", reason="the API reference is built with Sphinx (the docs extra)"
)

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "docs" / "_ext"))
try:
    import api_pages
finally:
    sys.path.pop(0)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("html")
    done = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",  # as CI
         "-d", str(out / ".doctrees"),
         str(ROOT / "docs"), str(out)],
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return out


def _inventory(site: Path) -> dict[str, set[str]]:
    """Object name -> its roles (``py:function``, ...), read from ``objects.inv``.

    Entries of priority -1 (the canonical paths autodoc records for cross-references, such
    as ``cunumpy.cuda._memory.MemoryStats``) are left out: search does not show them.
    """
    raw = (site / "objects.inv").read_bytes()
    header_end = 0
    for _ in range(4):  # four lines of header, then zlib-compressed entries
        header_end = raw.index(b"\n", header_end) + 1
    assert raw.startswith(b"# Sphinx inventory version 2")
    objects: dict[str, set[str]] = {}
    for line in zlib.decompress(raw[header_end:]).decode().splitlines():
        name, role, priority, *_ = line.split(" ")
        if priority == "-1":
            continue
        objects.setdefault(name, set()).add(role)
    return objects


def test_every_public_name_is_documented_at_its_public_path(site: Path) -> None:
    objects = _inventory(site)
    missing = [
        f"{module}.{name}"
        for module in api_pages.MODULES
        for name in importlib.import_module(module).__all__
        if not {r for r in objects.get(f"{module}.{name}", ()) if r.startswith("py:")}
    ]
    assert missing == []


def test_the_reference_shows_no_private_path(site: Path) -> None:
    python = [
        name for name, roles in _inventory(site).items() if any(r.startswith("py:") for r in roles)
    ]
    private = [
        name
        for name in python
        if any(part.startswith("_") and not part.endswith("__") for part in name.split("."))
    ]
    assert private == []
    assert "cunumpy.sum" in python


def test_the_named_examples_are_where_a_user_looks(site: Path) -> None:
    objects = _inventory(site)
    for name in ("cunumpy.sum", "cunumpy.linalg.solve", "cunumpy.cuda.stream",
                 "cunumpy.profiling.timed_region", "cunumpy.mpi.allreduce",
                 "cunumpy.synchronize", "cunumpy.fft.fft"):  # fmt: skip
        assert "py:function" in objects.get(name, set()), name
    assert "py:class" in objects["cunumpy.cuda.MemoryStats"]
    assert "py:data" in objects["cunumpy.float64"]
    assert "py:data" in objects["cunumpy.mpi.REDUCTION_OPS"]


def _signature_shown(site: Path, path: str) -> str:
    """The signature line the reference shows for ``path`` (``cunumpy.sum``), as text."""
    for page in (site / "api").rglob("*.html"):
        found = re.search(rf'<dt class="sig sig-object py" id="{re.escape(path)}">(.*?)</dt>',
                          page.read_text(), re.DOTALL)  # fmt: skip
        if found:
            text = re.sub(r"<[^>]+>", "", found.group(1))
            return " ".join(html.unescape(text).replace("\u00b6", "").split())
    raise AssertionError(f"no entry for {path} in the reference")


def test_the_reference_shows_numpys_parameters(site: Path) -> None:
    """Each function's entry shows NumPy's parameters and the standard's keywords
    (``inspect.signature``: cunumpy/_calls/_shown_signatures.py), not ``*args, **kwargs``."""
    shown = _signature_shown(site, "cunumpy.sum")
    assert "out=None" in shown and "initial=<no value>" in shown and "where=<no value>" in shown
    assert "kwargs" not in shown
    sort = _signature_shown(site, "cunumpy.sort")
    assert "kind=None" in sort and "stable=True" in sort and "descending=False" in sort
    assert "casting='same_kind'" in _signature_shown(site, "cunumpy.add")
    assert "ddof=0" in _signature_shown(site, "cunumpy.std")  # a def left in Python


def test_one_page_per_public_module(site: Path) -> None:
    for module in api_pages.MODULES:
        page = (site / "api" / f"{module}.html").read_text()
        assert f'id="module-{module}"' in page, module
    index = (site / "api" / "index.html").read_text()
    assert all(f'href="{module}.html"' in index for module in api_pages.MODULES)


def test_the_readme_names_every_reference_page() -> None:
    section = (ROOT / "README.md").read_text().split("## Documentation", 1)[1].split("\n## ")[0]
    named = set(re.findall(r"`(cunumpy[\w.]*)`", section))
    assert named == set(api_pages.MODULES)


def test_the_main_page_groups_names_as_the_standard_does(site: Path) -> None:
    page = (site / "api" / "cunumpy.html").read_text()
    titles = ["Creation functions", "Data type functions", "Element-wise functions",
              "Indexing functions", "Linear algebra functions", "Manipulation functions",
              "Searching functions", "Set functions", "Sorting functions",
              "Statistical functions", "Utility functions", "Constants", "Data types"]  # fmt: skip
    positions = [page.find(f'{title}<a class="headerlink"') for title in titles]
    assert -1 not in positions, dict(zip(titles, positions))
    assert positions == sorted(positions)
    # The entries are on one page per section (the tables link there).
    statistics = (site / "api" / "cunumpy" / "statistical-functions.html").read_text()
    assert 'id="cunumpy.sum"' in statistics and 'id="cunumpy.sum"' not in page


def test_a_name_without_a_group_gets_a_section_titled_by_its_module() -> None:
    entries = {e.path: e for e in api_pages.collect("cunumpy.mpi")}
    assert api_pages._title(entries["cunumpy.mpi.allreduce"].group) == "Collectives"
    assert (
        api_pages._title("cunumpy.mpi._buffers")
        == "How one rank hands array memory to MPI: directly, or staged through pinned host memory"
    )
    assert (
        entries["cunumpy.mpi.REDUCTION_OPS"].doc
        == "The reduction operations ``allreduce`` accepts."
    )
    assert entries["cunumpy.mpi.REDUCTION_OPS"].group == "cunumpy.mpi._collectives"


# --- the top level's page is split by section; the theme and the navigation ----------------


def test_a_large_module_gets_one_page_per_section_and_a_small_one_a_single_page() -> None:
    pages = api_pages.module_pages("cunumpy")
    entries = api_pages.collect("cunumpy")
    assert len(entries) > api_pages.SPLIT_ABOVE
    main = pages["cunumpy"]
    assert ".. autofunction::" not in main and ".. py:data::" not in main  # tables only
    sections = {stem: text for stem, text in pages.items() if stem != "cunumpy"}
    assert "cunumpy/creation-functions" in sections
    assert "cunumpy/element-wise-functions" in sections
    documented = [
        line.split("::", 1)[1].strip()
        for text in sections.values()
        for line in text.splitlines()
        if line.startswith((".. autofunction::", ".. autoclass::"))
    ]
    assert "cunumpy.sum" in documented and len(documented) == len(set(documented))
    for stem in sections:
        assert ":doc:`" in main and f"<{stem}>`" in main  # linked from its section's table
    assert list(api_pages.module_pages("cunumpy.cuda")) == ["cunumpy.cuda"]  # not split


def test_every_reference_page_exists_and_none_documents_the_whole_top_level(site: Path) -> None:
    for stem in api_pages.all_pages():
        assert (site / "api" / f"{stem}.html").exists(), stem
    top = (site / "api" / "cunumpy.html").read_text()
    assert top.count('<dl class="py function">') == 0
    elementwise = (site / "api" / "cunumpy" / "element-wise-functions.html").read_text()
    assert 'id="cunumpy.add"' in elementwise and 'id="cunumpy.sum"' not in elementwise


def test_every_page_starts_the_theme_in_a_valid_mode(site: Path) -> None:
    """Without a default mode, the theme's script logs "Got invalid theme mode" everywhere."""
    for page in ("index.html", "devices.html", "api/cunumpy.html"):
        text = (site / page).read_text()
        assert 'localStorage.getItem("mode") || "auto"' in text, page


def test_the_navigation_shows_each_pages_own_title() -> None:
    """A label in the main toctree, where given, is the page's title (one name per page)."""
    index = (ROOT / "docs" / "index.md").read_text()
    toctree = index.split("```{toctree}", 1)[1].split("```", 1)[0]
    entries = [line.strip() for line in toctree.splitlines()[1:] if line.strip()]
    entries = [e for e in entries if not e.startswith(":")]
    assert "devices" in entries or any(e.endswith("<devices>") for e in entries)
    for entry in entries:
        match = re.fullmatch(r"(.+?) <(.+)>", entry)
        if match is None:
            continue  # no label: Sphinx shows the page's title
        label, page = match.groups()
        source = ROOT / "docs" / f"{page}.md"
        if source.exists():
            title = re.search(r"^# (.+)$", source.read_text(), re.MULTILINE)
            assert title is not None and title.group(1) == label, (label, page)
