"""Data-type facts of the 2025.12 standard: the type promotion lattice."""

from __future__ import annotations

from types import ModuleType
from typing import Any

from array_api_tests._spec_signatures import DTYPES

INTS = ("int8", "int16", "int32", "int64")
UINTS = ("uint8", "uint16", "uint32", "uint64")
REALS = ("float32", "float64")
COMPLEXES = ("complex64", "complex128")
NUMERIC = INTS + UINTS + REALS + COMPLEXES
BITS = {n: int("".join(c for c in n if c.isdigit()) or 8) for n in NUMERIC}


def _kind(name: str) -> str:
    if name == "bool":
        return "b"
    return "i" if name in INTS else "u" if name in UINTS else "f" if name in REALS else "c"


def promote(a: str, b: str) -> str | None:
    """The standard's promotion table; ``None`` where promotion is not specified."""
    if a == b:
        return a
    ka, kb = _kind(a), _kind(b)
    if "b" in (ka, kb):
        return None
    if ka == kb:
        return a if BITS[a] >= BITS[b] else b
    if {ka, kb} == {"i", "u"}:
        signed, unsigned = (a, b) if ka == "i" else (b, a)
        if BITS[signed] > BITS[unsigned]:
            return signed
        if BITS[unsigned] == 64:
            return None
        return f"int{2 * BITS[unsigned]}"
    if {ka, kb} == {"f", "c"}:
        real, cplx = (a, b) if ka == "f" else (b, a)
        bits = max(BITS[real], BITS[cplx] // 2)
        return f"complex{2 * bits}"
    return None  # mixed integer / floating kinds are not specified


PAIRS = [(a, b) for a in DTYPES for b in DTYPES]
PROMOTABLE = [(a, b, promote(a, b)) for a, b in PAIRS if promote(a, b) is not None]


def dtype(xp: ModuleType, name: str) -> Any:
    return getattr(xp, name)
