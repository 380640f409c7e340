"""Numba's typing of cunumpy's names: in compiled code, ``np.sqrt`` is ``numpy.sqrt``.

Numba types ``np.sqrt`` inside ``@njit`` only when the module attribute is an object it
registered (``numpy.sqrt``), and cunumpy's standard names are cunumpy's own functions.
So each public module with NumPy's names (``cunumpy``, ``cunumpy.linalg``,
``cunumpy.fft``) gets one attribute template, Numba's documented low-level extension
API (``AttributeTemplate``, ``infer_getattr``): an attribute ``name`` of the module is
typed exactly as Numba types NumPy's ``numpy_name(module, name)``
(``_calls/_numpy_names.py``: ``acos`` is ``numpy.arccos``, ``permute_dims`` is
``numpy.transpose``), by the same typing context, so the same typing template and the
same implementation compile it, with the same errors. Where Numba cannot type the NumPy
name, the error is the one NumPy's name gives (``Use of unsupported NumPy function
'numpy.pad'``). A name NumPy lacks (cunumpy's helpers) is left to Numba, which reads it
as a module constant (``Unknown attribute 'to_numpy'`` for a function).

The resolution runs at each typing, never stored, so names registered by Numba later
(its implementations load lazily) and the current backend (on CuPy, ``cunumpy.random``
is CuPy's, but compiled code works on NumPy's arrays) cannot leave it stale. Outside
compiled code the names stay cunumpy's functions.

When it runs: ``register()`` teaches every Numba typing already imported (Numba's own,
and numba-cuda's, which has its own types and registries since 0.22) and is idempotent.
``cunumpy/__init__.py`` calls it when ``import cunumpy`` finds one imported (a
``sys.modules`` look-up: ``import cunumpy`` never imports Numba), and Numba's
``numba_extensions`` and numba-cuda's ``numba_cuda_extensions`` entry points
(``_cunumpy_numba.init``, installed with the package) call it at their first
compilation, if cunumpy is imported by then.
"""

from __future__ import annotations

import importlib
import sys
from types import ModuleType
from typing import Any

from ._calls._numpy_names import NUMPY_MODULES, numpy_name

__all__ = ["register", "registered"]

# Numba's typing and numba-cuda's own (numba-cuda 0.22 and later copy Numba's typing into
# numba.cuda, with types and registries of its own): the modules of each, by name.
_TYPINGS = {
    "numba": ("numba.core.typing.templates", "numba.core.types", "numba.core.errors"),
    "numba-cuda": ("numba.cuda.typing.templates", "numba.cuda.types", "numba.cuda.core.errors"),
}

_registered: list[str] = []


def registered() -> tuple[str, ...]:
    """The Numba typings that know cunumpy's names in this process (``"numba"``,
    ``"numba-cuda"``); empty until one is imported.

    Examples
    --------
    >>> set(registered()) <= {"numba", "numba-cuda"}
    True
    """
    return tuple(_registered)


def register() -> None:
    """Teach each Numba typing already imported that cunumpy's names are NumPy's.

    A typing not imported yet is left alone: its entry point calls this again when it
    first compiles. Calling it again does nothing more.
    """
    for typing, (templates_name, types_name, errors_name) in _TYPINGS.items():
        templates = sys.modules.get(templates_name)
        if typing in _registered or templates is None:
            continue
        if any(templates is sys.modules.get(_TYPINGS[done][0]) for done in _registered):
            continue  # an older numba-cuda, on Numba's own typing: done already
        types = importlib.import_module(types_name)
        errors = importlib.import_module(errors_name)
        for module_name, twin_name in NUMPY_MODULES.items():
            module = importlib.import_module(module_name)
            twin = importlib.import_module(twin_name)
            templates.infer_getattr(_names_of(templates, types, errors, module, twin))
        _registered.append(typing)


def _names_of(
    templates: Any, types: Any, errors: Any, module: ModuleType, twin: ModuleType
) -> type:
    """The attribute template of ``module`` in one Numba typing (its base class, types and
    errors are that typing's): each name typed as NumPy's ``twin`` types its name."""

    class NumPyNames(templates.AttributeTemplate):
        key = types.Module(module)

        def generic_resolve(self, value: Any, attr: str) -> Any:
            _, name = numpy_name(module.__name__, attr)
            if not hasattr(twin, name):
                return None  # not NumPy's: Numba reads cunumpy's attribute as a constant
            found = self.context.resolve_getattr(types.Module(twin), name)
            if found is None:  # the error Numba gives for NumPy's name itself
                raise errors.UntypedAttributeError(types.Module(twin), name)
            return found

    NumPyNames.__name__ = NumPyNames.__qualname__ = (
        f"NumPyNames_{module.__name__.replace('.', '_')}"
    )
    return NumPyNames
