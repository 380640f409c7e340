"""Kernel packages for the tests of ``Kernel``/``KernelCatalog`` (one folder per kernel)."""
