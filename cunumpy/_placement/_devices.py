"""Device specifications, ours and other libraries', turned into one canonical form.

Accepted everywhere cunumpy takes a device: ``"cpu"`` (NumPy's device), an ``int`` GPU
index, ``"cuda"`` (the current GPU), ``"cuda:N"`` (also spelled ``"gpu"``, ``"gpu:N"``),
a ``cupy.cuda.Device``, the ``.device`` of a NumPy or CuPy array, and the CPU and CUDA
device objects of other libraries (``torch.device``, JAX devices,
``array_api_strict.Device('CPU_DEVICE')``). Only a GPU answer needs CuPy.

The other direction is here too: ``library_device`` names the device of another
library's array that a spec asks for (``"cpu"`` is that library's CPU device), so
``to_device`` can hand arrays that cunumpy does not own to their own library.
"""

from __future__ import annotations

import sys
from typing import Any, Literal, Optional

from .._settings._cupy_probe import (
    CupyUnavailableError,
    cupy_available,
    cupy_unavailable_reason,
    visible_gpu_count,
)
from .._settings._errors import AttributeTypeError

__all__ = [
    "DLPACK_CUDA",
    "DLPACK_HOST",
    "Canonical",
    "Request",
    "canonical_device",
    "cpu_or_cuda_request",
    "dlpack_device_type",
    "library_device",
    "parse_device",
]

Canonical = Literal["cpu"] | int

#: What a device spec asks for, before any GPU is checked: the CPU, the current GPU
#: (``("cuda", None)``) or GPU ``n``; None for another library's device that is neither.
Request = Optional[tuple[Literal["cpu", "cuda"], Optional[int]]]

_ACCEPTED = (
    "'cpu', an int GPU index, 'cuda' or 'gpu', 'cuda:N' or 'gpu:N', a cupy.cuda.Device, the .device of an "
    "array, or another library's CPU or CUDA device (torch.device, a JAX device, "
    "array_api_strict.Device('CPU_DEVICE'))"
)


def _parse_text(device: str, func: str) -> Request:
    text = device.strip().lower()
    if text == "cpu":
        return ("cpu", None)
    if text in ("cuda", "gpu"):
        return ("cuda", None)
    prefix, _, number = text.partition(":")
    if prefix in ("cuda", "gpu") and number.isascii() and number.isdigit():
        return ("cuda", int(number))
    msg = f"{func}: unknown device {device!r}; expected {_ACCEPTED}."
    raise ValueError(msg)


def _torch_request(device: Any) -> Request:
    kind = getattr(device, "type", None)
    if kind == "cpu":
        return ("cpu", None)
    if kind == "cuda":
        return ("cuda", device.index)
    return None  # meta, mps, xpu, ...


def _jax_request(device: Any) -> Request:
    platform = getattr(device, "platform", None)
    if platform == "cpu":
        return ("cpu", None)
    if platform in ("gpu", "cuda"):
        index = getattr(device, "local_hardware_id", None)
        return ("cuda", int(device.id if index is None else index))
    return None  # tpu, ...


def _strict_request(device: Any) -> Request:
    strict = sys.modules["array_api_strict"]
    return ("cpu", None) if device == strict.Device("CPU_DEVICE") else None


# Other libraries' device classes, by the top-level package that defines them.
_FOREIGN_READERS = {
    "torch": _torch_request,
    "jax": _jax_request,
    "jaxlib": _jax_request,
    "array_api_strict": _strict_request,
}


def _library_of(obj: object) -> str:
    return type(obj).__module__.partition(".")[0]


def parse_device(device: Any, func: str) -> Request:
    """What ``device`` asks for, from its spelling alone (no GPU is looked at).

    Raises ``ValueError`` for an unknown string or a negative index and ``TypeError`` for
    an object that is no device cunumpy knows, both naming ``func``.
    """
    if isinstance(device, str):
        return _parse_text(device, func)
    if isinstance(device, bool):
        msg = f"{func}: a device cannot be a bool ({device!r}); expected {_ACCEPTED}."
        raise TypeError(msg)
    if isinstance(device, int):
        if device < 0:
            msg = f"{func}: GPU index {device!r} is negative; expected {_ACCEPTED}."
            raise ValueError(msg)
        return ("cuda", int(device))
    cupy = sys.modules.get("cupy")
    if cupy is not None and isinstance(device, cupy.cuda.Device):
        return ("cuda", int(device.id))
    reader = _FOREIGN_READERS.get(_library_of(device))
    if reader is not None:
        return reader(device)
    msg = f"{func}: cannot use {device!r} (of type {type(device).__name__}) as a device; expected {_ACCEPTED}."
    raise TypeError(msg)


def cpu_or_cuda_request(device: Any, func: str) -> tuple[Literal["cpu", "cuda"], int | None]:
    """What ``device`` asks for, from its spelling alone, if it is a CPU or a CUDA GPU.

    Raises as :func:`parse_device` does, and ``ValueError`` for another library's device
    that is neither (NumPy and CuPy arrays live on no other).
    """
    request = parse_device(device, func)
    if request is None:
        msg = (
            f"{func}: {device!r} is neither a CPU nor a CUDA GPU, the only devices NumPy "
            f"and CuPy arrays live on; expected {_ACCEPTED}."
        )
        raise ValueError(msg)
    return request


def _visible_gpus(index: int | None, func: str) -> int:
    """How many GPUs are usable; without a usable CuPy, the error that names ``index``."""
    if not cupy_available():
        named = "the current GPU" if index is None else f"GPU {index}"
        msg = (
            f"{func}: {named} was asked for, but this process has 0 usable GPUs: the CuPy "
            f"backend is not usable: {cupy_unavailable_reason()}."
        )
        raise CupyUnavailableError(msg)
    return visible_gpu_count()


def _checked_index(index: int, func: str) -> int:
    count = _visible_gpus(index, func)
    if not 0 <= index < count:
        msg = f"{func}: GPU index {index!r} is out of range; {count} GPU(s) are visible (0 to {count - 1})."
        raise ValueError(msg)
    return index


def canonical_device(device: Any, func: str) -> Canonical:
    """Return ``"cpu"`` or a valid GPU index for ``device``; raise naming ``func`` if invalid.

    CPU devices never import CuPy; GPU devices require a usable CuPy (``RuntimeError``
    with the reason otherwise), and their index must be a visible GPU (``ValueError``).
    Another library's device that is neither a CPU nor a CUDA GPU is a ``ValueError``.
    """
    if type(device) is str and device == "cpu":  # the common case, first
        return "cpu"
    kind, index = cpu_or_cuda_request(device, func)
    if kind == "cpu":
        return "cpu"
    if index is None:
        _visible_gpus(None, func)
        return int(sys.modules["cupy"].cuda.runtime.getDevice())
    return _checked_index(index, func)


def _quiet_request(device: object) -> Request:
    try:
        return parse_device(device, "")
    except (TypeError, ValueError):
        return None


def library_device(x: Any, device: Any, namespace: Any, func: str) -> Any:
    """The device of ``x``'s own library (``namespace``) that ``device`` asks for.

    A device object of that library is returned as it is (the library checks it);
    cunumpy's spellings and other libraries' CPU and CUDA devices are matched against
    the library's ``__array_namespace_info__().devices()``.
    """
    own = getattr(x, "device", None)
    if device is own or (
        not isinstance(device, (str, int)) and _library_of(device) == _library_of(own)
    ):
        return device
    wanted = parse_device(device, func)
    try:
        devices = list(namespace.__array_namespace_info__().devices())
    except AttributeError:
        devices = [own]
    for candidate in devices:
        found = _quiet_request(candidate)
        if found is not None and found == wanted:
            return candidate
        if found is not None and wanted == ("cuda", None) and found[0] == "cuda":
            return candidate  # "cuda" alone: the first CUDA device the library lists
    msg = (
        f"{func}: {device!r} matches no device of {_library_of(x)}, whose devices are "
        f"{devices!r}; pass one of them."
    )
    raise ValueError(msg)


DLPACK_HOST = (1, 3)  # kDLCPU, kDLCUDAHost (pinned host memory: NumPy imports it)
DLPACK_CUDA = (2, 13)  # kDLCUDA, kDLCUDAManaged (what CuPy imports)


def dlpack_device_type(x: Any, func: str) -> int:
    """The DLPack device type of producer ``x``; ``TypeError`` naming ``func`` if it has none
    (an ``AttributeTypeError``: NumPy's ``from_dlpack`` raises ``AttributeError``)."""
    try:
        return int(x.__dlpack_device__()[0])
    except AttributeError:
        msg = f"{func}: {type(x).__name__} does not support DLPack (no __dlpack_device__)."
        raise AttributeTypeError(msg) from None
