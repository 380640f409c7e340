"""Root finding and minimization with device data.

- :func:`newton` runs on the device: many independent scalar problems solved at once,
  each step a few whole-array operations on the backend of ``x0``.
- :func:`fsolve`, :func:`root` and :func:`minimize` run SciPy on the host (SciPy's
  optimizers are host-only and ``cupyx.scipy`` has no ``optimize``), with callbacks that
  get their arrays on the backend of ``x0`` and results on that backend; every copy is
  noted for ``cunumpy.profiling``'s transfer counters.

SciPy is imported on the first call that needs it. See :doc:`/algorithms` (solvers).
"""

from .._settings._homes import set_public_homes as _set_public_homes
from ._newton import NewtonResult, newton
from ._scipy_solvers import fsolve, minimize, root

__all__ = ["NewtonResult", "fsolve", "minimize", "newton", "root"]


_set_public_homes(__name__, __all__, globals())  # tracebacks name the public module


def __dir__() -> list[str]:
    """The public names only (``__all__``), not the private submodules."""
    return list(__all__)
