"""``CompiledHostKernel``: a host kernel compiled on its first call by the caller's compiler."""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Callable
from types import ModuleType
from typing import Any

__all__ = ["CompiledHostKernel"]


class CompiledHostKernel:
    """A host kernel compiled on its first call by the caller's compiler, with a fallback.

    cunumpy compiles nothing itself: `compiler` takes the module and returns its compiled
    form (e.g. a cached ``pyccel.epyccel``, or an import of a module built ahead of time).

    Parameters
    ----------
    module : str or module
        The module that defines the kernel, or its name.
    name : str
        The kernel function's name in `module`.
    compiler : callable
        Takes the module, returns the compiled module (same function names).
    fallback : callable, optional
        Runs when compiling fails; without one the Python function runs, with a
        ``RuntimeWarning`` (once).

    Attributes
    ----------
    error : Exception or None
        Why the build failed.

    Examples
    --------
    >>> import numpy as np
    >>> import cunumpy as xp
    >>> def no_compiler(module):
    ...     raise RuntimeError("no Pyccel")
    >>> kernel = xp.kernels.CompiledHostKernel("math", "sqrt", no_compiler, fallback=np.sqrt)
    >>> kernel(4.0), kernel.compiled
    (np.float64(2.0), False)
    """

    def __init__(
        self,
        module: str | ModuleType,
        name: str,
        compiler: Callable[[ModuleType], ModuleType],
        fallback: Callable[..., Any] | None = None,
    ) -> None:
        self._module = module
        self.__name__ = name
        self._compiler = compiler
        self._fallback = fallback
        self._compiled: Callable[..., Any] | None = None
        self._built = False
        self._warned = False
        self.error: BaseException | None = None

    def __repr__(self) -> str:
        state = "compiled" if self._compiled else ("failed" if self._built else "not built")
        return f"CompiledHostKernel({self.__name__!r}, {state})"

    @property
    def module(self) -> ModuleType:
        """The (uncompiled) module that defines the kernel."""
        if isinstance(self._module, str):
            self._module = importlib.import_module(self._module)
        return self._module

    @property
    def python(self) -> Callable[..., Any]:
        """The uncompiled Python function."""
        function: Callable[..., Any] = getattr(self.module, self.__name__)
        return function

    @property
    def fallback(self) -> Callable[..., Any] | None:
        """What runs when compiling fails (``None``: the Python function)."""
        return self._fallback

    def build(self) -> Callable[..., Any] | None:
        """Compile now, once; return the compiled function, or ``None`` (see `error`)."""
        if not self._built:
            self._built = True
            try:
                self._compiled = getattr(self._compiler(self.module), self.__name__)
            except Exception as exc:  # no Pyccel, no compiler: kept in `error`
                self.error = exc
        return self._compiled

    @property
    def compiled(self) -> bool:
        """Whether the compiled version is available (compiles on first access)."""
        return self.build() is not None

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Run the compiled function, else the fallback, else the Python function."""
        kernel = self.build()
        if kernel is None:
            kernel = self._fallback
        if kernel is None:
            if not self._warned:
                self._warned = True
                warnings.warn(
                    f"kernel {self.__name__!r} could not be compiled ({self.error!r}); running "
                    "its uncompiled Python version.",
                    RuntimeWarning,
                    stacklevel=2,
                )
            kernel = self.python
        return kernel(*args, **kwargs)
