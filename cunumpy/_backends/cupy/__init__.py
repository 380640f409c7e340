"""The Array API 2025.12 namespace over CuPy: what ``array_namespace(cupy_array)`` returns.

Where CuPy conforms, the name is CuPy's own function object (no wrapper, no cost). Where
it does not, the name is an explicit function with the standard's signature, defined in
one of the topic modules beside this file. The data types are NumPy's scalar types (CuPy
uses NumPy's dtypes), the same objects as in the NumPy namespace.

Devices: creation functions honour ``device=`` (a GPU; the CPU is a ``ValueError``) and
otherwise use the current GPU (for ``*_like``, the GPU of their input). Functions that
take arrays run on the GPU that holds them, whatever the current GPU, and raise
``ValueError`` naming both GPUs for arrays on two. With one visible GPU that is what
CuPy's own objects do; with more, every such function is wrapped (see ``_guard``).

Importing this module imports CuPy and counts the visible GPUs (after the cached
availability probe); neither creates a CUDA context. It is loaded only when CuPy is
usable, and ``import cunumpy`` never imports it.

The namespace is a superset of CuPy, as array-api-compat's is: every name outside the
standard (``xp.pad``, ``xp.einsum``, ``xp.linalg.lstsq``, ...) is CuPy's own object,
found by the module ``__getattr__`` below only after the standard's names (module
globals) have missed; those objects follow CuPy's rules (they run on the current GPU
and are not guarded). ``dir()`` lists the standard's names only.
"""

import cupy as _cupy
from cupy import (
    abs,
    add,
    all,
    any,
    argmax,
    argmin,
    bitwise_and,
    bitwise_or,
    bitwise_xor,
    broadcast_shapes,
    broadcast_to,
    can_cast,
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
    floor_divide,
    greater,
    greater_equal,
    hypot,
    imag,
    isfinite,
    isinf,
    isnan,
    less,
    less_equal,
    log2,
    log10,
    logaddexp,
    logical_and,
    logical_not,
    logical_or,
    logical_xor,
    matmul,
    max,
    maximum,
    mean,
    min,
    minimum,
    moveaxis,
    multiply,
    negative,
    nonzero,
    not_equal,
    positive,
    prod,
    real,
    reciprocal,
    result_type,
    roll,
    round,
    signbit,
    sin,
    sinh,
    square,
    squeeze,
    stack,
    subtract,
    sum,
    take,
    tan,
    tensordot,
    tile,
    tril,
    triu,
    trunc,
    where,
)

from ..._settings._cupy_probe import visible_gpu_count as _visible_gpu_count
from .._standard_names import *  # the standard's data types and constants
from .._superset import library_attribute as _library_attribute
from .._superset import standard_dir as _standard_dir
from ..numpy._dtypes import finfo, iinfo
from . import _device_copies, fft, linalg
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
    zeros,
    zeros_like,
)
from ._device_copies import CUPY_MAJOR
from ._elementwise import (
    acosh,
    clip,
    expm1,
    log,
    log1p,
    nextafter,
    remainder,
    sign,
    sqrt,
    tanh,
)
from ._info import __array_namespace_info__
from ._manipulation import (
    astype,
    count_nonzero,
    expand_dims,
    repeat,
    reshape,
    std,
    take_along_axis,
    unstack,
    var,
    vecdot,
)
from ._sorting import argsort, isin, sort

if CUPY_MAJOR >= 14:  # CuPy 14 has the standard's names, returns tuples, takes scalar x2
    from cupy import (
        acos,
        asin,
        asinh,
        atan,
        atan2,
        atanh,
        bitwise_invert,
        bitwise_left_shift,
        bitwise_right_shift,
        broadcast_arrays,
        concat,
        cumulative_prod,
        cumulative_sum,
        isdtype,
        matrix_transpose,
        meshgrid,
        permute_dims,
        pow,
        searchsorted,
        unique_values,
    )

    from ._unique14 import unique_all, unique_counts, unique_inverse
else:  # CuPy 13 has only NumPy 1's names, returns lists, and rejects a scalar x2
    from numpy import isdtype  # CuPy's dtypes are NumPy's

    from ._cupy13 import (
        acos,
        asin,
        asinh,
        atan,
        atan2,
        atanh,
        bitwise_invert,
        bitwise_left_shift,
        bitwise_right_shift,
        broadcast_arrays,
        concat,
        matrix_transpose,
        meshgrid,
        permute_dims,
        pow,
    )
    from ._manipulation import (
        cumulative_prod,
        cumulative_sum,
        unique_all,
        unique_counts,
        unique_inverse,
        unique_values,
    )
    from ._sorting import searchsorted

del CUPY_MAJOR

__array_api_version__ = "2025.12"
__version__ = _cupy.__version__  # CuPy's, as in array-api-compat's namespace

# The data type functions read no array data, so they run anywhere.
_DATA_TYPE_FUNCTIONS = frozenset(
    {"broadcast_shapes", "can_cast", "finfo", "iinfo", "isdtype", "result_type"}
)

if _visible_gpu_count() > 1:
    from ._guard import guard_functions

    guard_functions(
        globals(),
        [
            name
            for name in list(globals())
            if name[0] != "_" and name.isidentifier() and name not in _DATA_TYPE_FUNCTIONS
        ],
    )
    guard_functions(vars(linalg), linalg.__all__)
    guard_functions(vars(fft), fft.__all__)
    del guard_functions


# The standard's names (and the module's dunders), before any CuPy name is cached.
_STANDARD_NAMES = _standard_dir(globals())


# The named results of the unique functions (the classes the functions above return, the
# same on every backend); not standard names, so dir() leaves them out.
from .._unique_results import (  # noqa: E402
    UniqueAllResult,
    UniqueCountsResult,
    UniqueInverseResult,
)


def __getattr__(name: str) -> object:
    """Every public name outside the standard: CuPy's own object (``xp.pad``, ...)."""
    value = _library_attribute(_cupy, __name__, name)
    globals()[name] = value  # later look-ups find it without calling __getattr__
    return value


def __dir__() -> list[str]:
    """The standard's names (every other public CuPy name resolves as well)."""
    return list(_STANDARD_NAMES)
