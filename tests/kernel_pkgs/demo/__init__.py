"""A catalog of three kernels: ``scale`` and ``count`` ported to CUDA, ``shift`` not yet."""
