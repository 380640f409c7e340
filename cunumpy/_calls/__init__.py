"""The top-level call machinery: how a call of ``cunumpy.f`` finds where to run.

Where the generated functions run (``_where_to_run``), NumPy's calls and ufunc
methods at the top level (``_numpy_calls``, ``_ufunc_methods``), the checks of
arguments that are not arrays (``_arguments``) and the names the public modules
take from the backend library (``_public_names``, ``_forwarders``).
It sits above ``_namespaces`` and the backends, below ``cunumpy/__init__.py``.
"""
