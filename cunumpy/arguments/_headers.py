"""Headers of struct definitions: include guard, includes, the declarations."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

__all__ = ["guard_of", "header_source", "write_cuda_header"]

_VIEW_INCLUDE = "#include <cunumpy/array_view.cuh>"


def guard_of(name: str) -> str:
    """The include guard for a file or struct name: ``args.cuh`` -> ``ARGS_CUH``."""
    guard = re.sub(r"\W", "_", name).upper().strip("_")
    return guard if re.match(r"[A-Z_]", guard) else f"_{guard}"


def header_source(structs: Sequence[Any], guard: str, includes: Iterable[str]) -> str:
    """A header defining ``structs``, with guard and includes."""
    lines = list(includes)
    if any(s.has_views for s in structs):
        lines.insert(0, _VIEW_INCLUDE)
    lines = [i if i.lstrip().startswith("#include") else f'#include "{i}"' for i in lines]
    parts = [
        "// Generated from cunumpy.arguments.CudaStruct: edit the Python definition instead.",
        f"#ifndef {guard}",
        f"#define {guard}",
        "",
        *([*lines, ""] if lines else []),
        *(s.declaration for s in structs),
        f"#endif  // {guard}",
        "",
    ]
    return "\n".join(parts)


def write_cuda_header(
    path: str | Path,
    structs: Iterable[Any],
    guard: str | None = None,
    *,
    includes: Iterable[str] = (),
) -> str:
    """Write the definitions of several structs to one header file.

    Parameters
    ----------
    path : str or Path
        The file to write.
    structs : iterable of CudaStruct
        The structs, in order.
    guard : str, optional
        The include guard; from the file name by default (``args.cuh`` -> ``ARGS_CUH``).
    includes : iterable of str, optional
        More headers, as file names or ``#include`` lines
        (``cunumpy/array_view.cuh`` comes first when a struct has views).

    Returns
    -------
    str
        The header written.

    Examples
    --------
    >>> import os, tempfile
    >>> from cunumpy import arguments
    >>> Vec = arguments.CudaStruct("Vec", [("data", "double*"), ("n", "int")])
    >>> path = os.path.join(tempfile.mkdtemp(), "vec.cuh")
    >>> print(arguments.write_cuda_header(path, [Vec]), end="")
    // Generated from cunumpy.arguments.CudaStruct: edit the Python definition instead.
    #ifndef VEC_CUH
    #define VEC_CUH
    <BLANKLINE>
    struct Vec {
        double* data;
        int n;
    };
    <BLANKLINE>
    #endif  // VEC_CUH
    """
    path = Path(path)
    text = header_source(tuple(structs), guard or guard_of(path.name), includes)
    path.write_text(text)
    return text
