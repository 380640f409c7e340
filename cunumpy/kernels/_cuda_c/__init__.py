"""CUDA C kernels through CuPy: ``CudaKernel`` and its variants, compile and launch.

``CudaKernel`` (``_cuda_kernel``), ``CudaKernelVariants`` (``_variants``), what it
compiles (``_compile``), how it launches (``_launch``), and CuPy's own kernels with
``stream=`` and ``cpu=`` (``_raw_kernel``, ``_cupy_kernels``).
"""
