"""The timeline recorder that ``cunumpy.profiling.trace`` turns on: the hooks every layer calls.

It imports nothing of cunumpy's and nothing heavy, so that the lowest layers (the transfer
log, streams, kernels, MPI) can call it. Off, each hook costs one module-attribute read.
"""
