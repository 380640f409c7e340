"""NumPy's calls at the top level: one route for every call the standard does not write.

A generated top-level function (``cunumpy.mean``, ``cunumpy.sqrt``, ...) keeps its
standard path, fast, for calls written as the standard writes them. Every other call
NumPy accepts comes here, through one line of the generated function,
``numpy_call(mean, locals())``:

- extra positional arguments or NumPy's keywords (``mean(m, 1)``, ``cos(x, out=y)``,
  ``sort(x, kind="stable")``, ``linspace(0, 1, 5, retstep=True)``), which the function
  collects in ``*args`` and ``**kwargs``;
- a parameter NumPy lets a call leave out (``where(cond)``, ``squeeze(a)``), whose default
  in the signature is ``OMITTED``;
- Python scalars, lists or tuples where the standard wants an array (``sqrt(2.0)``,
  ``sum([1, 2, 3])``), found by the helpers of ``_where_to_run.py``.

NumPy's dtypes (float16, object, ``"float32"``) need no route: the namespaces pass them
on to the library's function.

The call goes to the library's own function of the same meaning (``acos`` is NumPy's and
CuPy's ``arccos``, see ``NUMPY_NAMES``), with the arguments the caller gave: the
parameters left at their defaults are left out, so NumPy sees the call as written. A
parameter whose NumPy default means something else than the standard's defaults to a
``NotGiven`` (``sort``'s ``stable``), so a value the caller gave is never mistaken for
one left out; after a parameter left out, the later ones given go by name
(``arange(stop=5)``).
The library is the one where the array arguments live (compute follows data) or, with
only Python scalars and sequences, the current backend's. On CuPy, Python sequences in
the standard's array parameters are converted with the CuPy namespace's ``asarray`` first
(a host-to-device copy that ``count_transfers`` counts), since CuPy refuses them; Python
scalars stay scalars. The answer is the library's (NumPy scalars where NumPy gives them).
A bad call raises the class the library raises, its message prefixed with our function's
name.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from types import ModuleType
from typing import Any, NoReturn

import numpy as np

from .._backend_choice._config import current as _current
from .._namespaces._array_namespace import _NAMESPACE_BY_TYPE, namespace_of
from .._placement._keep_alive import OPEN as _OPEN_BLOCKS
from .._placement._keep_alive import note_use as _note_use
from .._settings._errors import called_with
from ._numpy_names import NUMPY_NAMES
from ._shown_signatures import own_signature
from ._where_to_run import _is_array, _placement, _refuse_copy

__all__ = ["NUMPY_NAMES", "OMITTED", "NotGiven", "library_of", "not_given", "numpy_call"]


class _Omitted:
    """The default of a parameter that NumPy lets a call leave out (``where(cond)``)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<omitted>"


#: The default of the parameters that NumPy, unlike the standard, lets a call leave out.
OMITTED: Any = _Omitted()


class NotGiven:
    """The default of a parameter whose NumPy default means something else than the
    standard's (``sort``'s ``stable``: NumPy's None is an unstable sort; ``sum``'s
    ``keepdims``: NumPy's ``<no value>``): the standard's path takes ``default``, the
    standard's, and NumPy's call leaves the parameter out, as NumPy's own ``<no value>``
    does. One object per default (``not_given``), shown as ``<not given: True>``."""

    __slots__ = ("default",)

    def __init__(self, default: Any) -> None:
        self.default = default

    def __repr__(self) -> str:
        return f"<not given: {self.default!r}>"


_NOT_GIVEN: dict[tuple[type, Any], NotGiven] = {}


def not_given(default: Any) -> Any:
    """The ``NotGiven`` of the standard's ``default`` (one object per type and value)."""
    return _NOT_GIVEN.setdefault((type(default), default), NotGiven(default))


_SEQUENCES = (list, tuple)
_ndarray = np.ndarray
_generic = np.generic
_NOT_ARRAYS = frozenset({bool, int, float, complex, str, type(None)})
_POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)


class _Plan:
    """How to pass one function's parameters on to the library (read once per function)."""

    __slots__ = (
        "arrays", "functions", "keyword_places", "keywords", "name", "positional", "sequences",
        "vararg", "varkw",
    )  # fmt: skip

    def __init__(self, func: Callable[..., Any]) -> None:
        self.name = _qualname(func)
        params = own_signature(func).parameters.values()  # the def's, not the shown
        self.positional = [(p.name, p.default) for p in params if p.kind in _POSITIONAL]
        self.keywords = [(p.name, p.default) for p in params if p.kind is p.KEYWORD_ONLY]
        self.vararg = next((p.name for p in params if p.kind is p.VAR_POSITIONAL), None)
        self.varkw = next((p.name for p in params if p.kind is p.VAR_KEYWORD), None)
        annotations = {p.name: str(p.annotation) for p in params}
        # parameters holding one array, and those holding a tuple or list of arrays
        self.sequences = {
            n for n, a in annotations.items() if a.lower().startswith(_ARRAY_SEQUENCES)
        }
        if self.vararg is not None and "Array" in annotations[self.vararg]:
            self.sequences.add(self.vararg)
        self.arrays = {n for n, a in annotations.items() if "Array" in a} - self.sequences
        #: namespace -> the library's function for this call (found once per namespace)
        self.functions: dict[ModuleType, tuple[ModuleType, Any]] = {}
        self.keyword_places = _keyword_places(self.name, [n for n, _ in self.positional])


def _keyword_places(qualname: str, positional: list[str]) -> dict[str, str]:
    """The union's positional parameters that stand where NumPy's positional parameter has
    another name and that NumPy also takes as keywords of their own name: ours -> NumPy's
    positional name. ``clip(a, min, max)`` keeps the standard's ``min`` and ``max``, NumPy's
    are ``clip(a, a_min, a_max, out=None, *, min, max)``: a call that passes nothing more by
    position and names neither ``a_min`` nor ``a_max`` reaches NumPy with ``min=``/``max=``
    (``clip(x, min=1, out=y)``, ``clip(-2.0, min=None)``), which NumPy's ``a_min`` would
    refuse without an ``a_max``; a call that does goes by position, as it was written."""
    module = np
    prefix, _, name = qualname.rpartition(".")
    if prefix:
        module = getattr(np, prefix)
    try:
        theirs = list(
            inspect.signature(getattr(module, NUMPY_NAMES.get(name, name))).parameters.values()
        )
    except (AttributeError, TypeError, ValueError):  # no such function, or a ufunc
        return {}
    numpy_positional = [p.name for p in theirs if p.kind in _POSITIONAL]
    keyword_only = {p.name for p in theirs if p.kind is p.KEYWORD_ONLY}
    return {
        ours: numpy_name
        for ours, numpy_name in zip(positional, numpy_positional)
        if ours != numpy_name and ours in keyword_only
    }


_ARRAY_SEQUENCES = ("union[tuple[array", "tuple[array", "list[array")


def _qualname(func: Callable[..., Any]) -> str:
    """``linalg.norm``-style name of a generated function (its module says which extension)."""
    module = func.__module__.rpartition(".")[2]
    return f"{module}.{func.__name__}" if module in ("linalg", "fft") else func.__name__


_PLANS: dict[Callable[..., Any], _Plan] = {}
_LIBRARIES: dict[ModuleType, ModuleType] = {}


def library_of(namespace: ModuleType) -> ModuleType:
    """NumPy or CuPy for their namespaces; another library's namespace stands for itself."""
    library = _LIBRARIES.get(namespace)
    if library is None:
        name = namespace.__name__
        if name in ("cunumpy._backends.numpy", "cunumpy._backends.cupy"):
            library = importlib.import_module(name.rpartition(".")[2])
        else:
            library = namespace
        _LIBRARIES[namespace] = library
    return library


def _namespace_of_values(values: Any) -> ModuleType | None:
    """The namespace of the first array among ``values`` (and in their tuples and lists).

    A tuple or list whose first item is a Python scalar is Python data (``sum(lst)``): its
    items are not scanned one by one, which would cost as much as NumPy's conversion. A
    NumPy scalar is a scalar beside an array of any library (``namespace_of``): it gives
    the NumPy namespace only when no value is an array.
    """
    numpy_scalar: ModuleType | None = None
    for value in values:
        kind = type(value)
        if kind in _NOT_ARRAYS:
            continue
        namespace = _NAMESPACE_BY_TYPE.get(kind)
        if namespace is None:
            if isinstance(value, _SEQUENCES):
                if value and type(value[0]) in _NOT_ARRAYS:
                    continue
                namespace = _namespace_of_values(value)
            elif _is_array(value):  # an array whose type is not cached yet
                namespace = namespace_of((value,), "numpy_call")
            if namespace is None:
                continue
        if kind is not _ndarray and isinstance(value, _generic):
            numpy_scalar = namespace
        else:
            return namespace
    return numpy_scalar


def _numpy_data(value: Any) -> bool:
    """Whether ``value`` is NumPy's to read: an ndarray, a NumPy or Python scalar, a list
    or a tuple (not another library's array that NumPy's functions hand on)."""
    return type(value) in _NOT_ARRAYS or isinstance(value, (_ndarray, _generic, *_SEQUENCES))


def _converted(value: Any, namespace: ModuleType) -> Any:
    """A Python sequence as an array of ``namespace`` (CuPy refuses sequences)."""
    return namespace.asarray(value) if isinstance(value, _SEQUENCES) else value


def numpy_call(func: Callable[..., Any], values: dict[str, Any]) -> Any:
    """Run ``func``'s call, given as its ``locals()``, as the library's own function.

    Called first thing by the generated function, or once its standard path has found
    that the call is not the standard's, so ``values`` holds the parameters (and perhaps
    the function's own local names, which are ignored).
    """
    plan = _PLANS.get(func)
    if plan is None:
        plan = _PLANS[func] = _Plan(func)
    try:
        return _call(plan, values)
    except Exception as exc:  # the library's error, whatever its class, naming our function
        if isinstance(exc, Warning):  # a warning made an error by a filter: as it is
            raise
        raise_named(func, exc, values)


def _call(plan: _Plan, values: dict[str, Any]) -> Any:
    # Plain loops, not comprehensions: each comprehension is a function call of its own.
    positional: list[Any] = []
    pending: list[Any] = []  # defaults, passed only when a later argument is
    keywords: dict[str, Any] = {}
    by_name = False  # a parameter left out (OMITTED, NotGiven): the later ones go by name
    places = plan.keyword_places
    if places and (
        (plan.vararg is not None and values[plan.vararg])
        or (plan.varkw is not None and not set(places.values()).isdisjoint(values[plan.varkw]))
    ):
        places = {}  # clip(x, 1, 2, out), clip(x, 1, a_max=2): NumPy's positional call
    for name, default in plan.positional:
        value = values[name]
        if places and name in places:
            if value is not default:
                keywords[name] = value
            by_name = True
            continue
        if value is default:
            if value is OMITTED or type(value) is NotGiven:
                by_name = True
            elif not by_name:
                pending.append(value)
            continue
        if by_name:  # arange(stop=5), linspace(0, 1, endpoint=False)
            keywords[name] = value
            continue
        if pending:
            positional += pending
            pending = []
        positional.append(value)
    if plan.vararg is not None:
        extra = values[plan.vararg]
        if extra:  # every named positional parameter was given by position
            positional += pending
            positional += extra
    for name, default in plan.keywords:
        value = values[name]
        if value is not default:
            keywords[name] = value
    if plan.varkw is not None:
        keywords.update(values[plan.varkw])
    device = keywords.pop("device", None) if keywords else None
    namespace = _namespace_of_values([*positional, *keywords.values()] if keywords else positional)
    if device is not None:
        namespace, device = _placement(device, plan.name)
    elif namespace is None:
        namespace = _current().namespace
    found = plan.functions.get(namespace)
    if found is None:
        library = library_of(namespace)
        found = plan.functions[namespace] = (library, _function(library, namespace, plan.name))
    library, function = found
    if places and (library is not np or not _numpy_data(positional[0] if positional else None)):
        # CuPy's clip(a, a_min, a_max, out=None), and another library's array that NumPy's
        # function hands on (Dask's clip through __array_function__): by position
        positional = [*positional, *(keywords.pop(name, None) for name in places)]
    if library.__name__ == "cupy":
        positional, keywords = _on_cupy(plan, values, positional, keywords, namespace)
        if _OPEN_BLOCKS:  # in a stream() block: GPU arguments (out= too) live until it has run
            _note_use((*positional, *keywords.values()))
    if device is None:
        return function(*positional, **keywords)
    if device == "cpu":
        return function(*positional, device="cpu", **keywords)
    with library.cuda.Device(device):
        return function(*positional, **keywords)


def _on_cupy(
    plan: _Plan,
    values: dict[str, Any],
    positional: list[Any],
    keywords: dict[str, Any],
    namespace: ModuleType,
) -> tuple[list[Any], dict[str, Any]]:
    """The arguments with Python sequences in array parameters made CuPy arrays (counted)."""
    replaced: dict[int, Any] = {}
    for name in plan.arrays:
        value = values[name]
        if isinstance(value, _SEQUENCES):
            if keywords.get("copy") is False:  # asarray(list, copy=False, order="C")
                _refuse_copy(plan.name, value, "cuda")
            replaced[id(value)] = namespace.asarray(value)
    for name in plan.sequences:
        value = values[name]
        if not isinstance(value, _SEQUENCES):
            continue
        items = [_converted(item, namespace) for item in value]
        replaced[id(value)] = type(value)(items)
    if not replaced:
        return positional, keywords
    if plan.vararg in plan.sequences:  # *arrays: its items are positional arguments
        converted = replaced.pop(id(values[plan.vararg]))
        start = len(positional) - len(converted)
        positional = [*positional[:start], *converted]
    positional = [replaced.get(id(v), v) for v in positional]
    keywords = {k: replaced.get(id(v), v) for k, v in keywords.items()}
    return positional, keywords


def _function(library: ModuleType, namespace: ModuleType, qualname: str) -> Any:
    """The library's function for the standard's ``qualname`` (the namespace's if it has none)."""
    module, _, name = qualname.rpartition(".")
    owner: Any = getattr(library, module) if module else library
    function = getattr(owner, NUMPY_NAMES.get(name, name), None)
    if function is None:  # CuPy without unique_values, cumulative_sum, ...
        owner = getattr(namespace, module) if module else namespace
        function = getattr(owner, name)
    return function


_KEPT_MODULES = ("builtins", "numpy.exceptions", "numpy.linalg")


def _given(plan: _Plan, values: dict[str, Any]) -> dict[str, Any]:
    """The arguments of the call that ``values`` holds, as its message shows them: those
    given (not left to their defaults), NumPy's further positional ones by position."""
    given: dict[str, Any] = {}
    for name, default in plan.positional:
        value = values.get(name, default)
        if value is not OMITTED and value is not default:
            given[name] = value
    if plan.vararg is not None:
        for position, value in enumerate(values.get(plan.vararg, ()), start=len(given)):
            given[str(position)] = value
    for name, default in plan.keywords:
        value = values.get(name, default)
        if value is not OMITTED and value is not default:
            given[name] = value
    if plan.varkw is not None:
        given.update(values.get(plan.varkw, {}))
    return given


def raise_named(func: Callable[..., Any], exc: BaseException, values: dict[str, Any]) -> NoReturn:
    """Raise the library's ``exc`` from ``func``'s NumPy call again, its class kept (or its
    nearest public one), naming ``func`` and showing the arguments ``values`` holds (arrays
    by their dtype and shape)."""
    plan = _PLANS.get(func)
    if plan is None:
        plan = _PLANS[func] = _Plan(func)
    name = plan.name
    text = str(exc)
    if text.startswith(f"{name}:"):
        raise exc
    message = f"{name}: {text.rstrip('.')}{called_with(_given(plan, values))}"
    for kind in type(exc).__mro__:
        if kind.__module__.startswith(_KEPT_MODULES) and not kind.__name__.startswith("_"):
            try:
                new = kind(message)
            except Exception:  # a class that wants other arguments: try its base
                continue
            raise new from exc
    raise exc
