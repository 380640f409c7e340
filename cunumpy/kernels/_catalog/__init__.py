"""Kernel pairs and catalogs: a host kernel and its CUDA port, chosen by the data.

``Kernel`` (``_kernel_pair``) and ``KernelCatalog``, the pairs of a package with one
folder per kernel (``_kernel_catalog``).
"""
