"""Fault injection, second round: masks, conversions, dtypes and arguments that are not arrays.

Each test asserts the exception type of the project's error table (``TypeError`` for a
wrong type or dtype, ``ValueError`` for a bad value), and that the message names the
function and the bad value. ``tools/probe_faults.py`` counts the same classes.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

import cunumpy as xp


def _raises(kind: type[Exception], call: Callable[[], object], *names: str) -> str:
    """Assert ``call()`` raises ``kind`` (exactly) whose message holds every one of ``names``."""
    with pytest.raises(kind) as info:
        call()
    assert type(info.value) is kind, f"{type(info.value).__name__}: {info.value}"
    text = str(info.value)
    for name in names:
        assert name in text, f"{name!r} not in {text!r}"
    return text


# --- masks: refused everywhere, never taken as data -----------------------------------


def _masked() -> np.ma.MaskedArray:
    return np.ma.masked_array([1.0, 2.0, 3.0], mask=[0, 1, 0])


@pytest.mark.parametrize(
    ("name", "call"),
    [
        ("from_dlpack", lambda: xp.from_dlpack(_masked())),
        ("from_dlpack", lambda: xp.from_dlpack(_masked(), device="cpu")),
        ("to_device", lambda: xp.to_device(_masked(), "cpu")),
        ("to_numpy", lambda: xp.to_numpy(_masked())),
        ("asarray", lambda: xp.asarray(_masked())),
        ("asarray", lambda: xp.asarray(_masked(), device="cpu")),
    ],
)
def test_masked_arrays_are_refused_by_conversions(name: str, call: Callable[[], object]) -> None:
    text = _raises(TypeError, call, name, "masked arrays are not supported")
    assert "filled" in text  # the hint: how to get an array from it


def test_masked_arrays_are_refused_by_portable_kernels() -> None:
    pytest.importorskip("numba")
    from cunumpy import kernels

    @kernels.elementwise(["float64(float64)"])
    def twice(x):  # type: ignore[no-untyped-def]
        return 2.0 * x

    assert twice(np.asarray([1.0, 2.0])).tolist() == [2.0, 4.0]  # the kernel itself works
    _raises(TypeError, lambda: twice(_masked()), "twice", "masked arrays")
    _raises(TypeError, lambda: twice(np.ones(3), out=_masked()), "twice", "masked arrays")
