"""One side of a call: build the arguments, call, and keep what happened.

The answer or the exception, the warning categories (every warning recorded, as
``simplefilter("always")`` shows them), and the arrays built for the call, which are
compared after the call (mutation) and against the answer (aliasing).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .arguments import build


@dataclass
class Outcome:
    """What one call did: ``result`` or ``error``, ``warned`` (category names) and ``inputs``."""

    result: Any = None
    error: BaseException | None = None
    warned: tuple[str, ...] = ()
    inputs: list[np.ndarray] = field(default_factory=list)


def call(function: Any, positional: list, keywords: list) -> Outcome:
    """Call ``function`` with new objects built from the recipes, recording what it did."""
    outcome = Outcome()
    args = [build(r, outcome.inputs) for r in positional]
    kwargs = {name: build(r, outcome.inputs) for name, r in keywords}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            outcome.result = function(*args, **kwargs)
        except Exception as exc:  # every class NumPy raises is a possible answer
            outcome.error = exc
    outcome.warned = tuple(sorted({w.category.__name__ for w in caught}))
    return outcome
