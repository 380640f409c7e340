"""``CudaStruct``: a C struct defined once, its declaration and its packing; headers of structs."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..cuda._checks import Checker, checker
from ..cuda._signature import CudaParameter, parse_parameter, strip_comments, view_dtype
from ._annotations import fields_of, make_contiguous

__all__ = ["CudaStruct", "CudaStructValue", "write_cuda_header"]

_VIEW_INCLUDE = "#include <cunumpy/array_view.cuh>"


class CudaStruct:
    """A C struct passed to CUDA kernels by value: its C declaration and its packing.

    Calling the struct packs field values, given by name, into a
    :class:`CudaStructValue` with the C layout: pointers as device addresses, array
    views as pointer, shape and strides. A :class:`~cunumpy.kernels.CudaKernel` created
    with ``structs=[...]`` takes such values for parameters of this type, and checks
    that a definition of the struct in its source has the same fields.

    Parameters
    ----------
    name : str
        The struct's C name.
    fields : sequence of (str, str)
        ``(field name, C type)`` pairs in order: scalars (``"double"``), pointers
        (``"double*"``), array views (``"Array2D<double>"``, ``"CArray1D<int>"``).

    Raises
    ------
    ValueError
        If ``name`` is no C identifier, a type is not supported or a name repeats.

    Examples
    --------
    >>> from cunumpy import arguments
    >>> Vec = arguments.CudaStruct("Vec", [("data", "double*"), ("n", "int")])
    >>> print(Vec.declaration, end="")
    struct Vec {
        double* data;
        int n;
    };
    >>> Vec.dtype.itemsize  # an 8-byte pointer, a 4-byte int, padded to 8
    16
    """

    def __init__(self, name: str, fields: Sequence[tuple[str, str]]) -> None:
        if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z_]\w*", name):
            msg = f"CudaStruct: `name` must be a C identifier, not {name!r}."
            raise ValueError(msg)
        where = f"CudaStruct {name}"
        parsed = tuple(parse_parameter(f"{ctype} {field}", {}, where) for field, ctype in fields)
        names = [f.name for f in parsed]
        if len(set(names)) != len(names):
            msg = f"{where}: the field names {names} repeat; each field needs its own name."
            raise ValueError(msg)
        self._name = name
        self._fields = parsed
        self._dtype = np.dtype([(f.name, _stored(f)) for f in parsed], align=True)
        self._checkers: dict[str, Checker] = {
            f.name: checker(f, i, f"struct {name}") for i, f in enumerate(parsed)
        }

    @classmethod
    def from_signature(
        cls,
        func: Callable[..., Any],
        name: str,
        *,
        int_type: str = "long long",
        scalar_names: Mapping[str, str] | None = None,
        contiguous: bool | Iterable[str] = False,
    ) -> CudaStruct:
        """The struct of the annotated parameters of ``func`` (``self`` left out), in order.

        Pyccel-style annotations map to C: ``float`` -> ``double``, ``int`` ->
        ``int_type``, ``bool`` -> ``bool``, ``"float[:, :]"`` -> ``Array2D<double>``
        (``Final[...]`` and ``const`` are ignored); NumPy scalar types work too.
        Typically ``func`` is the ``__init__`` of the host kernel's argument class, so
        that one Python class defines the arguments on both sides.

        Parameters
        ----------
        func : callable
            The annotated function.
        name : str
            The struct's C name.
        int_type : str, default "long long"
            The C type of ``int`` (Pyccel's integers have 64 bits).
        scalar_names : mapping of str to str, optional
            Other or changed scalar mappings, e.g. ``{"float": "float"}``.
        contiguous : bool or iterable of str, default False
            Array fields that become C-contiguous ``CArrayND<T>`` views: True for all,
            or their names.

        Returns
        -------
        CudaStruct
            The struct.

        Raises
        ------
        ValueError
            If a parameter has no annotation or one without a C type.

        Examples
        --------
        >>> from cunumpy import arguments
        >>> class MarkerArguments:
        ...     def __init__(self, markers: "float[:, :]", n_markers: int): ...
        >>> MarkerArgs = arguments.CudaStruct.from_signature(MarkerArguments.__init__, "MarkerArgs")
        >>> print(MarkerArgs.declaration, end="")
        struct MarkerArgs {
            Array2D<double> markers;
            long long n_markers;
        };
        """
        fields = make_contiguous(fields_of(func, int_type, scalar_names), contiguous)
        return cls(name, fields)

    def __repr__(self) -> str:
        return f"CudaStruct({self._name!r}, {len(self._fields)} fields)"

    @property
    def name(self) -> str:
        """The struct's C name."""
        return self._name

    @property
    def fields(self) -> tuple[CudaParameter, ...]:
        """The fields as :class:`~cunumpy.cuda.CudaParameter`, in order."""
        return self._fields

    @property
    def dtype(self) -> np.dtype[Any]:
        """The structured dtype with the C struct's memory layout."""
        return self._dtype

    @property
    def has_views(self) -> bool:
        """Whether a field is an array view (the header needs ``cunumpy/array_view.cuh``)."""
        return any(f.view_ndim is not None for f in self._fields)

    @property
    def declaration(self) -> str:
        """The C definition of the struct."""
        lines = "".join(
            f"    {f.ctype}{'*' if f.pointer else ''} {f.name};\n" for f in self._fields
        )
        return f"struct {self._name} {{\n{lines}}};\n"

    def to_header(
        self,
        path: str | Path | None = None,
        *,
        guard: str | None = None,
        includes: Iterable[str] = (),
    ) -> str:
        """The struct's definition as a header with an include guard; written to ``path`` if given.

        Commit the header next to the kernels and let a test compare it with a fresh
        ``to_header()``, so that the Python definition stays the only one.

        Parameters
        ----------
        path : str or Path, optional
            Also write the header to this file.
        guard : str, optional
            The include guard; ``<NAME>_CUH`` by default.
        includes : iterable of str, optional
            More headers, as file names or ``#include`` lines.

        Returns
        -------
        str
            The header.

        Examples
        --------
        >>> from cunumpy import arguments
        >>> Params = arguments.CudaStruct("Params", [("dt", "double")])
        >>> print(Params.to_header(), end="")
        // Generated from cunumpy.arguments.CudaStruct: edit the Python definition instead.
        #ifndef PARAMS_CUH
        #define PARAMS_CUH
        <BLANKLINE>
        struct Params {
            double dt;
        };
        <BLANKLINE>
        #endif  // PARAMS_CUH
        """
        text = header_source((self,), guard or _guard(f"{self._name}_cuh"), includes)
        if path is not None:
            Path(path).write_text(text)
        return text

    def check_source(self, source: str) -> None:
        """Check a definition of this struct in ``source`` against the fields (none: nothing to check).

        Parameters
        ----------
        source : str
            CUDA C source.

        Raises
        ------
        ValueError
            If the source's definition has other fields, types or order.
        """
        match = re.search(
            rf"struct\s+{re.escape(self._name)}\s*\{{([^{{}}]*)\}}", strip_comments(source)
        )
        if match is None:
            return
        where = f"CudaStruct {self._name}"
        members = [m for m in match.group(1).split(";") if m.strip()]
        found = [parse_parameter(m, {}, where)[:4] for m in members]
        expected = [f[:4] for f in self._fields]
        if found != expected:
            msg = (
                f"{where}: the source defines the fields {_listed(found)}, but the "
                f"CudaStruct has {_listed(expected)}; regenerate the header (to_header)."
            )
            raise ValueError(msg)

    def __call__(self, **values: Any) -> CudaStructValue:
        """Pack field values, by name, into a :class:`CudaStructValue`.

        Pointer fields take C-contiguous CuPy arrays of the field's dtype, view fields
        CuPy arrays of its dtype and dimensions (strided for ``ArrayND``), scalars are
        cast like kernel arguments. Nothing is copied.

        Raises
        ------
        TypeError
            If a field is missing or unknown, or a value does not fit its field.
        OverflowError
            If an integer is out of its field's range.
        """
        missing = [f.name for f in self._fields if f.name not in values]
        unknown = [k for k in values if k not in self._checkers]
        if missing or unknown:
            msg = (
                f"struct {self._name}: every field needs a value; missing {missing}, "
                f"unknown {unknown}."
            )
            raise TypeError(msg)
        packed = np.zeros((), dtype=self._dtype)
        for field in self._fields:
            value = self._checkers[field.name](values[field.name])
            packed[field.name] = value.data.ptr if field.pointer else value
        return CudaStructValue(self, packed[()], values)  # type: ignore[arg-type]


class CudaStructValue:
    """A packed value of a :class:`CudaStruct`, passed to a kernel as one argument.

    It keeps the arrays it points to alive, flattens into the packed struct through
    ``__cuda_args__()``, and gives the field values as ``value["name"]``.

    Parameters
    ----------
    struct : CudaStruct
        The struct type.
    packed : numpy.void
        The packed bytes, with the C layout.
    values : dict
        The field values by name.

    Examples
    --------
    >>> from cunumpy import arguments
    >>> Params = arguments.CudaStruct("Params", [("dt", "double"), ("n", "int")])
    >>> value = Params(dt=0.1, n=10)
    >>> value["n"], value.packed["n"]
    (10, np.int32(10))
    """

    def __init__(self, struct: CudaStruct, packed: np.void, values: Mapping[str, Any]) -> None:
        self._struct = struct
        self._packed = packed
        self._values = dict(values)

    def __repr__(self) -> str:
        return f"<value of struct {self._struct.name}>"

    @property
    def struct(self) -> CudaStruct:
        """The struct type."""
        return self._struct

    @property
    def packed(self) -> np.void:
        """The packed bytes, with the C struct's layout."""
        return self._packed

    def __getitem__(self, field: str) -> Any:
        return self._values[field]

    def __cuda_args__(self) -> tuple[np.void]:
        """The one kernel argument this value stands for: the packed struct."""
        return (self._packed,)


def _stored(field: CudaParameter) -> Any:
    if field.pointer:
        return np.uint64
    if field.view_ndim is not None:
        return view_dtype(field.view_ndim, field.contiguous)
    return field.dtype


def _listed(fields: Sequence[tuple[Any, ...]]) -> str:
    return "[" + ", ".join(f"{f[1]}{'*' if f[3] else ''} {f[0]}" for f in fields) + "]"


def _guard(name: str) -> str:
    guard = re.sub(r"\W", "_", name).upper().strip("_")
    return guard if re.match(r"[A-Z_]", guard) else f"_{guard}"


def header_source(structs: Sequence[CudaStruct], guard: str, includes: Iterable[str]) -> str:
    """A header defining ``structs``, with guard and includes."""
    lines = list(includes)
    if any(s.has_views for s in structs):
        lines.insert(0, _VIEW_INCLUDE)
    lines = [i if i.lstrip().startswith("#include") else f'#include "{i}"' for i in lines]
    parts = [
        "// Generated from cunumpy.arguments.CudaStruct: edit the Python definition instead.",
        f"#ifndef {guard}",
        f"#define {guard}",
        "",
        *([*lines, ""] if lines else []),
        *(s.declaration for s in structs),
        f"#endif  // {guard}",
        "",
    ]
    return "\n".join(parts)


def write_cuda_header(
    path: str | Path,
    structs: Iterable[CudaStruct],
    guard: str | None = None,
    *,
    includes: Iterable[str] = (),
) -> str:
    """Write the definitions of several structs to one header file.

    Parameters
    ----------
    path : str or Path
        The file to write.
    structs : iterable of CudaStruct
        The structs, in order.
    guard : str, optional
        The include guard; from the file name by default (``args.cuh`` -> ``ARGS_CUH``).
    includes : iterable of str, optional
        More headers, as file names or ``#include`` lines
        (``cunumpy/array_view.cuh`` comes first when a struct has views).

    Returns
    -------
    str
        The header written.

    Examples
    --------
    >>> import os, tempfile
    >>> from cunumpy import arguments
    >>> Vec = arguments.CudaStruct("Vec", [("data", "double*"), ("n", "int")])
    >>> path = os.path.join(tempfile.mkdtemp(), "vec.cuh")
    >>> print(arguments.write_cuda_header(path, [Vec]), end="")
    // Generated from cunumpy.arguments.CudaStruct: edit the Python definition instead.
    #ifndef VEC_CUH
    #define VEC_CUH
    <BLANKLINE>
    struct Vec {
        double* data;
        int n;
    };
    <BLANKLINE>
    #endif  // VEC_CUH
    """
    path = Path(path)
    text = header_source(tuple(structs), guard or _guard(path.name), includes)
    path.write_text(text)
    return text
