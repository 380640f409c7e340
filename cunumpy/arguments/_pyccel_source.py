"""The fields of a Pyccel argument class read from its source (parsed, never imported)."""

from __future__ import annotations

import ast
from collections.abc import Mapping, Sequence
from pathlib import Path

from ._annotations import PYCCEL_SCALARS, annotation_ctype

__all__ = ["pyccel_class_fields"]


def _read(source: str | Path) -> tuple[str, str]:
    """The text and a description of a source given as a path or as code."""
    if isinstance(source, Path) or ("\n" not in source and source.strip().endswith(".py")):
        return Path(source).read_text(), str(source)
    return str(source), "<source>"


def _init_of(tree: ast.Module, class_name: str, where: str) -> ast.FunctionDef:
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == class_name:
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name == "__init__":
                    return item
            msg = f"CudaStruct.from_pyccel_class: the class {class_name!r} in {where} has no __init__."
            raise ValueError(msg)
    found = [n.name for n in tree.body if isinstance(n, ast.ClassDef)]
    msg = f"CudaStruct.from_pyccel_class: no class {class_name!r} in {where}; it defines {found}."
    raise ValueError(msg)


def _stored(init: ast.FunctionDef) -> dict[str, str]:
    """``{parameter: attribute}`` for each ``self.<attribute> = <parameter>`` (the first)."""
    stored: dict[str, str] = {}
    for node in ast.walk(init):
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets, value = [node.target], node.value
        else:
            continue
        if not isinstance(value, ast.Name):
            continue
        for target in targets:
            if (
                isinstance(target, ast.Attribute)
                and isinstance(target.value, ast.Name)
                and target.value.id == "self"
            ):
                stored.setdefault(value.id, target.attr)
    return stored


def pyccel_class_fields(
    source: str | Path,
    class_name: str,
    *,
    int_type: str,
    scalar_names: Mapping[str, str] | None,
    exclude: Sequence[str],
    attribute_names: bool,
) -> list[tuple[str, str]]:
    """``(field, C type)`` per annotated parameter of ``class_name.__init__``."""
    text, where = _read(source)
    init = _init_of(ast.parse(text, filename=where), class_name, where)
    stored = _stored(init) if attribute_names else {}
    scalars = {**PYCCEL_SCALARS, "int": int_type, **(scalar_names or {})}
    excluded = set(exclude)
    fields = []
    for arg in (*init.args.posonlyargs, *init.args.args, *init.args.kwonlyargs):
        field = stored.get(arg.arg, arg.arg)
        if arg.arg == "self" or arg.arg in excluded or field in excluded:
            continue
        what = f"CudaStruct.from_pyccel_class: parameter {arg.arg!r} of {class_name}.__init__ in {where}"
        if arg.annotation is None:
            msg = f"{what} has no annotation; annotate it, e.g. 'float[:, :]'."
            raise ValueError(msg)
        annotation = arg.annotation
        if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
            text_annotation = annotation.value
        else:
            text_annotation = ast.unparse(annotation).replace("'", "").replace('"', "")
        fields.append((field, annotation_ctype(text_annotation, scalars, what)))
    return fields
