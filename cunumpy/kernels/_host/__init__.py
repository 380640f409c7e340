"""Host kernels with device data: Pyccel and compiled host code run on CuPy arrays.

``PyccelKernel`` and host kernels (``_host_kernel``), ``CompiledHostKernel``
(``_compiled_host_kernel``), the Pyccel build cache (``_pyccel_cache``) and the
stubs Pyccel writes (``_pyccel_stub``).
"""
