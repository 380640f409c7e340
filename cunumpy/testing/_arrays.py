"""What the assertions need to know about an array: its namespace, dtype and device as
short names, and a NumPy copy of its values (the only place data leaves its device).

Nothing here imports CuPy, PyTorch or JAX: arrays are recognized by their type's module.
"""

from __future__ import annotations

import re
from types import ModuleType
from typing import Any

import numpy as np

from .._namespaces._array_namespace import array_namespace, is_cupy_array, is_numpy_array
from .._namespaces._array_predicates import is_dask_array
from .._placement._transfer_log import active, describe, note_transfer

__all__ = [
    "array_device_label",
    "check_flags",
    "check_is_array",
    "check_numeric",
    "check_tolerance",
    "device_label",
    "dtype_label",
    "host_copy",
    "namespace_label",
    "namespace_of_array",
]

# Accepted in place of an array: nothing. Python scalars and sequences say nothing about the
# namespace, dtype or device a result should have, so expected values are built with xp.asarray.
_NOT_ARRAYS = (bool, int, float, complex, list, tuple, str, bytes, type(None))

_STRICT_DEVICE = re.compile(r"Device\('([^']*)'\)")


def _library(x: object) -> str:
    return type(x).__module__.partition(".")[0]


def check_is_array(x: object, name: str, func: str) -> None:
    """Raise ``TypeError`` naming ``func`` and the argument ``name`` unless ``x`` is an array."""
    if isinstance(x, np.generic):  # NumPy scalars (what NumPy's reductions return) are 0-D
        return
    if isinstance(x, _NOT_ARRAYS) or not hasattr(x, "shape") or not hasattr(x, "dtype"):
        msg = (
            f"{func}: `{name}` must be an array (NumPy, CuPy, array-api-strict or one "
            f"array-api-compat knows), not {type(x).__name__} {x!r:.60}; build expected "
            f"values with xp.asarray(...) in the namespace under test."
        )
        raise TypeError(msg)


def check_numeric(host: np.ndarray, name: str, func: str) -> None:
    """Raise ``TypeError`` for a host copy whose dtype has no numbers to compare (str, ...)."""
    if host.dtype.kind not in "biufc":
        msg = (
            f"{func}: `{name}` has dtype {host.dtype}, which is not a numeric dtype; "
            "expected an array of a bool, integer, real floating or complex dtype."
        )
        raise TypeError(msg)


def namespace_of_array(x: Any, name: str, func: str) -> ModuleType:
    """The namespace ``x`` belongs to (cunumpy's for NumPy and CuPy arrays); where
    ``array_namespace`` refuses it (a masked array, a ``numpy.matrix``), its ``TypeError``
    names the assertion ``func`` and the argument ``name``."""
    try:
        return array_namespace(x)
    except TypeError as exc:
        msg = f"{func}: `{name}`: {exc}"
        raise TypeError(msg) from None


def namespace_label(namespace: ModuleType) -> str:
    """A short name for a namespace: the plugin's id where it has one, else the module name."""
    name = namespace.__name__
    if name == "cunumpy._backends.numpy":
        return "numpy"
    if name == "cunumpy._backends.cupy":
        return "cupy"
    if name == "array_api_compat.torch":
        return "torch"
    if name in ("jax.numpy", "jax.experimental.array_api"):
        return "jax"
    return name


def dtype_label(dtype: Any) -> str:
    """``"float64"`` for the float64 of NumPy, CuPy, JAX, PyTorch and array-api-strict alike."""
    try:
        return str(np.dtype(dtype).name)
    except TypeError:
        pass
    text = str(dtype)
    return text.rpartition(".")[2] if text.startswith(("torch.", "array_api_strict.")) else text


def device_label(device: Any) -> str:
    """``"cpu"`` for every host device, ``"cuda:N"`` for GPU N, else the device's own name.

    array-api-strict's ``CPU_DEVICE`` is ``"cpu"``; its simulated devices keep their names
    (``"device1"``, ``"no_float64"``, ...), so arrays on them never pass for host arrays.
    """
    if isinstance(device, str):
        return device
    library = _library(device)
    if library == "cupy":
        return f"cuda:{int(device.id)}"
    if library == "array_api_strict":
        match = _STRICT_DEVICE.search(repr(device))
        name = match.group(1) if match else str(device)
        return "cpu" if name == "CPU_DEVICE" else name
    platform = getattr(device, "platform", None)  # JAX
    if isinstance(platform, str):
        return "cpu" if platform == "cpu" else f"cuda:{int(device.id)}"
    return str(device)  # torch.device: "cpu", "cuda:0"


def array_device_label(x: Any) -> str:
    """The :func:`device_label` of the device ``x`` lives on."""
    if is_numpy_array(x):
        return "cpu"
    if is_cupy_array(x):
        return f"cuda:{int(x.device.id)}"
    if is_dask_array(x):  # the device of its chunks, read from its meta
        from .._backends.dask import device as dask_device

        return device_label(dask_device(x))
    device = getattr(x, "device", None)
    if callable(device):  # JAX arrays before 0.4.32 have a .device() method
        device = device()
    if device is None:
        import array_api_compat

        device = array_api_compat.device(x)
    return device_label(device)


def host_copy(x: Any) -> np.ndarray:
    """The values of ``x`` as a NumPy array, copied from its device when it has to be."""
    if isinstance(x, np.ndarray):
        return x
    if isinstance(x, np.generic):
        return np.asarray(x)
    if is_dask_array(x):  # computing is what comparing values takes (docs/dask.md)
        return host_copy(x.compute())
    if is_cupy_array(x):
        host = np.asarray(x.get())
        if active():
            detail = f"from cuda:{x.device.id}, to compare on the host"
            note_transfer("to_host", describe("testing", x, detail), nbytes=host.nbytes)
        return host
    if _library(x) == "torch":
        return np.asarray(x.detach().resolve_conj().cpu().numpy())
    if hasattr(x, "__dlpack__"):
        try:
            return np.from_dlpack(x)  # array-api-strict on any device, JAX on the CPU, ...
        except (BufferError, RuntimeError, TypeError, ValueError):
            pass
    return np.asarray(x)  # JAX on a GPU copies through __array__


def check_flags(func: str, **flags: object) -> None:
    """Raise ``TypeError`` naming ``func`` unless every flag is a bool."""
    for name, value in flags.items():
        if not isinstance(value, bool):
            msg = f"{func}: `{name}` must be True or False, not {value!r}."
            raise TypeError(msg)


def check_tolerance(func: str, name: str, value: object) -> float:
    """``value`` as a float; ``TypeError`` unless it is a real number, ``ValueError`` if < 0."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        msg = f"{func}: `{name}` must be a real number, not {value!r}."
        raise TypeError(msg)
    if not value >= 0:  # also catches NaN
        msg = f"{func}: `{name}` must be a non-negative number, not {value!r}."
        raise ValueError(msg)
    return float(value)
