"""The kinds of the top level's arguments: one table, for the messages, the generated
tests and the compiled fast path.

Each letter names what a function takes in one place. The generator writes a function's
letters (``tools/generate_api.py``) into its fast-path test (``Kind.test``) and its
``@fast_path`` record; ``_where_to_run`` words its ``TypeError`` with ``Kind.accepted``; the
C code (``_fastcall.c``) reads each letter's ``Kind.accepts`` flags once, when a record
is built, and tests them with the same meaning:

- ``a`` an array (the C code and the generated tests: an exact ``numpy.ndarray``);
- ``s`` an array or a Python scalar; ``o`` an array or None; ``n`` either of these;
- ``b`` a bool array (``where``'s condition); ``q`` a non-empty list or tuple of arrays;
- ``p`` a creation function's shape or number (a Python bool, int, float or a tuple);
- ``x`` any value (the NumPy function checks it);
- ``d`` a dtype (a key of the record's ``casts``).
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["ACCEPTS", "KEYWORD_MODES", "KINDS", "Kind", "accepted", "flags"]


class ACCEPTS:
    """What the C code can test of one value, as bit flags (``_fastcall.c`` has the same
    numbers; plain ints, as an ``enum.IntFlag`` costs ``import cunumpy`` milliseconds)."""

    NDARRAY = 1
    BOOL_NDARRAY = 2
    SCALAR = 4
    NONE = 8
    NDARRAYS = 16
    SHAPE = 32
    ANY = 64
    CAST = 128


class Kind(NamedTuple):
    """One kind: the words of its message, its flags, and the generated test of ``{0}``
    (empty for the kinds only the C code tests)."""

    accepted: str
    accepts: int
    test: str


KINDS: dict[str, Kind] = {
    "a": Kind("an array", ACCEPTS.NDARRAY, "type({0}) is _ndarray"),
    "s": Kind(
        "an array or a Python scalar",
        ACCEPTS.NDARRAY | ACCEPTS.SCALAR,
        "(type({0}) is _ndarray or type({0}) in _PY_SCALARS)",
    ),
    "o": Kind(
        "an array or None", ACCEPTS.NDARRAY | ACCEPTS.NONE, "({0} is None or type({0}) is _ndarray)"
    ),
    "n": Kind(
        "an array, a Python scalar or None",
        ACCEPTS.NDARRAY | ACCEPTS.SCALAR | ACCEPTS.NONE,
        "(type({0}) is _ndarray or type({0}) in _PY_SCALARS_OR_NONE)",
    ),
    # where's condition: its generated test is the generator's (FAST_PATH_TESTS["where"])
    "b": Kind("a bool array", ACCEPTS.BOOL_NDARRAY, ""),
    "q": Kind("a non-empty list or tuple of arrays", ACCEPTS.NDARRAYS, ""),
    "p": Kind("a Python bool, int, float or tuple", ACCEPTS.SHAPE, ""),
    "x": Kind("any value", ACCEPTS.ANY, ""),
    "d": Kind("a dtype", ACCEPTS.CAST, ""),
}

#: What a keyword the C code passes on accepts (the values ``_fastcall.c`` reads).
KEYWORD_MODES: dict[str, int] = {"any": 0, "bool": 1, "int": 2, "bool or None": 3}


def accepted(kind: str) -> str:
    """The words for what ``kind`` takes, for messages (``"an array or None"``)."""
    return KINDS[kind].accepted


def flags(kinds: str) -> bytes:
    """The flags of each letter of ``kinds``, as the C code reads them."""
    return bytes(KINDS[kind].accepts for kind in kinds)
