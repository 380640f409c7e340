"""Host kernels with device data: a callable that expects NumPy arrays, run on CuPy arrays.

:class:`PyccelKernel` finds the CuPy arrays among a call's arguments (also inside lists,
tuples, dicts and argument objects), copies each once to the host, calls the kernel,
copies the declared outputs back into the CuPy arrays in place, and moves returned NumPy
arrays to the device. On NumPy data it calls the kernel directly. Every copy is noted
through :func:`cunumpy._placement._transfer_log.note_transfer`.
"""

from __future__ import annotations

import copy
import inspect
import sys
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..._backend_choice._config import get_backend
from ..._namespaces._array_predicates import is_cupy_array
from ..._placement._transfer_log import active, note_transfer
from ..._trace._recorder import clock
from ._pyccel_strides import foldable_args
from ._pyccel_stub import pyccel_stub_parameters

__all__ = ["HOST_TYPES", "PyccelKernel", "parameter_names"]


def parameter_names(function: Any) -> list[str] | None:
    """The positional parameter names of ``function``, or ``None`` when unknown.

    A Pyccel-compiled function has no Python signature: its names come from the stub
    Pyccel writes next to the compiled module (``__pyccel__/<module>.pyi``).
    """
    function = getattr(function, "python", function)
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return pyccel_stub_parameters(function)
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return [p.name for p in signature.parameters.values() if p.kind in positional]


# Types that never hold a CuPy array: a call checks them first (most arguments are these).
HOST_TYPES = frozenset(
    {
        np.ndarray,
        float,
        int,
        bool,
        complex,
        str,
        type(None),
        np.float64,
        np.float32,
        np.int64,
        np.int32,
        np.bool_,
    }
)


def _describe(x: Any) -> str:
    return f"{x.dtype} array of shape {tuple(x.shape)}"


class _Call:
    """The state of one converting call: the copies made, by the id of the device array."""

    def __init__(self, kernel: PyccelKernel) -> None:
        self.kernel = kernel
        self.memo: dict[int, Any] = {}
        self.copies: list[tuple[Any, np.ndarray]] = []

    def to_host(self, value: Any) -> Any:
        """``value`` with its CuPy arrays replaced by host copies (each array copied once)."""
        key = id(value)
        if key in self.memo:
            return self.memo[key]
        if is_cupy_array(value):
            started = clock()
            host = value.get()
            if active():
                note_transfer(
                    "to_host",
                    f"PyccelKernel {self.kernel.name!r} input ({_describe(value)})",
                    nbytes=int(host.nbytes),
                    started=started,
                )
            self.memo[key] = host
            self.copies.append((value, host))
            return host
        if isinstance(value, tuple):
            result: Any = tuple(self.to_host(v) for v in value)
        elif isinstance(value, list):
            result = []
            self.memo[key] = result
            result.extend(self.to_host(v) for v in value)
        elif isinstance(value, dict):
            result = {}
            self.memo[key] = result
            for k, v in value.items():
                result[k] = self.to_host(v)
        elif self.kernel._searched(value):
            result = copy.copy(value)  # the caller's object keeps its device arrays
            self.memo[key] = result
            for name, attr in vars(value).items():
                setattr(result, name, self.to_host(attr))
        else:
            return value
        self.memo[key] = result
        return result


class PyccelKernel:
    """Call a host kernel (compiled by Pyccel, Numba, or any callable taking NumPy arrays).

    On CuPy data (a CuPy array among the arguments, or the CuPy backend active) the
    CuPy arrays are copied to the host, once each, the kernel runs, the arrays it
    writes are copied back into the CuPy arrays in place, and NumPy arrays it returns
    come back on the device. On NumPy data the kernel is called directly. A positional
    array with a zero stride on an axis of length 1 (``x[:, None]``) or of an empty view
    is passed as a view of the same memory with a nonzero stride there: Pyccel's wrapper
    divides by the strides, and would end the process with SIGFPE.

    Parameters
    ----------
    kernel : callable
        The host kernel, taking NumPy arrays.
    use_cupy : bool, optional
        Convert always (``True``) or never (``False``); by default (``None``) decided at
        each call: when a CuPy array is passed or the CuPy backend is active.
    object_modules : sequence of str, optional
        Module prefixes (``("my_project.",)``) whose objects are searched attribute by
        attribute for arrays (a shallow copy holds the host arrays); other objects pass
        unchanged. Lists, tuples and dicts are always searched.
    is_array : callable, optional
        Which returned host values go to the device; default ``isinstance(v, np.ndarray)``.
    outputs : sequence of int or str, optional
        The arguments the kernel writes: positional indices (negative from the end) or
        parameter names. Only these are copied back; ``()`` means none, ``None`` (the
        default) copies back every converted array.
    parameters : sequence of str or callable, optional
        The positional parameter names (or a function returning them), for kernels
        without a Python signature; default: from the signature.

    Raises
    ------
    TypeError
        If `outputs` is a bare int or str, or holds something else than ints and strs.

    Examples
    --------
    >>> import numpy as np
    >>> import cunumpy as xp
    >>> def scale(a, x, out):
    ...     out[:] = a * x
    >>> kernel = xp.kernels.PyccelKernel(scale, outputs=(2,))
    >>> out = np.zeros(3)
    >>> kernel(2.0, np.arange(3.0), out)
    >>> out
    array([0., 2., 4.])
    """

    def __init__(
        self,
        kernel: Callable[..., Any],
        use_cupy: bool | None = None,
        object_modules: Sequence[str] = (),
        is_array: Callable[[Any], bool] | None = None,
        outputs: Sequence[int | str] | None = None,
        parameters: Sequence[str] | Callable[[], Sequence[str] | None] | None = None,
    ) -> None:
        if not callable(kernel):
            msg = f"PyccelKernel: `kernel` must be callable, not {type(kernel).__name__} ({kernel!r})."
            raise TypeError(msg)
        if outputs is not None:
            if isinstance(outputs, (int, str)):
                msg = (
                    f"PyccelKernel: `outputs` must be a sequence of argument indices or names, "
                    f"not a bare {type(outputs).__name__} {outputs!r} (write outputs=({outputs!r},))."
                )
                raise TypeError(msg)
            outputs = tuple(outputs)
            for entry in outputs:
                if isinstance(entry, bool) or not isinstance(entry, (int, str)):
                    msg = (
                        f"PyccelKernel: `outputs` entries must be argument indices (int) or "
                        f"names (str), not {entry!r}."
                    )
                    raise TypeError(msg)
        self._kernel = kernel
        self._use_cupy = use_cupy
        self._object_modules = tuple(object_modules)
        self._is_array = is_array or (lambda value: isinstance(value, np.ndarray))
        self._outputs: tuple[int | str, ...] | None = outputs
        self._parameters = parameters

    def __repr__(self) -> str:
        return (
            f"PyccelKernel({self.name!r}, use_cupy={self._use_cupy!r}, outputs={self._outputs!r})"
        )

    @property
    def name(self) -> str:
        """The name of the wrapped kernel."""
        return str(getattr(self._kernel, "__name__", type(self._kernel).__name__))

    @property
    def kernel(self) -> Callable[..., Any]:
        """The wrapped kernel."""
        return self._kernel

    @property
    def use_cupy(self) -> bool:
        """Whether a call without CuPy arrays converts now (the setting, else the backend)."""
        if self._use_cupy is not None:
            return self._use_cupy
        return get_backend() == "cupy"

    @property
    def object_modules(self) -> tuple[str, ...]:
        """The module prefixes whose objects are searched for arrays."""
        return self._object_modules

    @property
    def is_array(self) -> Callable[[Any], bool]:
        """Which returned host values are moved to the device."""
        return self._is_array

    @property
    def outputs(self) -> tuple[int | str, ...] | None:
        """The declared outputs, or ``None`` when every converted array is copied back."""
        return self._outputs

    def parameter_names(self) -> list[str] | None:
        """The positional parameter names of the kernel, or ``None`` when unknown."""
        source = self._parameters
        if source is not None:
            names = source() if callable(source) else source
            return None if names is None else list(names)
        return parameter_names(self._kernel)

    def _searched(self, value: Any) -> bool:
        """Whether ``value`` is an argument object whose attributes are searched."""
        return (
            bool(self._object_modules)
            and hasattr(value, "__dict__")
            and not isinstance(value, type)
            and type(value).__module__.startswith(self._object_modules)
        )

    def _holds_cupy(self, value: Any, seen: set[int]) -> bool:
        if is_cupy_array(value):
            return True
        if id(value) in seen:
            return False
        if isinstance(value, (tuple, list)):
            seen.add(id(value))
            return any(self._holds_cupy(v, seen) for v in value)
        if isinstance(value, dict):
            seen.add(id(value))
            return any(self._holds_cupy(v, seen) for v in value.values())
        if self._searched(value):
            seen.add(id(value))
            return any(self._holds_cupy(v, seen) for v in vars(value).values())
        return False

    def _converts(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> bool:
        if self._use_cupy is not None:
            return self._use_cupy
        if get_backend() == "cupy":
            return True
        for value in (*args, *kwargs.values()) if kwargs else args:
            if type(value) not in HOST_TYPES and self._holds_cupy(value, set()):
                return True
        return False

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Run the kernel; on CuPy data through host copies (see the class)."""
        if not self._converts(args, kwargs):
            return self._kernel(*foldable_args(args), **kwargs)
        call = _Call(self)
        host_args = [call.to_host(a) for a in args]
        host_kwargs = {k: call.to_host(v) for k, v in kwargs.items()}
        written = None if self._outputs is None else self._written(host_args, host_kwargs)
        if call.copies and active():
            note_transfer(
                "kernel_conversion",
                f"PyccelKernel {self.name!r}: {len(call.copies)} CuPy array(s) through the host",
            )
        result = self._kernel(*foldable_args(tuple(host_args)), **host_kwargs)
        for device_array, host in call.copies:
            if written is None or id(host) in written:
                self._copy_back(device_array, host)
        return self._returned(result)

    def _copy_back(self, device_array: Any, host: np.ndarray) -> None:
        if active():
            note_transfer(
                "to_device",
                f"PyccelKernel {self.name!r} output ({_describe(device_array)})",
                nbytes=int(host.nbytes),
            )
        with device_array.device:
            device_array[...] = sys.modules["cupy"].asarray(host)

    def _returned(self, value: Any) -> Any:
        if self._is_array(value):
            if active():
                note_transfer(
                    "to_device",
                    f"PyccelKernel {self.name!r} result ({_describe(value)})",
                    nbytes=int(getattr(value, "nbytes", 0)),
                )
            return _to_device(value, None)
        if isinstance(value, tuple):
            return tuple(self._returned(v) for v in value)
        if isinstance(value, list):
            return [self._returned(v) for v in value]
        return value

    def _written(self, args: list[Any], kwargs: dict[str, Any]) -> set[int]:
        """The ids of the host arrays reachable from the declared outputs."""
        found: set[int] = set()
        names = self.parameter_names()
        for entry in self._outputs or ():
            target = _resolve(entry, args, kwargs, names, self.name)
            self._collect(target, found, set())
        return found

    def _collect(self, value: Any, found: set[int], seen: set[int]) -> None:
        if isinstance(value, np.ndarray):
            found.add(id(value))
            return
        if id(value) in seen:
            return
        seen.add(id(value))
        if isinstance(value, (tuple, list)):
            for v in value:
                self._collect(v, found, seen)
        elif isinstance(value, dict):
            for v in value.values():
                self._collect(v, found, seen)
        elif self._searched(value):
            for v in vars(value).values():
                self._collect(v, found, seen)


def _resolve(
    entry: int | str, args: list[Any], kwargs: dict[str, Any], names: list[str] | None, func: str
) -> Any:
    """The argument that the `outputs` entry ``entry`` names in this call."""
    if isinstance(entry, int):
        index = entry + len(args) if entry < 0 else entry
        if 0 <= index < len(args):
            return args[index]
        if names is not None and 0 <= entry < len(names) and names[entry] in kwargs:
            return kwargs[names[entry]]
        msg = (
            f"{func}: output {entry} was declared, but the call passed {len(args)} positional "
            "argument(s); declare an output passed by keyword by its name."
        )
        raise IndexError(msg)
    if entry in kwargs:
        return kwargs[entry]
    if names is not None and entry in names and names.index(entry) < len(args):
        return args[names.index(entry)]
    known = "unknown" if names is None else ", ".join(names)
    msg = (
        f"{func}: output {entry!r} was declared, but the call has no argument of that name "
        f"(parameters: {known}); declare a positional output of a compiled kernel by index."
    )
    raise KeyError(msg)


def _to_device(host: Any, device: Any) -> Any:
    """``host`` as a CuPy array on ``device`` (default: the current GPU)."""
    cupy = sys.modules["cupy"]
    if device is None:
        return cupy.asarray(host)
    with device:
        return cupy.asarray(host)
