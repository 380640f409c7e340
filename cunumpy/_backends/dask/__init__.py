"""The Array API 2025.12 namespace over Dask: what ``array_namespace(dask_array)`` returns.

Importable as ``cunumpy.dask``. Its arrays are ``dask.array.Array`` objects of NumPy chunks
or of CuPy chunks (read from the array's ``_meta``, never computed); every function
builds a graph and computes nothing, except where the standard asks for a concrete value
(``docs/dask.md`` lists those places).

Where Dask conforms, the name is ``dask.array``'s own object (the same graph, no cost).
Where it does not, the name is an explicit function with the standard's signature, in
one of the topic modules beside this file; functions that Dask lacks or gets wrong per
element run cunumpy's NumPy or CuPy namespace on each chunk. Every name outside the
standard is ``dask.array``'s (``xp.map_blocks``, ``xp.rechunk``, ...), found by the module
``__getattr__`` below, as in cunumpy's NumPy and CuPy namespaces.
"""

import dask as _dask
import dask.array as _da
from dask.array import (
    abs,
    add,
    all,
    any,
    bitwise_and,
    bitwise_or,
    bitwise_xor,
    broadcast_arrays,
    broadcast_to,
    ceil,
    conj,
    copysign,
    cos,
    cosh,
    diff,
    divide,
    equal,
    exp,
    flip,
    floor,
    greater,
    greater_equal,
    hypot,
    imag,
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
    not_equal,
    positive,
    prod,
    real,
    reciprocal,
    remainder,
    roll,
    round,
    sign,
    signbit,
    sin,
    sinh,
    sqrt,
    square,
    squeeze,
    stack,
    subtract,
    sum,
    take,
    tan,
    tile,
    trunc,
    where,
)

# The standard's names for Dask's ufuncs of other names.
from dask.array import arccos as acos
from dask.array import arccosh as acosh
from dask.array import arcsin as asin
from dask.array import arcsinh as asinh
from dask.array import arctan as atan
from dask.array import arctan2 as atan2
from dask.array import arctanh as atanh
from dask.array import invert as bitwise_invert
from dask.array import left_shift as bitwise_left_shift
from dask.array import power as pow
from dask.array import right_shift as bitwise_right_shift

# Dtypes, constants and dtype functions are the chunks' (NumPy's objects, as on CuPy).
from .._standard_names import *  # the standard's data types and constants
from .._superset import library_attribute as _library_attribute
from .._superset import standard_dir as _standard_dir
from ..numpy import broadcast_shapes, finfo, iinfo, isdtype
from . import fft, linalg
from ._chunks import device, to_device
from ._creation import (
    arange,
    asarray,
    empty,
    empty_like,
    eye,
    from_dlpack,
    full,
    full_like,
    linspace,
    ones,
    ones_like,
    tril,
    triu,
    zeros,
    zeros_like,
)
from ._elementwise import astype, can_cast, clip, expm1, floor_divide, result_type, tanh
from ._info import __array_namespace_info__
from ._manipulation import (
    concat,
    expand_dims,
    matrix_transpose,
    permute_dims,
    repeat,
    reshape,
    take_along_axis,
    unstack,
)
from ._products import matmul, tensordot, vecdot
from ._sets import nonzero, unique_all, unique_counts, unique_inverse, unique_values
from ._sorting import (
    argmax,
    argmin,
    argsort,
    count_nonzero,
    cumulative_prod,
    cumulative_sum,
    searchsorted,
    sort,
    std,
    var,
)

__array_api_version__ = "2025.12"
__version__ = _dask.__version__  # Dask's, as in array-api-compat's namespace

# The standard's names, plus device/to_device (array-api-compat's helpers, which Dask
# arrays lack as methods) and the module's dunders, before any Dask name is cached.
_STANDARD_NAMES = _standard_dir(globals())

# The named results of the unique functions (not standard names: dir() leaves them out).
from ._sets import UniqueAllResult, UniqueCountsResult, UniqueInverseResult  # noqa: E402


def __getattr__(name: str) -> object:
    """Every public name outside the standard: ``dask.array``'s own object (``xp.map_blocks``)."""
    value = _library_attribute(_da, __name__, name)
    globals()[name] = value  # later look-ups find it without calling __getattr__
    return value


def __dir__() -> list[str]:
    """The standard's names (every other public ``dask.array`` name resolves as well)."""
    return list(_STANDARD_NAMES)
