"""cunumpy: portable array programming on CPUs and GPUs.

``import cunumpy as xp`` gives a complete Array API 2025.12 namespace over NumPy and CuPy.
Functions that take arrays compute where their inputs live; creation functions honour
``device=`` and otherwise use the current backend (``set_backend``, ``use_backend`` or
``CUNUMPY_BACKEND``). Library code calls ``array_namespace(x)``, one of array-api-compat's
helpers, all of which are here. Arrays are the backends' own, never wrapped. The
extensions (``linalg``, ``fft``), the device layer (``cuda``, ``profiling``, ``mpi``) and
user ``kernels`` are loaded on first use.

The top level is a NumPy superset, as CuNumpy 0.7.1's is: the names listed by
``dir(cunumpy)`` (``__all__``) are cunumpy's own, and every other public name of the
current backend's library resolves to that library's object (``xp.array``, ``xp.pad``,
``xp.random``, ``xp.float16``, ``xp.linalg.norm``, ``xp.fft.fft2``): NumPy's on the
NumPy backend, CuPy's on the CuPy backend, following ``set_backend`` and ``use_backend``.
Those names are the backend's functions, so they run on the backend, not where their
inputs live: give them arrays of the current backend (a NumPy function hands a CuPy
array to CuPy through ``__array_function__``; a CuPy function given a NumPy array does
what CuPy does, mostly a ``TypeError``). CuNumpy 0.7.1's helpers (``to_cunumpy``,
``host_call``, ``backend_info``, ``scipy``, ...) are here with the same names and meaning.
"""

from __future__ import annotations

import importlib
import sys as _sys
from typing import TYPE_CHECKING, Any

from ._api.creation import (
    arange,
    asarray,
    empty,
    empty_like,
    eye,
    from_dlpack,
    full,
    full_like,
    linspace,
    meshgrid,
    ones,
    ones_like,
    tril,
    triu,
    zeros,
    zeros_like,
)
from ._api.data_types import astype, can_cast, finfo, iinfo, isdtype, result_type
from ._api.elementwise import (
    abs,
    acos,
    acosh,
    add,
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
    ceil,
    clip,
    conj,
    copysign,
    cos,
    cosh,
    divide,
    equal,
    exp,
    expm1,
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
    log,
    log1p,
    log2,
    log10,
    logaddexp,
    logical_and,
    logical_not,
    logical_or,
    logical_xor,
    maximum,
    minimum,
    multiply,
    negative,
    nextafter,
    not_equal,
    positive,
    pow,
    real,
    reciprocal,
    remainder,
    round,
    sign,
    signbit,
    sin,
    sinh,
    sqrt,
    square,
    subtract,
    tan,
    tanh,
    trunc,
)
from ._api.indexing import take, take_along_axis
from ._api.linear_algebra import matmul, matrix_transpose, tensordot, vecdot
from ._api.manipulation import (
    broadcast_arrays,
    broadcast_shapes,
    broadcast_to,
    concat,
    expand_dims,
    flip,
    moveaxis,
    permute_dims,
    repeat,
    reshape,
    roll,
    squeeze,
    stack,
    tile,
    unstack,
)
from ._api.numpy_creation import array, asanyarray, ascontiguousarray
from ._api.searching import argmax, argmin, count_nonzero, nonzero, searchsorted, where
from ._api.sets import isin, unique_all, unique_counts, unique_inverse, unique_values
from ._api.sorting import argsort, sort
from ._api.statistics import cumulative_prod, cumulative_sum, max, mean, min, prod, std, sum, var
from ._api.utility import all, any, diff
from ._backend_choice._config import current as _current
from ._backend_choice._config import get_backend, set_backend, use_backend
from ._backend_choice._versions import (
    MIN_CUPY_VERSION,
    backend_info,
    cupy_version_supported,
    require_version,
)
from ._backends._standard_names import *  # the standard's data types and constants
from ._backends._standard_names import __all__ as _DATA_TYPES_AND_CONSTANTS
from ._backends._superset import backend_attribute as _backend_attribute
from ._backends._unique_results import UniqueAllResult, UniqueCountsResult, UniqueInverseResult
from ._calls._arguments import IndexValueError, OverflowValueError, ZeroDivisionValueError
from ._moving._backend_conversion import (
    as_device_array,
    assert_same_backend,
    default_float_dtype,
    get_array_backend,
    get_array_module,
    is_cpu,
    is_gpu,
    same_backend,
    to_cunumpy,
)
from ._moving._host_copy_async import to_host_async
from ._moving._to_device import device, to_cupy, to_device, to_numpy
from ._namespaces._array_namespace import array_namespace, get_namespace
from ._namespaces._array_predicates import (
    is_array_api_obj,
    is_cupy_array,
    is_dask_array,
    is_dpnp_array,
    is_jax_array,
    is_lazy_array,
    is_mparray_array,
    is_ndonnx_array,
    is_numpy_array,
    is_pydata_sparse_array,
    is_torch_array,
    is_writeable_array,
    size,
)
from ._namespaces._inspection import __array_namespace_info__
from ._namespaces._namespace_predicates import (
    is_array_api_strict_namespace,
    is_cupy_namespace,
    is_dask_namespace,
    is_dpnp_namespace,
    is_jax_namespace,
    is_mparray_namespace,
    is_ndonnx_namespace,
    is_numpy_namespace,
    is_pydata_sparse_namespace,
    is_torch_namespace,
)
from ._on_host._host_call import evaluate_on_host, host_call, setup_on_host
from ._on_host._scipy_namespace import scipy
from ._settings._cupy_probe import (
    CupyUnavailableError,
    CupyUnavailableWarning,
    cupy_available,
    cupy_unavailable_reason,
)
from ._settings._distributions import InstallationWarning
from ._settings._errors import AttributeTypeError, ValueTypeError
from ._settings._homes import set_public_homes as _set_public_homes

if TYPE_CHECKING:  # loaded on first use (see __getattr__): `import cunumpy` does not need it
    from .cuda import synchronize

__version__ = "0.1.0"
__array_api_version__ = "2025.12"

# The extensions and the device layer's submodules, loaded on first attribute access
# (see __getattr__).
_LAZY_SUBMODULES = ("fft", "linalg", "cuda", "profiling", "mpi", "testing", "kernels", "xp", "algorithms", "integrate", "optimize", "rng", "kernel_testing", "memory", "arguments", "dask")  # fmt: skip
#: Names of those submodules that are cunumpy's too, each with its submodule.
_LAZY_NAMES = {"synchronize": "cuda"}

__all__ = [
    "__array_api_version__",
    "__array_namespace_info__",
    "__version__",
    # Array API 2025.12: extensions
    "fft",
    "linalg",
    # NumPy's conversions, creating on the current backend as asarray does
    "array", "asanyarray", "ascontiguousarray",
    # cunumpy: backends and transfers
    "cupy_available",
    "cupy_unavailable_reason",
    "get_backend",
    "set_backend",
    "synchronize",
    "to_cupy",
    "to_numpy",
    "use_backend",
    # cunumpy: the device layer, kernels and the testing toolkit (loaded on first use)
    "cuda",
    "arguments",
    "kernels",
    "mpi",
    "profiling",
    "testing",
    "algorithms", "integrate", "optimize", "rng",  # random numbers, particles, solvers
    "kernel_testing",  # parity of kernel pairs, the fake CuPy, the emulator of CUDA C
]  # fmt: skip

# Array API 2025.12: constants and data types (NumPy's objects)
__all__ += _DATA_TYPES_AND_CONSTANTS

# Array API 2025.12: functions
__all__ += [
    "abs", "acos", "acosh", "add", "all", "any", "arange", "argmax", "argmin", "argsort",
    "asarray", "asin", "asinh", "astype", "atan", "atan2", "atanh", "bitwise_and",
    "bitwise_invert", "bitwise_left_shift", "bitwise_or", "bitwise_right_shift", "bitwise_xor",
    "broadcast_arrays", "broadcast_shapes", "broadcast_to", "can_cast", "ceil", "clip", "concat",
    "conj", "copysign", "cos", "cosh", "count_nonzero", "cumulative_prod", "cumulative_sum",
    "diff", "divide", "empty", "empty_like", "equal", "exp", "expand_dims", "expm1", "eye",
    "finfo", "flip", "floor", "floor_divide", "from_dlpack", "full", "full_like", "greater",
    "greater_equal", "hypot", "iinfo", "imag", "isdtype", "isfinite", "isin", "isinf", "isnan",
    "less", "less_equal", "linspace", "log", "log1p", "log2", "log10", "logaddexp", "logical_and",
    "logical_not", "logical_or", "logical_xor", "matmul", "matrix_transpose", "max", "maximum",
    "mean", "meshgrid", "min", "minimum", "moveaxis", "multiply", "negative", "nextafter",
    "nonzero", "not_equal", "ones", "ones_like", "permute_dims", "positive", "pow", "prod", "real",
    "reciprocal", "remainder", "repeat", "reshape", "result_type", "roll", "round", "searchsorted",
    "sign", "signbit", "sin", "sinh", "sort", "sqrt", "square", "squeeze", "stack", "std",
    "subtract", "sum", "take", "take_along_axis", "tan", "tanh", "tensordot", "tile", "tril",
    "triu", "trunc", "unique_all", "unique_counts", "unique_inverse", "unique_values", "unstack",
    "var", "vecdot", "where", "zeros", "zeros_like",
]  # fmt: skip

__all__ += ["memory", "to_host_async"]  # CuNumpy 0.7.1's, see docs/memory.md
# array-api-compat 1.16's helpers, same names and semantics (docs/migrating.md).
__all__ += [
    "array_namespace", "device", "get_namespace", "is_array_api_obj",
    "is_array_api_strict_namespace", "is_cupy_array", "is_cupy_namespace", "is_dask_array",
    "is_dask_namespace", "is_dpnp_array", "is_dpnp_namespace", "is_jax_array", "is_jax_namespace",
    "is_lazy_array", "is_mparray_array", "is_mparray_namespace", "is_ndonnx_array",
    "is_ndonnx_namespace", "is_numpy_array", "is_numpy_namespace", "is_pydata_sparse_array",
    "is_pydata_sparse_namespace", "is_torch_array", "is_torch_namespace", "is_writeable_array",
    "size", "to_device",
]  # fmt: skip


# CuNumpy 0.7.1's top-level helpers, same names and meaning (docs/migrating.md).
__all__ += [
    "CupyUnavailableError", "CupyUnavailableWarning", "MIN_CUPY_VERSION", "as_device_array",
    "assert_same_backend", "backend_info", "cupy_backend", "cupy_version_supported",
    "default_float_dtype", "evaluate_on_host", "get_array_backend", "get_array_module",
    "host_call", "is_cpu", "is_gpu", "numpy_backend", "require_version", "same_backend",
    "scipy", "setup_on_host", "to_cunumpy", "xp",
    "UniqueAllResult", "UniqueCountsResult", "UniqueInverseResult",  # what unique_* return
]  # fmt: skip

# cunumpy: what its calls raise and warn, beyond Python's and NumPy's own classes
__all__ += [
    "IndexValueError", "OverflowValueError", "ZeroDivisionValueError", "ValueTypeError",
    "AttributeTypeError", "InstallationWarning",
]  # fmt: skip


_set_public_homes(__name__, __all__, globals())  # tracebacks name the public module


def __getattr__(name: str) -> Any:
    """Lazy submodules and their names, then 0.7.1's backend flags, then every other name of the backend.

    Only names that are not module globals get here: cunumpy's own names never do, nor,
    in a program on one backend, the library's names, which are globals too
    (``cunumpy/_calls/_public_names.py``). A name that gets here is the running context's
    backend library's (``xp.pad`` is NumPy's on NumPy, CuPy's on CuPy).
    """
    if name in _LAZY_SUBMODULES:
        module = importlib.import_module(f"{__name__}.{name}")
        globals()[name] = module
        return module
    if name in _LAZY_NAMES:
        value = getattr(importlib.import_module(f"{__name__}.{_LAZY_NAMES[name]}"), name)
        globals()[name] = value
        return value
    if name == "numpy_backend":
        return _current().name == "numpy"
    if name == "cupy_backend":
        return _current().name == "cupy"
    return _backend_attribute(_current().namespace, __name__, name)


def __dir__() -> list[str]:
    """cunumpy's own names (``__all__``); the backend's other names resolve but are not listed."""
    return list(__all__)


from ._calls._public_names import bind_library_names as _bind_library_names  # noqa: E402

# Every other public name of the backend's library (xp.pad, xp.linalg.norm, xp.fft.fft2):
# globals of cunumpy (and of linalg and fft, which bind their own when first used), never
# over their own names, rebound by set_backend
# and while use_backend blocks of another backend live (one mechanism, documented in
# docs/architecture.md, "Names outside cunumpy's own").
_bind_library_names(globals(), [*__all__, *_LAZY_SUBMODULES, "numpy_backend", "cupy_backend"], "")
del _bind_library_names

from ._backend_choice._environment import backend_from_environment as _backend_from_environment  # noqa: E402
from ._settings._distributions import warn_at_import as _warn_at_import  # noqa: E402

_warn_at_import()  # the registry's cunumpy installed next to this one: say what to run
_backend_from_environment()
del _backend_from_environment, _warn_at_import

if __import__("os").environ.get("CUNUMPY_TRACE"):  # a whole program recorded: docs/tracing.md
    from .profiling._trace_program import record_program as _record_program

    _record_program()
    del _record_program

# Numba types np.sqrt in compiled code as numpy.sqrt (cunumpy/_numba_names.py): a Numba
# imported before cunumpy learns it now, one imported later through its entry point. A
# sys.modules look-up: `import cunumpy` never imports Numba.
if _sys.modules.get("numba.core.typing.templates") or _sys.modules.get(
    "numba.cuda.typing.templates"
):
    from ._numba_names import register as _register_with_numba

    _register_with_numba()
    del _register_with_numba
