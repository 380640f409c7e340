"""One kernel folder read: its host implementations and its CUDA port, as ``Kernel``'s arguments.

The folder layout is ``KernelCatalog``'s (``_kernel_catalog.py``); ``Kernel.from_folder``
(``_kernel_pair.py``) reads folders here and builds itself from what it reads, and
``KernelCatalog.from_package`` calls ``Kernel.from_folder``. This module knows neither
class: it sits below both.
"""

from __future__ import annotations

import importlib
import importlib.util
import warnings
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..._settings._user_frames import user_stacklevel
from .._host._compiled_host_kernel import CompiledHostKernel
from .._host._host_kernel import PyccelKernel
from .._implementations import HostImplementations
from .._kernel_arrays import outputs_from_annotations

__all__ = ["FORTRAN_NAME_LIMIT", "read_kernel_folder"]

FORTRAN_NAME_LIMIT = 63
"""The longest name a Fortran compiler takes (Pyccel names a module's wrapper ``bind_c_<module>``)."""


def _load_cuda(path: Path, name: str, options: dict[str, Any]) -> Any:
    """The ``CudaKernel`` ``name`` of the file ``path``."""
    from .._cuda_c._cuda_kernel import CudaKernel

    return CudaKernel.from_file(path, name, **options)


def read_kernel_folder(
    package: str,
    *,
    host_suffix: str = "_kernels",
    cuda_suffix: str = "_cuda.cu",
    test_args_suffix: str | None = "_test_args",
    check_name_length: bool = True,
    missing_cuda: str = "raise",
    host_options: Mapping[str, Any] | None = None,
    outputs: Sequence[int | str] | str | None = None,
    include_dirs: Sequence[str | Path] | None = None,
    dispatch: str = "arrays",
    compile_host: Callable[[Any], Any] | None = None,
    extra_implementations: Mapping[str, Callable[[], Callable[..., Any]]] | None = None,
    **cuda_options: Any,
) -> dict[str, Any]:
    """The arguments of ``Kernel`` for one kernel folder (see :meth:`KernelCatalog.from_package`):
    ``host_kernel``, ``cuda_kernel``, and the keywords ``name``, ``missing_cuda``,
    ``cuda_path``, ``dispatch`` and ``test_args``."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        msg = (
            f"Kernel.from_folder: {package!r} is not a package (a kernel folder with __init__.py)."
        )
        raise ModuleNotFoundError(msg)
    folder = Path(next(iter(spec.submodule_search_locations)))
    name = package.rpartition(".")[2]
    if not (folder / f"{name}{host_suffix}.py").is_file():
        msg = f"Kernel.from_folder: the kernel folder {folder} has no host kernel {name}{host_suffix}.py."
        raise FileNotFoundError(msg)
    wrapper = f"bind_c_{name}{host_suffix}"  # the module Pyccel's Fortran backend writes
    if check_name_length and len(wrapper) > FORTRAN_NAME_LIMIT:
        warnings.warn(
            f"kernel {name!r}: Pyccel's Fortran wrapper module {wrapper!r} has {len(wrapper)} "
            f"characters, more than Fortran's {FORTRAN_NAME_LIMIT}; shorten the kernel's name to "
            f"{FORTRAN_NAME_LIMIT - len('bind_c_') - len(host_suffix)} characters or compile with the C backend.",
            stacklevel=user_stacklevel(),
        )
    module_name = f"{package}.{name}{host_suffix}"
    python = getattr(importlib.import_module(module_name), name)
    if isinstance(outputs, str) and outputs != "annotations":
        msg = f"Kernel.from_folder: `outputs` must be a sequence of names or indices, or 'annotations', not {outputs!r}."
        raise ValueError(msg)
    if outputs is not None and "outputs" not in (host_options or {}):
        declared = outputs_from_annotations(python) if outputs == "annotations" else outputs
        if declared is not None:
            host_options = {**(host_options or {}), "outputs": declared}
    # without `compile_host` the host module runs as it is (as in CuNumpy 0.7.1)
    loaders: dict[str, Callable[[], Callable[..., Any]]] = {
        "python": lambda: python,
        "pyccel": lambda: python,
    }
    if compile_host is not None:
        compiled = CompiledHostKernel(module_name, name, compile_host)
        loaders["pyccel"] = lambda: _built(compiled)
    for implementation in ("numba", "numpy"):
        if (folder / f"{name}_{implementation}.py").is_file():
            loaders[implementation] = _importer(f"{package}.{name}_{implementation}", name)
    loaders.update(extra_implementations or {})
    host = HostImplementations(name, loaders)
    test_args = None
    if test_args_suffix is not None and (folder / f"{name}{test_args_suffix}.py").is_file():
        test_args = f"{package}.{name}{test_args_suffix}"
    cuda_path = folder / f"{name}{cuda_suffix}"
    cuda_kernel = None
    if cuda_path.is_file():
        dirs = tuple(include_dirs) if include_dirs is not None else (_source_root(package),)
        cuda_kernel = _load_cuda(cuda_path, name, {"include_dirs": dirs, **cuda_options})
    return {
        "host_kernel": PyccelKernel(
            host, parameters=lambda: _names(python), **(host_options or {})
        ),
        "cuda_kernel": cuda_kernel,
        "name": name,
        "missing_cuda": missing_cuda,
        "cuda_path": cuda_path,
        "dispatch": dispatch,
        "test_args": test_args,
    }


def _names(function: Any) -> list[str] | None:
    from .._host._host_kernel import parameter_names

    return parameter_names(function)


def _built(compiled: CompiledHostKernel) -> Callable[..., Any]:
    function = compiled.build()
    if function is None:
        raise RuntimeError(f"compiling failed: {compiled.error!r}") from compiled.error
    return function


def _constant(function: Callable[..., Any]) -> Callable[[], Callable[..., Any]]:
    return lambda: function


def _importer(module: str, name: str) -> Callable[[], Callable[..., Any]]:
    return lambda: getattr(importlib.import_module(module), name)


def _source_root(package: str) -> Path:
    """The folder that holds the top-level package of ``package`` (an include directory)."""
    top = importlib.import_module(package.partition(".")[0])
    if top.__file__ is not None:
        return Path(top.__file__).parent.parent
    return Path(next(iter(top.__path__))).parent
