"""Host code with device data: SciPy, file readers and compiled host code called with
arrays of either backend, every copy to the host and back noted.

``host_call`` and its decorators (``_host_call``), SciPy's solvers with device
callbacks (``_scipy_bridge``) and ``xp.scipy`` (``_scipy_namespace``).
"""
