"""A CUDA C kernel's launch: flattening argument objects, the device arrays of a call, grid and block.

Pure Python over array attributes; nothing here imports CuPy.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from ..._namespaces._array_predicates import is_cupy_array

__all__ = [
    "MAX_BLOCK",
    "MAX_GRID",
    "MAX_THREADS_PER_BLOCK",
    "ThreadsFrom",
    "array_shapes",
    "as_dims",
    "check_block",
    "device_arrays",
    "flatten",
    "grid_and_block",
    "threads_from",
]

#: CUDA's limits on the threads of one block, a block's extents and a grid's extents
#: (the same on every GPU since compute capability 3.0).
MAX_THREADS_PER_BLOCK = 1024
MAX_BLOCK = (1024, 1024, 64)
MAX_GRID = (2**31 - 1, 65535, 65535)

ThreadsFrom = Callable[[tuple[Any, ...]], Any]


_EXPANDS: dict[type, bool] = {}


def _expands(cls: type) -> bool:
    """Whether instances of ``cls`` have ``__cuda_args__`` (asked once per type)."""
    answer = _EXPANDS.get(cls)
    if answer is None:
        answer = _EXPANDS[cls] = hasattr(cls, "__cuda_args__")
    return answer


def flatten(args: Sequence[Any]) -> tuple[Sequence[Any], list[str | None] | None]:
    """The arguments with each object that has ``__cuda_args__()`` replaced by what it returns.

    Also, per value, the name of the struct it is a packed value of (a ``CudaStructValue``
    or ``CudaStructArguments``), else None; None instead of the list when nothing was
    flattened. Structs of equal layout have equal dtypes: the name tells them apart.
    """
    known = _EXPANDS
    for arg in args:
        expands = known.get(type(arg))
        if expands is None:
            expands = _expands(type(arg))
        if expands:
            break
    else:  # the common case: nothing to flatten
        return args, None
    values: list[Any] = []
    structs: list[str | None] = []
    for arg in args:
        if not _expands(type(arg)):
            values.append(arg)
            structs.append(None)
        else:
            expanded = arg.__cuda_args__()
            struct = getattr(getattr(arg, "struct", None), "name", None)
            values.extend(expanded)
            structs.extend([struct if len(expanded) == 1 else None] * len(expanded))
    return values, structs


def _members(arg: Any) -> list[Any] | None:
    """The field values of a struct value or struct-arguments object, the flattened values of an argument object."""
    fields = getattr(getattr(arg, "struct", None), "fields", None)
    if fields is not None and hasattr(arg, "__cuda_args__"):
        if hasattr(arg, "__getitem__"):  # a CudaStructValue
            return [arg[f.name] for f in fields]
        return [getattr(arg, f.name, None) for f in fields]
    if hasattr(arg, "__cuda_args__"):
        return list(arg.__cuda_args__())
    return None


def device_arrays(args: Sequence[Any], prefix: str = "argument ") -> Iterator[tuple[str, Any]]:
    """``(label, array)`` for every CuPy array of a call, struct fields and argument objects included."""
    for index, arg in enumerate(args):
        label = f"{prefix}{index}"
        if is_cupy_array(arg):
            yield label, arg
            continue
        members = _members(arg)
        if members is not None:
            for sub, array in device_arrays(members, ""):
                yield f"{label}.{sub}", array


def array_shapes(args: Sequence[Any]) -> Iterator[tuple[int, ...]]:
    """The shapes (at least 1-D) of the arrays of a call, in order, argument objects included."""
    for arg in args:
        shape = getattr(arg, "shape", None)
        if shape is not None and hasattr(arg, "dtype"):
            if len(shape):
                yield tuple(int(n) for n in shape)
            continue
        members = _members(arg)
        if members is not None:
            yield from array_shapes(members)


def _first_shape(args: Sequence[Any], name: str) -> tuple[int, ...]:
    shape = next(array_shapes(args), None)
    if shape is None:
        msg = (
            f"CudaKernel {name}: no array among the arguments to infer the launch size from; "
            "pass `n_threads` or `grid`, or set `n_threads_from`."
        )
        raise TypeError(msg)
    return shape


def threads_from(how: str, block_ndim: int, name: str) -> ThreadsFrom:
    """The launch-size inference ``how`` (``"auto"``, ``"first_array"``, ``"last_axis"``) as a function."""

    def auto(args: tuple[Any, ...]) -> Any:
        shape = _first_shape(args, name)
        if len(shape) < block_ndim:
            msg = (
                f"CudaKernel {name}: the first array's shape {shape} has fewer axes than "
                f"the {block_ndim}-D block; pass `n_threads` or `grid`."
            )
            raise ValueError(msg)
        return shape[0] if block_ndim == 1 else shape[:block_ndim]

    if how == "auto":
        return auto
    if how == "first_array":
        return lambda args: _first_shape(args, name)[0]
    if how == "last_axis":
        return lambda args: _first_shape(args, name)[-1]
    msg = (
        f"CudaKernel {name}: `n_threads_from` must be 'auto', 'first_array', 'last_axis', "
        f"a callable or None, not {how!r}."
    )
    raise ValueError(msg)


def as_dims(value: Any, what: str, name: str) -> tuple[int, ...]:
    """An int or a sequence of 1 to 3 ints as a tuple of non-negative ints."""
    try:
        dims = (
            (operator.index(value),)
            if not isinstance(value, Sequence)
            else tuple(operator.index(v) for v in value)
        )
    except TypeError:
        dims = ()
    if not 1 <= len(dims) <= 3 or any(d < 0 for d in dims):
        msg = f"CudaKernel {name}: `{what}` must be 1 to 3 non-negative ints, not {value!r}."
        raise ValueError(msg)
    return dims


def check_block(block: tuple[int, ...], name: str) -> tuple[int, ...]:
    """``block`` when every extent is positive and within CUDA's limits (1024 threads)."""
    if (
        0 in block
        or math.prod(block) > MAX_THREADS_PER_BLOCK
        or any(b > limit for b, limit in zip(block, MAX_BLOCK))
    ):
        msg = (
            f"CudaKernel {name}: a block of {block} is not launchable; each extent must be "
            f"positive and at most {MAX_BLOCK}, and the block at most "
            f"{MAX_THREADS_PER_BLOCK} threads."
        )
        raise ValueError(msg)
    return block


def _check_grid(grid: tuple[int, ...], name: str) -> tuple[int, ...]:
    if any(g > limit for g, limit in zip(grid, MAX_GRID)):
        msg = f"CudaKernel {name}: a grid of {grid} blocks exceeds CUDA's limits {MAX_GRID}."
        raise ValueError(msg)
    return grid


def grid_and_block(
    n_threads: Any, grid: Any, block: tuple[int, ...], name: str
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``(grid, block)`` for exactly one of ``n_threads`` (rounded up to whole blocks) and ``grid``."""
    if (n_threads is None) == (grid is None):
        msg = (
            f"CudaKernel {name}: pass exactly one of `n_threads` and `grid` "
            f"(got n_threads={n_threads!r}, grid={grid!r})."
        )
        raise TypeError(msg)
    if grid is not None:
        return _check_grid(as_dims(grid, "grid", name), name), block
    threads = as_dims(n_threads, "n_threads", name)
    if len(block) != len(threads):
        if len(block) != 1:
            msg = (
                f"CudaKernel {name}: the {len(block)}-D block {block} does not fit "
                f"n_threads={threads}; give as many extents."
            )
            raise ValueError(msg)
        block = block + (1,) * (len(threads) - 1)
    return _check_grid(tuple(-(-n // b) for n, b in zip(threads, block)), name), block


def for_cupy(value: Any) -> Any:
    """A packed view or struct (a NumPy structured scalar) as CuPy passes a struct by value.

    That is a one-element NumPy array of the structured dtype (CuPy's example
    ``examples/custom_struct/complex_struct.py``); CuPy copies its bytes into the
    launch's argument buffer.
    """
    return np.asarray(value).reshape(1) if isinstance(value, np.void) else value
