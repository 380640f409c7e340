"""The CUDA headers cunumpy ships, and the headers a source includes (for cache keys)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from ._signature import strip_comments

__all__ = ["cuda_include_dir", "include_hash", "resolve_includes"]

_INCLUDE_DIR = Path(__file__).resolve().parent / "include"
_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*(?:"([^"\n]+)"|<([^>\n]+)>)', re.MULTILINE)


def cuda_include_dir() -> str:
    """The directory of the CUDA headers shipped with cunumpy, for ``-I``.

    Every :class:`~cunumpy.kernels.CudaKernel` compiles with it, so sources include
    ``<cunumpy/array_view.cuh>`` (strided ``Array1D<T>`` to ``Array16D<T>`` views
    indexed ``a(i, j)``), ``<cunumpy/atomic.cuh>`` (atomic adds on 1- to 3-D cells),
    ``<cunumpy/index.cuh>`` (thread-index macros), ``<cunumpy/reduce.cuh>`` (warp and
    block reductions), ``<cunumpy/scan.cuh>`` (prefix sums), ``<cunumpy/random.cuh>``
    (Philox random numbers) and ``<cunumpy/morton.cuh>`` (Morton keys). Pass it to other
    compilers as ``-I<dir>``.

    Returns
    -------
    str
        The directory.

    Examples
    --------
    >>> import os
    >>> from cunumpy import cuda
    >>> os.path.isfile(os.path.join(cuda.cuda_include_dir(), "cunumpy", "atomic.cuh"))
    True
    """
    return str(_INCLUDE_DIR)


def resolve_includes(
    source: str,
    include_dirs: Iterable[str | Path] = (),
    *,
    base_dir: str | Path | None = None,
    angle_dirs: Iterable[str | Path] = (),
) -> list[Path]:
    r"""The header files a CUDA source includes, recursively, each once.

    ``#include "name"`` is looked up as NVRTC does: in ``base_dir``, then in
    ``include_dirs``, then in ``angle_dirs``; each header found is scanned in turn,
    relative to its own directory. ``#include <name>`` is followed only into
    ``angle_dirs`` (system headers are not tracked), and includes found nowhere are left
    to the compiler to report. Comments are ignored.

    Parameters
    ----------
    source : str
        CUDA C source.
    include_dirs : iterable of str or Path, optional
        The ``-I`` directories, in order.
    base_dir : str or Path, optional
        The directory ``source`` was read from, searched first.
    angle_dirs : iterable of str or Path, optional
        Searched last, and the only directories searched for ``<name>``;
        :class:`~cunumpy.kernels.CudaKernel` passes :func:`cuda_include_dir`.

    Returns
    -------
    list of Path
        The headers in depth-first order of first inclusion.

    Examples
    --------
    >>> from cunumpy import cuda
    >>> source = '#include <cunumpy/index.cuh>\n#include <cstdio>'
    >>> [p.name for p in cuda.resolve_includes(source, angle_dirs=[cuda.cuda_include_dir()])]
    ['index.cuh']
    """
    angle = [Path(d) for d in angle_dirs]
    quoted_dirs = [Path(d) for d in include_dirs]
    quoted_dirs += [d for d in angle if d not in quoted_dirs]
    found: list[Path] = []
    seen: set[Path] = set()
    pending: list[tuple[str, Path | None]] = [
        (source, None if base_dir is None else Path(base_dir))
    ]
    while pending:
        code, here = pending.pop()
        nested: list[tuple[str, Path | None]] = []
        for quoted, bracketed in _INCLUDE.findall(strip_comments(code)):
            if quoted:
                candidates = ([here / quoted] if here is not None else []) + [
                    d / quoted for d in quoted_dirs
                ]
            else:
                candidates = [d / bracketed for d in angle]
            path = next((c for c in candidates if c.is_file()), None)
            if path is None or path.resolve() in seen:
                continue
            seen.add(path.resolve())
            found.append(path)
            nested.append((path.read_text(errors="replace"), path.parent))
        pending.extend(reversed(nested))
    return found


def include_hash(paths: Iterable[str | Path]) -> str:
    """A short digest of the contents of files, in order (16 hex digits of SHA-256).

    Only contents count: moving a header keeps the hash, editing it changes it.
    :class:`~cunumpy.kernels.CudaKernel` adds it to its compile options as a define, so
    that CuPy's kernel cache, keyed on source and options, recompiles after a header
    changed.

    Parameters
    ----------
    paths : iterable of str or Path
        The files, e.g. from :func:`resolve_includes`.

    Returns
    -------
    str
        16 hexadecimal digits.

    Examples
    --------
    >>> import os
    >>> from cunumpy import cuda
    >>> len(cuda.include_hash([os.path.join(cuda.cuda_include_dir(), "cunumpy", "index.cuh")]))
    16
    """
    import hashlib  # here: its import costs `import cunumpy` milliseconds

    digest = hashlib.sha256()
    for path in paths:
        content = Path(path).read_bytes()
        digest.update(len(content).to_bytes(8, "little"))
        digest.update(content)
    return digest.hexdigest()[:16]
