"""The Array API 2025.12 namespace over NumPy: what ``array_namespace(numpy_array)`` returns.

Where NumPy conforms, the name is NumPy's own function object (no wrapper, no cost).
Where it does not, the name is an explicit function with the standard's signature,
defined in one of the topic modules beside this file.
"""

from numpy import (
    abs, acos, acosh, add, all, any, arange, argmax, argmin, asarray, asin, asinh, astype,
    atan, atan2, atanh, bitwise_and, bitwise_invert, bitwise_left_shift, bitwise_or,
    bitwise_right_shift, bitwise_xor, broadcast_arrays, broadcast_shapes, broadcast_to,
    can_cast, ceil, concat, conj, copysign, cos, cosh, count_nonzero, cumulative_prod,
    cumulative_sum, diff, divide, e, empty, empty_like, equal, exp, expm1, eye, flip, floor,
    from_dlpack, full, full_like, greater, greater_equal, hypot, imag, inf,
    isdtype, isfinite, isin, isinf, isnan, less, less_equal, linspace, log, log1p, log2, log10,
    logaddexp, logical_and, logical_not, logical_or, logical_xor, matmul, matrix_transpose,
    max, maximum, mean, meshgrid, min, minimum, moveaxis, multiply, nan, negative, newaxis,
    nextafter, nonzero, not_equal, ones, ones_like, permute_dims, pi, positive, pow, prod,
    real, reciprocal, remainder, repeat, reshape, result_type, roll, round, searchsorted,
    sign, signbit, sin, sinh, sqrt, square, squeeze, stack, std, subtract, sum, take,
    take_along_axis, tan, tensordot, tile, tril, triu, trunc, unique_all,
    unique_counts, unique_inverse, unique_values, unstack, var, vecdot, where, zeros,
    zeros_like,
)

from . import fft, linalg
from numpy import (
    bool, complex64, complex128, float32, float64, int8, int16, int32, int64, uint8, uint16,
    uint32, uint64,
)

from ._dtypes import finfo, iinfo
from ._elementwise import clip, expm1, floor_divide, tanh
from ._info import __array_namespace_info__
from ._sorting import argsort, expand_dims, sort

__array_api_version__ = "2025.12"
