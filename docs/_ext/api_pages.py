"""Sphinx extension: one API reference page per public module, derived from its ``__all__``.

Before Sphinx reads the sources, it writes ``docs/api/index.rst`` and one
``docs/api/<module>.rst`` per entry of ``MODULES`` (the folder is generated and
git-ignored). Each page documents every name of the module's ``__all__`` at its public path
(``cunumpy.sum``, ``cunumpy.cuda.stream``), in sections: the standard's groups for the
Array API functions (Creation, Element-wise, ...), and for the rest the concern of the
private module that defines the name (``cunumpy.cuda._streams`` -> "Streams and
synchronization"). Every section opens with a table of its names and one-line summaries.

A module with more than ``SPLIT_ABOVE`` names (the top level, with the whole standard)
keeps its section tables on its page and gives each section's full entries a page of its
own (``docs/api/cunumpy/creation-functions.rst``), so no page holds hundreds of entries.

To give a new public module a page, add its name to ``MODULES`` (``public_modules.py``). A name whose defining
module has no entry in ``GROUPS`` gets a section titled by that module's docstring; a
data attribute needs a ``#:`` comment where it is defined (or an entry in ``DATA``),
otherwise the build warns (and ``sphinx-build -W`` fails).
"""

from __future__ import annotations

import functools
import importlib
import inspect
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from public_modules import MODULES  # docs/_ext/public_modules.py: the list, without Sphinx
from sphinx.application import Sphinx
from sphinx.pycode import ModuleAnalyzer
from sphinx.util import logging

logger = logging.getLogger(__name__)

#: Section titles by defining module, in page order: the standard's groups first.
GROUPS = {
    "cunumpy._api.creation": "Creation functions",
    "cunumpy._api.data_types": "Data type functions",
    "cunumpy._api.elementwise": "Element-wise functions",
    "cunumpy._api.indexing": "Indexing functions",
    "cunumpy._api.linear_algebra": "Linear algebra functions",
    "cunumpy._api.manipulation": "Manipulation functions",
    "cunumpy._api.searching": "Searching functions",
    "cunumpy._api.sets": "Set functions",
    "cunumpy._api.sorting": "Sorting functions",
    "cunumpy._api.statistics": "Statistical functions",
    "cunumpy._api.utility": "Utility functions",
    "cunumpy.linalg": "Linear algebra extension",
    "cunumpy.fft": "Fourier transform extension",
    "cunumpy._api.numpy_creation": "NumPy's conversions",
    "constants": "Constants",
    "data types": "Data types",
    "inspection": "Inspection and versions",
    "cunumpy._backend_choice._config": "Backends and GPU availability",
    "cunumpy._settings._cupy_probe": "Backends and GPU availability",
    "cunumpy._namespaces._array_namespace": "Namespaces and array types",
    "cunumpy._namespaces._array_predicates": "Array types (array-api-compat's helpers)",
    "cunumpy._namespaces._namespace_predicates": "Namespace types (array-api-compat's helpers)",
    "cunumpy._moving._to_device": "Devices and transfers",
    "cunumpy._moving._backend_conversion": "Where arrays live (CuNumpy 0.7.1's helpers)",
    "cunumpy._backend_choice._versions": "Versions and diagnostics",
    "cunumpy._on_host._host_call": "Host-only code with device data",
    "cunumpy._on_host._scipy_namespace": "SciPy of the current backend",
    "cunumpy.cuda._device": "Devices",
    "cunumpy.cuda._streams": "Streams and synchronization",
    "cunumpy.cuda._memory": "Device memory",
    "cunumpy.cuda._pinned": "Pinned host memory",
    "cunumpy.cuda._events": "Streams and events you order yourself",
    "cunumpy.kernels._portable._elementwise": "Portable elementwise kernels",
    "cunumpy.kernels._portable._generalized": "Portable generalized kernels",
    "cunumpy.kernels._cuda_c._cupy_kernels": "CUDA C kernels",
    "cunumpy.kernels._cuda_c._raw_kernel": "CUDA C kernels",
    "cunumpy.profiling._regions": "Timed regions",
    "cunumpy.profiling._record": "The record and its report",
    "cunumpy.profiling._benchmark": "Benchmarks",
    "cunumpy.profiling._nvtx": "NVTX ranges",
    "cunumpy.profiling._trace": "Timelines",
    "cunumpy.profiling._transfers": "Counting copies between host and device",
    "cunumpy.profiling._transfer_events": "Counting copies between host and device",
    "cunumpy.profiling._budget": "Counting copies between host and device",
    "cunumpy._moving._host_copy_async": "Background copies to the host",
    "cunumpy._mpi_job._serial": "MPI without MPI",
    "maybempi.serial": "MPI without MPI",
    "cunumpy.cuda._bind": "Binding ranks to GPUs",
    "cunumpy._mpi_job._local_rank": "Binding ranks to GPUs",
    "cunumpy.mpi._synchronize": "Synchronizing GPU work for MPI",
    "cunumpy.mpi._collectives": "Collectives",
    "cunumpy.mpi._p2p": "Point to point",
    "cunumpy.mpi._aware": "CUDA-aware MPI",
    "cunumpy.mpi._exchange": "Point to point",
    "cunumpy.mpi._mpibuffer": "Handing arrays to your own mpi4py calls",
    "cunumpy.memory._mirror": "Device mirrors of host buffers",
    "cunumpy.memory._staging": "Background copies to the host",
    "cunumpy.rng._random_streams": "Generators and parallel streams",
    "cunumpy.rng._philox": "Counter-based random numbers (Philox4x32-10)",
    "cunumpy.algorithms._morton": "Morton keys",
    "cunumpy.algorithms._sorting": "Sorting and compaction",
    "cunumpy.algorithms._segments": "Segments and sums per key",
    "cunumpy.algorithms._sums": "Segments and sums per key",
    "cunumpy.integrate": "Integration (SciPy on the host)",
    "cunumpy.optimize._newton": "Batched Newton on the device",
    "cunumpy.optimize._scipy_solvers": "SciPy's solvers on the host",
    "submodules": "Submodules",
}

_DTYPE = "The {} data type of the standard (NumPy's ``numpy.{}``; CuPy uses the same object)."

_MARKERS = "cunumpy.kernel_testing._markers"

#: Group and description of data attributes that have no ``#:`` comment of their own.
DATA = {
    "cunumpy.e": ("constants", "Euler's constant, the base of natural logarithms."),
    "cunumpy.inf": ("constants", "Positive infinity (IEEE 754)."),
    "cunumpy.nan": ("constants", "Not a number (IEEE 754 NaN)."),
    "cunumpy.newaxis": ("constants", "``None``: an index that adds an axis of length one."),
    "cunumpy.pi": ("constants", "The ratio of a circle's circumference to its diameter."),
    "cunumpy.bool": ("data types", _DTYPE.format("Boolean", "bool")),
    "cunumpy.int8": ("data types", _DTYPE.format("8-bit signed integer", "int8")),
    "cunumpy.int16": ("data types", _DTYPE.format("16-bit signed integer", "int16")),
    "cunumpy.int32": ("data types", _DTYPE.format("32-bit signed integer", "int32")),
    "cunumpy.int64": ("data types", _DTYPE.format("64-bit signed integer", "int64")),
    "cunumpy.uint8": ("data types", _DTYPE.format("8-bit unsigned integer", "uint8")),
    "cunumpy.uint16": ("data types", _DTYPE.format("16-bit unsigned integer", "uint16")),
    "cunumpy.uint32": ("data types", _DTYPE.format("32-bit unsigned integer", "uint32")),
    "cunumpy.uint64": ("data types", _DTYPE.format("64-bit unsigned integer", "uint64")),
    "cunumpy.float32": ("data types", _DTYPE.format("32-bit floating-point", "float32")),
    "cunumpy.float64": ("data types", _DTYPE.format("64-bit floating-point", "float64")),
    "cunumpy.complex64": (
        "data types",
        _DTYPE.format("64-bit complex floating-point", "complex64"),
    ),
    "cunumpy.complex128": (
        "data types",
        _DTYPE.format("128-bit complex floating-point", "complex128"),
    ),
    "cunumpy.__array_api_version__": (
        "inspection",
        "The version of the Array API standard this namespace implements.",
    ),
    "cunumpy.__version__": ("inspection", "The version of cunumpy."),
    # cunumpy.kernel_testing's pytest objects, made on first access (pytest is imported then)
    "cunumpy.kernel_testing.BACKENDS": (
        _MARKERS,
        '``["numpy", cupy]``: parametrize a test over both backends; the CuPy case carries '
        "``requires_cupy``.",
    ),
    "cunumpy.kernel_testing.requires_cupy": (
        _MARKERS,
        "Skip marker: the test needs a CuPy that runs kernels, a GPU or the fake CuPy "
        "(emulated); under ``CUNUMPY_REQUIRE_CUDA=1`` anything but a GPU fails the test.",
    ),
    "cunumpy.kernel_testing.requires_device_backend": (
        _MARKERS,
        "Skip marker: the test needs a device backend (CuPy, real or fake).",
    ),
    "cunumpy.kernel_testing.requires_warp_shuffle": (
        _MARKERS,
        "Skip marker: the test needs warp shuffles, which only a real GPU has (the "
        "emulator refuses them).",
    ),
    "cunumpy.kernel_testing.requires_high_dim_cuda_views": (
        _MARKERS,
        "Skip marker: the test needs array views of five or more dimensions in CUDA C "
        "(a CUDA GPU or the fake CuPy, not HIP).",
    ),
    "cunumpy.kernel_testing.requires_bounds_check_views": (
        _MARKERS,
        "Skip marker: the test needs the bounds-checked views of debug mode (a CUDA GPU "
        "or the fake CuPy, not HIP).",
    ),
    "cunumpy.numpy_backend": (
        "cunumpy._backend_choice._config",
        "``True`` when the running context's backend is NumPy (read at each access).",
    ),
    "cunumpy.cupy_backend": (
        "cunumpy._backend_choice._config",
        "``True`` when the running context's backend is CuPy (read at each access).",
    ),
    "cunumpy.xp.numpy_backend": (
        "cunumpy._backend_choice._config",
        "``True`` when the running context's backend is NumPy (read at each access).",
    ),
    "cunumpy.xp.cupy_backend": (
        "cunumpy._backend_choice._config",
        "``True`` when the running context's backend is CuPy (read at each access).",
    ),
    "cunumpy.xp.xp": (
        "cunumpy._backend_choice._config",
        "The namespace of the running context's backend (read at each access).",
    ),
    "cunumpy.xp.BackendType": ("cunumpy._backend_choice._config", "``Literal['numpy', 'cupy']``."),
    "cunumpy.xp.MIN_CUPY_VERSION": (
        "cunumpy._backend_choice._versions",
        "The oldest CuPy release cunumpy supports (``cunumpy.MIN_CUPY_VERSION``).",
    ),
}

#: Group of names whose defining module does not say where they belong.
NAME_GROUPS = {"cunumpy.__array_namespace_info__": "inspection"}

_OUT = "api"

#: A module with more public names than this gets one page per section.
SPLIT_ABOVE = 60


class Entry:
    """One public name: its path, kind (function, class, data, module) and section."""

    def __init__(self, path: str, obj: Any, kind: str, group: str, doc: str) -> None:
        self.path, self.obj, self.kind, self.group, self.doc = path, obj, kind, group, doc

    @property
    def summary(self) -> str:
        """The first sentence-paragraph of the docstring (or of the description), one line."""
        text = self.doc if self.kind in ("data", "module") else inspect.getdoc(self.obj) or ""
        return " ".join(text.strip().split("\n\n", 1)[0].split())


def _binding_modules(package: ModuleType, name: str, obj: Any) -> list[str]:
    """The private modules that bind ``name`` to ``obj``: ``package``'s own first, then the
    rest of cunumpy's (a lower floor's, such as ``cunumpy._mpi_job`` for ``cunumpy.mpi``)."""
    prefix = package.__name__ + "."
    found = [
        mod_name
        for mod_name, module in sorted(sys.modules.items())
        if mod_name.startswith("cunumpy.")
        and any(part.startswith("_") for part in mod_name.split("."))
        and getattr(module, name, None) is obj
    ]
    return sorted(found, key=lambda mod_name: not mod_name.startswith(prefix))


def _data_doc(package: ModuleType, name: str, obj: Any) -> tuple[str | None, str]:
    """(defining module, ``#:`` comment) of a data attribute, looked up where it is defined."""
    for mod_name in (package.__name__, *_binding_modules(package, name, obj)):
        docs = ModuleAnalyzer.for_module(mod_name).find_attr_docs()
        if ("", name) in docs:
            return mod_name, " ".join(docs["", name]).strip()
    return None, ""


def collect(module_name: str) -> list[Entry]:
    """Every name of ``module_name.__all__`` as an ``Entry``, in ``__all__`` order."""
    module = importlib.import_module(module_name)
    entries = []
    for name in module.__all__:
        obj = getattr(module, name)
        path = f"{module_name}.{name}"
        doc = ""
        if inspect.ismodule(obj) and path not in DATA:
            kind, group, doc = "module", "submodules", (inspect.getdoc(obj) or "")
        elif inspect.isclass(obj) and path not in DATA:
            kind, group = "class", obj.__module__
        elif inspect.isroutine(inspect.unwrap(obj)):  # a FastCall wraps its function
            kind, group = "function", obj.__module__
        else:
            kind = "data"
            if path in DATA:
                group, doc = DATA[path]
            else:
                where, doc = _data_doc(module, name, obj)
                group = where or module_name
                if not doc:
                    logger.warning("api_pages: %s has no `#:` comment and no entry in DATA", path)
        entries.append(Entry(path, obj, kind, NAME_GROUPS.get(path, group), doc))
    return entries


def _title(group: str) -> str:
    if group in GROUPS:
        return GROUPS[group]
    module = sys.modules.get(group)
    doc = inspect.getdoc(module) if module else None
    return doc.split("\n", 1)[0].rstrip(".") if doc else group


def _section_order(entries: list[Entry]) -> list[str]:
    """Titles of the page's sections: the order of ``GROUPS``, then the others as met."""
    known = list(dict.fromkeys(GROUPS.values()))
    titles = list(dict.fromkeys(_title(e.group) for e in entries))
    return sorted(titles, key=lambda t: known.index(t) if t in known else len(known))


_ROLES = {"function": "func", "class": "class", "data": "data", "module": "mod"}


def _directive(entry: Entry) -> list[str]:
    if entry.kind == "function":
        return [f".. autofunction:: {entry.path}", ""]
    if entry.kind == "class":
        return [f".. autoclass:: {entry.path}", "   :members:", ""]
    if entry.kind == "module":
        return []  # documented on its own page, linked from the table
    module, _, name = entry.path.rpartition(".")
    shown = not (inspect.isclass(entry.obj) or inspect.ismodule(entry.obj))  # dtypes, xp.xp
    value = [f"   :value: {entry.obj!r}"] if shown else []
    return [f".. py:data:: {name}", f"   :module: {module}", *value, "", f"   {entry.doc}", ""]


def _module_intro(module_name: str) -> str:
    """The module's docstring, less the note to contributors on generated modules."""
    doc = inspect.getdoc(importlib.import_module(module_name)) or ""
    paragraphs = doc.split("\n\n")
    return "\n\n".join(p for p in paragraphs if not p.startswith("Generated by "))


def _slug(title: str) -> str:
    """``"Element-wise functions"`` -> ``"element-wise-functions"``: a page's file name."""
    words = "".join(c if c.isalnum() else " " for c in title.lower()).split()
    return "-".join(words)


def module_pages(module_name: str) -> dict[str, str]:
    """The reST sources of ``module_name``'s reference: its page, under the module's name,
    and, for a module with more than ``SPLIT_ABOVE`` names, one page per section (under
    ``<module>/<section-slug>``), which its page links to from each section's table."""
    entries = collect(module_name)
    split = len(entries) > SPLIT_ABOVE
    lines = [
        f".. This page is generated by docs/_ext/api_pages.py from {module_name}.__all__.",
        "",
        module_name,
        "=" * len(module_name),
        "",
        f".. py:module:: {module_name}",
        "",
        _module_intro(module_name),
        "",
    ]
    pages: dict[str, str] = {}
    for title in _section_order(entries):
        members = [e for e in entries if _title(e.group) == title]
        lines += [title, "-" * len(title), "", ".. list-table::", "   :widths: 30 70", ""]
        for e in members:
            short = "" if e.kind == "module" else "~"  # modules show their full path
            lines += [f"   * - :py:{_ROLES[e.kind]}:`{short}{e.path}`", f"     - {e.summary}"]
        lines.append("")
        directives = [line for e in members for line in _directive(e)]
        if not split:
            lines += directives
        elif directives:
            stem = f"{module_name}/{_slug(title)}"
            lines += [f"In full: :doc:`{title} <{stem}>`.", ""]
            pages[stem] = _section_page(module_name, title, directives)
    if pages:
        lines += [".. toctree::", "   :hidden:", "", *(f"   {stem}" for stem in pages), ""]
    return {module_name: "\n".join(lines) + "\n", **pages}


def _section_page(module_name: str, title: str, directives: list[str]) -> str:
    lines = [
        f".. This page is generated by docs/_ext/api_pages.py from {module_name}.__all__.",
        "",
        title,
        "=" * len(title),
        "",
        f".. py:currentmodule:: {module_name}",
        "",
        f"Part of the reference of :py:mod:`{module_name}`, whose page lists every section.",
        "",
        *directives,
    ]
    return "\n".join(lines) + "\n"


def render(module_name: str) -> str:
    """The reST source of the reference page of ``module_name`` (without section pages)."""
    return module_pages(module_name)[module_name]


@functools.cache
def all_pages() -> dict[str, str]:
    """Every generated page, by its path below ``docs/api`` without the suffix.

    Computed once per process: ``conf.py`` names the pages (for the sidebars) and the
    build writes them, and a name's warning is given once.
    """
    pages = {"index": _index()}
    for name in MODULES:
        pages.update(module_pages(name))
    return pages


def _index() -> str:
    lines = [
        ".. This page is generated by docs/_ext/api_pages.py from its MODULES list.",
        "",
        "API reference",
        "=============",
        "",
        "Every public name, at the path you import it from. ``import cunumpy as xp`` gives the",
        "whole Array API namespace (``xp.sum``, ``xp.linalg.solve``, ``xp.fft.fft``); the",
        "device layer lives in ``xp.cuda``, ``xp.profiling`` and ``xp.mpi``. These pages list",
        "cunumpy's own names (``dir(cunumpy)``); every other public name of the current",
        "backend's library resolves too (``xp.pad``, ``xp.random``, ``xp.linalg.norm``): it is",
        "NumPy's object on the NumPy backend and CuPy's on the CuPy backend, documented by them.",
        "",
        ".. toctree::",
        "   :maxdepth: 1",
        "",
        *(f"   {name}" for name in MODULES),
        "",
    ]
    return "\n".join(lines)


def write_pages(app: Sphinx) -> None:
    """Write ``api/*.rst`` into the source folder, touching only files whose text changed."""
    out = Path(app.srcdir) / _OUT
    out.mkdir(exist_ok=True)
    pages = all_pages()
    for stale in out.rglob("*.rst"):
        if stale.relative_to(out).with_suffix("").as_posix() not in pages:
            stale.unlink()
    for stem, text in pages.items():
        path = out / f"{stem}.rst"
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists() or path.read_text() != text:
            path.write_text(text)


def skip_tuple_field_aliases(
    app: Sphinx, what: str, name: str, obj: Any, skip: bool, options: Any
) -> bool | None:
    """Leave out the "Alias for field number N" entries of named tuples' fields, and
    properties named like the words numpydoc types use (``dtype``, ``shape``)."""
    if (getattr(obj, "__doc__", None) or "").startswith("Alias for field number"):
        return True
    if name.rsplit(".", 1)[-1] in _TYPE_WORDS and isinstance(obj, property):
        # Any `dtype` or `shape` property (MPIStaging, HostStaging, DeviceMirror, ...) is
        # one more target for the words "dtype" and "shape" in every numpydoc type
        # ("array of uint32, shape (..., 4)"), which Sphinx then reports as ambiguous; the
        # class docstrings say what they hold.
        return True
    return None


_TYPE_WORDS = frozenset({"dtype", "shape", "ndim", "size"})


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("builder-inited", write_pages)
    app.connect("autodoc-skip-member", skip_tuple_field_aliases)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
