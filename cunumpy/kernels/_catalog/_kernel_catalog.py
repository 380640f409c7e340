"""``KernelCatalog``: the kernel pairs of a package with one folder per kernel.

::

    my_kernels/
        __init__.py            catalog = KernelCatalog.from_package(__name__)
        push/
            push_kernels.py    def push(...): ...          (host kernel)
            push_cuda.cu       __global__ void push(...)   (CUDA port)
            push_test_args.py  make_args(backend, seed), N_THREADS  (parity test)
        deposit/
            deposit_kernels.py (not ported yet)
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from ._kernel_folder import FORTRAN_NAME_LIMIT, _constant
from ._kernel_pair import Kernel

__all__ = ["FORTRAN_NAME_LIMIT", "KernelCatalog"]


class KernelCatalog(Mapping[str, Kernel]):
    """A read-only mapping of names to :class:`Kernel` pairs; ``str()`` tells the porting status.

    Parameters
    ----------
    kernels : mapping of str to Kernel, optional
        The first kernels.

    Examples
    --------
    >>> import cunumpy as xp
    >>> kernel = xp.kernels.Kernel(lambda x: None, name="push")
    >>> catalog = xp.kernels.KernelCatalog({"push": kernel})
    >>> print(catalog)
    CUDA kernels: 0 of 1 (missing: push)
    """

    def __init__(self, kernels: Mapping[str, Kernel] | None = None) -> None:
        self._kernels: dict[str, Kernel] = {}
        for name, kernel in (kernels or {}).items():
            self.register(kernel, name=name)

    @classmethod
    def from_package(cls, package: str, **options: Any) -> KernelCatalog:
        """Collect the kernels of a package with one folder per kernel.

        Each subfolder ``<name>`` holding ``<name>_kernels.py`` gives a kernel: the
        function ``<name>`` of that module is the host kernel, the ``extern "C"
        __global__`` function ``<name>`` of ``<name>_cuda.cu`` (when present) the CUDA
        kernel, ``<name>_numba.py``/``<name>_numpy.py`` further host implementations and
        ``<name>_test_args.py`` the parity test's arguments. Nothing is compiled here.

        Parameters
        ----------
        package : str
            The package's dotted name (``__name__`` in its ``__init__.py``).
        **options
            ``host_suffix`` (``"_kernels"``), ``cuda_suffix`` (``"_cuda.cu"``),
            ``test_args_suffix`` (``"_test_args"``), ``missing_cuda``, ``host_options``,
            ``outputs`` (a sequence, ``"annotations"``, or a function of the name),
            ``include_dirs`` (default: the folder above the top-level package),
            ``dispatch``, ``compile_host``, ``host_fallback``; others go to the CUDA kernel.

        Returns
        -------
        KernelCatalog
            The kernels, by folder name.

        Examples
        --------
        >>> import cunumpy as xp
        >>> catalog = xp.kernels.KernelCatalog.from_package("my_sim.kernels")  # doctest: +SKIP
        """
        root = Path(importlib.import_module(package).__file__ or "").parent
        suffix = options.get("host_suffix", "_kernels")
        outputs = options.pop("outputs", None)
        host_options = options.pop("host_options", None)
        fallback = options.pop("host_fallback", None)
        kernels = {}
        for folder in sorted(p for p in root.iterdir() if p.is_dir()):
            name = folder.name
            if not (folder / f"{name}{suffix}.py").is_file():
                continue
            extra = fallback(name) if callable(fallback) else (fallback or {}).get(name)
            kernels[name] = Kernel.from_folder(
                f"{package}.{name}",
                outputs=outputs(name) if callable(outputs) else outputs,
                host_options=host_options(name) if callable(host_options) else host_options,
                extra_implementations={} if extra is None else {"numpy": _constant(extra)},
                **options,
            )
        return cls(kernels)

    def register(self, kernel: Kernel, name: str | None = None) -> Kernel:
        """Add `kernel` (under `name`, default its own); ``KeyError`` if the name is taken."""
        if not isinstance(kernel, Kernel):
            msg = f"KernelCatalog.register: expected a Kernel, not {type(kernel).__name__} ({kernel!r})."
            raise TypeError(msg)
        name = kernel.name if name is None else name
        if name in self._kernels:
            msg = f"KernelCatalog.register: a kernel named {name!r} is already registered."
            raise KeyError(msg)
        self._kernels[name] = kernel
        return kernel

    def __getitem__(self, name: str) -> Kernel:
        return self._kernels[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._kernels)

    def __len__(self) -> int:
        return len(self._kernels)

    def __repr__(self) -> str:
        return f"KernelCatalog({len(self)} kernels, {len(self.without_cuda)} without CUDA)"

    def __str__(self) -> str:
        return self.summary()

    def summary(self, max_missing: int = 10) -> str:
        """One line on the porting status: ``"CUDA kernels: 3 of 60 (missing: a, b, ...)"``."""
        text = f"CUDA kernels: {len(self.with_cuda)} of {len(self)}"
        missing = self.without_cuda
        if missing:
            names = missing[:max_missing] + (["..."] if len(missing) > max_missing else [])
            text += f" (missing: {', '.join(names)})"
        return text

    @property
    def with_cuda(self) -> list[str]:
        """The names of the kernels with a CUDA port."""
        return [n for n, k in self._kernels.items() if k.has_cuda]

    @property
    def without_cuda(self) -> list[str]:
        """The names of the kernels still to port."""
        return [n for n, k in self._kernels.items() if not k.has_cuda]

    def parity_cases(self) -> list[tuple[str, Kernel]]:
        """The ``(name, kernel)`` pairs of the kernels with a CUDA port, in catalog order."""
        return [(n, k) for n, k in self._kernels.items() if k.has_cuda]

    def check_signatures(self) -> None:
        """Check every kernel's parameters (:meth:`Kernel.check_signature`); one error lists all."""
        problems = []
        for kernel in self._kernels.values():
            try:
                kernel.check_signature()
            except ValueError as exc:
                problems.append(str(exc))
        if problems:
            msg = "host and CUDA kernels take different parameters:\n  " + "\n  ".join(problems)
            raise ValueError(msg)

    def compile_all(self, jobs: int | None = 1) -> list[str]:
        """Compile every CUDA kernel now; all are tried, the first error is raised after.

        Parameters
        ----------
        jobs : int or None, optional
            Accepted for CuNumpy 0.7.1; kernels compile one after another.

        Returns
        -------
        list of str
            The names of the compiled kernels.
        """
        if jobs is not None and (isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1):
            msg = f"KernelCatalog.compile_all: `jobs` must be a positive int or None, not {jobs!r}."
            raise ValueError(msg)
        compiled, errors = [], []
        for name, kernel in self._kernels.items():
            if not kernel.has_cuda:
                continue
            try:
                kernel.compile()
            except Exception as exc:
                errors.append(exc)
            else:
                compiled.append(name)
        if errors:
            raise errors[0]
        return compiled
