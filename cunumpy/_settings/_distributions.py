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
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["SWITCH", "InstallationWarning", "installation_problem", "warn_at_import"]

#: The one procedure that replaces either installation by a working cunumpy-xp.
SWITCH = (
    "pip uninstall -y cunumpy cunumpy-xp, then, in a source checkout of cunumpy-xp, "
    "pip install . (a client that pins cunumpy<=0.7.0, such as Struphy, stays installed; "
    "install such clients with --no-deps from then on)"
)

_PACKAGE = Path(__file__).resolve().parent.parent  # cunumpy/ (this is _settings/)


class InstallationWarning(UserWarning):
    """Two installed distributions provide the package ``cunumpy``."""


def _dist_infos(site: Path) -> dict[str, tuple[str, Path]]:
    """``{"cunumpy": (version, path), "cunumpy-xp": ...}`` of the ``*.dist-info`` in ``site``."""
    found: dict[str, tuple[str, Path]] = {}
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
            found[key] = (version, Path(entry.path))
    return found


def _missing_files(site: Path, dist_info: Path) -> list[str]:
    """The files of the package ``cunumpy`` that the distribution's RECORD lists but are gone."""
    try:
        record = (dist_info / "RECORD").read_text(encoding="utf-8")
    except OSError:
        return []
    missing = []
    for line in record.splitlines():
        path = line.split(",", 1)[0]
        if path.startswith("cunumpy/") and not (site / path).exists():
            missing.append(path)
    return missing


def installation_problem(package: Path = _PACKAGE) -> str | None:
    """What is wrong with how ``cunumpy`` is installed, with what to run; ``None`` if nothing.

    Only the directory that holds ``package`` is looked at (site-packages for an
    installed cunumpy; a source checkout has no ``*.dist-info`` there).

    >>> from cunumpy._settings._distributions import installation_problem
    >>> installation_problem() is None  # a source checkout, or one clean installation
    True
    """
    site = package.parent
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

        from ._user_frames import importer_stacklevel

        warnings.warn(f"cunumpy: {problem}", InstallationWarning, stacklevel=importer_stacklevel())
