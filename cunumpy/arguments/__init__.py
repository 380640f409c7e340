"""Argument objects for CUDA kernels: groups of arguments, and C structs passed by value.

- :class:`CudaArguments`: an object passed as several kernel arguments (any object with
  ``__cuda_args__()`` is flattened by :class:`~cunumpy.kernels.CudaKernel`).
- :class:`CudaStruct`: a C struct defined once, its ``declaration`` and the matching
  packing; :meth:`CudaStruct.from_signature` reads a host argument class's annotations,
  :meth:`CudaStruct.to_header` and :func:`write_cuda_header` write headers.
- :class:`CudaStructArguments`: the class form, an argument object that arrives as one
  struct; :class:`CudaStructValue`: a packed value.

Nothing is converted between host and device: argument objects reach kernels as they
are. See ``docs/cuda_kernels.md``.
"""

from .._settings._homes import set_public_homes as _set_public_homes
from ._headers import write_cuda_header
from ._objects import CudaArguments, CudaStructArguments
from ._struct import CudaStruct, CudaStructValue

__all__ = [
    "CudaArguments",
    "CudaStruct",
    "CudaStructArguments",
    "CudaStructValue",
    "write_cuda_header",
]


_set_public_homes(__name__, __all__, globals())  # tracebacks name the public module


def __dir__() -> list[str]:
    """The public names only (``__all__``), not the private submodules."""
    return list(__all__)
