"""``CudaStruct``: a C struct defined once, its declaration and its packing, and its packed
values (``CudaStructValue``, one kernel argument each); headers of structs."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..cuda._checks import Checker, checker
from ..cuda._signature import CudaParameter, parse_parameter, strip_comments
from ._annotations import fields_of, make_contiguous
from ._headers import guard_of, header_source
from ._layout import layout_source, stored_dtype, verify_layout
from ._pyccel_source import pyccel_class_fields

__all__ = ["CudaStruct", "CudaStructValue"]


class CudaStruct:
    """A C struct passed to CUDA kernels by value: its C declaration and its packing.

    Its ``dtype`` is the structured NumPy data type with the struct's C layout. Calling the
    struct packs field values, given by name, into a
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
        self._dtype = np.dtype([(f.name, stored_dtype(f)) for f in parsed], align=True)
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

    @classmethod
    def from_pyccel_class(
        cls,
        source: str | Path,
        class_name: str,
        name: str | None = None,
        *,
        int_type: str = "long long",
        scalar_names: Mapping[str, str] | None = None,
        exclude: Sequence[str] = (),
        attribute_names: bool = True,
        contiguous: bool | Iterable[str] = False,
    ) -> CudaStruct:
        """The struct of the ``__init__`` of a class in a Python source that Pyccel compiles.

        Like :meth:`from_signature`, for a class whose compiled ``__init__`` has no Python
        signature: the source is parsed (never imported or run). A parameter stored as
        ``self.<attribute> = <parameter>`` gives a field named after the attribute.

        Parameters
        ----------
        source : str or Path
            The ``.py`` file, or the source itself (text with a newline).
        class_name : str
            The class in the source.
        name : str, optional
            The struct's C name; ``class_name`` by default.
        int_type, scalar_names, contiguous
            As for :meth:`from_signature` (``contiguous`` names fields).
        exclude : sequence of str, optional
            Parameters or attributes that are no fields (scratch arrays of the host).
        attribute_names : bool, default True
            Name fields after the attributes (else the parameters).

        Returns
        -------
        CudaStruct
            The struct.

        Raises
        ------
        ValueError
            If the class or its ``__init__`` is missing, or an annotation has no C type.

        Examples
        --------
        >>> from cunumpy import arguments
        >>> source = '''
        ... class MarkerArguments:
        ...     def __init__(self, markers: 'float[:, :]', n: 'int'):
        ...         self.markers = markers
        ...         self.n_markers = n
        ... '''
        >>> MarkerArgs = arguments.CudaStruct.from_pyccel_class(source, "MarkerArguments")
        >>> [(f.name, f.ctype) for f in MarkerArgs.fields]
        [('markers', 'Array2D<double>'), ('n_markers', 'long long')]
        """
        fields = pyccel_class_fields(
            source, class_name, int_type=int_type, scalar_names=scalar_names,
            exclude=exclude, attribute_names=attribute_names,
        )  # fmt: skip
        return cls(class_name if name is None else name, make_contiguous(fields, contiguous))

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
    def dtype(self) -> np.dtype[Any]:  # in the class docstring: see CudaParameter's note
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
        // Generated by cunumpy.arguments.CudaStruct from the Python definition; do not edit.
        #ifndef PARAMS_CUH
        #define PARAMS_CUH
        <BLANKLINE>
        struct Params {
            double dt;
        };
        <BLANKLINE>
        #endif  // PARAMS_CUH
        """
        text = header_source((self,), guard or guard_of(f"{self._name}_cuh"), includes)
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

    def layout_source(self, include: str | None = None) -> str:
        """The CUDA source of the kernel :meth:`verify_layout` runs.

        ``cunumpy_layout_<name>(unsigned long long* out)`` writes the struct's size,
        alignment and the offset of each field, as the compiler lays it out.

        Parameters
        ----------
        include : str, optional
            A header defining the struct (file name or ``#include`` line); by default
            :attr:`declaration`.

        Returns
        -------
        str
            The source.

        Examples
        --------
        >>> from cunumpy import arguments
        >>> print(arguments.CudaStruct("P", [("dt", "double")]).layout_source().splitlines()[-2])
            out[2] = (unsigned long long)((const char*)&s.dt - (const char*)&s);
        """
        return layout_source(self, include)

    def verify_layout(
        self,
        include: str | None = None,
        *,
        include_dirs: Sequence[str | Path] = (),
        options: Sequence[str] = (),
    ) -> dict[str, int]:
        """Check the CUDA compiler's layout of the struct against :attr:`dtype`, on the GPU.

        Runs :meth:`layout_source` in one thread and compares size, alignment and every
        offset with the packing; run it in a GPU test for a hand-written header or a new
        compiler or platform.

        Parameters
        ----------
        include : str, optional
            A header defining the struct, found in ``include_dirs``; by default
            :attr:`declaration`.
        include_dirs : sequence of str or Path, optional
            Directories for ``include``.
        options : sequence of str, optional
            More compiler options.

        Returns
        -------
        dict of str to int
            ``"sizeof"``, ``"alignof"`` and each field's offset.

        Raises
        ------
        ValueError
            If the compiled layout differs (each difference is listed).
        RuntimeError
            Without a usable GPU.
        """
        return verify_layout(self, include, include_dirs, options)

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


def _listed(fields: Sequence[tuple[Any, ...]]) -> str:
    return "[" + ", ".join(f"{f[1]}{'*' if f[3] else ''} {f[0]}" for f in fields) + "]"


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

    def __init__(self, struct: Any, packed: np.void, values: Mapping[str, Any]) -> None:
        self._struct = struct
        self._packed = packed
        self._values = dict(values)

    def __repr__(self) -> str:
        return f"<value of struct {self._struct.name}>"

    @property
    def struct(self) -> Any:
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
