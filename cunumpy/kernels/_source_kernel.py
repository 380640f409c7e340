"""A CUDA C kernel from source, launched by thread count through ``RawKernel``.

What :class:`KernelCatalog` and ``device_function_kernel`` use while cunumpy has no
``CudaKernel``: scalars are cast to the C types of the signature, ``n_threads`` becomes a
1-D grid of ``block_size`` blocks.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ._c_signature import global_parameters
from ._raw import RawKernel

__all__ = ["SourceKernel"]


class SourceKernel:
    """The ``__global__`` function ``name`` of ``source``, called like a ``CudaKernel``."""

    def __init__(
        self,
        source: str,
        name: str,
        *,
        include_dirs: Sequence[str | Path] = (),
        block_size: int = 128,
        options: Sequence[str] = (),
    ) -> None:
        self.name = name
        self.source = source
        self.signature = global_parameters(source, name)
        self.block_size = int(block_size)
        flags = (*(f"-I{d}" for d in include_dirs), *options)
        self.raw = RawKernel(source, name, options=tuple(flags))

    @classmethod
    def from_file(cls, path: str | Path, name: str, **options: Any) -> SourceKernel:
        """The kernel ``name`` of the file ``path`` (its folder is an include directory)."""
        path = Path(path)
        dirs = (path.parent, *options.pop("include_dirs", ()))
        return cls(path.read_text(), name, include_dirs=dirs, **options)

    def compile(self) -> None:
        """Compile now (CuPy compiles at the first launch otherwise)."""
        self.raw.kernel().compile()

    def __call__(
        self,
        *args: Any,
        n_threads: int | Sequence[int] | None = None,
        grid: int | Sequence[int] | None = None,
        block: int | Sequence[int] | None = None,
        shared_mem: int = 0,
        stream: Any = None,
    ) -> None:
        """Launch on ``args`` with ``n_threads`` threads (default: the first array's length)."""
        if len(args) != len(self.signature):
            msg = f"{self.name}: takes {len(self.signature)} arguments, not {len(args)}."
            raise TypeError(msg)
        values = []
        for param, value in zip(self.signature, args):
            if not param.pointer and param.dtype is not None:
                value = param.dtype.type(value)
            values.append(value)
        blocks = _dims(block) if block is not None else (self.block_size,)
        if grid is not None:
            grids = _dims(grid)
        else:
            if n_threads is None:  # one thread per element of the first array's first axis
                first = next((a for a in args if hasattr(a, "shape") and len(a.shape) > 0), None)
                if first is None:
                    msg = f"{self.name}: pass `n_threads` or `grid`: no array to infer the launch from."
                    raise ValueError(msg)
                n_threads = int(first.shape[0])
            total = int(np.prod(_dims(n_threads)))
            grids = (max(1, -(-total // blocks[0])),)
        self.raw(grids, blocks, tuple(values), shared_mem=shared_mem, stream=stream)


def _dims(value: int | Sequence[int]) -> tuple[int, ...]:
    return (int(value),) if isinstance(value, (int, np.integer)) else tuple(int(v) for v in value)
