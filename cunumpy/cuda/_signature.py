"""Reading CUDA C sources: kernel names, parsed ``__global__`` signatures, C types of dtypes.

Pure text processing with NumPy dtypes: nothing here imports CuPy or needs a GPU. C types
map to dtypes as on Linux (LP64), the platform CUDA runs on: ``long`` is 64 bits.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

import numpy as np

__all__ = [
    "CudaParameter",
    "ctype_of",
    "cuda_kernel_names",
    "parse_cuda_signature",
    "parse_parameter",
    "strip_comments",
    "template_arg",
    "view_dtype",
]


class CudaParameter(NamedTuple):
    """One parameter of a CUDA kernel's signature, or one field of a C struct.

    A named tuple of, in order:

    - ``name`` (str): the parameter's name;
    - ``ctype`` (str): its C type without qualifiers and without ``*``: ``"double"``,
      ``"Array2D<double>"``, a struct's name;
    - ``dtype`` (NumPy data type or None): the data type of the value, of the elements
      pointed to or viewed, or the struct's structured data type; None for ``void*``;
    - ``pointer`` (bool): whether it is a pointer (it takes a device array);
    - ``struct`` (CudaStruct or None): the struct type of a struct passed by value;
    - ``view_ndim`` (int or None): the dimensions of an array view (``Array1D<T>`` to
      ``Array16D<T>``, ``CArray1D<T>`` to ``CArray16D<T>``);
    - ``contiguous`` (bool): whether the view is a C-contiguous ``CArrayND<T>``.

    Examples
    --------
    >>> from cunumpy import cuda
    >>> x, n = cuda.parse_cuda_signature(
    ...     'extern "C" __global__ void f(const double* x, int n) {}', "f")
    >>> x.ctype, x.dtype, x.pointer, n.dtype
    ('double', dtype('float64'), True, dtype('int32'))
    """

    name: str
    ctype: str
    dtype: np.dtype[Any] | None
    pointer: bool
    struct: Any = None
    view_ndim: int | None = None
    contiguous: bool = False


# The fields are described in the class docstring. Without docstrings of their own they
# are no separate entries of the API reference, where a ``dtype`` entry would make the
# generic parameter type "dtype" of every other docstring an ambiguous cross-reference.
for _field in CudaParameter._fields:
    getattr(CudaParameter, _field).__doc__ = ""


_INT = {
    "int8_t": np.int8, "int16_t": np.int16, "int32_t": np.int32, "int64_t": np.int64,
    "uint8_t": np.uint8, "uint16_t": np.uint16, "uint32_t": np.uint32, "uint64_t": np.uint64,
    "size_t": np.uint64, "ssize_t": np.int64, "ptrdiff_t": np.int64,
}  # fmt: skip

# The C types a parameter may have (after qualifiers are dropped), and their dtypes.
CTYPES: dict[str, Any] = {
    "bool": np.bool_,
    "char": np.int8, "signed char": np.int8, "unsigned char": np.uint8,
    "short": np.int16, "short int": np.int16, "signed short": np.int16,
    "unsigned short": np.uint16, "unsigned short int": np.uint16,
    "int": np.int32, "signed": np.int32, "signed int": np.int32,
    "unsigned": np.uint32, "unsigned int": np.uint32,
    "long": np.int64, "long int": np.int64, "long long": np.int64, "long long int": np.int64,
    "signed long": np.int64, "signed long long": np.int64,
    "unsigned long": np.uint64, "unsigned long int": np.uint64,
    "unsigned long long": np.uint64, "unsigned long long int": np.uint64,
    "float": np.float32, "double": np.float64,
    "complex<float>": np.complex64, "complex<double>": np.complex128,
    **_INT,
}  # fmt: skip

# The C type generated for each dtype (ctype_of): one spelling per dtype.
_CTYPE_OF = {
    np.dtype(np.bool_): "bool",
    np.dtype(np.int8): "signed char",
    np.dtype(np.uint8): "unsigned char",
    np.dtype(np.int16): "short",
    np.dtype(np.uint16): "unsigned short",
    np.dtype(np.int32): "int",
    np.dtype(np.uint32): "unsigned int",
    np.dtype(np.int64): "long long",
    np.dtype(np.uint64): "unsigned long long",
    np.dtype(np.float32): "float",
    np.dtype(np.float64): "double",
    np.dtype(np.complex64): "complex<float>",
    np.dtype(np.complex128): "complex<double>",
}

_QUALIFIERS = frozenset(("const", "volatile", "__restrict__", "__restrict", "restrict"))
_VIEW = re.compile(r"(C?)Array([1-9]|1[0-6])D\s*<\s*([^<>]+?)\s*>")
_COMPLEX = re.compile(r"(?:(?:thrust|cuda::std)::)?complex\s*<\s*(float|double)\s*>")
_KERNEL = re.compile(r"__global__\s+void\s+([A-Za-z_]\w*)\s*\(")


def strip_comments(source: str) -> str:
    """``source`` with its ``/* */`` and ``//`` comments replaced by spaces."""
    source = re.sub(r"/\*.*?\*/", " ", source, flags=re.DOTALL)
    return re.sub(r"//[^\n]*", " ", source)


def ctype_of(dtype: Any) -> str:
    """The C type of a NumPy dtype, to generate CUDA source or template arguments.

    Parameters
    ----------
    dtype : dtype-like
        A boolean, integer, floating-point or complex dtype.

    Returns
    -------
    str
        The C type, e.g. ``"double"`` or ``"long long"`` (complex dtypes give
        ``complex<float>``/``complex<double>``: include ``<cupy/complex.cuh>``).

    Raises
    ------
    ValueError
        If the dtype has no C type (strings, objects, datetimes, ...).

    Examples
    --------
    >>> import numpy as np
    >>> from cunumpy import cuda
    >>> cuda.ctype_of(np.float64), cuda.ctype_of(np.int64)
    ('double', 'long long')
    """
    try:
        return _CTYPE_OF[np.dtype(dtype)]
    except (KeyError, TypeError):
        known = ", ".join(str(d) for d in _CTYPE_OF)
        msg = f"ctype_of: the dtype {dtype!r} has no C type; expected one of {known}."
        raise ValueError(msg) from None


def view_dtype(ndim: int, contiguous: bool) -> np.dtype[Any]:
    """The structured dtype of ``ArrayND<T>`` (pointer, shape, strides) or ``CArrayND<T>``."""
    fields: list[tuple[Any, ...]] = [("data", np.uint64), ("shape", np.int64, (ndim,))]
    if not contiguous:
        fields.append(("strides", np.int64, (ndim,)))
    return np.dtype(fields, align=True)


def cuda_kernel_names(source: str) -> list[str]:
    """The names of the ``__global__`` functions of a CUDA source, in order.

    Comments are ignored; a kernel declared more than once is listed once.

    Parameters
    ----------
    source : str
        CUDA C source.

    Returns
    -------
    list of str
        The kernel names, in order of first appearance.

    Examples
    --------
    >>> from cunumpy import cuda
    >>> cuda.cuda_kernel_names('''
    ... extern "C" __global__ void scale(double* x) {}
    ... // __global__ void old(double* x) {}
    ... extern "C" __global__ void shift(double* x) {}''')
    ['scale', 'shift']
    """
    return list(dict.fromkeys(_KERNEL.findall(strip_comments(source))))


def template_arg(value: Any) -> str:
    """A template argument as C++: a str as it is, bools and ints as literals, dtypes as C types."""
    if isinstance(value, str):
        return value
    if isinstance(value, (bool, np.bool_)):
        return "true" if value else "false"
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    return ctype_of(value)


def _split(text: str) -> list[str]:
    """``text`` split at the commas outside ``<...>`` and ``(...)``."""
    parts, depth, start = [], 0, 0
    for pos, char in enumerate(text):
        if char in "<(":
            depth += 1
        elif char in ">)":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(text[start:pos])
            start = pos + 1
    parts.append(text[start:])
    return parts


def parse_parameter(text: str, structs: dict[str, Any], where: str) -> CudaParameter:
    """One declaration ``"const double* x"`` as a :class:`CudaParameter`."""
    text = _COMPLEX.sub(lambda m: f"complex<{m.group(1)}>", " ".join(text.split()))
    pointers = text.count("*") + text.count("[")
    words = re.sub(r"\[[^\]]*\]|\*|&", " ", text).split()
    view = _VIEW.search(text)
    if view is not None:
        element = " ".join(w for w in view.group(3).split() if w not in _QUALIFIERS)
        after = text[view.end() :].replace("*", " ").split()
        if pointers or element not in CTYPES or len(after) != 1:
            msg = (
                f"{where}: the parameter {text!r} cannot be checked; an array view is "
                "passed by value and views a scalar type, e.g. `Array2D<double> a`."
            )
            raise ValueError(msg)
        ndim, contiguous = int(view.group(2)), bool(view.group(1))
        ctype = f"{'C' if contiguous else ''}Array{ndim}D<{element}>"
        dtype = np.dtype(CTYPES[element])
        return CudaParameter(after[0], ctype, dtype, False, None, ndim, contiguous)
    words = [w for w in words if w not in _QUALIFIERS]
    if words[:1] == ["struct"]:
        words = words[1:]
    if len(words) < 2:
        msg = f"{where}: cannot read the parameter {text!r}; expected `<C type> <name>`."
        raise ValueError(msg)
    name, ctype = words[-1], " ".join(words[:-1])
    if ctype in structs:
        if pointers:
            msg = f"{where}: the struct parameter {text!r} must be passed by value."
            raise ValueError(msg)
        struct = structs[ctype]
        return CudaParameter(name, ctype, struct.dtype, False, struct)
    if ctype == "void" and pointers == 1:
        return CudaParameter(name, ctype, None, True)
    if pointers > 1 or ctype not in CTYPES:
        msg = (
            f"{where}: the parameter {text!r} has the type {ctype + '*' * pointers!r}, "
            "which cannot be checked; expected a scalar C type, a pointer to one, an "
            "ArrayND<T>/CArrayND<T> view or a struct given in `structs`."
        )
        raise ValueError(msg)
    return CudaParameter(name, ctype, np.dtype(CTYPES[ctype]), pointers == 1)


def _parameter_text(code: str, name: str) -> tuple[str, str | None]:
    """The text between the parentheses of kernel ``name``, and its template header."""
    pattern = r"(?:template\s*<(?P<template>[^{};]*?)>\s*)?(?:extern\s*\"C\"\s*)?"
    match = re.search(pattern + r"__global__\s+void\s+" + re.escape(name) + r"\s*\(", code)
    if match is None:
        found = cuda_kernel_names(code)
        msg = (
            f"parse_cuda_signature: no __global__ function {name!r} in the source; "
            f"it defines {found}."
        )
        raise ValueError(msg)
    depth = 1
    for pos in range(match.end(), len(code)):
        depth += {"(": 1, ")": -1}.get(code[pos], 0)
        if depth == 0:
            return code[match.end() : pos].strip(), match.group("template")
    msg = f"parse_cuda_signature: the parameter list of {name!r} is not closed."
    raise ValueError(msg)


def parse_cuda_signature(
    source: str,
    name: str,
    *,
    structs: Iterable[Any] = (),
    template_args: Sequence[Any] | None = None,
) -> tuple[CudaParameter, ...]:
    """The parameters of the ``__global__`` function ``name`` of a CUDA source.

    Parameters
    ----------
    source : str
        CUDA C source.
    name : str
        The kernel's name.
    structs : iterable of CudaStruct, optional
        Struct types that parameters may have (passed by value). A definition of the
        struct in ``source`` must have the same fields.
    template_args : sequence, optional
        The template arguments when ``name`` is a function template: dtypes or C types
        for type parameters (see :func:`ctype_of`), ints or bools for the others.

    Returns
    -------
    tuple of CudaParameter
        The parameters, in order.

    Raises
    ------
    ValueError
        If there is no such kernel, ``template_args`` do not fit, a struct's definition
        differs from its :class:`~cunumpy.arguments.CudaStruct`, or a parameter's type
        cannot be checked (a macro, ``double**``).

    Examples
    --------
    >>> import numpy as np
    >>> from cunumpy import cuda
    >>> source = '''
    ... template <typename T>
    ... __global__ void scale(T* x, T factor, int n) {}'''
    >>> [(p.name, p.ctype, p.pointer) for p in cuda.parse_cuda_signature(
    ...     source, "scale", template_args=[np.float32])]
    [('x', 'float', True), ('factor', 'float', False), ('n', 'int', False)]
    """
    code = strip_comments(source)
    known = {s.name: s for s in structs}
    for struct in known.values():
        struct.check_source(code)
    params, template = _parameter_text(code, name)
    where = f"parse_cuda_signature({name!r})"
    if template is not None:
        declared = [p.split() for p in _split(template) if p.strip()]
        if template_args is None or len(template_args) != len(declared):
            msg = (
                f"{where}: the kernel is a template with {len(declared)} parameter(s) "
                f"({template.strip()}); pass as many `template_args`, not {template_args!r}."
            )
            raise ValueError(msg)
        for words, value in zip(declared, template_args):
            if words[0] in ("typename", "class"):
                pattern = r"\b" + re.escape(words[-1]) + r"\b"
                params = re.sub(pattern, template_arg(value), params)
    elif template_args:
        msg = (
            f"{where}: the kernel is no template, but `template_args` {template_args!r} were given."
        )
        raise ValueError(msg)
    if params in ("", "void"):
        return ()
    return tuple(parse_parameter(p, known, where) for p in _split(params))
