"""Comparing our signatures with CuNumpy 0.7.1's, as the compatibility tests write them."""

from __future__ import annotations

import inspect

import cunumpy as xp


def parameters(obj: object) -> str:
    """``obj``'s parameters as one line: ``a, b=1, *args, kw:c=None, **kwargs`` (no self)."""
    shown = []
    for p in inspect.signature(obj).parameters.values():  # type: ignore[arg-type]
        if p.name == "self":
            continue
        text = {p.VAR_POSITIONAL: "*", p.VAR_KEYWORD: "**"}.get(p.kind, "") + p.name
        if p.default is not p.empty:
            text += f"={p.default!r}"
        shown.append(("kw:" if p.kind == p.KEYWORD_ONLY else "") + text)
    return ", ".join(shown)


def lookup(path: str) -> object:
    """The object at ``cunumpy.<path>`` (``"kernels.CudaKernel.compile"``)."""
    module, *names = path.split(".")
    obj: object = getattr(xp, module)
    for name in names:
        obj = getattr(obj, name)
    return obj
