"""Generated arguments: a seeded recipe per call, built into fresh objects for each side.

A *recipe* is plain data (tuples, numbers, strings): ``("arr", dtype, shape, layout,
values)`` for an array, ``("np", dtype, value)`` for a NumPy scalar, ``("seq", [...])`` for
a list of recipes, and ``("lit", value)`` for a Python value (scalars, nested lists, axes,
dtypes, strings). ``build`` makes the objects (a new copy on each call, so that each side
gets its own), ``render`` writes a recipe as Python, runnable after
``import numpy as np; from numpy import nan, inf; from tests.differential.arguments import F, S, RO``.
The parameters and their values come from NumPy's signature of the callee: its names
decide what a value is (``axis``, ``dtype``, ``out``, ...), its defaults the rest.
"""

from __future__ import annotations

import copy
import inspect
import math
import random
from typing import Any

import numpy as np

DTYPES = [
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float16", "float32", "float64", "complex64", "complex128",
]  # fmt: skip
SHAPES = [
    (),
    (0,),
    (1,),
    (3,),
    (4,),
    (2, 2),
    (2, 3),
    (3, 3),
    (1, 3),
    (3, 1),
    (0, 2),
    (1, 0),
    (2, 2, 2),
    (1, 2, 3),
    (2, 0, 3),
    (2, 3, 1),
    (3, 3, 3),
    (40,),
    (4, 10),
]  # fmt: skip  (40 elements: past the small sorts, where an unstable sort shows)
LAYOUTS = ["C", "C", "F", "S", "RO"]

_INF, _NAN = float("inf"), float("nan")
_ORDINARY = {
    "b": [False, True],
    "i": [0, 1, 2, 3, -1, -2, 5, 7],
    "u": [0, 1, 2, 3, 5, 7, 9, 4],
    "f": [0.0, 1.0, 2.5, -1.5, 0.5, 3.0, -2.0, 7.25],
    "c": [0j, 1 + 0j, 2.5 - 1j, -1.5 + 2j, 0.5j, 3.0 + 0.5j],
}
_SPECIAL_FLOATS = [_NAN, _INF, -_INF, -0.0, 0.0]


def _specials(dtype: np.dtype) -> list[Any]:
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return [int(info.min), int(info.max), int(info.max) - 1, 0]
    if dtype.kind == "f":
        info = np.finfo(dtype)
        return [*_SPECIAL_FLOATS, float(info.max), -float(info.max), float(info.smallest_subnormal)]
    if dtype.kind == "c":
        return [complex(a, b) for a in (_NAN, _INF, -0.0) for b in (0.0, -0.0, _INF, 1.0)]
    return [True, False]


def _element(rng: random.Random, dtype: np.dtype, special: float) -> Any:
    if rng.random() < special:
        return rng.choice(_specials(dtype))
    return rng.choice(_ORDINARY[dtype.kind])


# --- recipes --------------------------------------------------------------------------


def array_recipe(
    rng: random.Random, dtype: str | None = None, shape: tuple[int, ...] | None = None
) -> tuple:
    """An array of a random (or the given) dtype, shape and layout."""
    dtype = dtype or rng.choice(DTYPES)
    shape = rng.choice(SHAPES) if shape is None else shape
    layout = rng.choice(LAYOUTS)
    if layout == "F" and len(shape) < 2:
        layout = "C"
    special = rng.choice((0.0, 0.0, 0.15, 0.5))
    dt = np.dtype(dtype)
    values = tuple(_element(rng, dt, special) for _ in range(math.prod(shape)))
    return ("arr", dtype, shape, layout, values)


def scalar_recipe(rng: random.Random) -> tuple:
    """A Python scalar or a NumPy scalar, ordinary or special."""
    dtype = np.dtype(rng.choice(DTYPES))
    value = _element(rng, dtype, 0.3)
    if rng.random() < 0.5:
        return ("np", dtype.name, value)
    kind = dtype.kind
    if kind == "b":
        return ("lit", bool(value))
    if kind in "iu":
        return ("lit", int(value))
    if kind == "f":
        return ("lit", float(value))
    return ("lit", complex(value))


def _nested(rng: random.Random) -> tuple:
    recipe = array_recipe(rng, rng.choice(["bool", "int64", "float64", "complex128"]))
    shape = rng.choice([(0,), (2,), (3,), (2, 2), (1, 3), (2, 1, 2)])
    _, dtype, _, _, _ = recipe
    dt = np.dtype(dtype)
    special = rng.choice((0.0, 0.3))
    values = [_element(rng, dt, special) for _ in range(math.prod(shape))]
    return ("lit", np.array(values, dtype=dtype).reshape(shape).tolist())


def array_like_recipe(rng: random.Random) -> tuple:
    """What a NumPy function takes as an array: mostly arrays, else scalars and nested lists."""
    r = rng.random()
    if r < 0.7:
        return array_recipe(rng)
    if r < 0.88:
        return scalar_recipe(rng)
    return _nested(rng)


def _small_int(rng: random.Random) -> Any:
    return rng.choice([0, 1, 2, 3, -1, 1, 2, np.int64(2), True, 1.5])


def _dtype(rng: random.Random) -> Any:
    return rng.choice([None, *DTYPES, float, int, complex, bool, np.float32, np.int8, "f8", "i4"])


def _axis(rng: random.Random) -> Any:
    return rng.choice([None, None, 0, 1, -1, 2, (0, 1), (1,), 5, -2, np.int64(0)])


_NAMED: dict[str, Any] = {
    "axis": _axis,
    "axisa": _axis,
    "axisb": _axis,
    "axisc": _axis,
    "axis1": lambda r: r.choice([0, 1, -1, 2]),
    "axis2": lambda r: r.choice([0, 1, -1, 2]),
    "source": lambda r: r.choice([0, 1, -1, (0, 1), [1]]),
    "destination": lambda r: r.choice([0, 1, -1, (1, 0), [0]]),
    "start": lambda r: r.choice([0, 1, -1, 2]),
    "axes": lambda r: r.choice([None, 0, 1, 2, (0, 1), (1, 0), (2, 0, 1), [[1], [0]], -1]),
    "dtype": _dtype,
    "keepdims": lambda r: r.choice([True, False, 1, 0]),
    "shape": lambda r: r.choice([(), (3,), (2, 3), 3, 0, (0,), (3, 1), (2, 2, 2), -1]),
    "newshape": lambda r: r.choice([(3,), (-1,), (2, -1), 6, (1, 3)]),
    "order": lambda r: r.choice(["C", "F", "A", "K", None]),
    "casting": lambda r: r.choice(["no", "equiv", "safe", "same_kind", "unsafe"]),
    "kind": lambda r: r.choice(
        [
            None,
            "quicksort",
            "stable",
            "mergesort",
            "heapsort",
            "integral",
            "real floating",
            "numeric",
            "bool",
            ("integral", "complex floating"),
        ]
    ),  # sort's kinds, isdtype's kinds
    "stable": lambda r: r.choice([None, True, False, 1]),
    "side": lambda r: r.choice(["left", "right"]),
    "norm": lambda r: r.choice([None, "backward", "ortho", "forward"]),
    "ord": lambda r: r.choice([None, 1, 2, -1, -2, _INF, -_INF, "fro", "nuc", 0]),
    "copy": lambda r: r.choice([True, False, None]),
    "device": lambda r: r.choice([None, "cpu"]),
    "like": lambda r: None,
    "signature": lambda r: None,
    "subok": lambda r: r.choice([True, False]),
    "s": lambda r: r.choice([None, (2,), 3, (2, 2), (1,), [3, 2]]),
    "q": lambda r: r.choice([0.5, 0.25, [0.25, 0.75], 0.0, 1.0]),
    "n": _small_int,
    "N": _small_int,
    "M": _small_int,
    "k": _small_int,
    "num": _small_int,
    "repeats": _small_int,
    "reps": lambda r: r.choice([2, (2, 1), 0, 1, [1, 2], 1.5]),
    "shift": lambda r: r.choice([1, -1, 0, (1, 2), [1], 2, 1.5]),
    "decimals": lambda r: r.choice([0, 1, 2, -1]),
    "ddof": lambda r: r.choice([0, 1, 2, 0.5]),
    "correction": lambda r: r.choice([0, 1, 0.5, -1]),
    "d": lambda r: r.choice([1.0, 0.5, 2, -1.0]),
    "UPLO": lambda r: r.choice(["L", "U"]),
    "upper": lambda r: r.choice([True, False]),
    "rtol": lambda r: r.choice([None, 1e-10, 0.5]),
    "rcond": lambda r: r.choice([None, 1e-10, 0.5]),
    "tol": lambda r: r.choice([None, 1e-10, 0.5]),
    "atol": lambda r: r.choice([0.0, 1e-8, 1]),
    "endpoint": lambda r: r.choice([True, False]),
    "retstep": lambda r: r.choice([True, False]),
    "indexing": lambda r: r.choice(["xy", "ij"]),
    "mode": lambda r: r.choice(["reduced", "complete", "r", "raw", "raise", "wrap", "clip"]),
    "min": lambda r: scalar_recipe(r) if r.random() < 0.7 else ("lit", None),
    "max": lambda r: scalar_recipe(r) if r.random() < 0.7 else ("lit", None),
    "a_min": lambda r: scalar_recipe(r) if r.random() < 0.7 else ("lit", None),
    "a_max": lambda r: scalar_recipe(r) if r.random() < 0.7 else ("lit", None),
    "fill_value": lambda r: scalar_recipe(r),
    "initial": lambda r: scalar_recipe(r),
}
_RECIPE_MAKERS = {"min", "max", "a_min", "a_max", "fill_value", "initial"}


def _from_default(rng: random.Random, default: Any) -> Any:
    if isinstance(default, bool):
        return rng.choice([True, False, 1, 0])
    if isinstance(default, int):
        return rng.choice([default, 0, 1, 2, -1])
    if isinstance(default, float):
        return rng.choice([default, 0.0, 1.0, 0.5, _NAN])
    if isinstance(default, str):
        return default
    return _NO_VALUE


_NO_VALUE = object()


#: NumPy scalar types for a Python number, widest first: a NumPy scalar where a Python
#: scalar is expected (``fft.fftfreq(0, np.float32(0.1))`` warns where ``0.1`` raises).
_NUMPY_SCALARS = {
    int: ("int64", "int32", "int16", "int8", "uint64", "uint8"),
    float: ("float64", "float32", "float16"),
    bool: ("bool",),
}


def _as_numpy_scalar(rng: random.Random, recipe: tuple) -> tuple:
    """Sometimes, a Python ``int``, ``float`` or ``bool`` literal as a NumPy scalar of a
    type that holds it; every other recipe as it is."""
    if recipe[0] != "lit" or type(recipe[1]) not in _NUMPY_SCALARS or rng.random() >= 0.12:
        return recipe
    value = recipe[1]
    fitting = [name for name in _NUMPY_SCALARS[type(value)] if _holds(name, value)]
    if not fitting:
        return recipe
    return ("np", rng.choice(fitting), value)


def _holds(dtype: str, value: Any) -> bool:
    """Whether NumPy scalar type ``dtype`` holds ``value`` (a float: without overflow)."""
    if type(value) is int:
        return bool(np.iinfo(dtype).min <= value <= np.iinfo(dtype).max)
    if type(value) is float:
        return not math.isfinite(value) or abs(value) <= float(np.finfo(dtype).max)
    return True


def _argument(rng: random.Random, parameter: inspect.Parameter, first: tuple | None) -> tuple:
    return _as_numpy_scalar(rng, _argument_recipe(rng, parameter, first))


def _argument_recipe(
    rng: random.Random, parameter: inspect.Parameter, first: tuple | None
) -> tuple:
    name = parameter.name
    if name == "out":
        if first is not None and first[0] == "arr" and rng.random() < 0.8:
            return ("out", array_recipe(rng, rng.choice(DTYPES[::2]), first[2]))
        return ("out", array_recipe(rng))
    if name == "where" and first is not None and first[0] == "arr" and rng.random() < 0.6:
        return array_recipe(rng, "bool", first[2])
    if name in _NAMED:
        value = _NAMED[name](rng)
        return value if name in _RECIPE_MAKERS else ("lit", value)
    if parameter.default is not parameter.empty and rng.random() < 0.7:
        value = _from_default(rng, parameter.default)
        if value is not _NO_VALUE:
            return ("lit", value)
        if parameter.default is None and rng.random() < 0.6:
            return ("lit", None)
    if name in ("indices", "indices_or_sections", "sections", "obj", "repeats"):
        return ("lit", rng.choice([0, 1, 2, [0, 1], [1, 0, 2], [-1], 5]))
    if name in ("arrays_and_dtypes", "from_", "to", "int_type", "type1", "type2"):
        return ("lit", _dtype(rng)) if rng.random() < 0.5 else array_like_recipe(rng)
    if name in ("arrays", "tup", "xi"):  # a list of arrays, mostly of one dtype and shape
        head = array_recipe(rng)
        alike = rng.random() < 0.7
        dtype, shape = (head[1], head[2]) if alike else (None, None)
        return ("seq", [head] + [array_recipe(rng, dtype, shape) for _ in range(rng.randint(0, 2))])
    return array_like_recipe(rng)


def call_recipe(rng: random.Random, signature: inspect.Signature) -> tuple[list, list]:
    """``(positional, keywords)`` recipes for one call of a callee with NumPy's ``signature``.

    The required parameters and about 40% of the optional ones are passed; of those
    that may go by position, a random number go by position and the rest by NumPy's names
    (one in ten of those as ``None``). About one Python number in eight is a NumPy scalar.
    """
    params = [p for p in signature.parameters.values() if p.kind is not p.VAR_KEYWORD]
    by_position = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    chosen: list[inspect.Parameter] = []
    for i, p in enumerate(params):
        if p.kind is p.VAR_POSITIONAL:
            items = [p.replace(kind=p.POSITIONAL_ONLY) for _ in range(rng.randint(0, 3))]
        elif p.default is p.empty or rng.random() < 0.4:
            items = [p]
        else:
            continue
        if items and items[0].kind is p.POSITIONAL_ONLY:
            # passed by position: every parameter before it must be passed too
            chosen += [q for q in params[:i] if q.kind in by_position and q not in chosen]
        chosen += items
    # the chosen parameters that may go by position: up to the first one left out or keyword-only
    prefix, position = 0, {p.name: i for i, p in enumerate(params)}
    for p in chosen:
        at = position[p.name]
        if p.kind not in by_position or any(q not in chosen for q in params[:at]):
            break
        prefix += 1
    must = max((i + 1 for i, p in enumerate(chosen) if p.kind is p.POSITIONAL_ONLY), default=0)
    cut = rng.randint(must, prefix)
    first: tuple | None = None
    positional: list = []
    keywords: list = []
    for i, p in enumerate(chosen):
        recipe = _argument(rng, p, first)
        if first is None and recipe[0] in ("arr", "np", "lit"):
            first = recipe
        if i < cut:
            positional.append(recipe)
        else:
            if p.kind is p.POSITIONAL_OR_KEYWORD and rng.random() < 0.1:
                recipe = ("lit", None)  # NumPy's None by name: arange(stop=None, start=3)
            keywords.append((p.name, recipe))
    return positional, keywords


# --- building and rendering -----------------------------------------------------------


def F(a: np.ndarray) -> np.ndarray:
    """A Fortran-ordered copy."""
    return np.asfortranarray(a)


def S(a: np.ndarray) -> np.ndarray:
    """A copy that is a strided view (every second element of its last axis)."""
    if a.ndim == 0:
        return a.copy()
    base = np.zeros((*a.shape[:-1], 2 * a.shape[-1]), dtype=a.dtype)
    base[..., ::2] = a
    return base[..., ::2]


def RO(a: np.ndarray) -> np.ndarray:
    """A read-only copy."""
    a = a.copy()
    a.flags.writeable = False
    return a


_LAYOUT = {"C": np.array, "F": F, "S": S, "RO": RO}


def build(recipe: tuple, arrays: list[np.ndarray]) -> Any:
    """The object of ``recipe`` (new each time); every array built is appended to ``arrays``."""
    kind = recipe[0]
    if kind == "lit":  # a list is mutable: each side gets its own
        return copy.deepcopy(recipe[1]) if isinstance(recipe[1], list) else recipe[1]
    if kind == "arr":
        _, dtype, shape, layout, values = recipe
        a = np.array(values, dtype=dtype).reshape(shape)
        if layout != "C":
            a = _LAYOUT[layout](a)
        arrays.append(a)
        return a
    if kind == "out":
        return build(recipe[1], arrays)
    if kind == "np":
        return np.dtype(recipe[1]).type(recipe[2])
    return [build(item, arrays) for item in recipe[1]]


def render(recipe: tuple) -> str:
    """``recipe`` as Python source."""
    kind = recipe[0]
    if kind == "lit":
        value = recipe[1]
        if isinstance(value, type):
            return value.__name__ if value.__module__ == "builtins" else f"np.{value.__name__}"
        return repr(value)
    if kind == "arr":
        _, dtype, shape, layout, values = recipe
        text = (
            f"np.array({np.array(values, dtype=dtype).reshape(shape).tolist()!r}, dtype={dtype!r})"
        )
        return text if layout == "C" else f"{layout}({text})"
    if kind == "out":
        return render(recipe[1])
    if kind == "np":
        return f"np.{recipe[1]}({recipe[2]!r})"
    return "[" + ", ".join(render(item) for item in recipe[1]) + "]"


def render_call(module: str, name: str, positional: list, keywords: list) -> str:
    """The call as Python: ``xp.repeat(np.array([1], dtype='int8'), repeats=2)``."""
    parts = [render(r) for r in positional] + [f"{k}={render(r)}" for k, r in keywords]
    return f"{module}.{name}({', '.join(parts)})"
