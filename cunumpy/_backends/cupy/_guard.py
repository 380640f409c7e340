"""Running the CuPy namespace's functions on the GPU that holds their inputs.

CuPy runs every kernel on the *current* GPU. Given an array on another GPU it either
raises or, when peer access between the two GPUs is enabled, computes on the current GPU
through the interconnect. The standard asks that a function run where its inputs live, so
with more than one visible GPU every function of the namespace that takes arrays is
wrapped by ``on_input_device``: it finds the one GPU of its array arguments, makes it
current for the call, and raises ``ValueError`` naming both GPUs when the arrays are on
two. With a single visible GPU every array and the current device are that GPU, the
wrapper would change nothing, and the namespace keeps CuPy's own objects.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, MutableMapping
from typing import Any

import cupy

__all__ = ["common_gpu", "guard_functions", "on_input_device"]

_get_device_id = cupy.cuda.runtime.getDevice
_Device = cupy.cuda.Device
_ndarray = cupy.ndarray
_SEQUENCES = (list, tuple)


def _gpus_of(values: Iterable[Any]) -> Iterable[int]:
    """The GPU index of every CuPy array in ``values``, one level of lists deep."""
    for value in values:
        if isinstance(value, _ndarray):
            yield value.data.device_id
        elif isinstance(value, _SEQUENCES):
            for item in value:
                if isinstance(item, _ndarray):
                    yield item.data.device_id


def common_gpu(args: tuple[Any, ...], kwargs: dict[str, Any], func: str) -> int | None:
    """The GPU index all CuPy arrays among the arguments share, or None if there are none.

    Raises ``ValueError`` naming ``func`` and both GPUs when two arrays are on different GPUs.
    """
    found: int | None = None
    for index in _gpus_of((*args, *kwargs.values())):
        if found is None:
            found = index
        elif index != found:
            msg = (
                f"{func}: the arrays are on different GPUs (cuda:{found} and cuda:{index}); "
                f"move them to one GPU first, for example with cunumpy.to_device(x, "
                f"'cuda:{found}')."
            )
            raise ValueError(msg)
    return found


def on_input_device(func: Callable[..., Any], name: str) -> Callable[..., Any]:
    """``func`` run with the GPU of its array arguments current (see the module docstring)."""

    @functools.wraps(func)
    def run_on_input_device(*args: Any, **kwargs: Any) -> Any:
        index = common_gpu(args, kwargs, name)
        if index is None or index == _get_device_id():
            return func(*args, **kwargs)
        with _Device(index):
            return func(*args, **kwargs)

    run_on_input_device.__name__ = run_on_input_device.__qualname__ = name  # ufuncs: "cupy_add"
    return run_on_input_device


def guard_functions(namespace: MutableMapping[str, Any], names: Iterable[str]) -> None:
    """Replace each function among ``names`` in ``namespace`` by its ``on_input_device`` form.

    Data types and other classes, modules and constants among ``names`` are left alone.
    """
    for name in names:
        value = namespace[name]
        if callable(value) and not isinstance(value, type):
            namespace[name] = on_input_device(value, name)
