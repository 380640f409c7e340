"""Writing kernels: portable kernels compiled by Numba, and CUDA C kernels for CuPy.

- :func:`elementwise` and :func:`generalized` turn one Python function into a kernel that
  runs compiled on the CPU for NumPy arrays (Numba's ``cpu`` or ``parallel`` target) and
  on the GPU holding CuPy arrays (numba-cuda's CUDA target), with ``out=`` and
  ``stream=``.
- Host kernels with device data and kernel pairs: :class:`PyccelKernel` runs a kernel
  written for NumPy arrays on CuPy data (through counted host copies), :class:`Kernel`
  pairs it with its CUDA port and runs the one that matches the data,
  :class:`KernelCatalog` collects the pairs of a package (see ``docs/porting_kernels.md``).
- :class:`ElementwiseKernel`, :class:`ReductionKernel` and :class:`RawKernel` wrap CuPy's
  CUDA C kernels with ``stream=``, device checks and an optional ``cpu=`` implementation
  for NumPy arrays.
- :class:`CudaKernel` (CuNumpy 0.7.1's): CUDA C compiled through CuPy whose calls are
  checked against the parsed signature, with shipped headers, structs
  (:mod:`cunumpy.arguments`) and a debug mode; :class:`CudaKernelVariants` for
  generated sources (``docs/cuda_kernels.md``).

Importing this module imports neither Numba nor CuPy; defining a portable kernel needs
Numba (the ``kernels`` extra) and running one on a GPU needs numba-cuda (the GPU extras);
:func:`gpu_available` tells whether they can run on a GPU here.
See ``docs/kernels.md``.
"""

from .._settings._homes import set_public_homes as _set_public_homes
from ._catalog._kernel_catalog import KernelCatalog
from ._catalog._kernel_pair import Kernel
from ._cuda_c._cuda_kernel import CudaKernel
from ._cuda_c._cupy_kernels import ElementwiseKernel, ReductionKernel
from ._cuda_c._raw_kernel import RawKernel
from ._cuda_c._variants import CudaKernelVariants
from ._host._compiled_host_kernel import CompiledHostKernel
from ._host._host_kernel import PyccelKernel
from ._host._pyccel_cache import PyccelCache
from ._implementations import (
    DEVICE_IMPLEMENTATIONS,
    HOST_IMPLEMENTATIONS,
    HostImplementations,
    get_device_kernel_implementation,
    get_host_kernel_implementation,
    set_device_kernel_implementation,
    set_host_kernel_implementation,
    use_device_kernel_implementation,
    use_host_kernel_implementation,
)
from ._kernel_arrays import as_kernel_array, kernel_output, kernel_outputs, outputs_from_annotations
from ._portable._elementwise import ElementwiseFunction, elementwise
from ._portable._fuse import fuse
from ._portable._generalized import GeneralizedFunction, generalized
from ._portable._numba_import import gpu_available, gpu_unavailable_reason

__all__ = [
    "DEVICE_IMPLEMENTATIONS",
    "HOST_IMPLEMENTATIONS",
    "CompiledHostKernel",
    "CudaKernel",
    "CudaKernelVariants",
    "ElementwiseFunction",
    "ElementwiseKernel",
    "GeneralizedFunction",
    "HostImplementations",
    "Kernel",
    "KernelCatalog",
    "PyccelCache",
    "PyccelKernel",
    "RawKernel",
    "ReductionKernel",
    "as_kernel_array",
    "elementwise",
    "fuse",
    "generalized",
    "get_device_kernel_implementation",
    "get_host_kernel_implementation",
    "gpu_available",
    "gpu_unavailable_reason",
    "kernel_output",
    "kernel_outputs",
    "outputs_from_annotations",
    "set_device_kernel_implementation",
    "set_host_kernel_implementation",
    "use_device_kernel_implementation",
    "use_host_kernel_implementation",
]


_set_public_homes(__name__, __all__, globals())  # tracebacks name the public module


def __dir__() -> list[str]:
    """The public names only (``__all__``), not the private submodules."""
    return list(__all__)
