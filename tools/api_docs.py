"""Docstring material for cunumpy's generated top-level functions.

``tools/generate_api.py`` assembles each generated function's numpydoc docstring from the
tables below. Keys are qualified names: ``"add"`` for the main namespace, ``"linalg.solve"``
and ``"fft.fft"`` for the extensions.

SUMMARIES
    One sentence per function, ending with a full stop.
EXAMPLES
    Doctest lines (``>>>``, ``...`` and expected output). ``xp`` is cunumpy; the generator
    prepends ``>>> import cunumpy as xp``. Outputs are NumPy reprs (the default backend).
PARAMETERS
    Function-specific parameter descriptions, overriding ``COMMON_PARAMETERS``.
COMMON_PARAMETERS
    Descriptions shared by every function with a parameter of that name.
RETURNS
    Description of the return value, where the generic one is not enough.
NUMPY_UFUNC_KEYWORDS
    NumPy's type and description of the keywords every NumPy ufunc takes, for the functions
    whose NumPy docstring leaves them to NumPy's page on ufuncs. The other parameters only
    NumPy has are described from NumPy's own docstring.

The text is written for cunumpy; it paraphrases, and does not copy, the Array API standard.
"""

from __future__ import annotations

import textwrap
from typing import NamedTuple


class _Doc(NamedTuple):
    summary: str
    example: str
    returns: str | None = None
    params: dict[str, str] | None = None


def _doc(summary: str, example: str, returns: str | None = None, **params: str) -> _Doc:
    return _Doc(summary, textwrap.dedent(example).strip("\n"), returns, params or None)


COMMON_PARAMETERS: dict[str, str] = {
    "x": "Input array.",
    "x1": "First input array (a Python scalar is also accepted where the signature allows it).",
    "x2": (
        "Second input array (a Python scalar is also accepted where the signature allows it). "
        "Must be broadcast-compatible with ``x1``."
    ),
    "obj": (
        "Data for the array: an existing array, a Python scalar, a (nested) sequence of "
        "scalars, or an object supporting the buffer protocol."
    ),
    "axis": (
        "Axis along which to operate. Negative values count from the last axis. ``None`` "
        "(where allowed) means every axis, i.e. the flattened array."
    ),
    "axes": "Axes to operate on, as a sequence of integers; ``None`` means every axis.",
    "dtype": (
        "Data type of the result. ``None`` infers it from the inputs, or uses the default "
        "dtype of the kind (``float64``, ``int64``, ``complex128``) when there are none."
    ),
    "device": (
        'Device on which to place the result (``"cpu"`` for NumPy, a GPU for CuPy). '
        "``None`` keeps the result where the inputs live, or uses the current backend."
    ),
    "keepdims": (
        "If ``True``, reduced axes are kept as axes of size one so that the result "
        "broadcasts against the input; if ``False`` (default) they are dropped."
    ),
    "copy": (
        "Copy control: ``True`` always copies, ``False`` never copies (raising ``ValueError`` "
        "if a copy would be needed), ``None`` copies only when necessary."
    ),
    "shape": "Shape of the result, as an int or a tuple of ints.",
    "fill_value": "Value every element of the result is set to.",
    "stable": (
        "If ``True`` (default), elements that compare equal keep their relative input "
        "order; ``False`` allows a possibly faster, unstable sort."
    ),
    "descending": (
        "If ``True``, sort from largest to smallest (equal elements still keep their input "
        "order when ``stable``); default ``False`` sorts ascending."
    ),
    "correction": (
        "Degrees-of-freedom correction subtracted from the number of elements in the "
        "divisor: ``0`` (default) gives the population statistic, ``1`` the sample "
        "(Bessel-corrected) one."
    ),
    "n": (
        "Length of the transformed axis. The input is zero-padded or truncated to this "
        "length; ``None`` uses the input's own length."
    ),
    "norm": (
        'Normalization: ``"backward"`` (default) scales only the inverse transform by '
        '``1/n``, ``"ortho"`` scales both directions by ``1/sqrt(n)``, ``"forward"`` '
        "scales only the forward transform by ``1/n``."
    ),
    "s": (
        "Length of each transformed axis (one entry per axis in ``axes``); inputs are "
        "zero-padded or truncated to it. ``None`` keeps the input's lengths."
    ),
    "k": (
        "Diagonal offset: ``0`` is the main diagonal, positive values are above it and "
        "negative values below it."
    ),
    "offset": (
        "Diagonal offset: ``0`` is the main diagonal, positive values are above it and "
        "negative values below it."
    ),
    "start": "First value of the sequence.",
    "stop": "End of the sequence.",
    "step": "Spacing between consecutive values.",
    "num": "Number of samples; must be non-negative.",
    "endpoint": "If ``True`` (default), ``stop`` is the last sample; otherwise it is excluded.",
    "arrays": "Input arrays.",
    "indices": "Integer array of indices.",
    "condition": "Boolean array selecting, element by element, between ``x1`` (True) and ``x2``.",
    "upper": "If ``True``, return the upper-triangular factor instead of the lower one.",
    "ord": "Order of the norm.",
    "rtol": (
        "Relative cut-off for small singular values: those at most ``rtol`` times the "
        "largest are treated as zero. ``None`` uses ``max(M, N)`` times the machine epsilon "
        "of the input's dtype."
    ),
    "include_initial": (
        "If ``True``, the result starts with the operation's identity (0 for sums, 1 for "
        "products) and is one element longer along ``axis``."
    ),
    "d": "Sample spacing (the inverse of the sampling rate); default 1.0.",
}


_ENTRIES: dict[str, _Doc] = {
    # ------------------------------------------------------------------ creation
    "arange": _doc(
        "Return evenly spaced values in the half-open interval ``[start, stop)``.",
        """
        >>> xp.arange(5)
        array([0, 1, 2, 3, 4])
        >>> xp.arange(1.0, 2.0, 0.25)
        array([1.  , 1.25, 1.5 , 1.75])
        """,
        "A 1-D array. Its dtype is the default integer dtype when every argument is an int, "
        "otherwise the default floating-point dtype, unless ``dtype`` is given.",
        start="First value; when ``stop`` is omitted this is the end instead and the range starts at 0.",
        stop="End of the interval (not included). ``None`` means ``start`` is the end.",
        step="Spacing between values; must not be zero. Default 1.",
    ),
    "asarray": _doc(
        "Convert the input (array, scalar, nested sequence or buffer) to an array.",
        """
        >>> xp.asarray([1, 2, 3])
        array([1, 2, 3])
        >>> xp.asarray([1, 2, 3], dtype=xp.float32)
        array([1., 2., 3.], dtype=float32)
        """,
        "An array holding ``obj``'s data. Without ``dtype``, Python bools give ``bool``, ints "
        "the default integer dtype and floats the default floating-point dtype.",
    ),
    "empty": _doc(
        "Return a new array of the given shape without initializing its elements.",
        """
        >>> x = xp.empty((2, 3))
        >>> x.shape
        (2, 3)
        """,
        "An array with arbitrary contents; the default floating-point dtype unless ``dtype`` "
        "is given.",
    ),
    "empty_like": _doc(
        "Return a new uninitialized array with the shape (and by default dtype) of ``x``.",
        """
        >>> x = xp.empty_like(xp.asarray([[1, 2], [3, 4]], dtype=xp.int8))
        >>> x.shape, x.dtype
        ((2, 2), dtype('int8'))
        """,
        "An array with arbitrary contents, shaped like ``x``.",
        x="Array whose shape, and by default dtype, the result takes.",
    ),
    "eye": _doc(
        "Return a 2-D array with ones on one diagonal and zeros elsewhere.",
        """
        >>> xp.eye(2)
        array([[1., 0.],
               [0., 1.]])
        >>> xp.eye(2, 3, k=1)
        array([[0., 1., 0.],
               [0., 0., 1.]])
        """,
        "An array of shape ``(n_rows, n_cols)``; the default floating-point dtype unless "
        "``dtype`` is given.",
        n_rows="Number of rows.",
        n_cols="Number of columns; ``None`` (default) makes the array square.",
        k="Which diagonal holds the ones: ``0`` is the main diagonal, positive values are "
        "above it, negative values below it.",
    ),
    "from_dlpack": _doc(
        "Create an array from any object that implements the DLPack protocol.",
        """
        >>> x = xp.asarray([1, 2, 3])
        >>> xp.from_dlpack(x)
        array([1, 2, 3])
        """,
        "An array sharing memory with ``x`` where possible (a copy when ``copy=True`` or "
        "when the device changes).",
        x="Object exposing ``__dlpack__`` and ``__dlpack_device__`` (for example a NumPy, "
        "CuPy or PyTorch array).",
    ),
    "full": _doc(
        "Return a new array of the given shape with every element set to ``fill_value``.",
        """
        >>> xp.full((2, 2), 7)
        array([[7, 7],
               [7, 7]])
        >>> xp.full(3, 0.5)
        array([0.5, 0.5, 0.5])
        """,
        "A new array. Without ``dtype``, the dtype follows ``fill_value``: ``bool``, the "
        "default integer, floating-point or complex dtype.",
    ),
    "full_like": _doc(
        "Return a new array shaped like ``x`` with every element set to ``fill_value``.",
        """
        >>> xp.full_like(xp.asarray([1, 2, 3]), 9)
        array([9, 9, 9])
        """,
        "A new array with the shape of ``x`` and, unless ``dtype`` is given, its dtype.",
        x="Array whose shape, and by default dtype, the result takes.",
    ),
    "linspace": _doc(
        "Return ``num`` evenly spaced samples from ``start`` to ``stop``.",
        """
        >>> xp.linspace(0.0, 1.0, 5)
        array([0.  , 0.25, 0.5 , 0.75, 1.  ])
        >>> xp.linspace(0.0, 1.0, 4, endpoint=False)
        array([0.  , 0.25, 0.5 , 0.75])
        """,
        "A 1-D array of length ``num``; the default floating-point dtype (complex when a "
        "bound is complex) unless ``dtype`` is given.",
        start="First sample.",
        stop="Last sample when ``endpoint`` is true; otherwise the excluded end of the interval.",
    ),
    "meshgrid": _doc(
        "Return coordinate grids built from 1-D coordinate vectors.",
        """
        >>> X, Y = xp.meshgrid(xp.asarray([1, 2, 3]), xp.asarray([4, 5]))
        >>> X
        array([[1, 2, 3],
               [1, 2, 3]])
        >>> Y
        array([[4, 4, 4],
               [5, 5, 5]])
        """,
        "A tuple with one array per input, all of the same shape and dtype.",
        arrays="1-D coordinate arrays, all of the same dtype.",
        indexing='``"xy"`` (default, Cartesian) swaps the first two output axes so that '
        'the first input varies along columns; ``"ij"`` (matrix) keeps input order.',
    ),
    "ones": _doc(
        "Return a new array of the given shape filled with ones.",
        """
        >>> xp.ones((2, 3))
        array([[1., 1., 1.],
               [1., 1., 1.]])
        """,
        "A new array; the default floating-point dtype unless ``dtype`` is given.",
    ),
    "ones_like": _doc(
        "Return a new array of ones with the shape (and by default dtype) of ``x``.",
        """
        >>> xp.ones_like(xp.asarray([1, 2, 3]))
        array([1, 1, 1])
        """,
        "A new array of ones shaped like ``x``.",
        x="Array whose shape, and by default dtype, the result takes.",
    ),
    "tril": _doc(
        "Return a copy of a matrix (or stack of matrices) with elements above a diagonal set to zero.",
        """
        >>> x = xp.asarray([[1, 2, 3], [4, 5, 6], [7, 8, 9]])
        >>> xp.tril(x)
        array([[1, 0, 0],
               [4, 5, 0],
               [7, 8, 9]])
        """,
        "An array of the same shape and dtype as ``x``.",
        x="Array of at least two dimensions; the last two form the matrices.",
        k="Diagonal above which elements are zeroed: ``0`` is the main diagonal, positive "
        "values are above it, negative values below it.",
    ),
    "triu": _doc(
        "Return a copy of a matrix (or stack of matrices) with elements below a diagonal set to zero.",
        """
        >>> x = xp.asarray([[1, 2, 3], [4, 5, 6], [7, 8, 9]])
        >>> xp.triu(x, k=1)
        array([[0, 2, 3],
               [0, 0, 6],
               [0, 0, 0]])
        """,
        "An array of the same shape and dtype as ``x``.",
        x="Array of at least two dimensions; the last two form the matrices.",
        k="Diagonal below which elements are zeroed: ``0`` is the main diagonal, positive "
        "values are above it, negative values below it.",
    ),
    "zeros": _doc(
        "Return a new array of the given shape filled with zeros.",
        """
        >>> xp.zeros(3)
        array([0., 0., 0.])
        >>> xp.zeros((2, 2), dtype=xp.int32)
        array([[0, 0],
               [0, 0]], dtype=int32)
        """,
        "A new array; the default floating-point dtype unless ``dtype`` is given.",
    ),
    "zeros_like": _doc(
        "Return a new array of zeros with the shape (and by default dtype) of ``x``.",
        """
        >>> xp.zeros_like(xp.asarray([1.5, 2.5]))
        array([0., 0.])
        """,
        "A new array of zeros shaped like ``x``.",
        x="Array whose shape, and by default dtype, the result takes.",
    ),
    # ------------------------------------------------------------------ data types
    "astype": _doc(
        "Return a copy of ``x`` converted to ``dtype``.",
        """
        >>> xp.astype(xp.asarray([1.7, -1.7]), xp.int32)
        array([ 1, -1], dtype=int32)
        """,
        "An array of dtype ``dtype`` with the shape of ``x``. Floating-point to integer "
        "conversion truncates toward zero; out-of-range values are unspecified.",
        dtype="Target data type.",
        copy="If ``True`` (default), always return a new array; if ``False``, return ``x`` "
        "itself when it already has ``dtype`` (and device).",
    ),
    "can_cast": _doc(
        "Tell whether a value of one dtype can be converted to another by the standard's promotion rules.",
        """
        >>> xp.can_cast(xp.int8, xp.int32)
        True
        >>> xp.can_cast(xp.float64, xp.int32)
        False
        """,
        "``True`` if the cast is allowed by type promotion, else ``False``.",
        from_="Source dtype, or an array whose dtype is used.",
        to="Target dtype.",
    ),
    "finfo": _doc(
        "Return machine limits (eps, max, min, smallest_normal, bits) for a floating-point dtype.",
        """
        >>> xp.finfo(xp.float32).bits
        32
        >>> float(xp.finfo(xp.float64).eps)
        2.220446049250313e-16
        """,
        "An object with attributes ``bits``, ``eps``, ``max``, ``min``, ``smallest_normal`` "
        "and ``dtype``. For a complex dtype the limits are those of its real component.",
        type="A real or complex floating-point dtype, or an array of such a dtype.",
    ),
    "iinfo": _doc(
        "Return machine limits (bits, min, max) for an integer dtype.",
        """
        >>> xp.iinfo(xp.int8).min, xp.iinfo(xp.int8).max
        (-128, 127)
        """,
        "An object with attributes ``bits``, ``min``, ``max`` and ``dtype``.",
        type="An integer dtype, or an array of such a dtype.",
    ),
    "isdtype": _doc(
        'Tell whether a dtype belongs to a given kind, such as ``"integral"`` or ``"real floating"``.',
        """
        >>> xp.isdtype(xp.float32, "real floating")
        True
        >>> xp.isdtype(xp.int8, ("unsigned integer", xp.bool))
        False
        """,
        "``True`` if ``dtype`` matches ``kind`` (or any member of a tuple ``kind``).",
        dtype="The dtype to test.",
        kind='A dtype, a kind name (``"bool"``, ``"signed integer"``, ``"unsigned integer"``, '
        '``"integral"``, ``"real floating"``, ``"complex floating"``, ``"numeric"``), or '
        "a tuple of these.",
    ),
    "result_type": _doc(
        "Return the dtype that results from applying type promotion to the arguments.",
        """
        >>> xp.result_type(xp.int8, xp.int16)
        dtype('int16')
        >>> xp.result_type(xp.asarray([1], dtype=xp.float32), 2.0)
        dtype('float32')
        """,
        "The promoted dtype. Python scalars are weak: they adopt the dtype of the arrays "
        "and dtypes they are combined with.",
        arrays_and_dtypes="Arrays, dtypes and Python scalars to promote together.",
    ),
    # ------------------------------------------------------------------ elementwise
    "abs": _doc(
        "Compute the absolute value of each element.",
        """
        >>> x = xp.asarray([1.0, -2.0, 3.0])
        >>> xp.abs(x)
        array([1., 2., 3.])
        """,
        "An array of absolute values, with the dtype of ``x`` for real input and the "
        "matching real dtype (the modulus) for complex input.",
    ),
    "acos": _doc(
        "Compute the inverse cosine of each element, in radians.",
        """
        >>> xp.acos(xp.asarray([1.0, 0.0]))
        array([0.        , 1.5707963...])
        """,
        "An array of angles in ``[0, pi]`` for real input in ``[-1, 1]``; NaN outside it.",
    ),
    "acosh": _doc(
        "Compute the inverse hyperbolic cosine of each element.",
        """
        >>> xp.acosh(xp.asarray([1.0]))
        array([0.])
        """,
        "An array of non-negative values for real input ``>= 1``; NaN below 1.",
    ),
    "add": _doc(
        "Add ``x1`` and ``x2`` element by element.",
        """
        >>> xp.add(xp.asarray([1, 2, 3]), xp.asarray([10, 20, 30]))
        array([11, 22, 33])
        >>> xp.add(xp.asarray([1.5, 2.5]), 1)
        array([2.5, 3.5])
        """,
        "The element-wise sums, with the promoted dtype of the inputs.",
    ),
    "asin": _doc(
        "Compute the inverse sine of each element, in radians.",
        """
        >>> xp.asin(xp.asarray([0.0, 1.0]))
        array([0.        , 1.5707963...])
        """,
        "An array of angles in ``[-pi/2, pi/2]`` for real input in ``[-1, 1]``; NaN outside it.",
    ),
    "asinh": _doc(
        "Compute the inverse hyperbolic sine of each element.",
        """
        >>> xp.asinh(xp.asarray([0.0, -0.0]))
        array([ 0., -0.])
        """,
        "An array of the same floating-point dtype as ``x``.",
    ),
    "atan": _doc(
        "Compute the inverse tangent of each element, in radians.",
        """
        >>> xp.atan(xp.asarray([0.0, 1.0]))
        array([0.        , 0.7853981...])
        """,
        "An array of angles in ``[-pi/2, pi/2]``.",
    ),
    "atan2": _doc(
        "Compute the angle of the point ``(x2, x1)``, using both signs to pick the quadrant.",
        """
        >>> xp.atan2(xp.asarray([0.0, 1.0]), xp.asarray([1.0, 0.0]))
        array([0.        , 1.5707963...])
        """,
        "An array of angles in radians, in ``[-pi, pi]``.",
        x1="y-coordinates (the dividend of the tangent).",
        x2="x-coordinates (the divisor of the tangent); broadcast against ``x1``.",
    ),
    "atanh": _doc(
        "Compute the inverse hyperbolic tangent of each element.",
        """
        >>> xp.atanh(xp.asarray([0.0, 0.5]))
        array([0.        , 0.5493061...])
        """,
        "An array of the same floating-point dtype as ``x``; ``+-inf`` at ``+-1`` and NaN "
        "outside ``[-1, 1]`` for real input.",
    ),
    "bitwise_and": _doc(
        "Compute the bitwise AND of each pair of integer or boolean elements.",
        """
        >>> xp.bitwise_and(xp.asarray([12, 10]), xp.asarray([10, 6]))
        array([8, 2])
        """,
        "An array with the promoted integer or boolean dtype.",
    ),
    "bitwise_invert": _doc(
        "Flip every bit of each integer element, or negate each boolean element.",
        """
        >>> xp.bitwise_invert(xp.asarray([0, 1, -2], dtype=xp.int8))
        array([-1, -2,  1], dtype=int8)
        >>> xp.bitwise_invert(xp.asarray([True, False]))
        array([False,  True])
        """,
        "An array with the dtype of ``x``.",
    ),
    "bitwise_left_shift": _doc(
        "Shift the bits of each element of ``x1`` to the left by ``x2`` positions.",
        """
        >>> xp.bitwise_left_shift(xp.asarray([1, 2, 3]), 2)
        array([ 4,  8, 12])
        """,
        "An array with the promoted integer dtype.",
        x2="Number of positions to shift; must be non-negative.",
    ),
    "bitwise_or": _doc(
        "Compute the bitwise OR of each pair of integer or boolean elements.",
        """
        >>> xp.bitwise_or(xp.asarray([12, 10]), xp.asarray([10, 6]))
        array([14, 14])
        """,
        "An array with the promoted integer or boolean dtype.",
    ),
    "bitwise_right_shift": _doc(
        "Shift the bits of each element of ``x1`` right by ``x2`` positions (arithmetic for signed ints).",
        """
        >>> xp.bitwise_right_shift(xp.asarray([16, 9, -8]), 2)
        array([ 4,  2, -2])
        """,
        "An array with the promoted integer dtype.",
        x2="Number of positions to shift; must be non-negative.",
    ),
    "bitwise_xor": _doc(
        "Compute the bitwise exclusive OR of each pair of integer or boolean elements.",
        """
        >>> xp.bitwise_xor(xp.asarray([12, 10]), xp.asarray([10, 6]))
        array([ 6, 12])
        """,
        "An array with the promoted integer or boolean dtype.",
    ),
    "ceil": _doc(
        "Round each element up to the nearest integer value.",
        """
        >>> xp.ceil(xp.asarray([-1.5, 0.2, 2.0]))
        array([-1.,  1.,  2.])
        """,
        "An array with the dtype of ``x`` (integer input is returned unchanged).",
    ),
    "clip": _doc(
        "Limit each element of ``x`` to the range ``[min, max]``.",
        """
        >>> x = xp.asarray([1, 5, 9], dtype=xp.int8)
        >>> xp.clip(x, min=2, max=6)
        array([2, 5, 6], dtype=int8)
        >>> xp.clip(xp.asarray([-1.5, 0.5, 2.5]), max=1.0)
        array([-1.5,  0.5,  1. ])

        Bounds of another kind than ``x``, which the standard leaves open, give NumPy's
        answer:

        >>> xp.clip(xp.asarray([1, 5]), 0.5, 2.5)
        array([1. , 2.5])
        """,
        "An array with the shape of ``x``: its dtype where the bounds are ``None``, Python "
        "scalars that fit it or arrays of that dtype (the standard's case), else NumPy's "
        "promotion of ``x`` and the bounds.",
        min="Lower bound (a scalar or an array broadcastable to ``x``); ``None`` means no "
        "lower bound.",
        max="Upper bound (a scalar or an array broadcastable to ``x``); ``None`` means no "
        "upper bound.",
    ),
    "conj": _doc(
        "Compute the complex conjugate of each element.",
        """
        >>> xp.conj(xp.asarray([1 + 2j, 3 - 4j]))
        array([1.-2.j, 3.+4.j])
        """,
        "An array with the dtype of ``x``; real input is returned unchanged.",
    ),
    "copysign": _doc(
        "Return the magnitude of each element of ``x1`` with the sign of the matching element of ``x2``.",
        """
        >>> xp.copysign(xp.asarray([1.0, -2.0, 3.0]), xp.asarray([-1.0, 1.0, -0.0]))
        array([-1.,  2., -3.])
        """,
        "An array with the promoted floating-point dtype.",
        x2="Array whose signs are applied (the sign bit counts, so ``-0.0`` is negative).",
    ),
    "cos": _doc(
        "Compute the cosine of each element (given in radians).",
        """
        >>> xp.cos(xp.asarray([0.0, xp.pi]))
        array([ 1., -1.])
        """,
        "An array of the same floating-point dtype as ``x``.",
    ),
    "cosh": _doc(
        "Compute the hyperbolic cosine of each element.",
        """
        >>> xp.cosh(xp.asarray([0.0]))
        array([1.])
        """,
        "An array of the same floating-point dtype as ``x``.",
    ),
    "divide": _doc(
        "Divide ``x1`` by ``x2`` element by element (true division).",
        """
        >>> xp.divide(xp.asarray([1.0, 3.0]), xp.asarray([2.0, 4.0]))
        array([0.5 , 0.75])
        """,
        "A floating-point array of quotients. Integer-only inputs give an implementation-"
        "defined floating-point dtype (the default one on NumPy and CuPy).",
        x1="Dividend.",
        x2="Divisor; broadcast against ``x1``.",
    ),
    "equal": _doc(
        "Test ``x1 == x2`` element by element.",
        """
        >>> xp.equal(xp.asarray([1, 2, 3]), xp.asarray([1, 0, 3]))
        array([ True, False,  True])
        """,
        "A boolean array. NaN compares unequal to everything, itself included.",
    ),
    "exp": _doc(
        "Compute ``e`` raised to the power of each element.",
        """
        >>> xp.exp(xp.asarray([0.0, 1.0]))
        array([1.        , 2.7182818...])
        """,
        "An array of the same floating-point dtype as ``x``.",
    ),
    "expm1": _doc(
        "Compute ``exp(x) - 1`` for each element, accurately even when ``x`` is close to zero.",
        """
        >>> float(xp.expm1(xp.asarray(1e-10)))
        1.00000000005e-10
        """,
        "An array of the same floating-point dtype as ``x``.",
    ),
    "floor": _doc(
        "Round each element down to the nearest integer value.",
        """
        >>> xp.floor(xp.asarray([-1.5, 0.2, 2.0]))
        array([-2.,  0.,  2.])
        """,
        "An array with the dtype of ``x`` (integer input is returned unchanged).",
    ),
    "floor_divide": _doc(
        "Divide ``x1`` by ``x2`` and round each quotient down to the nearest integer.",
        """
        >>> xp.floor_divide(xp.asarray([7, -7]), 2)
        array([ 3, -4])
        """,
        "An array with the promoted dtype; integer inputs give integers. Integer division "
        "by zero is undefined.",
        x1="Dividend.",
        x2="Divisor; broadcast against ``x1``.",
    ),
    "greater": _doc(
        "Test ``x1 > x2`` element by element.",
        """
        >>> xp.greater(xp.asarray([1, 2, 3]), 2)
        array([False, False,  True])
        """,
        "A boolean array.",
    ),
    "greater_equal": _doc(
        "Test ``x1 >= x2`` element by element.",
        """
        >>> xp.greater_equal(xp.asarray([1, 2, 3]), 2)
        array([False,  True,  True])
        """,
        "A boolean array.",
    ),
    "hypot": _doc(
        "Compute ``sqrt(x1**2 + x2**2)`` for each pair of elements without undue overflow or underflow.",
        """
        >>> xp.hypot(xp.asarray([3.0, 5.0]), xp.asarray([4.0, 12.0]))
        array([ 5., 13.])
        """,
        "An array with the promoted real floating-point dtype.",
    ),
    "imag": _doc(
        "Return the imaginary part of each complex element.",
        """
        >>> xp.imag(xp.asarray([1 + 2j, 3 - 4j]))
        array([ 2., -4.])
        """,
        "A real floating-point array of the matching precision (``float32`` for "
        "``complex64``, ``float64`` for ``complex128``).",
    ),
    "isfinite": _doc(
        "Test each element for being finite (neither infinite nor NaN).",
        """
        >>> xp.isfinite(xp.asarray([1.0, xp.inf, xp.nan]))
        array([ True, False, False])
        """,
        "A boolean array; a complex element is finite when both of its parts are.",
    ),
    "isinf": _doc(
        "Test each element for being positive or negative infinity.",
        """
        >>> xp.isinf(xp.asarray([1.0, -xp.inf, xp.nan]))
        array([False,  True, False])
        """,
        "A boolean array; a complex element is infinite when either part is.",
    ),
    "isnan": _doc(
        "Test each element for being NaN.",
        """
        >>> xp.isnan(xp.asarray([1.0, xp.inf, xp.nan]))
        array([False, False,  True])
        """,
        "A boolean array; a complex element is NaN when either part is.",
    ),
    "less": _doc(
        "Test ``x1 < x2`` element by element.",
        """
        >>> xp.less(xp.asarray([1, 2, 3]), 2)
        array([ True, False, False])
        """,
        "A boolean array.",
    ),
    "less_equal": _doc(
        "Test ``x1 <= x2`` element by element.",
        """
        >>> xp.less_equal(xp.asarray([1, 2, 3]), 2)
        array([ True,  True, False])
        """,
        "A boolean array.",
    ),
    "log": _doc(
        "Compute the natural (base-e) logarithm of each element.",
        """
        >>> xp.log(xp.asarray([1.0, xp.e]))
        array([0., 1.])
        """,
        "An array of the same floating-point dtype as ``x``; ``-inf`` at zero and NaN for "
        "negative real input.",
    ),
    "log10": _doc(
        "Compute the base-10 logarithm of each element.",
        """
        >>> xp.log10(xp.asarray([1.0, 10.0, 1000.0]))
        array([0., 1., 3.])
        """,
        "An array of the same floating-point dtype as ``x``.",
    ),
    "log1p": _doc(
        "Compute ``log(1 + x)`` for each element, accurately even when ``x`` is close to zero.",
        """
        >>> float(xp.log1p(xp.asarray(1e-10)))
        9.9999999995...e-11
        """,
        "An array of the same floating-point dtype as ``x``.",
    ),
    "log2": _doc(
        "Compute the base-2 logarithm of each element.",
        """
        >>> xp.log2(xp.asarray([1.0, 2.0, 8.0]))
        array([0., 1., 3.])
        """,
        "An array of the same floating-point dtype as ``x``.",
    ),
    "logaddexp": _doc(
        "Compute ``log(exp(x1) + exp(x2))`` for each pair of elements without overflowing.",
        """
        >>> xp.logaddexp(xp.asarray([1000.0]), xp.asarray([1000.0]))
        array([1000.69314718])
        """,
        "An array with the promoted real floating-point dtype.",
    ),
    "logical_and": _doc(
        "Compute the logical AND of each pair of elements.",
        """
        >>> xp.logical_and(xp.asarray([True, True, False]), xp.asarray([True, False, False]))
        array([ True, False, False])
        """,
        "A boolean array.",
    ),
    "logical_not": _doc(
        "Compute the logical NOT of each element.",
        """
        >>> xp.logical_not(xp.asarray([True, False]))
        array([False,  True])
        """,
        "A boolean array.",
    ),
    "logical_or": _doc(
        "Compute the logical OR of each pair of elements.",
        """
        >>> xp.logical_or(xp.asarray([True, True, False]), xp.asarray([True, False, False]))
        array([ True,  True, False])
        """,
        "A boolean array.",
    ),
    "logical_xor": _doc(
        "Compute the logical exclusive OR of each pair of elements.",
        """
        >>> xp.logical_xor(xp.asarray([True, True, False]), xp.asarray([True, False, False]))
        array([False,  True, False])
        """,
        "A boolean array.",
    ),
    "maximum": _doc(
        "Return the larger of each pair of elements (NaN if either is NaN).",
        """
        >>> xp.maximum(xp.asarray([1, 5, 3]), xp.asarray([4, 2, 3]))
        array([4, 5, 3])
        """,
        "An array with the promoted real dtype.",
    ),
    "minimum": _doc(
        "Return the smaller of each pair of elements (NaN if either is NaN).",
        """
        >>> xp.minimum(xp.asarray([1, 5, 3]), xp.asarray([4, 2, 3]))
        array([1, 2, 3])
        """,
        "An array with the promoted real dtype.",
    ),
    "multiply": _doc(
        "Multiply ``x1`` and ``x2`` element by element.",
        """
        >>> xp.multiply(xp.asarray([1, 2, 3]), xp.asarray([4, 5, 6]))
        array([ 4, 10, 18])
        """,
        "The element-wise products, with the promoted dtype of the inputs.",
    ),
    "negative": _doc(
        "Negate each element.",
        """
        >>> xp.negative(xp.asarray([1, -2, 0]))
        array([-1,  2,  0])
        """,
        "An array with the dtype of ``x``.",
    ),
    "nextafter": _doc(
        "Return the next representable floating-point value after ``x1`` in the direction of ``x2``.",
        """
        >>> one = xp.asarray(1.0)
        >>> bool(xp.nextafter(one, xp.asarray(2.0)) - one == xp.finfo(xp.float64).eps)
        True
        """,
        "An array with the promoted real floating-point dtype; where ``x1 == x2`` the "
        "result is ``x2``.",
        x1="Starting values.",
        x2="Directions; broadcast against ``x1``.",
    ),
    "not_equal": _doc(
        "Test ``x1 != x2`` element by element.",
        """
        >>> xp.not_equal(xp.asarray([1, 2, 3]), xp.asarray([1, 0, 3]))
        array([False,  True, False])
        """,
        "A boolean array; NaN is unequal to everything.",
    ),
    "positive": _doc(
        "Return each element unchanged (unary plus), as a new array.",
        """
        >>> xp.positive(xp.asarray([1, -2]))
        array([ 1, -2])
        """,
        "An array with the dtype and values of ``x``.",
    ),
    "pow": _doc(
        "Raise each element of ``x1`` to the power of the matching element of ``x2``.",
        """
        >>> xp.pow(xp.asarray([1, 2, 3]), 2)
        array([1, 4, 9])
        >>> xp.pow(xp.asarray([4.0, 9.0]), 0.5)
        array([2., 3.])
        """,
        "An array with the promoted dtype. Negative integer exponents of integer arrays are "
        "undefined.",
        x1="Bases.",
        x2="Exponents; broadcast against ``x1``.",
    ),
    "real": _doc(
        "Return the real part of each element.",
        """
        >>> xp.real(xp.asarray([1 + 2j, 3 - 4j]))
        array([1., 3.])
        """,
        "A real floating-point array of the matching precision; real input is returned "
        "with its own dtype.",
    ),
    "reciprocal": _doc(
        "Compute ``1 / x`` for each element.",
        """
        >>> xp.reciprocal(xp.asarray([1.0, 2.0, 4.0]))
        array([1.  , 0.5 , 0.25])
        """,
        "An array of the same floating-point dtype as ``x``.",
    ),
    "remainder": _doc(
        "Compute the remainder of dividing ``x1`` by ``x2``, with the sign of the divisor.",
        """
        >>> xp.remainder(xp.asarray([7, -7]), 3)
        array([1, 2])
        """,
        "An array with the promoted dtype, satisfying ``x1 == floor_divide(x1, x2) * x2 + "
        "remainder(x1, x2)``.",
        x1="Dividend.",
        x2="Divisor; broadcast against ``x1``.",
    ),
    "round": _doc(
        "Round each element to the nearest integer value, with halves going to the even neighbour.",
        """
        >>> xp.round(xp.asarray([0.5, 1.5, 2.5, -0.7]))
        array([ 0.,  2.,  2., -1.])
        """,
        "An array with the dtype of ``x``; complex input is rounded part by part.",
    ),
    "sign": _doc(
        "Return -1, 0 or 1 according to the sign of each element (``x / |x|`` for complex input).",
        """
        >>> xp.sign(xp.asarray([-3.0, 0.0, 2.0]))
        array([-1.,  0.,  1.])
        """,
        "An array with the dtype of ``x``.",
    ),
    "signbit": _doc(
        "Test whether the sign bit of each element is set, which distinguishes ``-0.0`` from ``0.0``.",
        """
        >>> xp.signbit(xp.asarray([-1.0, -0.0, 0.0, 2.0]))
        array([ True,  True, False, False])
        """,
        "A boolean array.",
    ),
    "sin": _doc(
        "Compute the sine of each element (given in radians).",
        """
        >>> xp.sin(xp.asarray([0.0, xp.pi / 2]))
        array([0., 1.])
        """,
        "An array of the same floating-point dtype as ``x``.",
    ),
    "sinh": _doc(
        "Compute the hyperbolic sine of each element.",
        """
        >>> xp.sinh(xp.asarray([0.0, -0.0]))
        array([ 0., -0.])
        """,
        "An array of the same floating-point dtype as ``x``.",
    ),
    "sqrt": _doc(
        "Compute the principal square root of each element.",
        """
        >>> xp.sqrt(xp.asarray([1.0, 4.0, 9.0]))
        array([1., 2., 3.])
        """,
        "An array of the same floating-point dtype as ``x``; NaN for negative real input.",
    ),
    "square": _doc(
        "Compute ``x * x`` for each element.",
        """
        >>> xp.square(xp.asarray([1, -2, 3]))
        array([1, 4, 9])
        """,
        "An array with the dtype of ``x``.",
    ),
    "subtract": _doc(
        "Subtract ``x2`` from ``x1`` element by element.",
        """
        >>> xp.subtract(xp.asarray([10, 20, 30]), xp.asarray([1, 2, 3]))
        array([ 9, 18, 27])
        """,
        "The element-wise differences, with the promoted dtype of the inputs.",
    ),
    "tan": _doc(
        "Compute the tangent of each element (given in radians).",
        """
        >>> xp.tan(xp.asarray([0.0, -0.0]))
        array([ 0., -0.])
        """,
        "An array of the same floating-point dtype as ``x``.",
    ),
    "tanh": _doc(
        "Compute the hyperbolic tangent of each element.",
        """
        >>> xp.tanh(xp.asarray([0.0, xp.inf, -xp.inf]))
        array([ 0.,  1., -1.])
        """,
        "An array of the same floating-point dtype as ``x``, with values in ``[-1, 1]`` for "
        "real input.",
    ),
    "trunc": _doc(
        "Round each element toward zero to an integer value.",
        """
        >>> xp.trunc(xp.asarray([-1.7, 1.7]))
        array([-1.,  1.])
        """,
        "An array with the dtype of ``x`` (integer input is returned unchanged).",
    ),
    # ------------------------------------------------------------------ indexing
    "take": _doc(
        "Select elements of ``x`` at the given integer positions along one axis.",
        """
        >>> x = xp.asarray([[1, 2, 3], [4, 5, 6]])
        >>> xp.take(x, xp.asarray([2, 0]), axis=1)
        array([[3, 1],
               [6, 4]])
        """,
        "An array like ``x`` whose ``axis`` has length ``len(indices)``.",
        indices="1-D integer array of positions to select; negative values count from the end.",
        axis="Axis to select along. It may be omitted (``None``) only when ``x`` is 1-D.",
    ),
    "take_along_axis": _doc(
        "Pick values from ``x`` using an index array that matches ``x`` along every other axis.",
        """
        >>> x = xp.asarray([[10, 30, 20], [60, 40, 50]])
        >>> xp.take_along_axis(x, xp.argsort(x, axis=1), axis=1)
        array([[10, 20, 30],
               [40, 50, 60]])
        """,
        "An array with the shape of ``indices`` (after broadcasting) and the dtype of ``x``.",
        indices="Integer array with the same number of dimensions as ``x``, such as the "
        "output of ``argsort``.",
        axis="Axis along which values are picked; default -1, the last axis.",
    ),
    # ------------------------------------------------------------------ manipulation
    "broadcast_arrays": _doc(
        "Broadcast any number of arrays against each other.",
        """
        >>> a, b = xp.broadcast_arrays(xp.asarray([[1], [2]]), xp.asarray([10, 20, 30]))
        >>> a
        array([[1, 1, 1],
               [2, 2, 2]])
        >>> b.shape
        (2, 3)
        """,
        "A tuple of arrays, all with the common broadcast shape (often read-only views).",
        arrays="Arrays to broadcast together.",
    ),
    "broadcast_shapes": _doc(
        "Compute the shape that results from broadcasting the given shapes together.",
        """
        >>> xp.broadcast_shapes((2, 1), (3,))
        (2, 3)
        """,
        "The broadcast shape, as a tuple. Raises ``ValueError`` when the shapes are incompatible.",
        shapes="Shapes to broadcast, each a tuple of ints.",
    ),
    "broadcast_to": _doc(
        "Broadcast an array to a new shape.",
        """
        >>> xp.broadcast_to(xp.asarray([1, 2, 3]), (2, 3))
        array([[1, 2, 3],
               [1, 2, 3]])
        """,
        "An array of shape ``shape`` (often a read-only view of ``x``).",
        shape="Target shape; it must be compatible with the shape of ``x``.",
    ),
    "concat": _doc(
        "Join a sequence of arrays along an existing axis.",
        """
        >>> a = xp.asarray([[1, 2]])
        >>> xp.concat((a, xp.asarray([[3, 4]])))
        array([[1, 2],
               [3, 4]])
        >>> xp.concat((a, a), axis=None)
        array([1, 2, 1, 2])
        """,
        "An array with the promoted dtype of the inputs.",
        arrays="Arrays to join; their shapes must match except along ``axis``.",
        axis="Axis to join along (default 0). ``None`` flattens every input first.",
    ),
    "expand_dims": _doc(
        "Insert new axes of size one into the shape of ``x``.",
        """
        >>> x = xp.asarray([1, 2, 3])
        >>> xp.expand_dims(x, axis=0).shape
        (1, 3)
        >>> xp.expand_dims(x, axis=(0, -1)).shape
        (1, 3, 1)
        """,
        "An array (usually a view) with ``x``'s data and the extra axes.",
        axis="Position or positions, in the result, of the new axes; negative values count "
        "from the end of the result's shape.",
    ),
    "flip": _doc(
        "Reverse the order of elements along the given axes.",
        """
        >>> x = xp.asarray([[1, 2], [3, 4]])
        >>> xp.flip(x)
        array([[4, 3],
               [2, 1]])
        >>> xp.flip(x, axis=1)
        array([[2, 1],
               [4, 3]])
        """,
        "An array with the shape and dtype of ``x``.",
        axis="Axis or axes to reverse; ``None`` (default) reverses every axis.",
    ),
    "moveaxis": _doc(
        "Move axes of ``x`` to new positions, keeping the other axes in order.",
        """
        >>> x = xp.zeros((2, 3, 4))
        >>> xp.moveaxis(x, 0, -1).shape
        (3, 4, 2)
        """,
        "An array (usually a view) with the axes rearranged.",
        source="Original position or positions of the axes to move.",
        destination="New position or positions, one per entry of ``source``.",
    ),
    "permute_dims": _doc(
        "Reorder the axes of ``x`` (a general transpose).",
        """
        >>> x = xp.asarray([[1, 2, 3], [4, 5, 6]])
        >>> xp.permute_dims(x, (1, 0))
        array([[1, 4],
               [2, 5],
               [3, 6]])
        """,
        "An array (usually a view) whose axis ``i`` is axis ``axes[i]`` of ``x``.",
        axes="A permutation of ``(0, 1, ..., x.ndim - 1)``.",
    ),
    "repeat": _doc(
        "Repeat each element of ``x`` a given number of times.",
        """
        >>> xp.repeat(xp.asarray([1, 2, 3]), 2)
        array([1, 1, 2, 2, 3, 3])
        >>> xp.repeat(xp.asarray([1, 2, 3]), xp.asarray([0, 1, 2]))
        array([2, 3, 3])
        """,
        "An array with the dtype of ``x``.",
        repeats="Number of repetitions: one int for every element, or a 1-D integer array "
        "with one count per element along ``axis``.",
        axis="Axis along which to repeat; ``None`` (default) flattens ``x`` first.",
    ),
    "reshape": _doc(
        "Give ``x`` a new shape without changing its data.",
        """
        >>> xp.reshape(xp.arange(6), (2, 3))
        array([[0, 1, 2],
               [3, 4, 5]])
        >>> xp.reshape(xp.arange(6), (3, -1)).shape
        (3, 2)
        """,
        "An array of the new shape, a view when possible.",
        shape="New shape; its size must equal that of ``x``. One entry may be -1, which is "
        "inferred.",
    ),
    "roll": _doc(
        "Shift elements cyclically along the given axes; elements leaving one end come back at the other.",
        """
        >>> xp.roll(xp.asarray([1, 2, 3, 4]), 1)
        array([4, 1, 2, 3])
        >>> xp.roll(xp.asarray([[1, 2], [3, 4]]), -1, axis=1)
        array([[2, 1],
               [4, 3]])
        """,
        "An array with the shape and dtype of ``x``.",
        shift="Number of places to shift (negative shifts go backwards); a tuple gives one "
        "shift per axis in ``axis``.",
        axis="Axis or axes to roll along; ``None`` (default) rolls the flattened array and "
        "restores the shape.",
    ),
    "squeeze": _doc(
        "Remove the given axes of size one from ``x``.",
        """
        >>> x = xp.zeros((1, 3, 1))
        >>> xp.squeeze(x, axis=0).shape
        (3, 1)
        """,
        "An array (usually a view) without those axes.",
        axis="Axis or axes to remove; each must have size one. This argument is required.",
    ),
    "stack": _doc(
        "Join a sequence of same-shaped arrays along a new axis.",
        """
        >>> a, b = xp.asarray([1, 2]), xp.asarray([3, 4])
        >>> xp.stack((a, b))
        array([[1, 2],
               [3, 4]])
        >>> xp.stack((a, b), axis=1)
        array([[1, 3],
               [2, 4]])
        """,
        "An array with one more dimension than the inputs.",
        arrays="Arrays to join; all must have the same shape.",
        axis="Position of the new axis in the result (default 0).",
    ),
    "tile": _doc(
        "Build an array by repeating the whole of ``x`` along each axis.",
        """
        >>> xp.tile(xp.asarray([1, 2]), (2,))
        array([1, 2, 1, 2])
        >>> xp.tile(xp.asarray([1, 2]), (2, 1))
        array([[1, 2],
               [1, 2]])
        """,
        "An array with the dtype of ``x``.",
        repetitions="Number of copies along each axis; if it and ``x.ndim`` differ in "
        "length, the shorter is padded with leading ones.",
    ),
    "unstack": _doc(
        "Split an array into a tuple of arrays along an axis, removing that axis.",
        """
        >>> a, b = xp.unstack(xp.asarray([[1, 2], [3, 4]]))
        >>> a
        array([1, 2])
        >>> b
        array([3, 4])
        """,
        "A tuple of ``x.shape[axis]`` arrays, each with one dimension fewer than ``x``.",
        axis="Axis to split along (default 0).",
    ),
    # ------------------------------------------------------------------ searching
    "argmax": _doc(
        "Return the index of the largest element (the first one, on ties).",
        """
        >>> x = xp.asarray([[3, 7, 7], [9, 1, 2]])
        >>> int(xp.argmax(x))
        3
        >>> xp.argmax(x, axis=1)
        array([1, 0])
        """,
        "An array of indices with the default integer dtype. With ``axis=None`` the index "
        "refers to the flattened array.",
        axis="Axis to search along; ``None`` (default) searches the flattened array.",
    ),
    "argmin": _doc(
        "Return the index of the smallest element (the first one, on ties).",
        """
        >>> x = xp.asarray([[3, 1, 1], [0, 5, 2]])
        >>> int(xp.argmin(x))
        3
        >>> xp.argmin(x, axis=1)
        array([1, 0])
        """,
        "An array of indices with the default integer dtype. With ``axis=None`` the index "
        "refers to the flattened array.",
        axis="Axis to search along; ``None`` (default) searches the flattened array.",
    ),
    "count_nonzero": _doc(
        "Count the elements that are not zero (or not ``False``).",
        """
        >>> x = xp.asarray([[0, 1, 2], [3, 0, 0]])
        >>> int(xp.count_nonzero(x))
        3
        >>> xp.count_nonzero(x, axis=1)
        array([2, 1])
        """,
        "An array of counts with the default integer dtype.",
        axis="Axis or axes to count along; ``None`` (default) counts over the whole array.",
    ),
    "nonzero": _doc(
        "Return the indices of the elements that are not zero (or not ``False``).",
        """
        >>> xp.nonzero(xp.asarray([0, 3, 0, 5]))
        (array([1, 3]),)
        """,
        "A tuple with one 1-D index array per dimension of ``x``, in row-major order. The "
        "output size depends on the data.",
        x="Input array of at least one dimension.",
    ),
    "searchsorted": _doc(
        "Find where elements of ``x2`` would be inserted into the sorted 1-D array ``x1`` to keep it sorted.",
        """
        >>> x1 = xp.asarray([1, 3, 5, 7])
        >>> xp.searchsorted(x1, xp.asarray([3, 6]))
        array([1, 3])
        >>> xp.searchsorted(x1, xp.asarray([3, 6]), side="right")
        array([2, 3])
        """,
        "An integer array of insertion positions with the shape of ``x2``.",
        x1="1-D array sorted in ascending order (or any order, together with ``sorter``).",
        x2="Values to locate.",
        side='``"left"`` (default) returns the first suitable position, before any equal '
        'elements; ``"right"`` returns the last, after them.',
        sorter="Optional integer array of indices that sort ``x1`` ascending, such as "
        "``argsort(x1)``.",
    ),
    "where": _doc(
        "Choose elements from ``x1`` where ``condition`` is true and from ``x2`` elsewhere.",
        """
        >>> x = xp.asarray([-1.0, 2.0, -3.0])
        >>> xp.where(x > 0, x, 0.0)
        array([0., 2., 0.])
        """,
        "An array with the broadcast shape of the three arguments and the promoted dtype of "
        "``x1`` and ``x2``.",
        condition="Boolean array; where true the result takes ``x1``, elsewhere ``x2``.",
        x1="Values used where ``condition`` is true.",
        x2="Values used where ``condition`` is false.",
    ),
    # ------------------------------------------------------------------ sets
    "isin": _doc(
        "Test each element of ``x1`` for membership in ``x2``.",
        """
        >>> xp.isin(xp.asarray([1, 2, 3, 4]), xp.asarray([2, 4]))
        array([False,  True, False,  True])
        >>> xp.isin(xp.asarray([1, 2, 3, 4]), xp.asarray([2, 4]), invert=True)
        array([ True, False,  True, False])
        """,
        "A boolean array with the shape of ``x1``.",
        x1="Elements to test.",
        x2="Values to test against (treated as a flat set).",
        invert="If ``True``, report non-membership instead.",
    ),
    "unique_all": _doc(
        "Return the unique elements of ``x`` with first-occurrence indices, inverse indices and counts.",
        """
        >>> values, indices, inverse, counts = xp.unique_all(xp.asarray([3, 1, 3, 2, 1]))
        >>> values, indices, counts
        (array([1, 2, 3]), array([1, 3, 0]), array([2, 1, 2]))
        """,
        "A named tuple ``(values, indices, inverse_indices, counts)``: the 1-D unique values "
        "(in no specified order), the index of each value's first occurrence in the "
        "flattened ``x``, indices into ``values`` with the shape of ``x`` that rebuild it, "
        "and how often each value occurs. NaNs are all distinct.",
    ),
    "unique_counts": _doc(
        "Return the unique elements of ``x`` and how often each occurs.",
        """
        >>> values, counts = xp.unique_counts(xp.asarray([3, 1, 3, 2, 1]))
        >>> values, counts
        (array([1, 2, 3]), array([2, 1, 2]))
        """,
        "A named tuple ``(values, counts)`` of 1-D arrays; the order of the values is not "
        "specified.",
    ),
    "unique_inverse": _doc(
        "Return the unique elements of ``x`` and the indices that rebuild ``x`` from them.",
        """
        >>> values, inverse = xp.unique_inverse(xp.asarray([3, 1, 3, 2]))
        >>> values, inverse
        (array([1, 2, 3]), array([2, 0, 2, 1]))
        """,
        "A named tuple ``(values, inverse_indices)``; ``values[inverse_indices]`` equals "
        "``x`` and ``inverse_indices`` has the shape of ``x``.",
    ),
    "unique_values": _doc(
        "Return the unique elements of ``x`` as a 1-D array.",
        """
        >>> xp.sort(xp.unique_values(xp.asarray([[3, 1], [3, 2]])))
        array([1, 2, 3])
        """,
        "A 1-D array with the dtype of ``x``. The order of the values is not specified (it "
        "can differ between backends and versions; sort it if you need an order). NaNs are "
        "all distinct.",
    ),
    # ------------------------------------------------------------------ sorting
    "argsort": _doc(
        "Return the indices that sort ``x`` along an axis; the sort is stable by default.",
        """
        >>> x = xp.asarray([3, 1, 2, 1])
        >>> xp.argsort(x)
        array([1, 3, 2, 0])
        >>> xp.argsort(x, descending=True)
        array([0, 2, 1, 3])
        """,
        "An integer array of the shape of ``x`` (default integer dtype). With ``stable`` "
        "equal elements keep their input order, in descending sorts too.",
        axis="Axis to sort along; default -1, the last axis.",
    ),
    "sort": _doc(
        "Return a sorted copy of ``x`` along an axis; the sort is stable by default.",
        """
        >>> x = xp.asarray([[3, 1, 2], [9, 7, 8]])
        >>> xp.sort(x)
        array([[1, 2, 3],
               [7, 8, 9]])
        >>> xp.sort(x, axis=0, descending=True)
        array([[9, 7, 8],
               [3, 1, 2]])
        """,
        "An array with the shape and dtype of ``x``. NaNs sort to the end.",
        axis="Axis to sort along; default -1, the last axis.",
    ),
    # ------------------------------------------------------------------ statistics
    "cumulative_prod": _doc(
        "Compute the running product of elements along an axis.",
        """
        >>> x = xp.asarray([1, 2, 3, 4])
        >>> xp.cumulative_prod(x)
        array([ 1,  2,  6, 24])
        >>> xp.cumulative_prod(x, include_initial=True)
        array([ 1,  1,  2,  6, 24])
        """,
        "An array of running products. Without ``dtype``, small integer dtypes are widened "
        "to the default integer dtype (unsigned ones to the default unsigned one).",
        axis="Axis to accumulate along; it may be ``None`` only for 1-D ``x``.",
    ),
    "cumulative_sum": _doc(
        "Compute the running sum of elements along an axis.",
        """
        >>> x = xp.asarray([1, 2, 3])
        >>> xp.cumulative_sum(x)
        array([1, 3, 6])
        >>> xp.cumulative_sum(x, include_initial=True)
        array([0, 1, 3, 6])
        """,
        "An array of running sums. Without ``dtype``, small integer dtypes are widened to "
        "the default integer dtype (unsigned ones to the default unsigned one).",
        axis="Axis to accumulate along; it may be ``None`` only for 1-D ``x``.",
    ),
    "max": _doc(
        "Return the largest element, over the whole array or along the given axes.",
        """
        >>> x = xp.asarray([[1, 5], [4, 2]])
        >>> int(xp.max(x))
        5
        >>> xp.max(x, axis=0)
        array([4, 5])
        """,
        "An array with the dtype of ``x``. NaN propagates; reducing an empty axis is an error.",
        axis="Axis or axes to reduce; ``None`` (default) reduces over every axis.",
    ),
    "mean": _doc(
        "Compute the arithmetic mean, over the whole array or along the given axes.",
        """
        >>> x = xp.asarray([[1.0, 2.0], [3.0, 6.0]])
        >>> float(xp.mean(x))
        3.0
        >>> xp.mean(x, axis=1)
        array([1.5, 4.5])
        """,
        "An array of means with the floating-point dtype of ``x``.",
        x="Input array with a real or complex floating-point dtype.",
        axis="Axis or axes to reduce; ``None`` (default) reduces over every axis.",
    ),
    "min": _doc(
        "Return the smallest element, over the whole array or along the given axes.",
        """
        >>> x = xp.asarray([[1, 5], [4, 2]])
        >>> int(xp.min(x))
        1
        >>> xp.min(x, axis=1)
        array([1, 2])
        """,
        "An array with the dtype of ``x``. NaN propagates; reducing an empty axis is an error.",
        axis="Axis or axes to reduce; ``None`` (default) reduces over every axis.",
    ),
    "prod": _doc(
        "Multiply the elements together, over the whole array or along the given axes.",
        """
        >>> x = xp.asarray([[1, 2], [3, 4]])
        >>> int(xp.prod(x))
        24
        >>> xp.prod(x, axis=1)
        array([ 2, 12])
        """,
        "An array of products (1 for an empty reduction). Without ``dtype``, integer inputs "
        "narrower than the default integer dtype are widened to it.",
        axis="Axis or axes to reduce; ``None`` (default) reduces over every axis.",
    ),
    "std": _doc(
        "Compute the standard deviation, over the whole array or along the given axes.",
        """
        >>> x = xp.asarray([2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0])
        >>> float(xp.std(x))
        2.0
        """,
        "An array with the real floating-point dtype of ``x``. Defaults to the population "
        "statistic (``correction=0``); pass ``correction=1`` for the sample one.",
        x="Input array with a real floating-point dtype.",
        axis="Axis or axes to reduce; ``None`` (default) reduces over every axis.",
    ),
    "sum": _doc(
        "Add up the elements, over the whole array or along the given axes.",
        """
        >>> x = xp.asarray([[1, 2], [3, 4]])
        >>> int(xp.sum(x))
        10
        >>> xp.sum(x, axis=0)
        array([4, 6])
        """,
        "An array of sums (0 for an empty reduction). Without ``dtype``, integer inputs "
        "narrower than the default integer dtype are widened to it.",
        axis="Axis or axes to reduce; ``None`` (default) reduces over every axis.",
    ),
    "var": _doc(
        "Compute the variance, over the whole array or along the given axes.",
        """
        >>> x = xp.asarray([2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0])
        >>> float(xp.var(x))
        4.0
        >>> float(xp.var(x, correction=1))
        4.571428...
        """,
        "An array with the real floating-point dtype of ``x``. Defaults to the population "
        "statistic (``correction=0``); pass ``correction=1`` for the sample one.",
        x="Input array with a real floating-point dtype.",
        axis="Axis or axes to reduce; ``None`` (default) reduces over every axis.",
    ),
    # ------------------------------------------------------------------ utility
    "all": _doc(
        "Test whether every element is true (non-zero), over the whole array or along axes.",
        """
        >>> x = xp.asarray([[True, False], [True, True]])
        >>> bool(xp.all(x))
        False
        >>> xp.all(x, axis=0)
        array([ True, False])
        """,
        "A boolean array; an empty reduction gives ``True``. NaN counts as true.",
        axis="Axis or axes to reduce; ``None`` (default) reduces over every axis.",
    ),
    "any": _doc(
        "Test whether at least one element is true (non-zero), over the whole array or along axes.",
        """
        >>> x = xp.asarray([[0, 0], [0, 3]])
        >>> bool(xp.any(x))
        True
        >>> xp.any(x, axis=1)
        array([False,  True])
        """,
        "A boolean array; an empty reduction gives ``False``. NaN counts as true.",
        axis="Axis or axes to reduce; ``None`` (default) reduces over every axis.",
    ),
    "diff": _doc(
        "Compute the ``n``-th discrete difference between neighbouring elements along an axis.",
        """
        >>> x = xp.asarray([1, 4, 9, 16])
        >>> xp.diff(x)
        array([3, 5, 7])
        >>> xp.diff(x, n=2)
        array([2, 2])
        """,
        "An array whose ``axis`` is ``n`` shorter than that of the (extended) input, with "
        "the dtype of ``x``.",
        axis="Axis along which to take differences; default -1, the last axis.",
        n="How many times to take differences (default 1).",
        prepend="Values placed before ``x`` along ``axis`` before differencing.",
        append="Values placed after ``x`` along ``axis`` before differencing.",
    ),
}

# Shared by the main-namespace and ``linalg`` versions of these four functions.
_MATMUL_PARAMS = {
    "x1": "First operand, at least 1-D. A 1-D operand is treated as a vector.",
    "x2": "Second operand, at least 1-D; leading (batch) dimensions broadcast against ``x1``.",
}
_TENSORDOT_AXES = (
    "An int ``N`` contracts the last ``N`` axes of ``x1`` with the first ``N`` axes of "
    "``x2`` (default 2); a pair of sequences names the axes of each to contract, in order."
)
_VECDOT_PARAMS = {
    "x1": "First array of vectors; it is complex-conjugated before multiplying.",
    "x2": "Second array of vectors; broadcast against ``x1``.",
    "axis": "Axis holding the vector components (default -1); it is not broadcast and "
    "must have the same length in both arrays.",
}


def _linear_algebra(prefix: str) -> dict[str, _Doc]:
    ns = f"xp.{prefix}"
    return {
        f"{prefix}matmul": _doc(
            "Compute the matrix product of two arrays, broadcasting over leading dimensions.",
            f"""
            >>> a = xp.asarray([[1, 2], [3, 4]])
            >>> {ns}matmul(a, xp.asarray([[5, 6], [7, 8]]))
            array([[19, 22],
                   [43, 50]])
            """,
            "The product, with the promoted dtype. A 1-D operand's added dimension is "
            "removed again, so vector-vector gives a 0-D array.",
            **_MATMUL_PARAMS,
        ),
        f"{prefix}matrix_transpose": _doc(
            "Transpose a matrix, or each matrix in a stack, by swapping the last two axes.",
            f"""
            >>> {ns}matrix_transpose(xp.asarray([[1, 2, 3], [4, 5, 6]]))
            array([[1, 4],
                   [2, 5],
                   [3, 6]])
            """,
            "An array of shape ``(..., N, M)`` for input of shape ``(..., M, N)``.",
            x="Array of at least two dimensions.",
        ),
        f"{prefix}tensordot": _doc(
            "Contract two arrays over the given axes (a generalized dot product).",
            f"""
            >>> a = xp.asarray([[1, 2], [3, 4]])
            >>> int({ns}tensordot(a, a))
            30
            >>> {ns}tensordot(a, a, axes=1)
            array([[ 7, 10],
                   [15, 22]])
            """,
            "The non-contracted axes of ``x1`` followed by those of ``x2``, with the promoted "
            "dtype.",
            axes=_TENSORDOT_AXES,
        ),
        f"{prefix}vecdot": _doc(
            "Compute the dot product of vectors along an axis, conjugating the first argument.",
            f"""
            >>> int({ns}vecdot(xp.asarray([1, 2, 3]), xp.asarray([4, 5, 6])))
            32
            >>> {ns}vecdot(xp.asarray([[1, 0], [0, 2]]), xp.asarray([3, 4]))
            array([3, 8])
            """,
            "An array with the broadcast batch shape (the vector axis removed) and the "
            "promoted dtype.",
            **_VECDOT_PARAMS,
        ),
    }


_ENTRIES.update(_linear_algebra(""))
_ENTRIES.update(_linear_algebra("linalg."))

_SQUARE = "Square matrix or stack of square matrices, of shape ``(..., M, M)``."
_MATRIX = "Matrix or stack of matrices, of shape ``(..., M, N)``."

_ENTRIES.update(
    {
        "linalg.cholesky": _doc(
            "Compute the Cholesky factor of a symmetric (Hermitian) positive-definite matrix.",
            """
            >>> a = xp.asarray([[4.0, 2.0], [2.0, 2.0]])
            >>> xp.linalg.cholesky(a)
            array([[2., 0.],
                   [1., 1.]])
            """,
            "The lower-triangular ``L`` with ``L @ L^H == x`` (or the upper-triangular "
            "``U`` with ``U^H @ U == x`` when ``upper``), of the shape of ``x``.",
            x="Symmetric (Hermitian) positive-definite matrix or stack of them; only one "
            "triangle is read.",
        ),
        "linalg.cross": _doc(
            "Compute the cross product of 3-element vectors.",
            """
            >>> xp.linalg.cross(xp.asarray([1, 0, 0]), xp.asarray([0, 1, 0]))
            array([0, 0, 1])
            """,
            "An array of cross products with the broadcast shape and promoted dtype.",
            x1="First array of vectors; ``axis`` must have length 3.",
            x2="Second array of vectors, broadcast against ``x1`` (not along ``axis``).",
            axis="Axis holding the vector components (default -1).",
        ),
        "linalg.det": _doc(
            "Compute the determinant of a square matrix or of each matrix in a stack.",
            """
            >>> float(xp.linalg.det(xp.asarray([[2.0, 1.0], [1.0, 2.0]])))
            3.0
            """,
            "An array of determinants of shape ``(...)``, with the floating-point dtype of ``x``.",
            x=_SQUARE,
        ),
        "linalg.diagonal": _doc(
            "Return one diagonal of a matrix or of each matrix in a stack.",
            """
            >>> a = xp.asarray([[1, 2, 3], [4, 5, 6]])
            >>> xp.linalg.diagonal(a)
            array([1, 5])
            >>> xp.linalg.diagonal(a, offset=1)
            array([2, 6])
            """,
            "An array of shape ``(..., K)`` holding the diagonal, with the dtype of ``x``.",
            x=_MATRIX,
        ),
        "linalg.eig": _doc(
            "Compute the eigenvalues and right eigenvectors of a general square matrix, always as complex arrays.",
            """
            >>> w, v = xp.linalg.eig(xp.asarray([[1.0, 2.0], [0.0, 3.0]]))
            >>> w
            array([1.+0.j, 3.+0.j])
            """,
            "A named tuple ``(eigenvalues, eigenvectors)``. Both are complex (``complex64`` "
            "for single-precision input, else ``complex128``) even when every eigenvalue is "
            "real; column ``i`` of ``eigenvectors`` has unit norm and belongs to "
            "``eigenvalues[..., i]``. The order of eigenvalues is not specified.",
            x=_SQUARE,
        ),
        "linalg.eigh": _doc(
            "Compute the eigenvalues and eigenvectors of a symmetric (Hermitian) matrix.",
            """
            >>> w, v = xp.linalg.eigh(xp.asarray([[2.0, 0.0], [0.0, 1.0]]))
            >>> w
            array([1., 2.])
            >>> xp.abs(v)
            array([[0., 1.],
                   [1., 0.]])
            """,
            "A named tuple ``(eigenvalues, eigenvectors)``: real eigenvalues in ascending "
            "order and orthonormal eigenvectors as columns.",
            x="Symmetric (Hermitian) matrix or stack of them; only one triangle is read.",
        ),
        "linalg.eigvals": _doc(
            "Compute the eigenvalues of a general square matrix, always as a complex array.",
            """
            >>> xp.linalg.eigvals(xp.asarray([[1.0, 2.0], [0.0, 3.0]]))
            array([1.+0.j, 3.+0.j])
            """,
            "A complex array of shape ``(..., M)`` (``complex64`` for single-precision input, "
            "else ``complex128``), even when every eigenvalue is real; the order is not "
            "specified.",
            x=_SQUARE,
        ),
        "linalg.eigvalsh": _doc(
            "Compute the eigenvalues of a symmetric (Hermitian) matrix, in ascending order.",
            """
            >>> xp.linalg.eigvalsh(xp.asarray([[2.0, 1.0], [1.0, 2.0]]))
            array([1., 3.])
            """,
            "A real array of shape ``(..., M)`` with eigenvalues in ascending order.",
            x="Symmetric (Hermitian) matrix or stack of them; only one triangle is read.",
        ),
        "linalg.inv": _doc(
            "Compute the inverse of a square matrix or of each matrix in a stack.",
            """
            >>> xp.linalg.inv(xp.asarray([[2.0, 0.0], [0.0, 4.0]]))
            array([[0.5 , 0.  ],
                   [0.  , 0.25]])
            """,
            "An array of the shape of ``x`` with the floating-point dtype of ``x``. A "
            "singular matrix raises an error.",
            x=_SQUARE,
        ),
        "linalg.matrix_norm": _doc(
            "Compute a matrix norm of a matrix or of each matrix in a stack.",
            """
            >>> a = xp.asarray([[3.0, 0.0], [0.0, 4.0]])
            >>> float(xp.linalg.matrix_norm(a))
            5.0
            >>> float(xp.linalg.matrix_norm(a, ord=1))
            4.0
            """,
            "A real array of shape ``(...)`` (or ``(..., 1, 1)`` with ``keepdims``).",
            x=_MATRIX,
            ord='Which norm: ``"fro"`` (default, Frobenius), ``"nuc"`` (nuclear, sum of '
            "singular values), ``1``/``-1`` (max/min column sum of absolute values), "
            "``inf``/``-inf`` (max/min row sum), ``2``/``-2`` (largest/smallest singular "
            "value).",
        ),
        "linalg.matrix_power": _doc(
            "Raise a square matrix (or each matrix in a stack) to an integer power.",
            """
            >>> xp.linalg.matrix_power(xp.asarray([[1, 1], [0, 1]]), 3)
            array([[1, 3],
                   [0, 1]])
            """,
            "An array of the shape of ``x``. ``n == 0`` gives identity matrices; negative "
            "``n`` inverts first (and needs a floating-point ``x``).",
            x=_SQUARE,
            n="Exponent; 0 gives the identity and negative values use the inverse.",
        ),
        "linalg.matrix_rank": _doc(
            "Estimate the rank of a matrix from the number of significant singular values.",
            """
            >>> int(xp.linalg.matrix_rank(xp.asarray([[1.0, 2.0], [2.0, 4.0]])))
            1
            """,
            "An integer array of ranks of shape ``(...)``.",
            x=_MATRIX,
        ),
        "linalg.outer": _doc(
            "Compute the outer product of two 1-D vectors.",
            """
            >>> xp.linalg.outer(xp.asarray([1, 2]), xp.asarray([3, 4, 5]))
            array([[ 3,  4,  5],
                   [ 6,  8, 10]])
            """,
            "A 2-D array of shape ``(len(x1), len(x2))`` with the promoted dtype.",
            x1="First 1-D vector.",
            x2="Second 1-D vector.",
        ),
        "linalg.pinv": _doc(
            "Compute the Moore-Penrose pseudo-inverse of a matrix via its singular value decomposition.",
            """
            >>> xp.linalg.pinv(xp.asarray([[2.0, 0.0], [0.0, 0.0]]))
            array([[0.5, 0. ],
                   [0. , 0. ]])
            """,
            "An array of shape ``(..., N, M)`` for input of shape ``(..., M, N)``.",
            x=_MATRIX,
        ),
        "linalg.qr": _doc(
            "Compute the QR factorization of a matrix: an orthonormal ``Q`` times an upper-triangular ``R``.",
            """
            >>> q, r = xp.linalg.qr(xp.ones((3, 2)))
            >>> q.shape, r.shape
            ((3, 2), (2, 2))
            """,
            "A named tuple ``(Q, R)``; for input ``(..., M, N)`` with ``K = min(M, N)``, "
            "``Q`` is ``(..., M, K)`` and ``R`` is ``(..., K, N)`` in reduced mode, "
            "``(..., M, M)`` and ``(..., M, N)`` in complete mode.",
            x=_MATRIX,
            mode='``"reduced"`` (default) returns the economy-size factors; '
            '``"complete"`` returns a square ``Q``.',
        ),
        "linalg.slogdet": _doc(
            "Compute the sign and the natural logarithm of the absolute value of the determinant.",
            """
            >>> sign, logabsdet = xp.linalg.slogdet(xp.asarray([[2.0, 0.0], [0.0, -4.0]]))
            >>> float(sign), float(logabsdet)
            (-1.0, 2.0794415...)
            """,
            "A named tuple ``(sign, logabsdet)``; the determinant is ``sign * exp(logabsdet)``. "
            "For a singular matrix ``sign`` is 0 and ``logabsdet`` is ``-inf``. This avoids "
            "the overflow and underflow of ``det``.",
            x=_SQUARE,
        ),
        "linalg.solve": _doc(
            "Solve the linear system ``x1 @ result == x2`` for a square, non-singular ``x1``.",
            """
            >>> a = xp.asarray([[3.0, 1.0], [1.0, 2.0]])
            >>> xp.linalg.solve(a, xp.asarray([9.0, 8.0]))
            array([2., 3.])
            """,
            "The solution, with the shape of ``x2`` (after broadcasting) and the promoted "
            "floating-point dtype.",
            x1="Coefficient matrix or stack of them, of shape ``(..., M, M)``.",
            x2="Right-hand side: a vector of shape ``(M,)`` (only when 1-D) or matrices of "
            "shape ``(..., M, K)`` broadcast against ``x1``.",
        ),
        "linalg.svd": _doc(
            "Compute the singular value decomposition ``x == U @ diag(S) @ Vh``.",
            """
            >>> a = xp.asarray([[3.0, 0.0], [0.0, 4.0], [0.0, 0.0]])
            >>> u, s, vh = xp.linalg.svd(a, full_matrices=False)
            >>> s
            array([4., 3.])
            >>> u.shape, vh.shape
            ((3, 2), (2, 2))
            """,
            "A named tuple ``(U, S, Vh)``; ``S`` holds the singular values in descending "
            "order, of shape ``(..., K)`` with ``K = min(M, N)``.",
            x=_MATRIX,
            full_matrices="If ``True`` (default), ``U`` and ``Vh`` are square (``M x M`` and "
            "``N x N``); if ``False``, they are ``M x K`` and ``K x N``.",
        ),
        "linalg.svdvals": _doc(
            "Compute the singular values of a matrix or of each matrix in a stack.",
            """
            >>> xp.linalg.svdvals(xp.asarray([[3.0, 0.0], [0.0, 4.0]]))
            array([4., 3.])
            """,
            "A real array of shape ``(..., K)``, ``K = min(M, N)``, in descending order.",
            x=_MATRIX,
        ),
        "linalg.trace": _doc(
            "Sum one diagonal of a matrix or of each matrix in a stack.",
            """
            >>> a = xp.asarray([[1, 2], [3, 4]])
            >>> int(xp.linalg.trace(a))
            5
            >>> int(xp.linalg.trace(a, offset=1))
            2
            """,
            "An array of shape ``(...)``. Without ``dtype``, integer inputs narrower than the "
            "default integer dtype are widened to it.",
            x=_MATRIX,
        ),
        "linalg.vector_norm": _doc(
            "Compute a vector norm, over the whole array or along the given axes.",
            """
            >>> x = xp.asarray([3.0, -4.0])
            >>> float(xp.linalg.vector_norm(x))
            5.0
            >>> float(xp.linalg.vector_norm(x, ord=1)), float(xp.linalg.vector_norm(x, ord=xp.inf))
            (7.0, 4.0)
            """,
            "A real floating-point array of norms.",
            axis="Axis or axes over which to compute the norm; ``None`` (default) treats the "
            "whole array as one vector.",
            ord="Order of the norm: ``2`` (default, Euclidean), any other real ``p`` for the "
            "p-norm, ``inf`` (largest absolute value), ``-inf`` (smallest), ``0`` (number of "
            "non-zero elements).",
        ),
    }
)

_FFT_X = "Input array (converted to a complex result)."
_FFTN_AXES = "Axes to transform; ``None`` (default) transforms every axis (or the last ``len(s)``)."
_FFT_AXIS = "Axis to transform (default -1, the last axis)."

_ENTRIES.update(
    {
        "fft.fft": _doc(
            "Compute the one-dimensional discrete Fourier transform.",
            """
            >>> xp.fft.fft(xp.asarray([1.0, 1.0, 1.0, 1.0]))
            array([4.+0.j, 0.+0.j, 0.+0.j, 0.+0.j])
            """,
            "A complex array; ``axis`` has length ``n``.",
            axis=_FFT_AXIS,
        ),
        "fft.ifft": _doc(
            "Compute the one-dimensional inverse discrete Fourier transform.",
            """
            >>> x = xp.asarray([1.0, 2.0, 3.0, 4.0])
            >>> xp.real(xp.fft.ifft(xp.fft.fft(x)))
            array([1., 2., 3., 4.])
            """,
            "A complex array; ``axis`` has length ``n``.",
            axis=_FFT_AXIS,
        ),
        "fft.fftn": _doc(
            "Compute the n-dimensional discrete Fourier transform over the given axes.",
            """
            >>> xp.fft.fftn(xp.ones((2, 2)))
            array([[4.+0.j, 0.+0.j],
                   [0.+0.j, 0.+0.j]])
            """,
            "A complex array; each transformed axis has the length given by ``s``.",
            axes=_FFTN_AXES,
        ),
        "fft.ifftn": _doc(
            "Compute the n-dimensional inverse discrete Fourier transform over the given axes.",
            """
            >>> x = xp.asarray([[1.0, 2.0], [3.0, 4.0]])
            >>> xp.real(xp.fft.ifftn(xp.fft.fftn(x)))
            array([[1., 2.],
                   [3., 4.]])
            """,
            "A complex array; each transformed axis has the length given by ``s``.",
            axes=_FFTN_AXES,
        ),
        "fft.rfft": _doc(
            "Compute the one-dimensional Fourier transform of real input (non-negative frequencies only).",
            """
            >>> xp.fft.rfft(xp.asarray([1.0, 1.0, 1.0, 1.0]))
            array([4.+0.j, 0.+0.j, 0.+0.j])
            """,
            "A complex array whose ``axis`` has length ``n // 2 + 1``.",
            x="Real floating-point input array.",
            axis=_FFT_AXIS,
        ),
        "fft.irfft": _doc(
            "Invert ``rfft``: compute a real signal from its non-negative-frequency spectrum.",
            """
            >>> x = xp.asarray([1.0, 2.0, 3.0, 4.0])
            >>> xp.fft.irfft(xp.fft.rfft(x))
            array([1., 2., 3., 4.])
            """,
            "A real array whose ``axis`` has length ``n``.",
            x="Complex half-spectrum, as ``rfft`` returns it.",
            n="Length of the real output. ``None`` gives ``2 * (m - 1)`` for an input axis of "
            "length ``m``, which is right for even-length signals; pass ``n`` for odd ones.",
            axis=_FFT_AXIS,
        ),
        "fft.rfftn": _doc(
            "Compute the n-dimensional Fourier transform of real input, halving the last transformed axis.",
            """
            >>> xp.fft.rfftn(xp.ones((2, 2)))
            array([[4.+0.j, 0.+0.j],
                   [0.+0.j, 0.+0.j]])
            """,
            "A complex array; the last transformed axis has length ``s[-1] // 2 + 1``, the "
            "others ``s[i]``.",
            x="Real floating-point input array.",
            axes=_FFTN_AXES,
        ),
        "fft.irfftn": _doc(
            "Invert ``rfftn``: compute a real n-dimensional signal from its half spectrum.",
            """
            >>> x = xp.asarray([[1.0, 2.0], [3.0, 4.0]])
            >>> xp.fft.irfftn(xp.fft.rfftn(x))
            array([[1., 2.],
                   [3., 4.]])
            """,
            "A real array; transformed axes have the lengths in ``s`` (by default ``2 * (m - "
            "1)`` for the last one).",
            x="Complex half-spectrum, as ``rfftn`` returns it.",
            s="Lengths of the real output along ``axes``; pass it to recover odd lengths.",
            axes=_FFTN_AXES,
        ),
        "fft.hfft": _doc(
            "Compute the real spectrum of a signal with Hermitian symmetry, given its first half.",
            """
            >>> xp.fft.hfft(xp.asarray([1.0, 0.0, 0.0]), n=4)
            array([1., 1., 1., 1.])
            """,
            "A real array whose ``axis`` has length ``n``.",
            x="First half of a Hermitian-symmetric signal.",
            n="Length of the real output; ``None`` gives ``2 * (m - 1)``.",
            axis=_FFT_AXIS,
        ),
        "fft.ihfft": _doc(
            "Invert ``hfft``: compute the half of a Hermitian signal from its real spectrum.",
            """
            >>> xp.real(xp.fft.ihfft(xp.asarray([1.0, 1.0, 1.0, 1.0])))
            array([1., 0., 0.])
            """,
            "A complex array whose ``axis`` has length ``n // 2 + 1``.",
            x="Real floating-point input array.",
            axis=_FFT_AXIS,
        ),
        "fft.fftfreq": _doc(
            "Return the sample frequencies that match the output of ``fft`` for a window of length ``n``.",
            """
            >>> xp.fft.fftfreq(4)
            array([ 0.  ,  0.25, -0.5 , -0.25])
            >>> xp.fft.fftfreq(4, d=0.5)
            array([ 0. ,  0.5, -1. , -0.5])
            """,
            "A 1-D array of length ``n``: zero, the positive frequencies, then the negative "
            "ones, in cycles per unit of ``d``. Default floating-point dtype unless "
            "``dtype`` is given.",
            n="Window length (number of samples).",
        ),
        "fft.rfftfreq": _doc(
            "Return the non-negative sample frequencies matching ``rfft`` output for a window of length ``n``.",
            """
            >>> xp.fft.rfftfreq(4)
            array([0.  , 0.25, 0.5 ])
            """,
            "A 1-D array of length ``n // 2 + 1``, in cycles per unit of ``d``. Default "
            "floating-point dtype unless ``dtype`` is given.",
            n="Window length (number of samples).",
        ),
        "fft.fftshift": _doc(
            "Move the zero-frequency term to the centre of the spectrum.",
            """
            >>> xp.fft.fftshift(xp.fft.fftfreq(4))
            array([-0.5 , -0.25,  0.  ,  0.25])
            """,
            "An array with the shape and dtype of ``x``, rolled by half its length along "
            "each axis in ``axes``.",
            axes="Axis or axes to shift; ``None`` (default) shifts every axis.",
        ),
        "fft.ifftshift": _doc(
            "Undo ``fftshift``: move the zero-frequency term back to the start.",
            """
            >>> xp.fft.ifftshift(xp.asarray([-0.5, -0.25, 0.0, 0.25]))
            array([ 0.  ,  0.25, -0.5 , -0.25])
            """,
            "An array with the shape and dtype of ``x``.",
            axes="Axis or axes to shift; ``None`` (default) shifts every axis.",
        ),
    }
)

for _name in ("fft", "ifft", "fftn", "ifftn"):
    _params = _ENTRIES[f"fft.{_name}"].params
    assert _params is not None
    _params.setdefault("x", _FFT_X)


SUMMARIES: dict[str, str] = {name: doc.summary for name, doc in _ENTRIES.items()}
EXAMPLES: dict[str, str] = {name: doc.example for name, doc in _ENTRIES.items()}
PARAMETERS: dict[str, dict[str, str]] = {
    name: doc.params for name, doc in _ENTRIES.items() if doc.params
}
RETURNS: dict[str, str] = {name: doc.returns for name, doc in _ENTRIES.items() if doc.returns}

del _name, _params

#: One example of NumPy's call per function that the issue's idioms name (the generator
#: appends it to the function's Examples; the doctests run it).
NUMPY_EXAMPLES: dict[str, str] = {
    "sqrt": """
        >>> xp.sqrt(2.0)  # NumPy's call: a Python float in, a NumPy scalar out
        np.float64(1.4142135623730951)
        """,
    "exp": """
        >>> xp.exp(-0.5)  # NumPy's call
        np.float64(0.6065306597126334)
        """,
    "cos": """
        >>> xp.cos(0.0)  # NumPy's call
        np.float64(1.0)
        """,
    "sum": """
        >>> xp.sum([1, 2, 3])  # NumPy's call: a list
        np.int64(6)
        """,
    "mean": """
        >>> xp.mean(xp.asarray([[1.0, 2.0], [3.0, 5.0]]), 1)  # NumPy's call: axis by position
        array([1.5, 4. ])
        """,
    "std": """
        >>> xp.std([1.0, 2.0, 3.0, 4.0], ddof=1)  # NumPy's call: ddof=
        np.float64(1.2909944487358056)
        """,
    "round": """
        >>> xp.round(xp.asarray([1.04, 2.56]), 1)  # NumPy's call: decimals by position
        array([1. , 2.6])
        """,
    "where": """
        >>> xp.where(xp.asarray([1.0, 2.5, 4.0]) > 2)  # NumPy's call: one argument
        (array([1, 2]),)
        """,
    "squeeze": """
        >>> xp.squeeze(xp.zeros((1, 2, 1)))  # NumPy's call: without axis
        array([0., 0.])
        """,
    "diff": """
        >>> xp.diff(xp.asarray([1.0, 2.5, 4.0]), 2)  # NumPy's call: n by position
        array([0.])
        """,
    "sort": """
        >>> xp.sort(xp.asarray([2.5, 1.0]), kind="stable")  # NumPy's call: kind=
        array([1. , 2.5])
        """,
    "max": """
        >>> xp.max(xp.asarray([1.0, 2.5]), initial=10.0)  # NumPy's call: initial=
        np.float64(10.0)
        """,
    "linspace": """
        >>> xp.linspace(0, 1, 5, retstep=True)  # NumPy's call: retstep=
        (array([0.  , 0.25, 0.5 , 0.75, 1.  ]), np.float64(0.25))
        """,
    "clip": """
        >>> y = xp.asarray([1.0, 2.5, 4.0])
        >>> xp.clip(y, 0, 3, out=y)  # NumPy's call: out=
        array([1. , 2.5, 3. ])
        """,
    "add": """
        >>> import numpy as np
        >>> xp.add(xp.asarray([1.0, 2.5]), 1, dtype=np.float32)  # NumPy's call: dtype=
        array([2. , 3.5], dtype=float32)
        """,
    "maximum": """
        >>> xp.maximum([1, 5], 3)  # NumPy's call: a list
        array([3, 5])
        """,
    "zeros": """
        >>> xp.zeros(3, dtype=object)  # NumPy's call: a dtype outside the standard's
        array([0, 0, 0], dtype=object)
        """,
    "asarray": """
        >>> import numpy as np
        >>> xp.asarray([1, 2], dtype=np.float16)  # NumPy's call: float16
        array([1., 2.], dtype=float16)
        """,
    "ones_like": """
        >>> xp.ones_like([1.0, 2.0])  # NumPy's call: a list
        array([1., 1.])
        """,
    "triu": """
        >>> xp.triu(xp.asarray([[1.0, 2.0], [3.0, 5.0]]), 1)  # NumPy's call: k by position
        array([[0., 2.],
               [0., 0.]])
        """,
    "flip": """
        >>> xp.flip(xp.asarray([[1, 2], [3, 5]]), 0)  # NumPy's call: axis by position
        array([[3, 5],
               [1, 2]])
        """,
    "matmul": """
        >>> xp.matmul([[1, 2], [3, 4]], [1, 1])  # NumPy's call: lists
        array([3, 7])
        """,
}


NUMPY_UFUNC_KEYWORDS: dict[str, tuple[str, str]] = {
    "out": (
        "ndarray, None, or tuple of ndarray and None",
        "Array(s) in which to place the result, of the shape the inputs broadcast to.",
    ),
    "where": (
        "array_like",
        "Where True, ``out`` takes the result; elsewhere it keeps its value.",
    ),
    "casting": (
        "{'no', 'equiv', 'safe', 'same_kind', 'unsafe'}",
        "Which casts of the inputs and outputs NumPy allows.",
    ),
    "order": (
        "{'K', 'C', 'F', 'A'}",
        "Memory layout of the result.",
    ),
    "dtype": (
        "data-type",
        "Data type of the computation and the result.",
    ),
    "subok": (
        "bool",
        "If False, the result is a base-class ndarray, not a subclass of the inputs'.",
    ),
    "signature": (
        "tuple of data-types or str",
        "The loop to use, by its input and output dtypes.",
    ),
    "axes": (
        "list of tuples of ints",
        "The axes each operand and the result take the core dimensions from.",
    ),
    "axis": (
        "int",
        "The axis the core dimension is taken from, in each operand and the result.",
    ),
    "keepdims": (
        "bool",
        "If True, the reduced core dimensions stay in the result as size-one axes.",
    ),
}
