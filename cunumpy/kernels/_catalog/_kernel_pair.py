"""``Kernel``: a host kernel and its CUDA port; a call runs the one that matches the data.

Device calls go through the launch path of the portable kernels (:mod:`.._call_device`):
``locate`` checks the arguments' libraries, GPUs and ``stream``, ``on_gpu`` makes that GPU
and stream current while the CUDA kernel is queued.
"""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from ..._backend_choice._config import get_backend
from ..._namespaces._array_predicates import is_cupy_array
from ..._placement._transfer_log import active, note_transfer
from ..._settings._cupy_probe import require_cupy
from .. import _implementations as implementations
from .._call_device import locate, on_gpu
from .._host._host_kernel import HOST_TYPES, PyccelKernel, parameter_names
from ._kernel_folder import read_kernel_folder

__all__ = ["Kernel"]

_MISSING_CUDA = ("raise", "fallback")
_DISPATCH = ("arrays", "backend")


def _device_values(args: Sequence[Any]) -> list[Any]:
    """The CuPy arrays and CUDA argument objects among ``args`` (and in their containers)."""
    found: list[Any] = []
    for arg in args:
        if type(arg) in HOST_TYPES:
            continue
        items = (
            arg.values()
            if isinstance(arg, dict)
            else arg
            if isinstance(arg, (list, tuple))
            else (arg,)
        )
        for item in items:
            if is_cupy_array(item) or callable(getattr(type(item), "__cuda_args__", None)):
                found.append(item)
    return found


class Kernel:
    """A host kernel and its CUDA counterpart; a call runs the one that matches the data.

    Compute follows data: with a CuPy array (or an object with ``__cuda_args__``) among
    the arguments the CUDA kernel runs on that array's GPU, with NumPy data the host
    kernel runs directly; a call without arrays follows the current backend.

    Parameters
    ----------
    host_kernel : PyccelKernel or callable
        The host kernel; a plain callable is wrapped in a :class:`PyccelKernel`.
    cuda_kernel : callable, optional
        The CUDA kernel (a :class:`CudaKernel`, or any callable taking the same arguments
        and the launch keywords it is given); ``None`` while it is not written.
    name : str, optional
        Default: the host kernel's name.
    missing_cuda : {"raise", "fallback"}, optional
        On device data without a CUDA kernel: raise ``NotImplementedError``, or run the
        host kernel through host copies (counted, ``RuntimeWarning`` once).
    cuda_path : str or Path, optional
        Where the CUDA kernel is expected; named in the error.
    host_options : mapping, optional
        :class:`PyccelKernel` options for a plain callable, e.g. ``{"outputs": (1,)}``.
    dispatch : {"arrays", "backend"}, optional
        ``"arrays"`` (default): by the arguments, as above. ``"backend"``: by the current
        backend only (CuNumpy 0.7.1's default).
    test_args : str, optional
        Dotted name of the kernel's test-arguments module (see
        :func:`cunumpy.kernel_testing.check_parity`).

    Raises
    ------
    ValueError
        If `missing_cuda` or `dispatch` is unknown, or `host_options` comes with a
        :class:`PyccelKernel`.
    TypeError
        If `cuda_kernel` is not callable.

    Examples
    --------
    >>> import numpy as np
    >>> import cunumpy as xp
    >>> def scale(x, out):
    ...     out[:] = 2 * x
    >>> kernel = xp.kernels.Kernel(scale)
    >>> out = np.empty(3)
    >>> kernel(np.arange(3.0), out)
    >>> out
    array([0., 2., 4.])
    """

    def __init__(
        self,
        host_kernel: PyccelKernel | Callable[..., Any],
        cuda_kernel: Callable[..., Any] | None = None,
        *,
        name: str | None = None,
        missing_cuda: str = "raise",
        cuda_path: str | Path | None = None,
        host_options: Mapping[str, Any] | None = None,
        dispatch: str = "arrays",
        test_args: str | None = None,
    ) -> None:
        if missing_cuda not in _MISSING_CUDA:
            msg = f"Kernel: `missing_cuda` must be one of {_MISSING_CUDA}, not {missing_cuda!r}."
            raise ValueError(msg)
        if dispatch not in _DISPATCH:
            msg = f"Kernel: `dispatch` must be one of {_DISPATCH}, not {dispatch!r}."
            raise ValueError(msg)
        if cuda_kernel is not None and not callable(cuda_kernel):
            msg = f"Kernel: `cuda_kernel` must be a CudaKernel (or callable) or None, not {cuda_kernel!r}."
            raise TypeError(msg)
        if isinstance(host_kernel, PyccelKernel):
            if host_options:
                msg = "Kernel: `host_options` wrap a plain callable; configure the given PyccelKernel itself."
                raise ValueError(msg)
        else:
            host_kernel = PyccelKernel(host_kernel, **(host_options or {}))
        if host_kernel._parameters is None:
            host_kernel._parameters = self.host_parameters
        self._host = host_kernel
        self._cuda = cuda_kernel
        self._name = name if name is not None else host_kernel.name
        self._missing_cuda = missing_cuda
        self._cuda_path = None if cuda_path is None else Path(cuda_path)
        self._dispatch = dispatch
        self._test_args_module = test_args
        self._test_args: ModuleType | None = None
        self._warned = False

    @classmethod
    def from_folder(cls, package: str, **options: Any) -> Kernel:
        """Build the kernel of one kernel folder (``<name>/<name>_kernels.py`` + ``<name>_cuda.cu``).

        Parameters
        ----------
        package : str
            Dotted name of the kernel folder.
        **options
            As for :meth:`KernelCatalog.from_package`.

        Returns
        -------
        Kernel
            The folder's kernel.

        Examples
        --------
        >>> import cunumpy as xp
        >>> kernel = xp.kernels.Kernel.from_folder("my_sim.kernels.push")  # doctest: +SKIP
        """
        return cls(**read_kernel_folder(package, **options))

    def __repr__(self) -> str:
        return f"Kernel(name={self._name!r}, cuda={self._cuda is not None}, missing_cuda={self._missing_cuda!r})"

    @property
    def name(self) -> str:
        """The kernel's name."""
        return self._name

    @property
    def host_kernel(self) -> PyccelKernel:
        """The host kernel."""
        return self._host

    @property
    def cuda_kernel(self) -> Any:
        """The CUDA kernel, or ``None``."""
        return self._cuda

    @property
    def has_cuda(self) -> bool:
        """Whether there is a CUDA kernel."""
        return self._cuda is not None

    @property
    def missing_cuda(self) -> str:
        """``"raise"`` or ``"fallback"``."""
        return self._missing_cuda

    @property
    def cuda_path(self) -> Path | None:
        """Where the CUDA kernel is expected, if known."""
        return self._cuda_path

    @property
    def dispatch(self) -> str:
        """``"arrays"`` or ``"backend"``."""
        return self._dispatch

    @property
    def test_args_module(self) -> str | None:
        """Dotted name of the test-arguments module, or ``None``."""
        return self._test_args_module

    @property
    def test_args(self) -> ModuleType | None:
        """The test-arguments module (imported on first access), or ``None``."""
        if self._test_args is None and self._test_args_module is not None:
            self._test_args = importlib.import_module(self._test_args_module)
        return self._test_args

    @property
    def implementations(self) -> tuple[str, ...]:
        """The implementations' names, e.g. ``("numpy", "python", "cuda")``."""
        function = self._host.kernel
        host = (
            function.names
            if isinstance(function, implementations.HostImplementations)
            else ("host",)
        )
        return (*host, "cuda") if self._cuda is not None else host

    def host_parameters(self) -> list[str] | None:
        """The host kernel's positional parameter names, or ``None`` when unknown.

        For a compiled kernel (Pyccel) they come from the Python definition, or from the
        stub Pyccel writes (``__pyccel__/<module>.pyi``), as in CuNumpy 0.7.0.

        Returns
        -------
        list of str or None
            The names, in order.

        Examples
        --------
        >>> import cunumpy as xp
        >>> xp.kernels.Kernel(lambda x, out: None, name="copy").host_parameters()
        ['x', 'out']
        """
        return parameter_names(self._host.kernel)

    def check_signature(self) -> None:
        """Check that the host and CUDA kernels take the same parameters (by name, in order).

        Raises
        ------
        ValueError
            If they differ; the message shows both lists.
        """
        host = self.host_parameters()
        signature = getattr(self._cuda, "signature", None)
        if host is None or signature is None:
            return
        cuda = [p.name for p in signature]
        if host != cuda:
            msg = f"kernel {self._name!r}: the host kernel takes ({', '.join(host)}), the CUDA kernel ({', '.join(cuda)})."
            raise ValueError(msg)

    def selected(self, device: bool = False) -> str:
        """The implementation a call runs now: ``"cuda"`` or ``"host"`` for device data.

        Parameters
        ----------
        device : bool, optional
            Ask for device data instead of host data.

        Returns
        -------
        str
            The host implementation's name (``"host"`` for a plain host kernel), or for
            device data ``"cuda"`` or ``"host"`` (the fallback).

        Examples
        --------
        >>> import cunumpy as xp
        >>> xp.kernels.Kernel(lambda x: None, name="noop").selected()
        'host'
        """
        if device:
            return "cuda" if self._device_kernel(warn=False) is self._cuda else "host"
        function = self._host.kernel
        return (
            function.selected()
            if isinstance(function, implementations.HostImplementations)
            else "host"
        )

    def get_kernel(self) -> Any:
        """The kernel for the current backend (call at setup to fail early on a missing port)."""
        if get_backend() != "cupy":
            return self._host
        return self._device_kernel()

    def _device_kernel(self, *, warn: bool = True) -> Any:
        if self._cuda is not None:
            return self._cuda
        if implementations.get_device_kernel_implementation() == "cuda":
            msg = f"kernel {self._name!r} has no 'cuda' implementation, which set_device_kernel_implementation('cuda') requires."
            raise LookupError(msg)
        if self._missing_cuda == "raise":
            where = "" if self._cuda_path is None else f" (expected at {self._cuda_path})"
            msg = (
                f"kernel {self._name!r} has no CUDA version{where}; write it, or pass "
                "missing_cuda='fallback' to run the host kernel through host copies."
            )
            raise NotImplementedError(msg)
        if warn and not self._warned:
            self._warned = True
            warnings.warn(
                f"kernel {self._name!r} has no CUDA version: running the host kernel, which "
                "copies its arrays to the host and back at every call.",
                RuntimeWarning,
                stacklevel=4,
            )
        return self._host

    def compile(self) -> bool:
        """Compile the CUDA kernel now, if there is one; return whether there is one."""
        if self._cuda is None:
            return False
        compile_now = getattr(self._cuda, "compile", None)
        if compile_now is not None:
            compile_now()
        return True

    def __call__(
        self,
        *args: Any,
        n_threads: int | Sequence[int] | None = None,
        grid: int | Sequence[int] | None = None,
        block: int | Sequence[int] | None = None,
        shared_mem: int = 0,
        stream: Any = None,
    ) -> Any:
        """Run the host or the CUDA kernel, as the data (or `dispatch`) chooses.

        Parameters
        ----------
        *args
            The kernel's arguments.
        n_threads, grid, block, shared_mem, stream
            The CUDA kernel's launch configuration (ignored by the host kernel; a
            `stream` with host data raises ``ValueError``).

        Returns
        -------
        object
            What the kernel returns.
        """
        device_values = _device_values(args)
        if self._dispatch == "arrays":
            on_device = bool(device_values) or (get_backend() == "cupy" and not _holds_numpy(args))
        else:
            on_device = get_backend() == "cupy"
        if not on_device:
            if stream is not None:
                locate([], (), stream, self._name, strict=False)  # raises for the CPU
            return self._host(*args)
        arrays = [v for v in device_values if is_cupy_array(v)]
        device = locate(arrays, (), stream, self._name, strict=False)
        kernel = self._device_kernel()
        if kernel is self._host:
            if active():
                note_transfer(
                    "fallback",
                    f"Kernel {self._name!r} has no CUDA version: host kernel on device data",
                )
            return self._host(*args)
        launch: dict[str, Any] = {
            key: value
            for key, value in (("n_threads", n_threads), ("grid", grid), ("block", block))
            if value is not None
        }
        if shared_mem:
            launch["shared_mem"] = shared_mem
        if device == "cpu":  # dispatch="backend" with host arrays: the current GPU, as 0.7.1
            device = int(require_cupy(self._name).cuda.runtime.getDevice())
        with on_gpu(device, stream, self._name, arrays):
            return kernel(*args, **launch)


def _holds_numpy(args: Sequence[Any]) -> bool:
    import numpy as np

    return any(isinstance(a, np.ndarray) for a in args)
