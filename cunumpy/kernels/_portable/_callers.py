"""The callers of portable kernels: one per number of operands, written out.

A caller ``call(ops, idx)`` calls the user's function ``f`` with every operand of the
tuple ``ops`` at index ``idx``. The elementwise callers go through a *loader* per operand
(an element, an element cast to the loop's dtype, or a scalar passed by value); the
generalized callers index each operand inline, since a CUDA device function cannot
return the core view of an array. ``_cuda_kernels`` compiles them as device functions.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["ELEMENTWISE_CALLERS", "GENERALIZED_CALLERS"]


def _call_1(f: Any, l0: Any) -> Callable[..., Any]:
    def call(ops: Any, idx: Any) -> Any:
        return f(l0(ops[0], idx))

    return call


def _call_2(f: Any, l0: Any, l1: Any) -> Callable[..., Any]:
    def call(ops: Any, idx: Any) -> Any:
        return f(l0(ops[0], idx), l1(ops[1], idx))

    return call


def _call_3(f: Any, l0: Any, l1: Any, l2: Any) -> Callable[..., Any]:
    def call(ops: Any, idx: Any) -> Any:
        return f(l0(ops[0], idx), l1(ops[1], idx), l2(ops[2], idx))

    return call


def _call_4(f: Any, l0: Any, l1: Any, l2: Any, l3: Any) -> Callable[..., Any]:
    def call(ops: Any, idx: Any) -> Any:
        return f(l0(ops[0], idx), l1(ops[1], idx), l2(ops[2], idx), l3(ops[3], idx))

    return call


def _call_5(f: Any, l0: Any, l1: Any, l2: Any, l3: Any, l4: Any) -> Callable[..., Any]:
    def call(ops: Any, idx: Any) -> Any:
        return f(
            l0(ops[0], idx), l1(ops[1], idx), l2(ops[2], idx), l3(ops[3], idx), l4(ops[4], idx)
        )

    return call


def _call_6(f: Any, l0: Any, l1: Any, l2: Any, l3: Any, l4: Any, l5: Any) -> Callable[..., Any]:
    def call(ops: Any, idx: Any) -> Any:
        return f(
            l0(ops[0], idx), l1(ops[1], idx), l2(ops[2], idx), l3(ops[3], idx), l4(ops[4], idx),
            l5(ops[5], idx),
        )  # fmt: skip

    return call


def _call_7(
    f: Any, l0: Any, l1: Any, l2: Any, l3: Any, l4: Any, l5: Any, l6: Any
) -> Callable[..., Any]:
    def call(ops: Any, idx: Any) -> Any:
        return f(
            l0(ops[0], idx), l1(ops[1], idx), l2(ops[2], idx), l3(ops[3], idx), l4(ops[4], idx),
            l5(ops[5], idx), l6(ops[6], idx),
        )  # fmt: skip

    return call


def _call_8(
    f: Any, l0: Any, l1: Any, l2: Any, l3: Any, l4: Any, l5: Any, l6: Any, l7: Any
) -> Callable[..., Any]:
    def call(ops: Any, idx: Any) -> Any:
        return f(
            l0(ops[0], idx), l1(ops[1], idx), l2(ops[2], idx), l3(ops[3], idx), l4(ops[4], idx),
            l5(ops[5], idx), l6(ops[6], idx), l7(ops[7], idx),
        )  # fmt: skip

    return call


def _call_9(
    f: Any, l0: Any, l1: Any, l2: Any, l3: Any, l4: Any, l5: Any, l6: Any, l7: Any, l8: Any
) -> Callable[..., Any]:
    def call(ops: Any, idx: Any) -> Any:
        return f(
            l0(ops[0], idx), l1(ops[1], idx), l2(ops[2], idx), l3(ops[3], idx), l4(ops[4], idx),
            l5(ops[5], idx), l6(ops[6], idx), l7(ops[7], idx), l8(ops[8], idx),
        )  # fmt: skip

    return call


def _call_10(
    f: Any, l0: Any, l1: Any, l2: Any, l3: Any, l4: Any, l5: Any, l6: Any, l7: Any, l8: Any,
    l9: Any,
) -> Callable[..., Any]:  # fmt: skip
    def call(ops: Any, idx: Any) -> Any:
        return f(
            l0(ops[0], idx), l1(ops[1], idx), l2(ops[2], idx), l3(ops[3], idx), l4(ops[4], idx),
            l5(ops[5], idx), l6(ops[6], idx), l7(ops[7], idx), l8(ops[8], idx), l9(ops[9], idx),
        )  # fmt: skip

    return call


def _call_11(
    f: Any, l0: Any, l1: Any, l2: Any, l3: Any, l4: Any, l5: Any, l6: Any, l7: Any, l8: Any,
    l9: Any, l10: Any,
) -> Callable[..., Any]:  # fmt: skip
    def call(ops: Any, idx: Any) -> Any:
        return f(
            l0(ops[0], idx), l1(ops[1], idx), l2(ops[2], idx), l3(ops[3], idx), l4(ops[4], idx),
            l5(ops[5], idx), l6(ops[6], idx), l7(ops[7], idx), l8(ops[8], idx), l9(ops[9], idx),
            l10(ops[10], idx),
        )  # fmt: skip

    return call


def _call_12(
    f: Any, l0: Any, l1: Any, l2: Any, l3: Any, l4: Any, l5: Any, l6: Any, l7: Any, l8: Any,
    l9: Any, l10: Any, l11: Any,
) -> Callable[..., Any]:  # fmt: skip
    def call(ops: Any, idx: Any) -> Any:
        return f(
            l0(ops[0], idx), l1(ops[1], idx), l2(ops[2], idx), l3(ops[3], idx), l4(ops[4], idx),
            l5(ops[5], idx), l6(ops[6], idx), l7(ops[7], idx), l8(ops[8], idx), l9(ops[9], idx),
            l10(ops[10], idx), l11(ops[11], idx),
        )  # fmt: skip

    return call


ELEMENTWISE_CALLERS = (
    _call_1, _call_2, _call_3, _call_4, _call_5, _call_6, _call_7, _call_8, _call_9, _call_10,
    _call_11, _call_12,
)  # fmt: skip


def _gcall_2(f: Any) -> Callable[..., None]:
    def call(ops: Any, idx: Any) -> None:
        f(ops[0][idx], ops[1][idx])

    return call


def _gcall_3(f: Any) -> Callable[..., None]:
    def call(ops: Any, idx: Any) -> None:
        f(ops[0][idx], ops[1][idx], ops[2][idx])

    return call


def _gcall_4(f: Any) -> Callable[..., None]:
    def call(ops: Any, idx: Any) -> None:
        f(ops[0][idx], ops[1][idx], ops[2][idx], ops[3][idx])

    return call


def _gcall_5(f: Any) -> Callable[..., None]:
    def call(ops: Any, idx: Any) -> None:
        f(ops[0][idx], ops[1][idx], ops[2][idx], ops[3][idx], ops[4][idx])

    return call


def _gcall_6(f: Any) -> Callable[..., None]:
    def call(ops: Any, idx: Any) -> None:
        f(ops[0][idx], ops[1][idx], ops[2][idx], ops[3][idx], ops[4][idx], ops[5][idx])

    return call


def _gcall_7(f: Any) -> Callable[..., None]:
    def call(ops: Any, idx: Any) -> None:
        f(ops[0][idx], ops[1][idx], ops[2][idx], ops[3][idx], ops[4][idx], ops[5][idx], ops[6][idx])

    return call


def _gcall_8(f: Any) -> Callable[..., None]:
    def call(ops: Any, idx: Any) -> None:
        f(
            ops[0][idx], ops[1][idx], ops[2][idx], ops[3][idx], ops[4][idx], ops[5][idx],
            ops[6][idx], ops[7][idx],
        )  # fmt: skip

    return call


def _gcall_9(f: Any) -> Callable[..., None]:
    def call(ops: Any, idx: Any) -> None:
        f(
            ops[0][idx], ops[1][idx], ops[2][idx], ops[3][idx], ops[4][idx], ops[5][idx],
            ops[6][idx], ops[7][idx], ops[8][idx],
        )  # fmt: skip

    return call


def _gcall_10(f: Any) -> Callable[..., None]:
    def call(ops: Any, idx: Any) -> None:
        f(
            ops[0][idx], ops[1][idx], ops[2][idx], ops[3][idx], ops[4][idx], ops[5][idx],
            ops[6][idx], ops[7][idx], ops[8][idx], ops[9][idx],
        )  # fmt: skip

    return call


def _gcall_11(f: Any) -> Callable[..., None]:
    def call(ops: Any, idx: Any) -> None:
        f(
            ops[0][idx], ops[1][idx], ops[2][idx], ops[3][idx], ops[4][idx], ops[5][idx],
            ops[6][idx], ops[7][idx], ops[8][idx], ops[9][idx], ops[10][idx],
        )  # fmt: skip

    return call


def _gcall_12(f: Any) -> Callable[..., None]:
    def call(ops: Any, idx: Any) -> None:
        f(
            ops[0][idx], ops[1][idx], ops[2][idx], ops[3][idx], ops[4][idx], ops[5][idx],
            ops[6][idx], ops[7][idx], ops[8][idx], ops[9][idx], ops[10][idx], ops[11][idx],
        )  # fmt: skip

    return call


GENERALIZED_CALLERS = (
    _gcall_2, _gcall_3, _gcall_4, _gcall_5, _gcall_6, _gcall_7, _gcall_8, _gcall_9, _gcall_10,
    _gcall_11, _gcall_12,
)  # fmt: skip
