"""NumPy's calls at the top level: a corpus of NumPy idioms answered as NumPy answers them.

Each idiom of ``tests/numpy_idioms.py`` runs with ``cunumpy`` and with ``numpy``; the
answers must have the same type, dtype, shape and value, or both calls raise the same
class, ours with a message that names the function. The same corpus runs on the fake
CuPy in ``tests/fake_cupy/test_numpy_calls_fake_cupy.py``.
"""

from __future__ import annotations

import inspect

import numpy as np
import pytest
from numpy_idioms import IDIOMS, compare, function_name, outcome, public_class

import cunumpy as xp


@pytest.mark.parametrize("name", list(IDIOMS))
def test_numpy_idiom_gives_numpys_answer(name: str) -> None:
    idiom = IDIOMS[name]
    kind, reference = outcome(idiom, np)
    if kind == "value":
        compare(idiom(xp), reference)
        return
    with pytest.raises(public_class(reference)) as info:
        idiom(xp)
    assert str(info.value).startswith(f"{function_name(name)}:"), str(info.value)


def test_the_corpus_covers_the_issues_idioms() -> None:
    assert len(IDIOMS) >= 72
    for idiom in ("mean(m, 1)", "where(cond)", "squeeze(a)", "zeros(dtype=object)"):
        assert idiom in IDIOMS


def test_out_is_the_array_numpy_writes() -> None:
    x = np.linspace(0.0, 1.0, 4)
    y = np.empty(4)
    assert xp.cos(x, out=y) is y
    np.testing.assert_array_equal(y, np.cos(x))


def test_signatures_show_the_standards_parameters_and_numpys_call() -> None:
    parameters = inspect.signature(xp.mean).parameters
    assert list(parameters) == ["x", "args", "axis", "keepdims", "kwargs"]
    assert parameters["args"].kind is inspect.Parameter.VAR_POSITIONAL
    assert parameters["kwargs"].kind is inspect.Parameter.VAR_KEYWORD
    where = inspect.signature(xp.where).parameters
    assert repr(where["x1"].default) == "<omitted>"
    assert "NumPy's call" in (xp.sqrt.__doc__ or "")
    assert "numpy.arccos" in (xp.acos.__doc__ or "")


def test_the_standard_call_keeps_the_fast_path() -> None:
    x = np.arange(3.0)
    assert xp.asarray(x) is x
    assert type(xp.sum(x)) is type(np.sum(x))
