"""Portable kernels: one Python function compiled by Numba for the CPU and CUDA targets.

``@elementwise`` and ``@generalized`` (``_elementwise``, ``_generalized``), what they
share (``_common``), loop types and shapes, the CPU target (``_numba_cpu``), the CUDA
target (``_numba_cuda``, ``_numba_cuda_kernels``, ``_callers``) and Numba imported
on first use (``_numba_import``); ``fuse`` for CuPy.
"""
