"""The ``smooth`` kernel: ported to CUDA."""
