"""Writing kernels: portable kernels compiled by Numba, and CUDA C kernels for CuPy.

- :func:`elementwise` and :func:`generalized` turn one Python function into a kernel that
  runs compiled on the CPU for NumPy arrays (Numba's ``cpu`` or ``parallel`` target) and
  on the GPU holding CuPy arrays (numba-cuda's CUDA target), with ``out=`` and
  ``stream=``.
- :class:`ElementwiseKernel`, :class:`ReductionKernel` and :class:`RawKernel` wrap CuPy's
  CUDA C kernels with ``stream=``, device checks and an optional ``cpu=`` implementation
  for NumPy arrays.

Importing this module imports neither Numba nor CuPy; defining a portable kernel needs
Numba (the ``kernels`` extra) and running one on a GPU needs numba-cuda (the GPU extras).
See ``docs/kernels.md``.
"""

from ._cuda_c import ElementwiseKernel, ReductionKernel
from ._elementwise import ElementwiseFunction, elementwise
from ._generalized import GeneralizedFunction, generalized
from ._raw import RawKernel

__all__ = [
    "ElementwiseFunction",
    "ElementwiseKernel",
    "GeneralizedFunction",
    "RawKernel",
    "ReductionKernel",
    "elementwise",
    "generalized",
]


def __dir__() -> list[str]:
    """The public names only (``__all__``), not the private submodules."""
    return list(__all__)
