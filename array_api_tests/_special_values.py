"""Predicates and expected-result checks for the generated special-case table."""

from __future__ import annotations

import math
from collections.abc import Callable
from itertools import product

NEG_NAN = math.copysign(math.nan, -1.0)
POOL: tuple[float, ...] = (
    math.nan, NEG_NAN, math.inf, -math.inf, 0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0,
    3.0, -3.0, 2.5, -2.5, 1.5, 0.25, 7.0, -7.0,
)  # fmt: skip


def _finite(v: float) -> bool:
    return math.isfinite(v)


def _is_int(v: float) -> bool:
    return math.isfinite(v) and v == math.floor(v)


PREDICATES: dict[str, Callable[[float], bool]] = {
    "nan": math.isnan,
    "+inf": lambda v: v == math.inf,
    "-inf": lambda v: v == -math.inf,
    "inf": math.isinf,
    "+0": lambda v: v == 0 and math.copysign(1, v) > 0,
    "-0": lambda v: v == 0 and math.copysign(1, v) < 0,
    "zero": lambda v: v == 0,
    "0": lambda v: v == 0,
    "=1": lambda v: v == 1,
    "=-1": lambda v: v == -1,
    "not_1": lambda v: v != 1,
    "finite": _finite,
    "pos_finite": lambda v: _finite(v) and v > 0,
    "neg_finite": lambda v: _finite(v) and v < 0,
    "nonzero_finite": lambda v: _finite(v) and v != 0,
    "finite_or_nan": lambda v: not math.isinf(v),
    "any": lambda v: True,
    ">0": lambda v: v > 0,
    "<0": lambda v: v < 0,
    ">1": lambda v: v > 1,
    "<1": lambda v: v < 1,
    "<-1": lambda v: v < -1,
    ">-1": lambda v: v > -1,
    "int": _is_int,
    "not_int": lambda v: _finite(v) and not _is_int(v),
    "odd_int": lambda v: _is_int(v) and v % 2 == 1,
    "not_odd_int": lambda v: not (_is_int(v) and v % 2 == 1),
    "not_nan": lambda v: not math.isnan(v),
    "nonzero": lambda v: v != 0,
    "half_int": lambda v: _finite(v) and v - math.floor(v) == 0.5,
    "signbit0": lambda v: math.copysign(1, v) > 0,
    "signbit1": lambda v: math.copysign(1, v) < 0,
}

RELATIONS: dict[str, Callable[[float, float], bool]] = {
    "eq_x2": lambda a, b: a == b,
    "ne_x2": lambda a, b: a != b,
    "eq_neg_x1": lambda b, a: b == -a,
    "same_sign_x2": lambda a, b: math.copysign(1, a) == math.copysign(1, b),
    "diff_sign_x2": lambda a, b: math.copysign(1, a) != math.copysign(1, b),
}


def _holds(cond: str, env: dict[str, float]) -> bool:
    operand, pred = cond.split(" ", 1)
    if operand.startswith("abs("):
        value = abs(env[operand[4:-1]])
    else:
        value = env[operand]
    if pred in RELATIONS:
        other = env["x2"] if operand == "x1" else env["x1"]
        return RELATIONS[pred](value, other)
    return PREDICATES[pred](value)


def samples(
    conditions: tuple[str, ...], arity: int, limit: int = 3, names: tuple[str, ...] = ()
) -> list[tuple[float, ...]]:
    """Up to ``limit`` operand tuples from the pool that satisfy every condition."""
    names = names or (("x",) if arity == 1 else ("x1", "x2"))
    found = [
        values
        for values in product(POOL, repeat=arity)
        if all(_holds(c, dict(zip(names, values))) for c in conditions)
    ]
    if len(found) <= limit:
        return found
    step = len(found) / limit
    return [found[int(i * step)] for i in range(limit)]


def _same(a: float, b: float) -> bool:
    if math.isnan(b):
        return math.isnan(a)
    return a == b and math.copysign(1, a) == math.copysign(1, b)


def _sign(v: float) -> bool:
    return math.copysign(1, v) < 0


APPROX = {"pi": math.pi, "pi/2": math.pi / 2, "pi/4": math.pi / 4, "3pi/4": 3 * math.pi / 4}


def check(expected: str, result: float | bool, args: tuple[float, ...]) -> bool:
    """Whether ``result`` matches the expected special-case result for operands ``args``."""
    env = {"x": args[0], "x1": args[0], "x2": args[-1]}
    if expected in ("True", "False"):
        return bool(result) is (expected == "True")
    r = float(result)
    if expected.startswith("~"):
        text = expected[1:]
        target = -APPROX[text[1:]] if text.startswith("-") else APPROX[text]
        return math.isclose(r, target, rel_tol=1e-6)
    simple = {"nan": math.nan, "+inf": math.inf, "-inf": -math.inf, "+0": 0.0, "-0": -0.0}
    if expected in simple:
        return _same(r, simple[expected])
    if expected in ("0", "1", "-1"):
        return r == float(expected)
    if expected.startswith("nan_sign"):
        return math.isnan(r) and _sign(r) == (expected[-1] == "1")
    if expected == "positive_sign":
        return not math.isnan(r) and not _sign(r)
    if expected == "negative_sign":
        return not math.isnan(r) and _sign(r)
    if expected == "positive_sign_or_nan":
        return math.isnan(r) or not _sign(r)
    if expected == "negative_sign_or_nan":
        return math.isnan(r) or _sign(r)
    if expected == "signed_inf":
        return math.isinf(r) and _sign(r) == (_sign(env["x1"]) != _sign(env["x2"]))
    if expected == "round_half_even":
        return r == float(round(env["x"]))
    negate = expected.startswith("-")
    body = expected.lstrip("-")
    value = abs(env[body[4:-1]]) if body.startswith("abs(") else env[body]
    return _same(r, -value if negate else value)


def _component(token: str, value: float) -> bool:
    if token == "inf":
        return math.isinf(value)
    if token == "0":
        return value == 0
    if token.startswith("~±"):
        return math.isclose(abs(value), APPROX[token[2:]], rel_tol=1e-6)
    return check(token, value, (math.nan,))


def check_complex(expected: str, result: complex | float | bool) -> bool:
    """Whether a complex-input special case result matches ``expected``."""
    if not expected.startswith("c:"):
        if isinstance(result, complex):
            return False
        return check(expected, result, (math.nan,))
    real, imag = expected[2:].split("|")
    value = complex(result)
    return _component(real, value.real) and _component(imag, value.imag)
