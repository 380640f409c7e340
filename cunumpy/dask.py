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
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what this module is at run time (below): the Dask namespace's names
    from ._backends.dask import *  # noqa: F403 (the standard's names, as that module types them)
    from ._backends.dask import __array_api_version__ as __array_api_version__

try:
    from ._backends import dask as _namespace
except ImportError as _exc:  # pragma: no cover - the message is tested with Dask hidden
    from ._settings._distributions import install_hint

    _msg = f"cunumpy.dask needs Dask: {install_hint('dask')} ({_exc})."
    raise ImportError(_msg) from _exc

sys.modules[__name__] = _namespace
