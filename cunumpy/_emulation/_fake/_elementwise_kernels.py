"""The fake CuPy's ``ElementwiseKernel`` and ``ReductionKernel``: CuPy's C snippets run on
the CPU emulator of CUDA C.

Each call writes the snippets into one CUDA C kernel for the argument types of the call
(type placeholders such as ``T`` bound from the arrays, as CuPy binds them) and runs it
on the emulator, one thread looping over the elements: non-raw arrays are broadcast,
outputs allocated when not given, ``raw`` arrays passed as flat pointers, ``i`` and
``_ind.size()`` are the element index and count. Emulated, never a GPU check.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from .._emulator import build, pack_arguments
from . import _pool
from ._ndarray import ndarray

__all__ = ["ElementwiseKernel", "ReductionKernel"]

_C_TYPES = {
    "b": "bool", "i1": "signed char", "i2": "short", "i4": "int", "i8": "long long",
    "u1": "unsigned char", "u2": "unsigned short", "u4": "unsigned int",
    "u8": "unsigned long long", "f4": "float", "f8": "double",
}  # fmt: skip
_PYTHON = {bool: np.dtype(np.bool_), int: np.dtype(np.int64), float: np.dtype(np.float64)}


class Param(NamedTuple):
    """One parameter of an ``in_params``/``out_params`` list."""

    name: str
    dtype: np.dtype[Any] | None  # None: a type placeholder
    placeholder: str
    raw: bool


def parse_params(text: str, what: str) -> list[Param]:
    """CuPy's ``"T x, raw float64 y"`` as parameters."""
    params = []
    for item in (p.strip() for p in text.split(",")):
        if not item:
            continue
        words = item.split()
        raw = words[0] == "raw"
        words = words[1:] if raw else words
        if len(words) != 2 or not words[1].isidentifier():
            msg = f"{what}: cannot parse the parameter {item!r} (expected 'type name' or 'raw type name')."
            raise ValueError(msg)
        type_name, name = words
        dtype = None  # as CuPy: a one-letter type is a placeholder, else a NumPy dtype's name
        if len(type_name) > 1:
            try:
                dtype = np.dtype(type_name)
            except TypeError:
                dtype = None
            if dtype is None or dtype.name != type_name:
                msg = f"{what}: Wrong type {type_name} (a NumPy dtype's name such as float64, or a one-letter type placeholder)."
                raise ValueError(msg)
        params.append(Param(name, dtype, type_name, raw))
    return params


def c_type(dtype: np.dtype[Any], what: str) -> str:
    """The C type of ``dtype`` in the emulation."""
    key = "b" if dtype.kind == "b" else f"{dtype.kind}{dtype.itemsize}"
    if key not in _C_TYPES:
        msg = f"{what}: the dtype {dtype} cannot run on the fake CuPy's emulation (only bool, integers, float32 and float64); test it on a GPU."
        raise NotImplementedError(msg)
    return _C_TYPES[key]


def _dtype_of(value: Any) -> np.dtype[Any]:
    if type(value) is ndarray:
        return value.dtype
    if isinstance(value, np.generic):
        return value.dtype
    if type(value) in _PYTHON:
        return _PYTHON[type(value)]
    msg = f"the fake CuPy's kernels take cupy arrays and scalars, not {type(value).__name__} ({value!r})."
    raise TypeError(msg)


def bind(params: Sequence[Param], values: Sequence[Any], types: dict[str, np.dtype[Any]]) -> None:
    """Bind the type placeholders of ``params`` from ``values`` (arrays first, as CuPy)."""
    for param, value in sorted(zip(params, values), key=lambda pv: type(pv[1]) is not ndarray):
        if param.dtype is None and value is not None and param.placeholder not in types:
            types[param.placeholder] = _dtype_of(value)


def resolve(param: Param, types: dict[str, np.dtype[Any]], what: str) -> np.dtype[Any]:
    """The dtype of ``param`` for this call."""
    if param.dtype is not None:
        return param.dtype
    if param.placeholder not in types:
        msg = f"{what}: the type {param.placeholder} of {param.name!r} is not determined by the arguments; pass the output."
        raise TypeError(msg)
    return types[param.placeholder]


def host(value: Any, what: str) -> Any:
    """The host buffer of a fake array; NumPy arrays are refused as CuPy refuses them."""
    if type(value) is ndarray:
        if _pool.STACK:
            _pool.used(value._a, write=True)  # inputs and outputs alike
        return value._a
    if isinstance(value, np.ndarray):
        msg = f"{what}: Unsupported type <class 'numpy.ndarray'> (fake CuPy: pass a cupy.ndarray; use cupy.asarray to copy to the device)."
        raise TypeError(msg)
    return value


def typedefs(types: dict[str, np.dtype[Any]], what: str) -> str:
    return "".join(f"typedef {c_type(d, what)} {n};\n" for n, d in types.items())


_INDEX = "struct cunumpy_index { long long n, i; long long size() const { return n; } long long get() const { return i; } };\n"


def run(code: str, name: str, options: Sequence[str], args: Sequence[Any], what: str) -> None:
    """Build ``code`` and launch ``name`` on one thread with ``args`` (host buffers, scalars)."""
    library = build(code, (name,), tuple(options), what=what)
    argv, keep = pack_arguments(
        name,
        library.params[name],
        args,
        lambda v: v if isinstance(v, np.ndarray) else None,
    )
    trapped = library.launch(name, argv, (1, 1, 1), (1, 1, 1), 0)
    del keep
    if trapped:
        msg = f"{what}: the kernel called __trap(), emulated on the CPU."
        raise RuntimeError(msg)


class ElementwiseKernel:
    """``cupy.ElementwiseKernel`` on the fake: the operation runs on the CPU emulator."""

    __module__ = "cupy"

    def __init__(
        self,
        in_params: str,
        out_params: str,
        operation: str,
        name: str = "kernel",
        reduce_dims: bool = True,
        preamble: str = "",
        no_return: bool = False,
        return_tuple: bool = False,
        loop_prep: str = "",
        after_loop: str = "",
        options: Sequence[str] = (),
        **kwargs: Any,
    ) -> None:
        self.name = name
        self.what = f"ElementwiseKernel {name}"
        self.in_params = parse_params(in_params, self.what)
        self.out_params = parse_params(out_params, self.what)
        self.nin, self.nout = len(self.in_params), len(self.out_params)
        self.operation, self.preamble = operation, preamble
        self.loop_prep, self.after_loop = loop_prep, after_loop
        self.no_return, self.return_tuple = no_return, return_tuple
        self.options = tuple(options)

    def __call__(
        self, *args: Any, size: int | None = None, block_size: Any = None, stream: Any = None
    ) -> Any:
        what = self.what
        if len(args) not in (self.nin, self.nin + self.nout):
            msg = f"{what}: Wrong number of arguments for {self.name!r}: takes {self.nin} or {self.nin + self.nout}, got {len(args)}."
            raise TypeError(msg)
        params = [*self.in_params, *self.out_params]
        values = [host(v, what) for v in args] + [None] * (self.nin + self.nout - len(args))
        types: dict[str, np.dtype[Any]] = {}
        bind(params, [ndarray._of(v) if isinstance(v, np.ndarray) else v for v in values], types)
        shaped = [v for p, v in zip(params, values) if not p.raw and isinstance(v, np.ndarray)]
        if shaped:
            shape = np.broadcast_shapes(*(v.shape for v in shaped))
            if size is not None and size != int(np.prod(shape)):
                msg = f"{what}: `size` {size!r} does not match the arrays' size {int(np.prod(shape))}."
                raise ValueError(msg)
        elif size is None:
            msg = f"{what}: Loop size is undecided: pass an array that is not raw, or `size`."
            raise ValueError(msg)
        else:
            shape = (int(size),)
        outs = []  # the output objects: those given, else new arrays
        for k, param in enumerate(self.out_params):
            if values[self.nin + k] is None:
                values[self.nin + k] = np.empty(shape, resolve(param, types, what))
                outs.append(ndarray._of(values[self.nin + k]))
            else:
                outs.append(args[self.nin + k])
        n = int(np.prod(shape))
        declared, body, passed, write_back = [], [], [], []
        for k, (param, value) in enumerate(zip(params, values)):
            dtype = resolve(param, types, what)
            ctype = c_type(dtype, what)
            output = k >= self.nin
            if not isinstance(value, np.ndarray):  # a scalar, by value
                declared.append(f"{ctype} {param.name}")
                passed.append(dtype.type(value))
                continue
            source = value if param.raw or value.shape == shape else np.broadcast_to(value, shape)
            buffer = np.ascontiguousarray(source, dtype=dtype)
            if (output or param.raw) and buffer is not value and value.flags.writeable:
                write_back.append((value, buffer))  # written into a copy: copied back
            pointer = f"cunumpy_{param.name}"
            declared.append(f"{ctype}* {param.name if param.raw else pointer}")
            if not param.raw:
                body.append(f"{'' if output else 'const '}{ctype}& {param.name} = {pointer}[i];")
            passed.append(buffer)
        code = (
            f"{_INDEX}{typedefs(types, what)}{self.preamble}\n"
            f'extern "C" __global__ void {self.name}({", ".join([*declared, "long long cunumpy_n"])}) {{\n'
            f"cunumpy_index _ind = {{cunumpy_n, 0}};\n{self.loop_prep}\n"
            f"for (long long i = 0; i < cunumpy_n; ++i) {{ _ind.i = i;\n{' '.join(body)}\n{self.operation}\n;}}\n"
            f"{self.after_loop}\n}}\n"
        )
        run(code, self.name, self.options, [*passed, np.int64(n)], what)
        for value, buffer in write_back:
            value[...] = buffer
        if self.no_return:
            return None
        results = tuple(outs)
        return results if self.return_tuple or len(results) != 1 else results[0]


class ReductionKernel:
    """``cupy.ReductionKernel`` on the fake: map, reduce and post-map on the CPU emulator."""

    __module__ = "cupy"

    def __init__(
        self,
        in_params: str,
        out_params: str,
        map_expr: str,
        reduce_expr: str,
        post_map_expr: str,
        identity: str | None,
        name: str = "reduce_kernel",
        reduce_type: str | None = None,
        reduce_dims: bool = True,
        preamble: str = "",
        options: Sequence[str] = (),
    ) -> None:
        self.name = name
        self.what = f"ReductionKernel {name}"
        self.in_params = parse_params(in_params, self.what)
        self.out_params = parse_params(out_params, self.what)
        self.map_expr, self.reduce_expr, self.post_map_expr = map_expr, reduce_expr, post_map_expr
        self.identity, self.reduce_type = identity, reduce_type
        self.preamble, self.options = preamble, tuple(options)

    def __call__(
        self,
        *args: Any,
        out: Any = None,
        axis: Any = None,
        keepdims: bool = False,
        stream: Any = None,
    ) -> Any:
        what = self.what
        if len(args) != len(self.in_params):
            msg = f"{what}: takes {len(self.in_params)} arguments, got {len(args)}."
            raise TypeError(msg)
        values = [host(v, what) for v in args]
        types: dict[str, np.dtype[Any]] = {}
        bind(self.in_params, args, types)
        if out is not None:
            bind(self.out_params[:1], [out], types)
        arrays = [np.asarray(v) for v in values]
        shape = np.broadcast_shapes(*(a.shape for a in arrays))
        ndim = len(shape)
        axes = (
            tuple(range(ndim))
            if axis is None
            else tuple(a % ndim for a in np.atleast_1d(axis).tolist())
        )
        kept = [a for a in range(ndim) if a not in axes]
        n_out = int(np.prod([shape[a] for a in kept]))
        n_red = int(np.prod([shape[a] for a in axes]))
        out_shape = (
            tuple(1 if a in axes else shape[a] for a in range(ndim))
            if keepdims
            else tuple(shape[a] for a in kept)
        )
        out_param = self.out_params[0]
        out_dtype = resolve(out_param, types, what)
        # `reduce_type` is C, as CuPy writes it into the kernel (``double``, ``T``)
        reduce_c = self.reduce_type or c_type(out_dtype, what)
        declared, body, passed = [], [], []
        for param, array in zip(self.in_params, arrays):
            dtype = resolve(param, types, what)
            moved = np.moveaxis(np.broadcast_to(array, shape), axes, range(ndim - len(axes), ndim))
            passed.append(np.ascontiguousarray(moved, dtype=dtype).reshape(-1))
            declared.append(f"const {c_type(dtype, what)}* cunumpy_{param.name}")
            body.append(
                f"const {c_type(dtype, what)} {param.name} = cunumpy_{param.name}[j * cunumpy_r + k];"
            )
        result = np.empty(n_out, out_dtype)
        declared.append(f"{c_type(out_dtype, what)}* cunumpy_{out_param.name}")
        passed.append(result)
        first = "k == 0" if self.identity is None else "false"
        code = (
            f"{_INDEX}{typedefs(types, what)}typedef {reduce_c} cunumpy_reduce_t;\n{self.preamble}\n"
            f'extern "C" __global__ void {self.name}({", ".join([*declared, "long long cunumpy_o, long long cunumpy_r"])}) {{\n'
            f"for (long long j = 0; j < cunumpy_o; ++j) {{\n"
            f"cunumpy_reduce_t a = {self.identity if self.identity is not None else 'cunumpy_reduce_t()'};\n"
            f"for (long long k = 0; k < cunumpy_r; ++k) {{ {' '.join(body)}\n"
            f"cunumpy_reduce_t b = ({self.map_expr});\nif ({first}) {{ a = b; }} else {{ a = ({self.reduce_expr}); }} }}\n"
            f"{c_type(out_dtype, what)}& {out_param.name} = cunumpy_{out_param.name}[j];\n{self.post_map_expr};\n}}\n}}\n"
        )
        run(code, self.name, self.options, [*passed, np.int64(n_out), np.int64(n_red)], what)
        reduced = result.reshape(out_shape)
        if out is not None:
            host(out, what)[...] = reduced
            return out
        return ndarray._of(reduced)
