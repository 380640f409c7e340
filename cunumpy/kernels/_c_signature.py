"""The parameters of an ``extern "C" __global__`` function, read from CUDA C source.

Enough for launches that must pass each scalar with its C type (``int`` as ``int32``):
pointers, and scalars of the C types below. The full parser with argument checks is
``CudaKernel``'s.
"""

from __future__ import annotations

import re
from typing import NamedTuple

import numpy as np

__all__ = ["CParameter", "C_SCALARS", "global_parameters", "strip_comments"]

C_SCALARS = {
    "bool": np.bool_, "char": np.int8, "signed char": np.int8, "unsigned char": np.uint8,
    "short": np.int16, "unsigned short": np.uint16, "int": np.int32, "unsigned int": np.uint32,
    "unsigned": np.uint32, "long": np.int64, "unsigned long": np.uint64,
    "long long": np.int64, "unsigned long long": np.uint64, "size_t": np.uint64,
    "ptrdiff_t": np.int64, "int8_t": np.int8, "uint8_t": np.uint8, "int16_t": np.int16,
    "uint16_t": np.uint16, "int32_t": np.int32, "uint32_t": np.uint32, "int64_t": np.int64,
    "uint64_t": np.uint64, "float": np.float32, "double": np.float64,
}  # fmt: skip
"""The C scalar types a launch can pass, and their NumPy types."""


class CParameter(NamedTuple):
    """One parameter: its name, C type (without qualifiers) and whether it is a pointer."""

    name: str
    ctype: str
    pointer: bool

    @property
    def dtype(self) -> np.dtype | None:
        """The NumPy dtype of the scalar or of the pointed-to elements (``None``: unknown)."""
        scalar = C_SCALARS.get(self.ctype)
        return None if scalar is None else np.dtype(scalar)


def strip_comments(source: str) -> str:
    """``source`` without ``//`` and ``/* */`` comments."""
    return re.sub(r"//[^\n]*|/\*.*?\*/", " ", source, flags=re.DOTALL)


_QUALIFIERS = {"const", "volatile", "__restrict__", "__restrict", "restrict", "struct"}


def global_parameters(source: str, name: str) -> list[CParameter]:
    """The parameters of the ``__global__`` function ``name`` in ``source``.

    Raises ``ValueError`` when ``source`` does not define it.
    """
    code = strip_comments(source)
    match = re.search(
        rf"__global__\s+void\s+(?:__launch_bounds__\s*\([^)]*\)\s*)?{re.escape(name)}\s*\(([^)]*)\)",
        code,
    )
    if match is None:
        msg = f"no `__global__ void {name}(...)` in the CUDA source."
        raise ValueError(msg)
    params: list[CParameter] = []
    text = match.group(1).strip()
    if text in ("", "void"):
        return params
    for part in text.split(","):
        part = part.strip()
        pointer = "*" in part or "[" in part
        words = [
            w for w in re.split(r"[\s*&]+", part.replace("[]", "")) if w and w not in _QUALIFIERS
        ]
        if len(words) < 2:
            msg = f"cannot read the parameter {part!r} of `{name}`."
            raise ValueError(msg)
        params.append(CParameter(words[-1], " ".join(words[:-1]), pointer))
    return params
