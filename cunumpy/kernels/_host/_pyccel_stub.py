"""The parameter names of a Pyccel-compiled function, read from the stub Pyccel writes.

A compiled function is an extension function without a Python signature; Pyccel writes
``__pyccel__/<module>.pyi`` next to the compiled module, with the original definitions.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

__all__ = ["pyccel_stub_parameters"]


def pyccel_stub_parameters(function: Any) -> list[str] | None:
    """The positional parameter names of ``function`` in its module's Pyccel stub, or ``None``."""
    module = getattr(function, "__self__", None)  # an extension function's module
    if not isinstance(module, ModuleType):
        name = getattr(function, "__module__", None)
        module = sys.modules.get(name) if isinstance(name, str) else None
    file = getattr(module, "__file__", None)
    func_name = getattr(function, "__name__", None)
    if not file or not isinstance(func_name, str):
        return None
    path = Path(file)
    stub = path.parent / "__pyccel__" / f"{path.name.split('.')[0]}.pyi"
    try:
        tree = ast.parse(stub.read_text(), filename=str(stub))
    except (OSError, SyntaxError, ValueError):
        return None
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == func_name:
            return [a.arg for a in (*node.args.posonlyargs, *node.args.args)]
    return None
