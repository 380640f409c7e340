"""Moving data: the user's helpers that copy arrays between the host and GPUs.

``device``, ``to_device``, ``to_numpy`` and ``to_cupy`` (``_to_device``),
``to_host_async`` (``_host_copy_async``) and CuNumpy 0.7.1's helpers for where an
array lives and converting it to the current backend (``_backend_conversion``).
They sit above the namespaces and ``cuda``, and call down into ``_placement``.
"""
