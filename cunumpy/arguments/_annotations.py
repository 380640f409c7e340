"""C types of Pyccel-style annotations: ``float`` -> ``double``, ``"float[:, :]"`` -> ``Array2D<double>``."""

from __future__ import annotations

import inspect
import re
import typing
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import numpy as np

__all__ = ["PYCCEL_SCALARS", "annotation_ctype", "fields_of", "make_contiguous"]

#: The C type of each Pyccel scalar name (``int`` is ``int_type``, set per call).
PYCCEL_SCALARS = {
    "float": "double", "float64": "double", "float32": "float",
    "complex": "complex<double>", "complex128": "complex<double>", "complex64": "complex<float>",
    "bool": "bool", "int64": "long long", "int32": "int", "int16": "short", "int8": "signed char",
}  # fmt: skip

_TEXT = re.compile(r"(?:(?:typing\.)?Final\s*\[\s*)?(?:const\s+)?(\w+)\s*(\[[\s:,]*\])?\s*\]?")


def annotation_ctype(
    annotation: Any,
    scalars: Mapping[str, str],
    what: str,
    namespace: Mapping[str, Any] | None = None,
) -> str:
    """The C type of one annotation: a scalar type or ``ArrayND<T>`` for ``T[:, ...]``.

    A string that is no Pyccel type (``"np.float32"`` under ``from __future__ import
    annotations``) is evaluated in ``namespace`` (the function's globals), as
    ``typing.get_type_hints`` would.
    """
    if annotation is inspect.Parameter.empty:
        msg = f"{what} has no annotation; annotate it, e.g. `float` or `'float[:, :]'`."
        raise ValueError(msg)
    if typing.get_origin(annotation) is typing.Final:
        (annotation,) = typing.get_args(annotation)
    if isinstance(annotation, typing.ForwardRef):
        annotation = annotation.__forward_arg__
    ndim = 0
    if isinstance(annotation, str):
        match = _TEXT.fullmatch(annotation.replace("'", "").replace('"', "").strip())
        if match is None and namespace is not None:
            try:
                resolved = eval(annotation, dict(namespace))  # what get_type_hints does
            except Exception:  # not an expression there: reported below
                resolved = None
            if resolved is not None and not isinstance(resolved, str):
                return annotation_ctype(resolved, scalars, what)
        if match is None:
            msg = f"{what}: cannot read the annotation {annotation!r}; expected e.g. 'float[:, :]'."
            raise ValueError(msg)
        scalar = match.group(1)
        ndim = 0 if match.group(2) is None else match.group(2).count(",") + 1
    elif annotation in (int, float, bool, complex):
        scalar = annotation.__name__
    elif isinstance(annotation, type) and issubclass(annotation, np.generic):
        scalar = np.dtype(annotation).name
    else:
        msg = f"{what}: the annotation {annotation!r} has no C type; use a Pyccel-style one."
        raise ValueError(msg)
    if scalar not in scalars:
        msg = (
            f"{what}: the scalar type {scalar!r} has no C type; expected one of {sorted(scalars)}."
        )
        raise ValueError(msg)
    if ndim > 16:
        msg = f"{what}: an array view has at most 16 dimensions, not {ndim}."
        raise ValueError(msg)
    return scalars[scalar] if ndim == 0 else f"Array{ndim}D<{scalars[scalar]}>"


def fields_of(
    func: Callable[..., Any], int_type: str, scalar_names: Mapping[str, str] | None
) -> list[tuple[str, str]]:
    """One ``(name, C type)`` per annotated parameter of ``func`` (``self`` and ``*args`` left out)."""
    scalars = {**PYCCEL_SCALARS, "int": int_type, **(scalar_names or {})}
    owner = getattr(func, "__qualname__", repr(func))
    fields = []
    for param in inspect.signature(func).parameters.values():
        if param.name == "self" or param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            continue
        what = f"CudaStruct.from_signature: parameter {param.name!r} of {owner}"
        namespace = getattr(func, "__globals__", None)
        fields.append((param.name, annotation_ctype(param.annotation, scalars, what, namespace)))
    return fields


def make_contiguous(
    fields: list[tuple[str, str]], contiguous: bool | str | Iterable[str]
) -> list[tuple[str, str]]:
    """The array fields (all, or those named) as C-contiguous ``CArrayND<T>`` views."""
    arrays = {name for name, ctype in fields if ctype.startswith("Array")}
    if contiguous is False:
        return fields
    if contiguous is True:
        names = arrays
    else:
        names = {contiguous} if isinstance(contiguous, str) else set(contiguous)
        if names - arrays:
            msg = (
                f"CudaStruct.from_signature: `contiguous` names {sorted(names - arrays)}, "
                f"which are no array fields; the array fields are {sorted(arrays)}."
            )
            raise ValueError(msg)
    return [(name, "C" + ctype if name in names else ctype) for name, ctype in fields]
