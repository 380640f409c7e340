"""The Array API 2025.12 namespace over NumPy: what ``array_namespace(numpy_array)`` returns.

Where NumPy conforms, the name is NumPy's own function object (no wrapper, no cost).
Where it does not, the name is an explicit function with the standard's signature,
defined in one of the topic modules beside this file.

The namespace is a superset of NumPy, as array-api-compat's is: every name outside the
standard (``xp.pad``, ``xp.einsum``, ``xp.nanmax``, ``xp.linalg.lstsq``, ...) is NumPy's
own object, found by the module ``__getattr__`` below only after the standard's names
(module globals) have missed. ``dir()`` lists the standard's names only.
"""

from importlib import import_module as _import_module

import numpy as _numpy
from numpy import (
    abs,
    acos,
    acosh,
    add,
    all,
    any,
    argmax,
    argmin,
    asin,
    asinh,
    atan,
    atan2,
    atanh,
    bitwise_and,
    bitwise_invert,
    bitwise_left_shift,
    bitwise_or,
    bitwise_right_shift,
    bitwise_xor,
    broadcast_arrays,
    broadcast_shapes,
    broadcast_to,
    can_cast,
    ceil,
    concat,
    conj,
    copysign,
    cos,
    cosh,
    count_nonzero,
    cumulative_prod,
    cumulative_sum,
    divide,
    equal,
    exp,
    flip,
    floor,
    from_dlpack,
    greater,
    greater_equal,
    hypot,
    imag,
    isdtype,
    isfinite,
    isin,
    isinf,
    isnan,
    less,
    less_equal,
    log,
    log1p,
    log2,
    log10,
    logaddexp,
    logical_and,
    logical_not,
    logical_or,
    logical_xor,
    matmul,
    matrix_transpose,
    max,
    maximum,
    mean,
    meshgrid,
    min,
    minimum,
    moveaxis,
    multiply,
    negative,
    nextafter,
    nonzero,
    not_equal,
    permute_dims,
    positive,
    pow,
    prod,
    real,
    reciprocal,
    remainder,
    repeat,
    reshape,
    result_type,
    roll,
    round,
    searchsorted,
    sign,
    signbit,
    sin,
    sinh,
    sqrt,
    square,
    squeeze,
    stack,
    std,
    subtract,
    sum,
    take,
    take_along_axis,
    tan,
    tensordot,
    tile,
    tril,
    triu,
    trunc,
    unstack,
    var,
    vecdot,
    where,
)

from .._standard_names import *  # the standard's data types and constants
from .._superset import library_attribute as _library_attribute
from .._superset import standard_dir as _standard_dir
from ._creation import (
    arange,
    asarray,
    empty,
    empty_like,
    eye,
    full,
    full_like,
    linspace,
    ones,
    ones_like,
    zeros,
    zeros_like,
)
from ._dtypes import astype, finfo, iinfo
from ._elementwise import clip, expm1, floor_divide, tanh
from ._info import __array_namespace_info__
from ._sets import unique_all, unique_counts, unique_inverse, unique_values
from ._sorting import argsort, diff, expand_dims, sort

__array_api_version__ = "2025.12"
__version__ = _numpy.__version__  # NumPy's, as in array-api-compat's namespace


#: The standard's extensions, loaded on first use (``import cunumpy`` needs neither).
_EXTENSIONS = ("fft", "linalg")

# The standard's names (and the module's dunders), before any NumPy name is cached.
_STANDARD_NAMES = tuple(sorted((*_standard_dir(globals()), *_EXTENSIONS)))


# The named results of the unique functions (the classes the functions above return, the
# same on every backend); not standard names, so dir() leaves them out.
from ._sets import UniqueAllResult, UniqueCountsResult, UniqueInverseResult  # noqa: E402


def __getattr__(name: str) -> object:
    """The extensions, loaded now; every public name outside the standard: NumPy's own
    object (``xp.pad``, ...)."""
    if name in _EXTENSIONS:  # importing the submodule makes it a global
        return _import_module(f"{__name__}.{name}")
    value = _library_attribute(_numpy, __name__, name)
    globals()[name] = value  # later look-ups find it without calling __getattr__
    return value


def __dir__() -> list[str]:
    """The standard's names (every other public NumPy name resolves as well)."""
    return list(_STANDARD_NAMES)
