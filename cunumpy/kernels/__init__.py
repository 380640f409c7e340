"""Writing kernels: portable kernels compiled by Numba, and CUDA C kernels for CuPy.

- :func:`elementwise` and :func:`generalized` turn one Python function into a kernel that
  runs compiled on the CPU for NumPy arrays (Numba's ``cpu`` or ``parallel`` target) and
  on the GPU holding CuPy arrays (numba-cuda's CUDA target), with ``out=`` and
  ``stream=``.
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

from ._cuda_c import ElementwiseKernel, ReductionKernel
from ._cuda_kernel import CudaKernel
from ._cuda_variants import CudaKernelVariants
from ._elementwise import ElementwiseFunction, elementwise
from ._generalized import GeneralizedFunction, generalized
from ._numba import gpu_available, gpu_unavailable_reason
from ._raw import RawKernel

__all__ = [
    "CudaKernel",
    "CudaKernelVariants",
    "ElementwiseFunction",
    "ElementwiseKernel",
    "GeneralizedFunction",
    "RawKernel",
    "ReductionKernel",
    "elementwise",
    "generalized",
    "gpu_available",
    "gpu_unavailable_reason",
]


def __dir__() -> list[str]:
    """The public names only (``__all__``), not the private submodules."""
    return list(__all__)
