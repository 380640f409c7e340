"""The house plan: no import circle (function-level imports included), small folders.

``tests/test_layout.py`` checks the imports that run when a module is imported; a circle
through an import inside a function is one too: the two modules still need each other,
and a reader of either cannot understand it alone. This file reads every import of
every module of ``cunumpy`` (in functions too, not those under ``TYPE_CHECKING``), and
fails on a circle between modules and on a folder of more than ``MAX_MODULES`` modules,
as the size test does for long modules. ``docs/architecture.md`` shows the floors.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "cunumpy"

MAX_MODULES = 12  # in one folder, ``__init__.py`` not counted

# Imports inside functions that close a circle on purpose, each with its reason. An entry
# whose importing module exists but no longer has the import fails: delete it then.

# Old module paths that clients import, kept as re-export modules, and one name each
# that must resolve there (the module it moved to, and the name).
KEPT_PATHS = {
    "cunumpy._dispatch": ("cunumpy._calls._dispatch", "_namespace_of_one"),
    "cunumpy._host": ("cunumpy._on_host._host_call", "host_call"),
}


def _module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules(package: Path = PACKAGE) -> dict[str, Path]:
    return {_module_name(p, package.parent): p for p in sorted(package.rglob("*.py"))}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _all_imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import of a module, at any depth, except those under ``if TYPE_CHECKING``."""
    found: list[ast.Import | ast.ImportFrom] = []
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
        elif isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend(node.orelse)
        else:
            stack.extend(ast.iter_child_nodes(node))
    return found


def _imports_of(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The modules ``name`` imports: ``from pkg import sub`` names ``pkg.sub``."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets: set[str] = set()
    for node in _all_imports(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            targets |= {alias.name for alias in node.names}
            continue
        base = node.module or ""
        if node.level:
            anchor = package.split(".")
            anchor = anchor[: len(anchor) - (node.level - 1)]
            base = ".".join([*anchor, *([base] if base else [])])
        for alias in node.names:
            sub = f"{base}.{alias.name}"
            targets.add(sub if sub in modules else base)
    return {t for t in targets if t in modules and t != name}


def import_graph(package: Path = PACKAGE) -> dict[str, set[str]]:
    """Module -> the modules it imports, anywhere in its code."""
    modules = _modules(package)
    return {name: _imports_of(name, path, modules) for name, path in modules.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (iterative Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, successors = work[-1]
            for succ in successors:
                if succ not in index:
                    index[succ] = low[succ] = len(index)
                    stack.append(succ)
                    on_stack.add(succ)
                    work.append((succ, iter(sorted(graph.get(succ, ())))))
                    break
                if succ in on_stack:
                    low[node] = min(low[node], index[succ])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def folder_sizes(package: Path = PACKAGE) -> dict[str, int]:
    """Folder -> its number of modules (``__init__.py`` not counted)."""
    return {
        folder.relative_to(package.parent).as_posix(): sum(
            1 for p in folder.glob("*.py") if p.name != "__init__.py"
        )
        for folder in [package, *sorted(package.rglob("*"))]
        if folder.is_dir() and (folder / "__init__.py").is_file()
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


def test_a_circle_of_two_modules_is_found() -> None:
    graph = {"cunumpy.a": {"cunumpy.b"}, "cunumpy.b": {"cunumpy.a"}, "cunumpy.c": {"cunumpy.a"}}
    assert cycles(graph) == [["cunumpy.a", "cunumpy.b"]]


def test_no_folder_holds_more_than_twelve_modules() -> None:
    crowded = {f: n for f, n in folder_sizes().items() if n > MAX_MODULES}
    assert crowded == {}, f"group these by concern in subpackages (at most {MAX_MODULES})"


def test_the_folder_count_counts_modules_not_packages(tmp_path: Path) -> None:
    package = tmp_path / "cunumpy"
    (package / "sub").mkdir(parents=True)
    for name in ("__init__.py", "a.py", "b.py", "sub/__init__.py", "sub/c.py"):
        (package / name).write_text("")
    assert folder_sizes(package) == {"cunumpy": 2, "cunumpy/sub": 1}


def test_the_placement_layer_calls_nothing_above_it() -> None:
    """Devices, stream order and the transfer log: a transfer walks down, never back up.

    The backends, ``cuda``, the kernels and the data-moving helpers call this layer; it
    imports (in functions too) only itself and ``_settings``.
    """
    graph = import_graph()
    layer = {m for m in graph if m.startswith("cunumpy._placement")}
    assert len(layer) >= 4
    allowed = ("cunumpy._placement", "cunumpy._settings")
    climbs = {m: sorted(t for t in graph[m] if not t.startswith(allowed)) for m in layer}
    assert {m: t for m, t in climbs.items() if t} == {}


def test_every_new_package_says_what_it_holds() -> None:
    for package in ("_calls", "_moving", "_namespaces", "_on_host", "_placement", "_settings"):
        module = importlib.import_module(f"cunumpy.{package}")
        assert module.__doc__ is not None
        assert len(module.__doc__.split()) > 20, package


@pytest.mark.parametrize("old", sorted(KEPT_PATHS))
def test_the_paths_clients_import_are_kept(old: str) -> None:
    new, name = KEPT_PATHS[old]
    kept = importlib.import_module(old)
    assert getattr(kept, name) is getattr(importlib.import_module(new), name)
    with pytest.raises(AttributeError):
        kept.no_such_name
