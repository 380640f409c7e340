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

On Numba's CPU targets a rewrite before typing also turns each ``np.<name>`` that Numba
types into NumPy's object in the function's IR (``_register_call_names``), since the
passes of ``parallel=True`` find NumPy's functions by name, not by type.

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
        if typing == "numba":
            _register_call_names()
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


_imported: dict[int, object] = {}


def _imported_names() -> dict[int, object]:
    """NumPy's object for the ``id`` of each of cunumpy's own objects that NumPy has under
    its NumPy name (the function that ``from cunumpy import sqrt`` binds)."""
    if not _imported:
        for module_name, twin_name in NUMPY_MODULES.items():
            module, twin = sys.modules[module_name], sys.modules[twin_name]
            for name in module.__all__:
                _, numpy_spelling = numpy_name(module_name, name)
                ours, theirs = getattr(module, name), getattr(twin, numpy_spelling, None)
                if theirs is not None and ours is not theirs and not isinstance(ours, ModuleType):
                    _imported[id(ours)] = theirs
    return _imported


def _register_call_names() -> None:
    """Numba's passes that find NumPy's functions by name see NumPy's names too.

    Typing alone is not enough on Numba's CPU targets: ``parallel=True`` turns
    ``np.sum(a)``, ``np.zeros(n)`` or ``np.sqrt(a) + 1`` into parallel loops only where
    ``ir_utils.find_callname`` reads the call as ``("sum", "numpy")``, from the module
    object the IR loads; for ``cunumpy`` it reads ``("sum", "cunumpy")`` and leaves the
    call serial. So a rewrite of Numba's nopython pipeline before typing (Numba's
    ``register_rewrite("before-inference")``, as its own rewrites are registered) turns
    each ``getattr(<cunumpy module>, name)`` whose NumPy name Numba types into the NumPy
    object itself, as if the program had written ``numpy.sum``: the IR every later pass
    reads is then the NumPy program's. A global bound to one of cunumpy's functions
    (``from cunumpy import sqrt``) becomes NumPy's function likewise. A name Numba does not type is left to the
    attribute template, which gives NumPy's error. Object mode has no such rewrites: it
    calls cunumpy's functions.
    """
    from numba.core import ir, types
    from numba.core.ir_utils import get_definition, guard
    from numba.core.rewrites import Rewrite, register_rewrite

    @register_rewrite("before-inference")
    class NumPyCallNames(Rewrite):
        def __init__(self, state: Any) -> None:
            super().__init__(state)
            self.typingctx = state.typingctx
            self.found: dict[Any, Any] = {}

        def match(self, func_ir: Any, block: Any, typemap: Any, calltypes: Any) -> bool:
            self.func_ir, self.block, self.found = func_ir, block, {}
            for inst in block.find_insts(ir.Assign):
                expr = inst.value
                if isinstance(expr, ir.Global | ir.FreeVar):
                    imported = _imported_names().get(id(expr.value))
                    if imported is not None:  # `from cunumpy import sqrt`: NumPy's object
                        self.found[inst] = ir.Global(expr.name, imported, expr.loc)
                    continue
                if not (isinstance(expr, ir.Expr) and expr.op == "getattr"):
                    continue
                source = guard(get_definition, func_ir, expr.value)
                if not isinstance(source, ir.Global | ir.FreeVar):
                    continue
                module = source.value
                if not isinstance(module, ModuleType) or module.__name__ not in NUMPY_MODULES:
                    continue
                twin_name, name = numpy_name(module.__name__, expr.attr)
                twin = sys.modules[twin_name]
                if not hasattr(twin, name):
                    continue  # cunumpy's own helper: left to Numba
                if self.typingctx.resolve_getattr(types.Module(twin), name) is None:
                    continue  # Numba lacks NumPy's name: the template raises its error
                self.found[inst] = ir.Global(f"{twin_name}.{name}", getattr(twin, name), expr.loc)
            return bool(self.found)

        def apply(self) -> Any:
            block = self.block.copy()
            block.clear()
            for inst in self.block.body:
                new = self.found.get(inst)
                if new is not None:
                    definitions = self.func_ir._definitions[inst.target.name]
                    definitions[:] = [new if d is inst.value else d for d in definitions]
                    inst = ir.Assign(value=new, target=inst.target, loc=inst.loc)
                block.append(inst)
            return block
