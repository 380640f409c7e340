"""Numba's view of cunumpy's names: in compiled code, ``np.sqrt`` is ``numpy.sqrt``.

Numba compiles ``np.sqrt`` inside ``@njit`` only when the module attribute is an object it
registered (``numpy.sqrt``), and cunumpy's standard names are cunumpy's own functions. Two
pieces of Numba's extension API make every name of a public module with NumPy's names
(``cunumpy``, ``cunumpy.linalg``, ``cunumpy.fft``) NumPy's name in compiled code, the
name given by ``numpy_name`` (``_calls/_numpy_names.py``: ``acos`` is ``numpy.arccos``,
``permute_dims`` is ``numpy.transpose``):

- **A rewrite before typing** (``register_rewrite("before-inference")``, as Numba
  registers its own): in a function's IR, ``getattr(<cunumpy module>, "acos")`` becomes
  ``getattr(<numpy module>, "arccos")``, and a global bound to one of cunumpy's functions
  (``from cunumpy import sqrt``) becomes NumPy's function. The IR is then the NumPy
  program's, so everything after reads NumPy's program: typing, the errors (``Use of
  unsupported NumPy function 'numpy.pad'``), and the passes that find NumPy's functions
  by name, not by type (``parallel=True`` makes ``np.sum(a)`` a parallel reduction only
  where ``ir_utils.find_callname`` reads ``("sum", "numpy")``).
- **An attribute template per module** (``AttributeTemplate``, ``infer_getattr``), for
  what types a module's attribute without that IR: ``hasattr(np, "pad")``, and
  compilation with ``no_rewrites``. It types the attribute as Numba types NumPy's name,
  by the same typing context.

A name NumPy lacks (cunumpy's helpers) is left to Numba: ``Unknown attribute
'to_numpy'``. Both look up NumPy's name each time, never stored, so implementations that
Numba registers later and the current backend (on CuPy, ``cunumpy.random`` is CuPy's, but
compiled code works on NumPy's arrays) cannot leave them stale. Outside compiled code the
names stay cunumpy's functions; object mode calls them.

When it runs: ``register()`` teaches every Numba already imported (Numba's own, and
numba-cuda's, which has its own IR, types and registries since 0.22) and is idempotent.
``cunumpy/__init__.py`` calls it when ``import cunumpy`` finds one imported (a
``sys.modules`` look-up: ``import cunumpy`` never imports Numba), and Numba's
``numba_extensions`` and numba-cuda's ``numba_cuda_extensions`` entry points
(``_cunumpy_numba.init``, installed with the package) call it at their first
compilation, if cunumpy is imported by then.
"""

from __future__ import annotations

import importlib
import sys
import warnings
from types import ModuleType
from typing import Any

from ._calls._numpy_names import NUMPY_MODULES, numpy_name

__all__ = ["register", "registered"]

# Numba and numba-cuda (0.22 and later copy Numba's compiler into numba.cuda, with an IR,
# types and registries of their own): where each keeps the modules used here, by role.
_NUMBAS = {
    "numba": {
        "templates": "numba.core.typing.templates",
        "types": "numba.core.types",
        "ir": "numba.core.ir",
        "ir_utils": "numba.core.ir_utils",
        "rewrites": "numba.core.rewrites",
    },
    "numba-cuda": {
        "templates": "numba.cuda.typing.templates",
        "types": "numba.cuda.types",
        "ir": "numba.cuda.core.ir",
        "ir_utils": "numba.cuda.core.ir_utils",
        "rewrites": "numba.cuda.core.rewrites",
    },
}

_registered: list[str] = []


def registered() -> tuple[str, ...]:
    """The Numbas that know cunumpy's names in this process (``"numba"``,
    ``"numba-cuda"``); empty until one is imported.

    Examples
    --------
    >>> set(registered()) <= {"numba", "numba-cuda"}
    True
    """
    return tuple(_registered)


def register() -> None:
    """Teach each Numba already imported that cunumpy's names are NumPy's.

    A Numba not imported yet is left alone: its entry point calls this again when it
    first compiles. Calling it again does nothing more.
    """
    for numba, places in _NUMBAS.items():
        templates = sys.modules.get(places["templates"])
        if numba in _registered or templates is None:
            continue
        if any(templates is sys.modules.get(_NUMBAS[done]["templates"]) for done in _registered):
            continue  # an older numba-cuda, on Numba's own compiler: done already
        try:
            modules = {role: importlib.import_module(name) for role, name in places.items()}
        except ImportError as exc:  # a numba-cuda between the two layouts
            msg = (
                f"cunumpy cannot teach this {numba} its NumPy names ({exc}); inside compiled "
                "code, use NumPy's names (import numpy) or another version of it"
            )
            warnings.warn(msg, RuntimeWarning, stacklevel=2)
            continue
        twins = {name: importlib.import_module(twin) for name, twin in NUMPY_MODULES.items()}
        for module_name, twin in twins.items():
            module = importlib.import_module(module_name)
            templates.infer_getattr(_attribute_template(modules, module, twin))
        modules["rewrites"].register_rewrite("before-inference")(_rewrite(modules, twins))
        _registered.append(numba)


def _attribute_template(modules: dict[str, Any], module: ModuleType, twin: ModuleType) -> type:
    """The attribute template of ``module`` in one Numba (its base class and types are
    that Numba's): a name is typed as NumPy's ``twin`` types its NumPy name."""
    types = modules["types"]
    base: Any = modules["templates"].AttributeTemplate

    class NumPyNames(base):
        key = types.Module(module)

        def generic_resolve(self, value: Any, attr: str) -> Any:
            _, name = numpy_name(module.__name__, attr)
            if not hasattr(twin, name):
                return None  # not NumPy's: Numba reads cunumpy's attribute as a constant
            return self.context.resolve_getattr(types.Module(twin), name)

    NumPyNames.__name__ = NumPyNames.__qualname__ = (
        f"NumPyNames_{module.__name__.replace('.', '_')}"
    )
    return NumPyNames


def _numpy_objects() -> dict[int, object]:
    """NumPy's object for the ``id`` of each of cunumpy's own objects that NumPy has under
    its NumPy name (the function that ``from cunumpy import sqrt`` binds)."""
    found: dict[int, object] = {}
    for module_name, twin_name in NUMPY_MODULES.items():
        module, twin = sys.modules[module_name], sys.modules[twin_name]
        for name in module.__all__:
            _, numpy_spelling = numpy_name(module_name, name)
            theirs = getattr(twin, numpy_spelling, None)
            ours = vars(module).get(name)  # not getattr: a lazy submodule stays unloaded
            if theirs is None or ours is None or ours is theirs or isinstance(ours, ModuleType):
                continue
            found[id(ours)] = theirs
    return found


def _rewrite(modules: dict[str, Any], twins: dict[str, ModuleType]) -> type:
    """The rewrite, in one Numba's IR, of cunumpy's names into NumPy's (module docstring)."""
    ir, ir_utils = modules["ir"], modules["ir_utils"]
    numpy_objects: dict[int, object] = {}  # filled at the first match: cunumpy is whole then
    base: Any = modules["rewrites"].Rewrite

    class NumPyProgram(base):
        def match(self, func_ir: Any, block: Any, typemap: Any, calltypes: Any) -> bool:
            if not numpy_objects:
                numpy_objects.update(_numpy_objects())
            self.func_ir, self.block = func_ir, block
            self.found: dict[Any, tuple[Any, ...]] = {}
            for inst in block.find_insts(ir.Assign):
                value = inst.value
                if isinstance(value, ir.Global | ir.FreeVar):
                    theirs = numpy_objects.get(id(value.value))
                    if theirs is not None:  # `from cunumpy import sqrt`: NumPy's function
                        self.found[inst] = (ir.Global(value.name, theirs, value.loc),)
                elif isinstance(value, ir.Expr) and value.op == "getattr":
                    source = ir_utils.guard(ir_utils.get_definition, func_ir, value.value)
                    if not isinstance(source, ir.Global | ir.FreeVar):
                        continue
                    module_name = getattr(source.value, "__name__", None)
                    if not isinstance(source.value, ModuleType) or module_name not in twins:
                        continue
                    twin = twins[module_name]
                    _, name = numpy_name(module_name, value.attr)
                    if hasattr(twin, name):
                        self.found[inst] = (ir.Global(twin.__name__, twin, value.loc), name)
            return bool(self.found)

        def apply(self) -> Any:
            block = self.block.copy()
            block.clear()
            definitions = self.func_ir._definitions
            for inst in self.block.body:
                found = self.found.get(inst)
                if found is None:
                    block.append(inst)
                    continue
                new = found[0]
                if len(found) == 2:  # getattr(<numpy module>, NumPy's name)
                    twin = ir.Var(inst.target.scope, ir_utils.mk_unique_var("$numpy"), new.loc)
                    block.append(ir.Assign(value=new, target=twin, loc=inst.loc))
                    definitions[twin.name] = [new]
                    new = ir.Expr.getattr(twin, found[1], inst.value.loc)
                kept = definitions[inst.target.name]
                kept[:] = [new if old is inst.value else old for old in kept]
                block.append(ir.Assign(value=new, target=inst.target, loc=inst.loc))
            return block

    return NumPyProgram
