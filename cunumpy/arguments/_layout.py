"""Measuring a struct's layout as the CUDA compiler makes it, on the GPU."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from .._placement._transfer_log import note_transfer
from .._settings._cupy_probe import require_cupy
from ..cuda._signature import CudaParameter, view_dtype
from ._headers import VIEW_INCLUDE

__all__ = ["layout_source", "stored_dtype", "verify_layout"]


def stored_dtype(field: CudaParameter) -> Any:
    """How a field is stored in the packed struct: pointers as addresses, views packed."""
    if field.pointer:
        return np.uint64
    if field.view_ndim is not None:
        return view_dtype(field.view_ndim, field.contiguous)
    return field.dtype


def layout_source(struct: Any, include: str | None) -> str:
    """A one-thread kernel writing sizeof, alignof and each field's offset to ``out``."""
    if include is None:
        lines = [VIEW_INCLUDE] if struct.has_views else []
        lines.append(struct.declaration)
    else:
        line = include.strip()
        lines = [line if line.startswith("#") else f'#include "{line}"']
    name = struct.name
    offsets = "".join(
        f"    out[{i + 2}] = (unsigned long long)((const char*)&s.{f.name} - (const char*)&s);\n"
        for i, f in enumerate(struct.fields)
    )
    lines.append(
        f'extern "C" __global__ void cunumpy_layout_{name}(unsigned long long* out) {{\n'
        f"    {name} s;\n"
        f"    out[0] = sizeof({name});\n"
        f"    out[1] = alignof({name});\n"
        f"{offsets}}}\n"
    )
    return "\n".join(lines)


def verify_layout(
    struct: Any, include: str | None, include_dirs: Sequence[str | Path], options: Sequence[str]
) -> dict[str, int]:
    """The measured layout; ``ValueError`` listing every difference from the dtype."""
    cupy = require_cupy(f"CudaStruct {struct.name}.verify_layout")
    from ..kernels import CudaKernel

    kernel = CudaKernel(
        layout_source(struct, include), f"cunumpy_layout_{struct.name}",
        include_dirs=include_dirs, options=options, structs=[struct], block_size=1,
    )  # fmt: skip
    out = cupy.zeros(len(struct.fields) + 2, dtype=cupy.uint64)
    kernel(out, n_threads=1)
    note_transfer("to_host", f"CudaStruct {struct.name}.verify_layout: the measured layout")
    measured = [int(v) for v in cupy.asnumpy(out)]
    found = {"sizeof": measured[0], "alignof": measured[1]}
    found.update({f.name: n for f, n in zip(struct.fields, measured[2:])})
    dtype = struct.dtype
    expected = {"sizeof": dtype.itemsize, "alignof": dtype.alignment}
    expected.update({f.name: dtype.fields[f.name][1] for f in struct.fields})
    differences = [
        f"{k}: compiler {found[k]}, packing {v}" for k, v in expected.items() if found[k] != v
    ]
    if differences:
        msg = (
            f"CudaStruct {struct.name}: the compiled layout differs from the packing "
            f"({'; '.join(differences)}); fix the header or the field types."
        )
        raise ValueError(msg)
    return found
