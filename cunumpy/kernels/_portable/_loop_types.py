"""Type rules of portable kernels: declared signatures, the standard's promotion, loop choice.

A *loop* is one typed version of a kernel, written ``"float64(float64, float64)"`` (the
result's dtype, then the inputs'; ``"(float64, int64)(float64)"`` for several results).
Only the Array API standard's dtypes are used. Array arguments (and NumPy scalars) are
*strong*: their dtype must promote to the loop's under the standard's promotion table,
which has no promotion between kinds (bool, integers, real and complex floating) other
than real to complex floating. Python scalars are *weak*: they fit any loop type of a
kind that can hold them, as in the standard's mixed array-scalar operations.
"""

from __future__ import annotations

import re
import reprlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..._settings._errors import with_article

__all__ = [
    "DTYPES",
    "Arg",
    "LoopSignature",
    "common_dtype",
    "describe_arg",
    "infer_inputs",
    "parse_signatures",
    "promote",
    "promotes_to",
    "scalar_value",
    "select_loop",
    "type_key",
]

DTYPES: dict[str, np.dtype] = {
    name: np.dtype(name)
    for name in (
        "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
        "float32", "float64", "complex64", "complex128",
    )
}  # fmt: skip
_STANDARD = frozenset(DTYPES.values())
_DEFAULTS = {"bool": DTYPES["bool"], "int": DTYPES["int64"], "float": DTYPES["float64"],
             "complex": DTYPES["complex128"]}  # fmt: skip
_NAME = r"\s*([a-z0-9]+)\s*"
_LIST = rf"{_NAME}(?:,{_NAME})*"


@dataclass(frozen=True)
class LoopSignature:
    """One typed version of a kernel: the dtypes of its inputs and of its outputs."""

    inputs: tuple[np.dtype, ...]
    outputs: tuple[np.dtype, ...]

    def __str__(self) -> str:
        ins = ", ".join(d.name for d in self.inputs)
        outs = ", ".join(d.name for d in self.outputs)
        return f"{outs}({ins})" if len(self.outputs) == 1 else f"({outs})({ins})"


@dataclass(frozen=True)
class Arg:
    """What a call argument says about types: a strong dtype, or a weak Python scalar kind."""

    dtype: np.dtype | None  # arrays and NumPy scalars
    kind: str | None = None  # Python scalars: "bool", "int", "float" or "complex"
    value: Any = None  # the Python scalar

    def __str__(self) -> str:
        return self.dtype.name if self.dtype is not None else f"Python {self.kind}"


def _dtype_names(text: str, what: str, signature: str, func: str) -> tuple[np.dtype, ...]:
    names = [n.strip() for n in text.split(",")] if text.strip() else []
    unknown = [n for n in names if n not in DTYPES]
    if unknown:
        msg = (
            f"{func}: unknown dtype {unknown[0]!r} in the {what} of signature {signature!r}; "
            f"use the standard's dtype names: {', '.join(DTYPES)}."
        )
        raise ValueError(msg)
    return tuple(DTYPES[n] for n in names)


def _parse_one(signature: str, nout: int, func: str) -> LoopSignature:
    match = re.fullmatch(rf"\s*(?:\(({_LIST})\)|{_NAME})\s*\(((?:{_LIST})?)\)\s*", signature)
    if match is None:
        several = ", or '(float64, int64)(float64)' for several results" if nout > 1 else ""
        msg = (
            f"{func}: cannot parse the signature {signature!r}; write the result's dtype and "
            f"then the inputs', as in 'float64(float64, float64)'{several}."
        )
        raise ValueError(msg)
    outs_text = match.group(1) if match.group(1) is not None else match.group(4)
    outputs = _dtype_names(outs_text, "results", signature, func)
    inputs = _dtype_names(match.group(5), "inputs", signature, func)
    return LoopSignature(inputs, outputs)


def parse_signatures(
    signatures: str | Sequence[str] | None, nin: int, nout: int, func: str
) -> tuple[LoopSignature, ...]:
    """Parse declared signatures and check their numbers of inputs and results."""
    if signatures is None:
        return ()
    if isinstance(signatures, str):
        signatures = [signatures]
    if not isinstance(signatures, Sequence) or not all(isinstance(s, str) for s in signatures):
        msg = (
            f"{func}: `signatures` must be a str or a sequence of str such as "
            f"['float64(float64, float64)'], not {signatures!r}."
        )
        raise TypeError(msg)
    if not signatures:
        msg = (
            f"{func}: the list of signatures is empty; declare at least one, or pass none "
            "(None) to take the input dtypes from the arguments."
        )
        raise ValueError(msg)
    loops: list[LoopSignature] = []
    for text in signatures:
        loop = _parse_one(text, nout, func)
        if len(loop.inputs) != nin or len(loop.outputs) != nout:
            msg = (
                f"{func}: the signature {text!r} has {len(loop.inputs)} input(s) and "
                f"{len(loop.outputs)} result(s), but the kernel takes {nin} input(s) and "
                f"gives {nout} result(s)."
            )
            raise ValueError(msg)
        if loop not in loops:
            loops.append(loop)
    return tuple(loops)


def promote(a: np.dtype, b: np.dtype) -> np.dtype | None:
    """The standard's promotion of dtypes ``a`` and ``b``; ``None`` where it defines none."""
    if a == b:
        return a
    ka, kb = a.kind, b.kind
    if "b" in (ka, kb):
        return None
    if ka in "iu" and kb in "iu":
        if ka == kb:
            return a if a.itemsize > b.itemsize else b
        signed, unsigned = (a, b) if ka == "i" else (b, a)
        if signed.itemsize > unsigned.itemsize:
            return signed
        if unsigned.itemsize < 8:
            return np.dtype(f"int{unsigned.itemsize * 16}")
        return None
    if ka in "fc" and kb in "fc":
        bits = max(a.itemsize // (2 if ka == "c" else 1), b.itemsize // (2 if kb == "c" else 1))
        if "c" in (ka, kb):
            return np.dtype(f"complex{bits * 16}")
        return np.dtype(f"float{bits * 8}")
    return None


def _fits(arg: Arg, target: np.dtype) -> bool:
    """Whether ``arg`` can be used as a ``target`` value under the standard's rules."""
    if arg.dtype is not None:
        return promotes_to(arg.dtype, target)
    allowed = {"bool": "b", "int": "iufc", "float": "fc", "complex": "c"}[arg.kind or ""]
    return target.kind in allowed


def describe_arg(value: Any, position: int, func: str) -> Arg:
    """The type information of argument ``value``; ``TypeError`` for a non-standard dtype."""
    dtype = getattr(value, "dtype", None)
    if dtype is not None:
        if dtype not in _STANDARD:
            msg = (
                f"{func}: argument {position} has dtype {dtype}, which is not an Array API "
                f"dtype; expected one of {', '.join(DTYPES)}."
            )
            raise TypeError(msg)
        return Arg(np.dtype(dtype))
    for kind in ("bool", "int", "float", "complex"):  # bool before int: bool is an int
        if isinstance(value, {"bool": bool, "int": int, "float": float, "complex": complex}[kind]):
            return Arg(None, kind, value)
    msg = (
        f"{func}: argument {position} is {with_article(type(value).__name__)} ({value!r}); expected a "
        "NumPy or CuPy array, a NumPy scalar or a Python bool, int, float or complex."
    )
    raise TypeError(msg)


def _strong(args: Sequence[Arg]) -> list[Arg]:
    """The arguments as the loop choice sees them: Python scalars are weak unless all are."""
    if any(a.dtype is not None for a in args):
        return list(args)
    return [Arg(_DEFAULTS[a.kind or ""]) for a in args]


def select_loop(loops: Sequence[LoopSignature], args: Sequence[Arg], func: str) -> LoopSignature:
    """The declared loop a call uses (see the module docstring and docs/kernels.md).

    Candidates are the loops that accept every argument. The call uses the first
    candidate, in declaration order, from which no other candidate is reached by promotion
    (the narrowest); without a candidate it raises ``TypeError``.
    """
    seen = _strong(args)
    candidates = [loop for loop in loops if all(map(_fits, seen, loop.inputs))]
    for loop in candidates:
        if not any(
            other != loop and all(map(promotes_to, other.inputs, loop.inputs))
            for other in candidates
        ):
            return loop
    given = ", ".join(str(a) for a in args)
    declared = "; ".join(str(loop) for loop in loops)
    same_kinds = any(all(map(_same_kind, seen, loop.inputs)) for loop in loops)
    if same_kinds:  # a signature of the right kinds, but too narrow or of the wrong sign
        why = (
            "An argument goes only to a dtype it promotes to (int8 to int16, uint8 to int16, "
            "but not int16 to int8 nor uint8 to int8)"
        )
    else:
        why = (
            "Kinds are not mixed (a bool goes only to bool, an integer array only to an "
            "integer dtype, a real floating array only to a floating or complex one)"
        )
    msg = (
        f"{func}: no declared signature accepts arguments of types ({given}); declared: "
        f"{declared}. {why}: convert with astype, or declare a signature for these types."
    )
    raise TypeError(msg)


def _same_kind(arg: Arg, target: np.dtype) -> bool:
    """Whether ``arg`` is of ``target``'s kind: bool, integer, real floating or complex."""
    dtype = arg.dtype if arg.dtype is not None else _DEFAULTS[arg.kind or ""]
    return dtype.kind.replace("u", "i") == target.kind.replace("u", "i")


def promotes_to(a: np.dtype, b: np.dtype) -> bool:
    """Whether ``a`` promotes to ``b`` under the standard's rules (``a`` can be used as ``b``).

    (Compared with ``is not None`` first: NumPy reads ``dtype == None`` as ``== float64``.)
    """
    promoted = promote(a, b)
    return promoted is not None and promoted == b


def infer_inputs(args: Sequence[Arg], func: str) -> tuple[np.dtype, ...]:
    """Input dtypes of an undeclared loop: arrays keep theirs, Python scalars adapt.

    A Python scalar takes the promoted dtype of the strong arguments when it fits it, and
    the default dtype of its kind (bool, int64, float64, complex128) otherwise.
    """
    strong = [a.dtype for a in args if a.dtype is not None]
    common: np.dtype | None = strong[0] if strong else None
    for dtype in strong[1:]:
        common = promote(common, dtype) if common is not None else None
    result = []
    for a in args:
        if a.dtype is not None:
            result.append(a.dtype)
        elif common is not None and _fits(a, common):
            result.append(common)
        else:
            result.append(_DEFAULTS[a.kind or ""])
    return tuple(result)


def common_dtype(dtypes: Sequence[np.dtype], func: str) -> np.dtype:
    """The standard's promotion of all ``dtypes``; ``TypeError`` where it is not defined."""
    result = dtypes[0]
    for dtype in dtypes[1:]:
        promoted = promote(result, dtype)
        if promoted is None:
            names = ", ".join(d.name for d in dtypes)
            msg = (
                f"{func}: the input dtypes ({names}) have no common dtype under the "
                "standard's promotion rules; declare signatures to give the result dtypes."
            )
            raise TypeError(msg)
        result = promoted
    return result


def type_key(value: Any) -> Any:
    """What the loop choice depends on: the dtype of an array or NumPy scalar, else the type."""
    dtype = getattr(value, "dtype", None)
    return type(value) if dtype is None else dtype


def scalar_value(value: Any, dtype: np.dtype, position: int, func: str) -> Any:
    """A Python scalar argument as a NumPy scalar of the loop's ``dtype``."""
    if dtype.kind in "iu" and not isinstance(value, bool):
        info = np.iinfo(dtype)
        if not info.min <= value <= info.max:
            msg = (
                f"{func}: argument {position} ({value!r}) is out of range for the "
                f"loop's dtype {dtype} ({info.min} to {info.max})."
            )
            raise OverflowError(msg)
    try:
        return dtype.type(value)
    except OverflowError:  # a Python int too large for any float
        msg = (
            f"{func}: argument {position} ({reprlib.repr(value)}) is out of range for the "
            f"loop's dtype {dtype} (at most {np.finfo(dtype).max:.6g} in magnitude)."
        )
        raise OverflowError(msg) from None
