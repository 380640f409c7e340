"""``PyccelCache``: compile Pyccel kernel modules once, keep the builds on disk for later runs.

A build runs ``pyccel compile`` in a subprocess and is published with an atomic rename, so
MPI ranks that compile the same module at once never see a partial build. Importing this
module needs no Pyccel; compiling without it raises ``ImportError`` (which a
:class:`CompiledHostKernel` records as a failed build, falling back).
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.machinery
import importlib.metadata
import importlib.util
import inspect
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from types import ModuleType

__all__ = ["PyccelCache"]

_LAYOUT = "cunumpy-pyccel-1"  # part of every key: bumped when a build's layout changes
_OFF = ("0", "false", "no", "off")


def _pyccel_version() -> str:
    try:
        return importlib.metadata.version("pyccel")
    except importlib.metadata.PackageNotFoundError:
        msg = "PyccelCache: Pyccel is not installed (pip install pyccel); the kernel cannot be compiled."
        raise ImportError(msg) from None


def _pyccel_command() -> list[str]:
    beside = Path(sys.executable).parent / "pyccel"
    found = str(beside) if beside.is_file() else shutil.which("pyccel")
    if found is None:
        msg = "PyccelCache: the `pyccel` command is not installed (pip install pyccel)."
        raise ImportError(msg)
    return [found]


def _source(module: ModuleType) -> Path:
    path = inspect.getsourcefile(module)
    if path is None:
        msg = f"PyccelCache: module {module.__name__!r} has no source file to compile."
        raise FileNotFoundError(msg)
    return Path(path)


def _writable(directory: Path) -> bool:
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError:
        return False
    return os.access(directory, os.W_OK | os.X_OK)


def _load(directory: Path, stem: str) -> ModuleType | None:
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = directory / f"{stem}{suffix}"
        spec = importlib.util.spec_from_file_location(stem, path) if path.is_file() else None
        if spec is not None and spec.loader is not None:
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            return module
    return None


class PyccelCache:
    """Compile Pyccel modules on first use and keep the builds on disk, keyed on their source.

    Builds go to ``~/.cache/<name>/kernels`` (or ``<PREFIX>_KERNEL_CACHE``), else, when that
    is not writable, to ``<tmp>/<name>-kernels``. Modules are built with OpenMP unless
    ``<PREFIX>_OPENMP=0`` (modules that call the OpenMP runtime always are). The instance
    is callable: pass it as ``compile_host`` to :meth:`KernelCatalog.from_package`.

    Parameters
    ----------
    name : str
        The package's name, for the cache directories.
    env_prefix : str, optional
        Prefix of the environment variables; default `name` in upper case with other
        characters than letters and digits as ``_``.
    language : str, optional
        Pyccel's target language, ``"c"`` by default.

    Raises
    ------
    ValueError
        If `name` is empty.

    Examples
    --------
    >>> import cunumpy as xp
    >>> cache = xp.kernels.PyccelCache("my-sim")
    >>> cache.cache_env, cache.openmp_env
    ('MY_SIM_KERNEL_CACHE', 'MY_SIM_OPENMP')
    """

    def __init__(self, name: str, *, env_prefix: str | None = None, language: str = "c") -> None:
        if not isinstance(name, str) or not name:
            msg = f"PyccelCache: `name` must be a non-empty str (the package's name), not {name!r}."
            raise ValueError(msg)
        self.name = name
        self.env_prefix = (
            env_prefix if env_prefix is not None else re.sub(r"[^0-9A-Za-z]", "_", name).upper()
        )
        self.language = language

    def __repr__(self) -> str:
        return f"PyccelCache({self.name!r}, env_prefix={self.env_prefix!r})"

    @property
    def cache_env(self) -> str:
        """The environment variable that moves the cache."""
        return f"{self.env_prefix}_KERNEL_CACHE"

    @property
    def openmp_env(self) -> str:
        """The environment variable that turns OpenMP off (``0``)."""
        return f"{self.env_prefix}_OPENMP"

    def cache_root(self) -> Path:
        """Where builds go: ``<PREFIX>_KERNEL_CACHE``, else ``~/.cache/<name>/kernels``."""
        return Path(os.environ.get(self.cache_env, Path.home() / ".cache" / self.name / "kernels"))

    def fallback_root(self) -> Path:
        """Where builds go when :meth:`cache_root` is not writable."""
        return Path(tempfile.gettempdir()) / f"{self.name}-kernels"

    def openmp_enabled(self) -> bool:
        """Whether modules are built with OpenMP."""
        return os.environ.get(self.openmp_env, "1").strip().lower() not in _OFF

    def _openmp_for(self, module: ModuleType) -> bool:
        return (
            self.openmp_enabled() or "pyccel.stdlib.internal.openmp" in _source(module).read_text()
        )

    def build_key(self, module: ModuleType, language: str | None = None) -> str:
        """The key of `module`'s build: its source, the language, OpenMP, Pyccel, Python, platform.

        Parameters
        ----------
        module : module
            The module to build.
        language : str, optional
            The target language; default the instance's.

        Returns
        -------
        str
            20 hexadecimal digits.
        """
        parts = (
            _source(module).read_text(),
            language or self.language,
            _LAYOUT,
            f"openmp={self._openmp_for(module)}",
            _pyccel_version(),
            sys.version,
            platform.platform(),
        )
        return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:20]

    def compile(self, module: ModuleType, *, language: str | None = None) -> ModuleType:
        """Return the compiled form of `module`: from the cache, or built now.

        Parameters
        ----------
        module : module
            A module Pyccel can compile.
        language : str, optional
            The target language of this build.

        Returns
        -------
        module
            The compiled extension module (same function names).

        Raises
        ------
        ImportError
            Without Pyccel.
        RuntimeError
            With Pyccel's output, when the build fails.
        PermissionError
            When neither cache directory is writable.
        """
        language = language or self.language
        stem = module.__name__.rpartition(".")[2]
        folder = f"{stem}-{self.build_key(module, language)}"
        roots = [self.cache_root(), self.fallback_root()]
        for root in roots:
            if (root / folder).is_dir() and (found := _load(root / folder, stem)) is not None:
                return found
        target = next((root / folder for root in roots if _writable(root)), None)
        if target is None:
            msg = f"PyccelCache: no writable kernel cache among {[str(r) for r in roots]}; set {self.cache_env}."
            raise PermissionError(msg)
        staging = Path(tempfile.mkdtemp(prefix=f".{stem}-", dir=target.parent)).absolute()
        try:
            sources = staging / "src"
            sources.mkdir()
            shutil.copy(_source(module), sources / f"{stem}.py")
            command = [
                *_pyccel_command(),
                "compile",
                str(sources / f"{stem}.py"),
                "--language",
                language,
            ]
            command += [
                "--output",
                str(staging / "build"),
                *(["--openmp"] if self._openmp_for(module) else []),
            ]
            done = subprocess.run(command, capture_output=True, text=True, check=False, cwd=staging)
            if done.returncode != 0:
                msg = f"PyccelCache: {' '.join(command)} failed ({done.returncode}):\n{done.stdout}{done.stderr}"
                raise RuntimeError(msg)
            # atomic: no process sees half a build; OSError: another published it first
            with contextlib.suppress(OSError):
                os.rename(staging / "build", target)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
        built = _load(target, stem)
        if built is None:
            msg = f"PyccelCache: Pyccel built no extension module for {module.__name__!r} in {target}."
            raise ImportError(msg)
        return built

    def __call__(self, module: ModuleType) -> ModuleType:
        """:meth:`compile`, so that the instance can be a ``compile_host``."""
        return self.compile(module)
