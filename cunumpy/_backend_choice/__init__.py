"""The backend choice: which backend runs, read from the environment, and its report.

The process default backend and its context-local overrides, and the namespace module
each backend's name stands for (``_config``: ``set_backend``, ``use_backend``,
``current``); which backends running code may see, and the listeners told when that
changes (``_landscape``); ``CUNUMPY_BACKEND``, ``CUNUMPY_FAKE_CUPY`` and
``CUNUMPY_REQUIRE_CUDA`` read at import (``_environment``); ``backend_info`` and the
versions (``_versions``). It sits directly above the backends' namespaces, whose modules
it holds, and below everything that asks which backend runs.
"""
