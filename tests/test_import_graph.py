"""The house plan: imports go down the floors of ``tests/floors.py``, and no circle.

Every import of every module of ``cunumpy`` counts (in functions too, not those under
``TYPE_CHECKING``): a circle through an import inside a function is one too, since the
two modules still need each other and a reader of either cannot understand it alone.
``tests/import_graph.py`` builds the graph; ``docs/architecture.md`` shows the floors,
and its table is ``floors.table()``.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest
from floors import FLOORS, PLACES, table
from import_graph import ROOT, cycles, floor_of, import_graph, imports_against

# Old module paths that clients import, kept as re-export modules, and one name each
# that must resolve there (the module it moved to, and the name).
KEPT_PATHS = {
    "cunumpy._dispatch": ("cunumpy._calls._where_to_run", "_namespace_of_one"),
    "cunumpy._host": ("cunumpy._on_host._host_call", "host_call"),
    "cunumpy._fake_cupy": ("cunumpy._emulation._fake", "is_active"),
    "cunumpy.dask": ("cunumpy._backends.dask", "asarray"),
}


def test_the_graph_sees_imports_inside_functions(tmp_path: Path) -> None:
    package = tmp_path / "cunumpy"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("def f():\n    from .b import g\n    return g\n")
    (package / "b.py").write_text(
        "from typing import TYPE_CHECKING\nfrom . import a\n"
        "if TYPE_CHECKING:\n    from .c import T\n"
    )
    (package / "c.py").write_text("import cunumpy.a\n")
    graph = import_graph(package)
    assert graph["cunumpy.a"] == {"cunumpy.b"}
    assert graph["cunumpy.b"] == {"cunumpy.a"}  # the TYPE_CHECKING import is no edge
    assert cycles(graph) == [["cunumpy.a", "cunumpy.b"]]
    assert import_graph(package, at_import=True)["cunumpy.a"] == set()
    typed = import_graph(package, type_checking=True)
    assert typed["cunumpy.b"] == {"cunumpy.a", "cunumpy.c"}
    assert cycles(typed) == [["cunumpy.a", "cunumpy.b", "cunumpy.c"]]


def test_the_cycle_finder_finds_a_long_circle_and_no_false_one() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == []


def test_the_graph_of_cunumpy_has_the_known_function_level_edge() -> None:
    graph = import_graph()
    # imported inside a function (CuPy's namespace is loaded on first use)
    assert "cunumpy._backends.cupy" in graph["cunumpy._namespaces._array_namespace"]


def test_no_import_circle_even_through_imports_in_functions() -> None:
    """A new circle fails here: break it by moving code down a floor, not by a late import."""
    assert cycles(import_graph()) == []


def test_no_import_circle_even_through_imports_for_type_checkers() -> None:
    """``Kernel.from_folder`` builds itself from what ``_kernel_folder`` reads, so that module
    needs no ``Kernel``, not even under ``if TYPE_CHECKING`` (the circle it once was)."""
    assert cycles(import_graph(type_checking=True)) == []
    graph = import_graph(type_checking=True)
    assert (
        "cunumpy.kernels._catalog._kernel_folder" in graph["cunumpy.kernels._catalog._kernel_pair"]
    )


def test_a_module_is_on_the_floor_of_the_longest_place_holding_it() -> None:
    places = {"_backends/": 2, "_backends/dask/": 3, "xp.py": 8, "__init__.py": 8}
    assert floor_of("cunumpy._backends.numpy._sets", places) == 2
    assert floor_of("cunumpy._backends.dask._chunks", places) == 3
    assert floor_of("cunumpy._backends.dask", places) == 3
    assert floor_of("cunumpy.xp", places) == 8
    assert floor_of("cunumpy", places) == 8
    assert floor_of("cunumpy.xpath", places) is None  # a file place holds itself only
    assert floor_of("cunumpy._backends_extra", places) is None


def test_an_import_up_a_floor_is_found() -> None:
    places = {"low/": 0, "high/": 1}
    graph = {
        "cunumpy.low.a": {"cunumpy.high.b"},  # up
        "cunumpy.high.b": {"cunumpy.low.a", "cunumpy.high.c"},  # down, and its own floor
        "cunumpy.high.c": set(),
    }
    assert imports_against(graph, places) == [("cunumpy.low.a", "cunumpy.high.b")]


def test_every_module_of_cunumpy_has_a_floor() -> None:
    assert [m for m in import_graph() if floor_of(m, PLACES) is None] == []


def test_every_place_of_the_floor_table_exists() -> None:
    package = ROOT / "cunumpy"
    missing = [place for place in PLACES if not (package / place).exists()]
    assert missing == []
    assert sum(len(floor.places) for floor in FLOORS) == len(PLACES)  # no place twice


def test_imports_only_go_down_the_floors() -> None:
    """Module-level imports and imports in functions: a module imports its floor and below.

    An import that points up is a circle waiting to happen: move the shared code down
    (or the importer up) instead. There are no exceptions.
    """
    assert imports_against(import_graph(), PLACES) == []


def test_production_code_never_imports_kernel_testing() -> None:
    """Only ``kernel_testing`` itself imports it (the top level loads it by name, lazily)."""
    users = {
        module
        for module, targets in import_graph().items()
        if any(t.startswith("cunumpy.kernel_testing") for t in targets)
    }
    assert {m for m in users if not m.startswith("cunumpy.kernel_testing")} == set()


def test_the_docs_show_the_floor_table() -> None:
    """``docs/architecture.md``'s table is ``floors.table()`` (``python tests/floors.py``)."""
    assert table() in (ROOT / "docs" / "architecture.md").read_text()


# Per-backend folders give their topic modules the same names on purpose (``_sorting``).
PER_BACKEND = ("cunumpy/_backends/numpy/", "cunumpy/_backends/cupy/", "cunumpy/_backends/dask/")


def same_names(package: Path) -> dict[str, list[str]]:
    """Module file names held by two or more modules (not ``__init__``, not per backend)."""
    found: dict[str, list[str]] = {}
    for path in sorted(package.rglob("*.py")):
        relative = path.relative_to(package.parent).as_posix()
        if path.name != "__init__.py" and not relative.startswith(PER_BACKEND):
            found.setdefault(path.name, []).append(relative)
    return {name: places for name, places in found.items() if len(places) > 1}


def test_the_same_name_check_finds_two_modules_of_one_name(tmp_path: Path) -> None:
    package = tmp_path / "cunumpy"
    for relative in ("a/_x.py", "b/_x.py", "b/_y.py", "_backends/numpy/_y.py"):
        (package / relative).parent.mkdir(parents=True, exist_ok=True)
        (package / relative).write_text("")
    assert same_names(package) == {"_x.py": ["cunumpy/a/_x.py", "cunumpy/b/_x.py"]}


def test_no_two_modules_share_a_name() -> None:
    """One name per concept: ``_placement`` is the placement layer, not three things."""
    assert same_names(ROOT / "cunumpy") == {}
    stems = {Path(p).stem for p in (ROOT / "cunumpy").rglob("*") if not p.name.startswith(".")}
    assert "_placement" in stems  # the layer's folder ...
    assert not list((ROOT / "cunumpy").rglob("_placement.py"))  # ... and no module besides


def test_every_new_package_says_what_it_holds() -> None:
    packages = (
        "_backend_choice",
        "_calls",
        "_emulation",
        "_moving",
        "_mpi_job",
        "_namespaces",
        "_on_host",
        "_placement",
        "_settings",
    )
    for package in packages:
        module = importlib.import_module(f"cunumpy.{package}")
        assert module.__doc__ is not None
        assert len(module.__doc__.split()) > 20, package


@pytest.mark.parametrize("old", sorted(KEPT_PATHS))
def test_the_paths_clients_import_are_kept(old: str) -> None:
    new, name = KEPT_PATHS[old]
    if "dask" in new:
        pytest.importorskip("dask", reason="cunumpy.dask needs Dask (the dask extra)")
    kept = importlib.import_module(old)
    assert getattr(kept, name) is getattr(importlib.import_module(new), name)
    with pytest.raises(AttributeError):
        kept.no_such_name
