"""The import graph of ``cunumpy``, read from the source (nothing is imported).

One builder for the house's tests: ``tests/test_import_graph.py`` holds the graph against
the floors of ``tests/floors.py`` (imports in functions too) and ``tests/test_layout.py``
checks the imports that run when a module is imported.

- ``import_graph(package)``: module -> the modules it imports anywhere in its code
  (functions included), not those under ``if TYPE_CHECKING``. ``from pkg import sub``
  names the module ``pkg.sub``; ``from pkg import name`` names ``pkg``.
- ``import_graph(package, type_checking=True)``: those under ``if TYPE_CHECKING`` too.
- ``import_graph(package, at_import=True)``: only the imports that run when the module is
  imported (not in functions), plus the ``__init__`` of the packages they pass through.
- ``cycles(graph)``: the circles (strongly connected components of more than one module).
- ``floor_of``/``imports_against``: a module's floor, and the imports that point up.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "cunumpy"

__all__ = [
    "PACKAGE",
    "ROOT",
    "cycles",
    "floor_of",
    "import_graph",
    "imports_against",
    "imports_of",
    "modules",
]


def module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules(package: Path = PACKAGE) -> dict[str, Path]:
    """Every module of ``package`` by its dotted name."""
    return {module_name(p, package.parent): p for p in sorted(package.rglob("*.py"))}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _all_imports(
    tree: ast.AST, *, type_checking: bool = False
) -> list[ast.Import | ast.ImportFrom]:
    """Every import of a module, at any depth, except those under ``if TYPE_CHECKING``
    (those too with ``type_checking``)."""
    found: list[ast.Import | ast.ImportFrom] = []
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
        elif isinstance(node, ast.If) and _is_type_checking(node.test) and not type_checking:
            stack.extend(node.orelse)
        else:
            stack.extend(ast.iter_child_nodes(node))
    return found


def _import_time_statements(body: list[ast.stmt]) -> list[ast.Import | ast.ImportFrom]:
    """Imports run when the module is imported: not in functions, not under TYPE_CHECKING."""
    found: list[ast.Import | ast.ImportFrom] = []
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
        elif isinstance(node, ast.If):
            if not _is_type_checking(node.test):
                found += _import_time_statements(node.body)
            found += _import_time_statements(node.orelse)
        elif isinstance(node, ast.Try):
            for block in (node.body, node.orelse, node.finalbody):
                found += _import_time_statements(block)
            for handler in node.handlers:
                found += _import_time_statements(handler.body)
        elif isinstance(node, (ast.With, ast.ClassDef)):
            found += _import_time_statements(node.body)
    return found


def _ancestors(name: str) -> set[str]:
    parts = name.split(".")
    return {".".join(parts[:i]) for i in range(1, len(parts))}


def imports_of(
    name: str,
    path: Path,
    known: Mapping[str, Path],
    *,
    at_import: bool = False,
    type_checking: bool = False,
) -> set[str]:
    """The modules of ``known`` that the module ``name`` (the file ``path``) imports.

    With ``at_import``, only the imports that run when it is imported, and, since
    importing a module runs its packages' ``__init__`` first, those packages too (but
    not the importer's own, which are already being imported). With ``type_checking``,
    the imports under ``if TYPE_CHECKING`` count too (a type checker follows them).
    """
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text())
    statements = (
        _import_time_statements(tree.body)
        if at_import
        else _all_imports(tree, type_checking=type_checking)
    )
    targets: set[str] = set()
    for node in statements:
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
            targets.add(sub if sub in known else base)
    if at_import:
        for target in list(targets):
            targets |= _ancestors(target) - _ancestors(name)
    return {t for t in targets if t in known and t != name}


def import_graph(
    package: Path = PACKAGE, *, at_import: bool = False, type_checking: bool = False
) -> dict[str, set[str]]:
    """Module -> the modules it imports (see ``imports_of``)."""
    known = modules(package)
    return {
        name: imports_of(name, path, known, at_import=at_import, type_checking=type_checking)
        for name, path in known.items()
    }


def cycles(graph: Mapping[str, Iterable[str]]) -> list[list[str]]:
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


def _dotted(place: str, package: str) -> str:
    """``"_settings/"`` -> ``"cunumpy._settings"``; ``"xp.py"`` -> ``"cunumpy.xp"``."""
    stem = place.rstrip("/").removesuffix(".py")
    return package if stem == "__init__" else f"{package}.{stem.replace('/', '.')}"


def floor_of(module: str, places: Mapping[str, int], package: str = "cunumpy") -> int | None:
    """The floor of ``module``: that of the longest place (folder or file) holding it."""
    best: tuple[int, int] | None = None
    for place, floor in places.items():
        dotted = _dotted(place, package)
        inside = module.startswith(f"{dotted}.") if place.endswith("/") else False
        if (module == dotted or inside) and (best is None or len(dotted) > best[0]):
            best = (len(dotted), floor)
    return None if best is None else best[1]


def imports_against(
    graph: Mapping[str, Iterable[str]], places: Mapping[str, int], package: str = "cunumpy"
) -> list[tuple[str, str]]:
    """The imports ``(importer, imported)`` whose imported module is on a higher floor."""
    floors = {m: floor_of(m, places, package) for m in graph}
    return sorted(
        (a, b)
        for a, targets in graph.items()
        for b in targets
        if floors[a] is not None and floors.get(b) is not None and floors[b] > floors[a]  # type: ignore[operator]
    )
