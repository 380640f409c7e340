"""Device specifications turned into one canonical form: ``"cpu"`` or a GPU index.

Accepted everywhere cunumpy takes a device: ``"cpu"`` (NumPy's device), an ``int`` GPU
index, ``"cuda"`` (the current GPU), ``"cuda:N"`` (``N`` in ASCII digits), their aliases
``"gpu"`` and ``"gpu:N"``, a ``cupy.cuda.Device``, and the ``.device`` of a NumPy or CuPy
array. Strings ignore case and surrounding spaces. Only a GPU answer needs CuPy.
"""

from __future__ import annotations

import sys
from typing import Any, Literal

__all__ = ["DLPACK_CUDA", "DLPACK_HOST", "Canonical", "canonical_device", "dlpack_device_type"]

Canonical = Literal["cpu"] | int

_ACCEPTED = (
    "'cpu', an int GPU index, 'cuda' or 'gpu' (the current GPU), 'cuda:N' or 'gpu:N', a "
    "cupy.cuda.Device, or the .device of a NumPy or CuPy array"
)


def _visible_gpus(func: str) -> int:
    from ._cupy import require_cupy, visible_gpu_count

    require_cupy(func)
    return visible_gpu_count()


def _checked_index(index: int, func: str) -> int:
    count = _visible_gpus(func)
    if not 0 <= index < count:
        msg = f"{func}: GPU index {index!r} is out of range; {count} GPU(s) are visible (0 to {count - 1})."
        raise ValueError(msg)
    return index


def canonical_device(device: Any, func: str) -> Canonical:
    """Return ``"cpu"`` or a valid GPU index for ``device``; raise naming ``func`` if invalid.

    CPU devices never import CuPy; GPU devices require a usable CuPy (``RuntimeError``
    with the reason otherwise), and their index must be a visible GPU (``ValueError``).
    """
    if isinstance(device, str):
        text = device.strip().lower()
        if text == "cpu":
            return "cpu"
        if text == "cuda" or text == "gpu":
            from ._cupy import require_cupy

            return int(require_cupy(func).cuda.runtime.getDevice())
        prefix, _, number = text.partition(":")
        if prefix in ("cuda", "gpu") and number.isascii() and number.isdigit():
            return _checked_index(int(number), func)
        msg = f"{func}: unknown device {device!r}; expected {_ACCEPTED}."
        raise ValueError(msg)
    if isinstance(device, bool):
        msg = f"{func}: a device cannot be a bool ({device!r}); expected {_ACCEPTED}."
        raise TypeError(msg)
    if isinstance(device, int):
        if device < 0:
            msg = f"{func}: GPU index {device!r} is negative; expected {_ACCEPTED}."
            raise ValueError(msg)
        return _checked_index(device, func)
    cupy = sys.modules.get("cupy")
    if cupy is not None and isinstance(device, cupy.cuda.Device):
        return _checked_index(int(device.id), func)
    type_name = type(device).__module__.partition(".")[0]
    if type_name == "array_api_strict" and str(device).upper().startswith("CPU"):
        return "cpu"
    msg = f"{func}: cannot use {device!r} (of type {type(device).__name__}) as a device; expected {_ACCEPTED}."
    raise TypeError(msg)


DLPACK_HOST = (1, 3)  # kDLCPU, kDLCUDAHost (pinned host memory: NumPy imports it)
DLPACK_CUDA = (2, 13)  # kDLCUDA, kDLCUDAManaged (what CuPy imports)


def dlpack_device_type(x: Any, func: str) -> int:
    """The DLPack device type of producer ``x``; ``TypeError`` naming ``func`` if it has none."""
    try:
        return int(x.__dlpack_device__()[0])
    except AttributeError:
        msg = f"{func}: {type(x).__name__} does not support DLPack (no __dlpack_device__)."
        raise TypeError(msg) from None
