"""Shapes of a kernel call: broadcasting, ``out=``, and generalized (gufunc) layouts.

A layout such as ``"(m,n),(n)->(m)"`` gives the *core* dimensions of each input and
output; the remaining leading dimensions are *loop* dimensions, broadcast together.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Layout", "broadcast", "check_out"]

Shape = tuple[int, ...]

_CORE = r"\(\s*(?:[A-Za-z_]\w*\s*(?:,\s*[A-Za-z_]\w*\s*)*)?\)"


def broadcast(shapes: Sequence[Shape], func: str) -> Shape:
    """The broadcast shape of ``shapes``; ``ValueError`` naming ``func`` if there is none."""
    first = shapes[0] if shapes else ()
    if all(s == first for s in shapes):
        return tuple(first)
    ndim = max((len(s) for s in shapes), default=0)
    result = []
    for axis in range(-ndim, 0):
        sizes = {s[axis] for s in shapes if len(s) >= -axis} - {1}
        if len(sizes) > 1:
            listed = ", ".join(str(s) for s in shapes)
            msg = f"{func}: the argument shapes ({listed}) cannot be broadcast together."
            raise ValueError(msg)
        result.append(sizes.pop() if sizes else 1)
    return tuple(result)


def check_out(out_shape: Shape, shape: Shape, position: int, func: str) -> None:
    """``out`` must have exactly the broadcast shape of the inputs (it is never broadcast)."""
    if tuple(out_shape) != tuple(shape):
        msg = (
            f"{func}: `out` array {position} has shape {tuple(out_shape)}, but the result has "
            f"shape {tuple(shape)}."
        )
        raise ValueError(msg)


@dataclass(frozen=True)
class Layout:
    """The core dimension names of each input and output of a generalized kernel."""

    text: str
    inputs: tuple[tuple[str, ...], ...]
    outputs: tuple[tuple[str, ...], ...]

    @classmethod
    def parse(cls, text: str, func: str) -> Layout:
        """Parse ``"(n),(n)->()"``; ``ValueError`` naming ``func`` when it is malformed."""
        if not isinstance(text, str):
            msg = f"{func}: the layout must be a str such as '(n),(n)->()', not {text!r}."
            raise TypeError(msg)
        sides = text.replace(" ", "").split("->")
        pattern = rf"{_CORE}(?:,{_CORE})*"
        if len(sides) != 2 or not all(re.fullmatch(pattern, side) for side in sides):
            msg = (
                f"{func}: cannot parse the layout {text!r}; write the core dimensions of each "
                "input and output by name, as in '(n),(n)->()' or '(m,n),(n)->(m)'."
            )
            raise ValueError(msg)
        ins, outs = (tuple(_names(core) for core in re.findall(_CORE, s)) for s in sides)
        known = {name for core in ins for name in core}
        for core in outs:
            if len(set(core)) != len(core):
                msg = f"{func}: an output of layout {text!r} repeats a dimension name."
                raise ValueError(msg)
            unknown = [name for name in core if name not in known]
            if unknown:
                msg = (
                    f"{func}: dimension {unknown[0]!r} of an output of layout {text!r} is not a "
                    "dimension of any input, so its size would be unknown; take it from an input."
                )
                raise ValueError(msg)
        return cls(text, ins, outs)

    def bind(
        self, input_shapes: Sequence[Shape], out_shapes: Sequence[Shape] | None, func: str
    ) -> tuple[Shape, list[Shape]]:
        """The loop shape and the output shapes of a call; checks every core dimension."""
        sizes: dict[str, int] = {}
        leading: list[Shape] = []
        for i, (shape, core) in enumerate(zip(input_shapes, self.inputs)):
            leading.append(self._bind_one(shape, core, f"input {i}", sizes, func))
        out_leading: list[Shape] = []
        if out_shapes is not None:
            for i, (shape, core) in enumerate(zip(out_shapes, self.outputs)):
                out_leading.append(self._bind_one(shape, core, f"`out` {i}", sizes, func))
        loop = broadcast(leading, func)
        for i, shape in enumerate(out_leading):
            if shape != loop:
                msg = (
                    f"{func}: `out` {i} has loop dimensions {shape}, but the inputs broadcast "
                    f"to {loop} (layout {self.text!r})."
                )
                raise ValueError(msg)
        results = [loop + tuple(sizes[name] for name in core) for core in self.outputs]
        return loop, results

    def _bind_one(
        self, shape: Shape, core: tuple[str, ...], what: str, sizes: dict[str, int], func: str
    ) -> Shape:
        if len(shape) < len(core):
            msg = (
                f"{func}: {what} has {len(shape)} dimension(s), but layout {self.text!r} "
                f"needs at least {len(core)} ({', '.join(core)})."
            )
            raise ValueError(msg)
        split = len(shape) - len(core)
        for name, size in zip(core, shape[split:]):
            bound = sizes.setdefault(name, size)
            if bound != size:
                msg = (
                    f"{func}: dimension {name!r} of layout {self.text!r} is {bound} in one "
                    f"argument but {size} in {what} (shape {tuple(shape)})."
                )
                raise ValueError(msg)
        return tuple(shape[:split])


def _names(core: str) -> tuple[str, ...]:
    inner = core.strip()[1:-1].strip()
    return tuple(n.strip() for n in inner.split(",")) if inner else ()
