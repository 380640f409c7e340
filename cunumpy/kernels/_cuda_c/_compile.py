"""What ``CudaKernel`` compiles: the source, its options and headers, and the per-GPU CuPy functions.

Compiling goes through ``cupy.RawModule(code=..., options=..., name_expressions=...)`` and
``get_function`` only, so that a stand-in CuPy (the fake of ``cunumpy.kernel_testing``)
runs the same path.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..._settings._cupy_probe import cupy_available, require_cupy
from ...cuda._debug import DEBUG_OPTIONS, get_cuda_debug, is_hip
from ...cuda._signature import cuda_kernel_names, template_arg
from ...cuda._sources import cuda_include_dir, include_hash, resolve_includes

__all__ = ["CudaSource"]


class CudaSource:
    """The compile-side state of a CUDA C kernel (see :class:`~cunumpy.kernels.CudaKernel`)."""

    _name: str
    _source: str
    _options: tuple[str, ...]
    _include_dirs: tuple[Path, ...]
    _source_dir: Path | None
    _template_args: tuple[Any, ...] | None
    _debug: bool | None
    _compiled: dict[int, Any]

    @classmethod
    def from_file(
        cls, path: str | Path, name: str | None = None, *, suffix: str = "_cuda.cu", **kwargs: Any
    ) -> Any:
        """The kernel of a CUDA source file; ``name`` defaults to the file name less ``suffix``.

        The file's directory is the ``source_dir`` and comes first in ``include_dirs``.

        Parameters
        ----------
        path : str or Path
            The source file, e.g. ``push/push_cuda.cu``.
        name : str, optional
            The kernel's name; ``push`` for ``push_cuda.cu`` by default.
        suffix : str, default "_cuda.cu"
            Removed from the file name to give the default name.
        **kwargs
            Passed on to :class:`CudaKernel`.

        Returns
        -------
        CudaKernel
            The kernel.

        Raises
        ------
        ValueError
            If ``name`` is not given and the file name does not end with ``suffix``.
        """
        path = Path(path)
        if name is None:
            if not path.name.endswith(suffix):
                msg = f"CudaKernel.from_file: {path.name!r} does not end with {suffix!r}; pass `name`."
                raise ValueError(msg)
            name = path.name[: -len(suffix)]
        kwargs["include_dirs"] = (path.parent, *kwargs.get("include_dirs", ()))
        kwargs.setdefault("source_dir", path.parent)
        kernel: Any = cls  # CudaKernel: this base class has no constructor of its own
        return kernel(path.read_text(), name, **kwargs)

    @classmethod
    def all_from_file(cls, path: str | Path, **kwargs: Any) -> dict[str, Any]:
        """One kernel per ``__global__`` function of a file, by name, in source order.

        The kernels share the source and options, so that CuPy compiles the file once.

        Parameters
        ----------
        path : str or Path
            The source file.
        **kwargs
            Passed on to every kernel; the file's directory comes first in ``include_dirs``.

        Returns
        -------
        dict of str to CudaKernel
            The kernels.

        Raises
        ------
        ValueError
            If the file defines no ``__global__`` function.
        """
        path = Path(path)
        source = path.read_text()
        names = cuda_kernel_names(source)
        if not names:
            msg = f"CudaKernel.all_from_file: {str(path)!r} defines no __global__ function."
            raise ValueError(msg)
        kwargs["include_dirs"] = (path.parent, *kwargs.get("include_dirs", ()))
        kwargs.setdefault("source_dir", path.parent)
        kernel: Any = cls  # CudaKernel, as in from_file
        return {name: kernel(source, name, **kwargs) for name in names}

    @property
    def source(self) -> str:
        """The CUDA C source."""
        return self._source

    @property
    def options(self) -> tuple[str, ...]:
        """The options as given, with ``-I`` for ``include_dirs`` (see :meth:`compile_options`)."""
        return self._options + tuple(f"-I{d}" for d in self._include_dirs)

    @property
    def include_dirs(self) -> tuple[Path, ...]:
        """The ``-I`` directories."""
        return self._include_dirs

    @property
    def source_dir(self) -> Path | None:
        """The directory the source was read from, if known."""
        return self._source_dir

    @property
    def template_args(self) -> tuple[Any, ...] | None:
        """The template arguments, or None."""
        return self._template_args

    @property
    def debug(self) -> bool | None:
        """The kernel's own debug setting, or None for the global one."""
        return self._debug

    def debug_active(self) -> bool:
        """Whether debug mode applies now: the kernel's setting, else :func:`~cunumpy.cuda.get_cuda_debug`."""
        return get_cuda_debug() if self._debug is None else self._debug

    @property
    def included_headers(self) -> tuple[Path, ...]:
        """The headers the source includes, resolved now (see :func:`~cunumpy.cuda.resolve_includes`)."""
        found = resolve_includes(
            self._source, self._include_dirs, base_dir=self._source_dir,
            angle_dirs=(cuda_include_dir(),),
        )  # fmt: skip
        return tuple(found)

    def compile_options(self) -> tuple[str, ...]:
        """The NVRTC options a compilation now uses.

        :attr:`options`, ``-I`` for cunumpy's headers, :data:`~cunumpy.cuda.DEBUG_OPTIONS`
        when :meth:`debug_active` (without ``-lineinfo`` on HIP), and
        ``-DCUNUMPY_INCLUDE_HASH=0x<hash>`` of the included headers, so that CuPy's
        cache, keyed on source and options, recompiles after a header changed.

        Returns
        -------
        tuple of str
            The options.
        """
        options = (*self.options, f"-I{cuda_include_dir()}")
        if self.debug_active():
            hip = is_hip()
            options += tuple(o for o in DEBUG_OPTIONS if not (hip and o == "-lineinfo"))
        headers = self.included_headers
        if headers:
            options += (f"-DCUNUMPY_INCLUDE_HASH=0x{include_hash(headers)}",)
        return tuple(dict.fromkeys(options))

    def compile(self, *, log_stream: Any = None) -> Any:
        """Compile for the current GPU now rather than at the first call; the CuPy kernel.

        Compiled once per GPU with the :meth:`compile_options` of now (a kernel compiled
        before debug mode was switched on keeps its options: see :meth:`recompile`), and
        cached on disk by CuPy.

        Parameters
        ----------
        log_stream : file-like, optional
            Receives the compiler's output.

        Returns
        -------
        cupy.RawKernel
            The compiled function.

        Raises
        ------
        RuntimeError
            Without a usable CuPy (the reason is given).
        """
        cupy = require_cupy(f"CudaKernel {self.expression}")
        return self._function(cupy, int(cupy.cuda.runtime.getDevice()), log_stream)

    def recompile(self, *, log_stream: Any = None) -> Any:
        """Compile again for the current GPU, with the headers and options of now.

        Parameters
        ----------
        log_stream : file-like, optional
            Receives the compiler's output.

        Returns
        -------
        cupy.RawKernel
            The compiled function.
        """
        cupy = require_cupy(f"CudaKernel {self.expression}")
        self._compiled.pop(int(cupy.cuda.runtime.getDevice()), None)
        return self.compile(log_stream=log_stream)

    @property
    def is_compiled(self) -> bool:
        """Whether the kernel is compiled for the current GPU (False without a usable CuPy)."""
        if not self._compiled or not cupy_available():
            return False
        import cupy

        return int(cupy.cuda.runtime.getDevice()) in self._compiled

    def _function(self, cupy: Any, device: int, log_stream: Any = None) -> Any:
        function = self._compiled.get(device)
        if function is None:
            template = self._template_args is not None
            with cupy.cuda.Device(device):
                module = cupy.RawModule(
                    code=self._source, options=self.compile_options(),
                    name_expressions=[self.expression] if template else None,
                )  # fmt: skip
                if log_stream is not None:
                    module.compile(log_stream=log_stream)
                function = module.get_function(self.expression)
            self._compiled[device] = function
        return function

    @property
    def expression(self) -> str:
        """The compiled function: the name, or its instantiation such as ``scale<double, 3>``."""
        if self._template_args is None:
            return self._name
        return f"{self._name}<{', '.join(template_arg(a) for a in self._template_args)}>"
