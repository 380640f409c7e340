"""CUDA C on the CPU: the emulator of CUDA C and the strict fake CuPy built on it.

``_emulator`` compiles CUDA C as C++ (``runtime.h``: the CUDA built-ins, fibers for
``__syncthreads``) and runs a launch thread by thread; ``_fake`` is the strict fake CuPy
(``CUNUMPY_FAKE_CUPY=1``), whose arrays live in host memory but are no NumPy arrays and
whose ``RawKernel``, ``ElementwiseKernel`` and ``ReductionKernel`` run on the emulator.
``CudaKernel`` launches NumPy arrays here (0.7.1's emulated launches), and
``cunumpy.kernel_testing`` gives the public names. A floor of its own under every user:
it imports only ``_settings``. Emulated, never a GPU check.
"""
