"""Write cunumpy's static view: the ``.pyi`` stubs of its public modules whose names are dynamic.

Run ``python tools/generate_stubs.py`` after ``tools/generate_api.py`` (or after NumPy's
version changes); ``tests/test_static_view.py`` fails when a stub is stale.

At run time ``cunumpy``, ``cunumpy.linalg``, ``cunumpy.fft`` and ``cunumpy.testing`` hold
cunumpy's own names and, filled in at import or through ``__getattr__``, every other
public name of the current backend's library (``cunumpy/_calls/_public_names.py``). A
type checker sees none of the latter in the ``.py`` files, and a module ``__getattr__``
makes every misspelt name ``Any``. Each stub written here says, name by name:

- a name of the library (the NumPy superset: ``allclose``, ``random``, ``ndarray``, the
  dtypes) is NumPy's own object, re-exported from NumPy's stubs (``from numpy import
  allclose as allclose``);
- a function of the standard that is a ufunc in NumPy is NumPy's ufunc (``add.reduce``);
- a function of the standard that NumPy has is NumPy's object where NumPy's stub takes
  every keyword of the standard, and otherwise NumPy's overloads, read with ``ast`` from
  NumPy's installed stubs, with the standard's missing keywords (``device=``,
  ``descending=``, ...) appended keyword-only;
- a function only the standard has is typed from the standard's signature
  (``tools/api_signatures.py``);
- where the runtime deliberately differs from NumPy (``finfo``/``iinfo``'s objects,
  ``linalg.eigvals``' complex result: ``tests/differential/deliberate.json``), what the
  runtime returns;
- cunumpy's own helpers and modules are re-exported from the typed modules that define
  them, as the runtime module imports them.

There is no ``__getattr__`` in a stub, so a misspelt name is an error. The names come from
the runtime itself (the module's ``__all__``, its imports, its library's names), so the
view is never written twice.
"""

from __future__ import annotations

import ast
import builtins
import importlib
import inspect
import sys
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

import numpy  # noqa: E402
from api_signatures import SIGNATURES  # noqa: E402

NUMPY_ROOT = Path(numpy.__file__).parent

#: The public modules whose names are dynamic at run time: stub path (under cunumpy/),
#: NumPy's module of the same role, the standard's part (``SIGNATURES`` qualifier).
MODULES = {
    "cunumpy": ("__init__.pyi", "numpy", ""),
    "cunumpy.linalg": ("linalg.pyi", "numpy.linalg", "linalg"),
    "cunumpy.fft": ("fft.pyi", "numpy.fft", "fft"),
    "cunumpy.testing": ("testing/__init__.pyi", "numpy.testing", None),
}

#: The standard's type names in an appended keyword, and the imports they need.
STANDARD_TYPES = {
    "array": "_cn_ArrayLike",
    "dtype": "_cn_DTypeLike",
    "device": "_cn_Device",
}
STANDARD_TYPE_IMPORTS = {
    "_cn_ArrayLike": "from numpy.typing import ArrayLike as _cn_ArrayLike",
    "_cn_DTypeLike": "from numpy.typing import DTypeLike as _cn_DTypeLike",
    "_cn_Device": "from cunumpy._typing import Device as _cn_Device",
    "_cn_NDArray": "from numpy.typing import NDArray as _cn_NDArray",
}

#: NumPy's parameters that cunumpy's runtime takes more of: ``device=`` is any device
#: (a GPU's puts the result there), where NumPy's stubs say ``"cpu"``.
WIDENED = {"device": "_cn_Device | None"}

#: Deliberate differences of the runtime (tests/differential/deliberate.json): the stub
#: says what the runtime returns. Qualified name -> {NumPy's return annotation: ours}.
RETURNS = {
    "linalg.eigvals": {
        # the standard 2025.12: complex eigenvalues always (NumPy's are real where all are)
        "NDArray[float64] | NDArray[complex128]": "NDArray[complex128]",
        "NDArray[floating] | NDArray[complexfloating]": "NDArray[complexfloating]",
    },
}

#: Deliberate differences written as stub text: finfo and iinfo of the standard's
#: dtypes and of arrays are the standard's objects (Python numbers); NumPy's spellings of
#: a dtype (strings, Python types, NumPy scalars) are NumPy's call, with NumPy's objects.
WRITTEN = {
    "finfo": """
@overload
def finfo(
    dtype: type[_np.floating[Any] | _np.complexfloating[Any, Any]]
    | _np.dtype[_np.floating[Any] | _np.complexfloating[Any, Any]]
    | _np.ndarray[Any, _np.dtype[_np.floating[Any] | _np.complexfloating[Any, Any]]],
) -> _finfo_object: ...
@overload
def finfo(
    dtype: builtins.float | builtins.complex | builtins.str | type[builtins.float] | type[builtins.complex]
    | _np.floating[Any] | _np.complexfloating[Any, Any],
) -> _np.finfo[Any]: ...
""",
    "iinfo": """
@overload
def iinfo(
    int_type: type[_np.integer[Any]] | _np.dtype[_np.integer[Any]]
    | _np.ndarray[Any, _np.dtype[_np.integer[Any]]],
) -> _iinfo_object: ...
@overload
def iinfo(
    int_type: builtins.int | builtins.str | type[builtins.int] | _np.integer[Any],
) -> _np.iinfo[Any]: ...
""",
}
WRITTEN_IMPORTS = [
    "import numpy as _np",
    "from typing import Any",
    "from cunumpy._typing import finfo_object as _finfo_object",
    "from cunumpy._typing import iinfo_object as _iinfo_object",
]

#: Runtime names with no import to follow, and their annotation.
VARIABLES = {
    "__version__": "str",
    "__array_api_version__": "str",
    "numpy_backend": "builtins.bool",
    "cupy_backend": "builtins.bool",
}


def has(obj: Any, name: str) -> bool:
    """``hasattr``, quiet: NumPy warns when ``numpy.matlib`` is first imported."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return hasattr(obj, name)


# --- NumPy's stubs --------------------------------------------------------------------


def _stub_path(module: str) -> Path:
    relative = Path(*module.split(".")[1:])
    for path in (NUMPY_ROOT / relative / "__init__.pyi", NUMPY_ROOT / f"{relative}.pyi"):
        if path.exists():
            return path
    msg = f"no stub for {module}"
    raise FileNotFoundError(msg)


_TREES: dict[str, ast.Module] = {}


def _tree(module: str) -> ast.Module:
    if module not in _TREES:
        _TREES[module] = ast.parse(_stub_path(module).read_text())
    return _TREES[module]


def _top_level(tree: ast.Module) -> list[ast.stmt]:
    """The module's statements, those of ``if`` blocks (``sys.version_info``) included."""
    found: list[ast.stmt] = []
    for node in tree.body:
        if isinstance(node, ast.If):
            found.extend(node.body)
        else:
            found.append(node)
    return found


def _absolute(module: str, level: int, name: str | None, package: bool) -> str:
    if level == 0:
        assert name is not None
        return name
    parts = module.split(".")
    base = parts if package else parts[:-1]
    base = base[: len(base) - (level - 1)]
    return ".".join([*base, *([name] if name else [])])


def _is_package(module: str) -> bool:
    return _stub_path(module).name == "__init__.pyi"


@dataclass
class Binding:
    """How a stub module binds a name: where it was imported from, or its definition."""

    module: str
    imported: tuple[str, str] | None = None  # (absolute module, name there)
    module_import: str | None = None  # ``import x.y as name``
    nodes: list[ast.stmt] = field(default_factory=list)  # def / class / assignment


def _bindings(module: str) -> dict[str, Binding]:
    found: dict[str, Binding] = {}
    package = _is_package(module)
    for node in _top_level(_tree(module)):
        if isinstance(node, ast.ImportFrom):
            source = _absolute(module, node.level, node.module, package)
            for alias in node.names:
                found[alias.asname or alias.name] = Binding(module, imported=(source, alias.name))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                name = alias.asname or alias.name.split(".")[0]
                found[name] = Binding(module, module_import=alias.name if alias.asname else name)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            found.setdefault(node.name, Binding(module)).nodes.append(node)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            found[node.target.id] = Binding(module, nodes=[node])
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    found[target.id] = Binding(module, nodes=[node])
        elif isinstance(node, ast.TypeAlias) and isinstance(node.name, ast.Name):
            found[node.name.id] = Binding(module, nodes=[node])
    return found


_BINDINGS: dict[str, dict[str, Binding]] = {}


def bindings(module: str) -> dict[str, Binding]:
    if module not in _BINDINGS:
        _BINDINGS[module] = _bindings(module)
    return _BINDINGS[module]


def definition(module: str, name: str) -> Binding | None:
    """Where NumPy's stub ``module`` defines ``name``, following its imports."""
    seen = set()
    while (module, name) not in seen:
        seen.add((module, name))
        try:
            binding = bindings(module).get(name)
        except FileNotFoundError:
            return None
        if binding is None:
            return None
        if binding.imported is None:
            return binding
        module, name = binding.imported
    return None


def callable_object(binding: Binding) -> Binding | None:
    """For ``zeros: Final[_ConstructorEmpty]``, the protocol's ``__call__`` overloads as
    functions (``self`` dropped), in the protocol's module."""
    import copy

    node = binding.nodes[0] if binding.nodes else None
    if not isinstance(node, ast.AnnAssign):
        return None
    annotation = node.annotation
    if isinstance(annotation, ast.Subscript) and ast.unparse(annotation.value) == "Final":
        annotation = annotation.slice
    if not isinstance(annotation, ast.Name):
        return None
    protocol = definition(binding.module, annotation.id)
    if protocol is None or not protocol.nodes or not isinstance(protocol.nodes[0], ast.ClassDef):
        return None
    calls = []
    for method in protocol.nodes[0].body:
        if isinstance(method, ast.FunctionDef) and method.name == "__call__":
            function = copy.deepcopy(method)
            if function.args.posonlyargs:  # ``def __call__(self, /, ...)``
                function.args.posonlyargs = function.args.posonlyargs[1:]
            else:
                function.args.args = function.args.args[1:]
            calls.append(function)
    return Binding(protocol.module, nodes=calls) if calls else None


def exported_names(module: str) -> list[str]:
    """The public names NumPy's stub ``module`` exports (to mypy: ``__all__``, ``x as x``,
    definitions) that exist at run time."""
    runtime = importlib.import_module(module)
    names: set[str] = set()
    for node in _top_level(_tree(module)):
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
        ):
            names.update(ast.literal_eval(node.value))
        elif isinstance(node, ast.ImportFrom):
            names.update(a.asname for a in node.names if a.asname and a.asname == a.name)
        elif isinstance(node, ast.Import):
            names.update(a.asname for a in node.names if a.asname and a.name.endswith(a.asname))
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return sorted(name for name in names if not name.startswith("_") and has(runtime, name))


# --- copying NumPy's overloads ----------------------------------------------------------


class Imports:
    """The helper names a stub's copied overloads use, each imported once."""

    def __init__(self, taken: set[str]) -> None:
        self.taken = taken  # the stub's public names
        self.lines: dict[str, str] = {}  # stub name -> import line
        self.origins: dict[str, tuple[str, str]] = {}  # stub name -> (module, name)

    def add(self, stub_name: str, line: str, origin: tuple[str, str]) -> str:
        if self.origins.get(stub_name, origin) != origin:
            msg = f"{stub_name} names both {self.origins[stub_name]} and {origin}"
            raise AssertionError(msg)
        self.lines[stub_name] = line
        self.origins[stub_name] = origin
        return stub_name

    def name_for(self, module: str, name: str) -> str:
        """The stub's name for ``name`` as NumPy's stub ``module`` sees it (imported)."""
        binding = bindings(module).get(name)
        if binding is not None and binding.module_import is not None:
            target = binding.module_import
            alias = f"_{target.replace('.', '_')}" if target != "builtins" else "builtins"
            return self.add(
                alias,
                f"import {target} as {alias}" if alias != target else f"import {target}",
                (target, ""),
            )
        if binding is None:
            if hasattr(builtins, name):
                return f"builtins.{name}" if name in self.taken else name
            msg = f"{module} uses {name}, which it neither defines nor imports"
            raise AssertionError(msg)
        source, original = binding.imported if binding.imported else (module, name)
        if source == "builtins":
            return f"builtins.{original}"
        for candidate in (name, f"_{source.split('.')[-1].lstrip('_')}_{name.lstrip('_')}"):
            if candidate in self.taken and not self._same_object(candidate, source, original):
                continue
            if self.origins.get(candidate, (source, original)) != (source, original):
                continue
            if candidate in self.taken:
                return candidate  # the stub's public name is that very object
            alias = "" if candidate == original else f" as {candidate}"
            return self.add(
                candidate, f"from {source} import {original}{alias}", (source, original)
            )
        msg = f"no free name for {source}.{original}"
        raise AssertionError(msg)

    def _same_object(self, public: str, source: str, original: str) -> bool:
        try:
            return getattr(importlib.import_module(source), original) is getattr(numpy, public)
        except (AttributeError, ImportError):
            return False


class _Rename(ast.NodeTransformer):
    def __init__(self, names: dict[str, str]) -> None:
        self.names = names

    def visit_Name(self, node: ast.Name) -> ast.expr:
        new = self.names.get(node.id)
        if new is None:
            return node
        return ast.parse(new, mode="eval").body


def _used_names(nodes: list[ast.AST]) -> set[str]:
    return {n.id for node in nodes for n in ast.walk(node) if isinstance(n, ast.Name)}


def _strip_docstring(node: ast.FunctionDef) -> None:
    node.body = [ast.Expr(ast.Constant(...))]


def copied_overloads(
    binding: Binding,
    name: str,
    extras: list[ast.arg],
    imports: Imports,
    returns: dict[str, str] | None = None,
) -> str:
    """NumPy's definitions of a function, renamed to ``name``, with ``extras`` appended
    keyword-only to each, its names resolved through ``imports``."""
    import copy

    functions = [copy.deepcopy(n) for n in binding.nodes if isinstance(n, ast.FunctionDef)]
    for function in functions:
        function.name = name
        _strip_docstring(function)
        parameters = (*function.args.posonlyargs, *function.args.args, *function.args.kwonlyargs)
        taken = {a.arg for a in parameters}
        for parameter in parameters:
            if parameter.arg in WIDENED:
                parameter.annotation = ast.Name(WIDENED[parameter.arg])
        for extra in extras:
            if extra.arg not in taken:
                function.args.kwonlyargs.append(extra)
                function.args.kw_defaults.append(ast.Constant(...))
        if returns and function.returns is not None:
            text = ast.unparse(function.returns)
            if text in returns:
                function.returns = ast.parse(returns[text], mode="eval").body
    extra_names = (
        {n.id for extra in extras for n in ast.walk(extra) if isinstance(n, ast.Name)}
        | set(WIDENED.values())
        | {"_cn_Device"}
    )
    names = _used_names(functions) - extra_names
    renames = {}
    for used in sorted(names):
        stub_name = imports.name_for(binding.module, used)
        if stub_name != used:
            renames[used] = stub_name
    text = []
    for function in functions:
        renamed = _Rename(renames).visit(function)
        text.append(ast.unparse(renamed))
    return "\n".join(text)


# --- the standard's signatures ------------------------------------------------------------


def standard_entry(part: str, name: str) -> dict[str, str] | None:
    for topic, entries in SIGNATURES.items():
        if part and topic != part:
            continue
        if not part and topic in ("linalg", "fft"):
            continue
        if name in entries:
            return entries[name]
    return None


def _standard_arguments(entry: dict[str, str]) -> ast.arguments:
    function = ast.parse(f"def f({entry['params']}): pass").body[0]
    assert isinstance(function, ast.FunctionDef)
    return function.args


class _StandardTypes(ast.NodeTransformer):
    def visit_Name(self, node: ast.Name) -> ast.expr:
        if node.id in STANDARD_TYPES:
            return ast.Name(STANDARD_TYPES[node.id])
        if hasattr(builtins, node.id):
            return ast.parse(f"builtins.{node.id}", mode="eval").body
        return node

    def visit_Subscript(self, node: ast.Subscript) -> ast.expr:
        head = ast.unparse(node.value)
        if head == "Optional":
            return ast.BinOp(self.visit(node.slice), ast.BitOr(), ast.Constant(None))
        if head == "Union":
            items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            result = self.visit(items[0])
            for item in items[1:]:
                result = ast.BinOp(result, ast.BitOr(), self.visit(item))
            return result
        if head in ("Tuple", "List", "Sequence", "Literal"):
            new = {
                "Tuple": "tuple",
                "List": "list",
                "Sequence": "_cn_Sequence",
                "Literal": "_cn_Literal",
            }[head]
            node.value = ast.Name(new)
            if head != "Literal":
                node.slice = self.visit(node.slice)
            return node
        return self.generic_visit(node)


def standard_annotation(node: ast.expr | None) -> ast.expr:
    if node is None:
        return ast.Name("_cn_Any")
    return _StandardTypes().visit(ast.parse(ast.unparse(node), mode="eval").body)


def keyword_names(args: ast.arguments) -> list[ast.arg]:
    """The standard's parameters a call may give by keyword."""
    return [*args.args, *args.kwonlyargs]


def accepted(function: ast.FunctionDef) -> tuple[set[str], bool]:
    args = function.args
    return {a.arg for a in (*args.args, *args.kwonlyargs)}, args.kwarg is not None


def standard_only(name: str, entry: dict[str, str]) -> str:
    """A function NumPy lacks, typed from the standard's signature."""
    args = _standard_arguments(entry)
    for arg in (*args.posonlyargs, *args.args, *args.kwonlyargs):
        arg.annotation = standard_annotation(arg.annotation)
    if args.vararg is not None:
        args.vararg.annotation = standard_annotation(args.vararg.annotation)
    args.defaults = [ast.Constant(...) for _ in args.defaults]
    args.kw_defaults = [None if d is None else ast.Constant(...) for d in args.kw_defaults]
    returns = ast.unparse(standard_annotation(ast.parse(entry["returns"], mode="eval").body))
    returns = returns.replace("_cn_ArrayLike", "_cn_NDArray[_cn_Any]")
    function = ast.FunctionDef(
        name=name, args=args, body=[ast.Expr(ast.Constant(...))], decorator_list=[],
        returns=ast.parse(returns, mode="eval").body, type_params=[],
    )  # fmt: skip
    return ast.unparse(ast.fix_missing_locations(function))


# --- one stub ----------------------------------------------------------------------------


def _runtime_imports(module: str) -> dict[str, tuple[str, str]]:
    """``name -> (absolute module, name there)`` for the runtime module's imports."""
    path = ROOT / Path(*module.split("."))
    package = (path / "__init__.py").exists()
    tree = ast.parse((path / "__init__.py" if package else path.with_suffix(".py")).read_text())
    found = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module != "__future__":
            base = module.split(".") if package else module.split(".")[:-1]
            base = base[: len(base) - (node.level - 1)] if node.level else []
            source = ".".join([*base, node.module]) if node.level else node.module
            if node.module is None:
                source = ".".join(base)
            for alias in node.names:
                if alias.name != "*":
                    found[alias.asname or alias.name] = (source, alias.name)
    return found


@dataclass
class Stub:
    module: str
    lines: list[str] = field(default_factory=list)
    reexports: list[str] = field(default_factory=list)
    definitions: list[str] = field(default_factory=list)


def runtime_names(module: str) -> list[str]:
    """Every public name of the runtime module: ``dir()`` and the library's names."""
    runtime = importlib.import_module(module)
    names = set(dir(runtime))
    names.update(getattr(runtime, "_LAZY_SUBMODULES", ()))
    names.update(getattr(runtime, "_LAZY_NAMES", {}))
    numpy_module = MODULES[module][1]
    names.update(exported_names(numpy_module))
    if module == "cunumpy":
        names.update(("numpy_backend", "cupy_backend"))
    return sorted(name for name in names if has(runtime, name))


def _own_names(module: str) -> set[str]:
    runtime = importlib.import_module(module)
    return (
        set(runtime.__all__)
        | set(getattr(runtime, "_LAZY_SUBMODULES", ()))
        | set(getattr(runtime, "_LAZY_NAMES", {}))
        | ({"numpy_backend", "cupy_backend"} if module == "cunumpy" else set())
    )


def _ufunc_names() -> set[str]:
    from cunumpy._calls._ufunc_methods import UFUNC_NAMES

    return set(UFUNC_NAMES)


def stub_text(module: str) -> str:
    """The text of ``module``'s stub."""
    _, numpy_module, part = MODULES[module]
    runtime = importlib.import_module(module)
    library = importlib.import_module(numpy_module)
    names = runtime_names(module)
    own = _own_names(module)
    imports = Imports(set(names))
    imported = _runtime_imports(module)
    ufuncs = _ufunc_names() if part == "" else set()
    reexports: list[str] = []
    definitions: list[str] = []
    needs_overload = False
    written = False
    for name in names:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            value = getattr(runtime, name)
        qualname = f"{part}.{name}" if part else name
        entry = standard_entry(part, name) if part is not None else None
        if name not in own or (
            name not in imported and name not in VARIABLES and getattr(library, name, None) is value
        ):
            # the library's object (NumPy's data types and constants are the standard's)
            reexports.append(f"from {numpy_module} import {name} as {name}")
            continue
        if name in VARIABLES:
            definitions.append(f"{name}: {VARIABLES[name]}")
            continue
        if name in WRITTEN and not part:
            definitions.append(WRITTEN[name].strip())
            needs_overload = written = True
            continue
        if entry is not None:
            if name in ufuncs:
                reexports.append(f"from {numpy_module} import {name} as {name}")
                continue
            binding = definition(numpy_module, name)
            if binding is not None:
                binding = callable_object(binding) or binding
            if binding is None or not any(isinstance(n, ast.FunctionDef) for n in binding.nodes):
                if hasattr(library, name) and binding is not None:
                    # a class or an annotated object in NumPy's stub: NumPy's object
                    reexports.append(f"from {numpy_module} import {name} as {name}")
                    continue
                definitions.append(standard_only(name, entry))
                continue
            args = _standard_arguments(entry)
            functions = [n for n in binding.nodes if isinstance(n, ast.FunctionDef)]
            missing: list[ast.arg] = []
            for standard in keyword_names(args):
                for function in functions:
                    names_taken, has_kwargs = accepted(function)
                    if standard.arg not in names_taken and not has_kwargs:
                        missing.append(
                            ast.arg(
                                standard.arg, annotation=standard_annotation(standard.annotation)
                            )
                        )
                        break
            narrow = any(
                parameter.arg in WIDENED
                for function in functions
                for parameter in (*function.args.args, *function.args.kwonlyargs)
            )
            if not missing and not narrow and qualname not in RETURNS:
                reexports.append(f"from {numpy_module} import {name} as {name}")
                continue
            definitions.append(
                copied_overloads(binding, name, missing, imports, RETURNS.get(qualname))
            )
            needs_overload = needs_overload or len(functions) > 1
            continue
        if name in imported:
            source, original = imported[name]
            if source.startswith("cunumpy._api.") and getattr(library, name, None) is not None:
                # NumPy's conversions (array, asanyarray, ...), taking NumPy's calls: NumPy's types
                reexports.append(f"from {numpy_module} import {name} as {name}")
                continue
            if source.startswith("cunumpy") and name in own:
                reexports.append(f"from {source} import {original} as {name}")
                continue
        if inspect.ismodule(value) and value.__name__.startswith("cunumpy."):
            reexports.append(f"from {module} import {name} as {name}")
            continue
        msg = f"{module}.{name}: no rule types it"
        raise AssertionError(msg)
    head = [
        f'"""The static view of ``{module}``: what mypy, pyright and editors see.',
        "",
        "Generated by ``tools/generate_stubs.py`` from the runtime module's names, the",
        f"standard's signatures (``tools/api_signatures.py``) and NumPy {numpy.__version__}'s stubs; do",
        "not edit by hand (docs/typing.md).",
        '"""',
        "",
        "# ruff: noqa",
        "# NumPy's overloads, copied as they are: NumPy's stubs silence these checks on them line",
        "# by line (``# type: ignore[overload-overlap]``), comments that ``ast`` does not keep.",
        '# mypy: disable-error-code="overload-overlap, overload-cannot-match"',
        "import builtins",
        "from collections.abc import Sequence as _cn_Sequence",
        "from typing import Any as _cn_Any",
        "from typing import Literal as _cn_Literal",
    ]
    if needs_overload or written:
        head.append("from typing import overload")
    if written:
        head.extend(WRITTEN_IMPORTS)
    used = "\n".join(definitions)
    head.extend(line for name, line in sorted(STANDARD_TYPE_IMPORTS.items()) if name in used)
    head.extend(sorted(set(imports.lines.values())))
    all_names = list(runtime.__all__)
    body = [
        *head,
        "",
        *reexports,
        "",
        f"__all__ = {all_names!r}",
        "",
        *definitions,
        "",
    ]
    return "\n".join(body)


def write(check: bool = False) -> list[Path]:
    """Write every stub (or, with ``check``, return the stale ones)."""
    stale = []
    for module, (path, _, _) in MODULES.items():
        target = ROOT / "cunumpy" / path
        text = _formatted(stub_text(module))
        if not target.exists() or target.read_text() != text:
            stale.append(target)
            if not check:
                target.write_text(text)
    return stale


def _formatted(text: str) -> str:
    """``ruff format``'s layout, so the stubs read as the rest of the code does."""
    import subprocess

    completed = subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--stdin-filename", "stub.pyi", "-"],
        input=text, capture_output=True, text=True, check=False, cwd=ROOT,
    )  # fmt: skip
    if completed.returncode != 0:
        msg = f"ruff format failed: {completed.stderr}"
        raise RuntimeError(msg)
    return completed.stdout


if __name__ == "__main__":
    for path in write(check="--check" in sys.argv):
        print(("stale: " if "--check" in sys.argv else "wrote ") + str(path.relative_to(ROOT)))
