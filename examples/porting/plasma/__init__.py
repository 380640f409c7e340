"""The kernels of a small code that is being ported to CUDA one kernel at a time.

One folder per kernel: ``<name>/<name>_kernels.py`` is the host kernel (plain Python
loops here; Pyccel or Numba would compile it), ``<name>/<name>_cuda.cu`` its CUDA port
when written, ``<name>/<name>_test_args.py`` the arguments of its parity test.
"""

from cunumpy.kernels import KernelCatalog

catalog = KernelCatalog.from_package(__name__, outputs="annotations", missing_cuda="fallback")
