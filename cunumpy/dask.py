"""``cunumpy.dask``: the Array API namespace of Dask arrays (NumPy or CuPy chunks).

This module is ``cunumpy._backends.dask`` itself: importing it imports Dask and puts that
namespace in its place, so ``cunumpy.dask is array_namespace(dask_array)``. It needs Dask
(the ``dask`` extra: ``dask[array]`` and ``distributed``); ``import cunumpy`` never imports
Dask.

Examples
--------
>>> import dask.array as da
>>> import cunumpy
>>> import cunumpy.dask
>>> x = da.arange(6.0, chunks=2)
>>> cunumpy.array_namespace(x) is cunumpy.dask
True
>>> cunumpy.dask.floor_divide(x, 4.0).compute()
array([0., 0., 0., 0., 1., 1.])
"""

import sys

try:
    from ._backends import dask as _namespace
except ImportError as exc:  # pragma: no cover - the message is tested with Dask hidden
    from ._settings._distributions import install_hint

    msg = f"cunumpy.dask needs Dask: {install_hint('dask')} ({exc})."
    raise ImportError(msg) from exc

sys.modules[__name__] = _namespace
