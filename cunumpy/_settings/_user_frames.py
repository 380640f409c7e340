"""Finding the user's code on the stack: the line a copy or a warning is reported at."""

from __future__ import annotations

import os
import sys

__all__ = ["PACKAGE_DIR", "call_site", "importer_stacklevel"]

# cunumpy's folder (this module is in cunumpy/_settings/)
PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def call_site(*, also_skip: tuple[str, ...] = ()) -> str:
    """The innermost ``"file:line"`` of the calling stack that is not in cunumpy's package
    (nor in the folders ``also_skip``, each ending with ``os.sep``).

    A transfer listener calls it to find the line of the user's code that caused the copy.
    """
    skipped = (PACKAGE_DIR, *also_skip)
    frame = sys._getframe(1)
    while frame is not None:
        filename = frame.f_code.co_filename
        if not os.path.abspath(filename).startswith(skipped):
            return f"{filename}:{frame.f_lineno}"
        frame = frame.f_back  # type: ignore[assignment]
    return "<unknown>"


def importer_stacklevel() -> int:
    """``stacklevel`` for a warning given while cunumpy is imported, as seen by its caller.

    Frames of cunumpy are counted and skipped; ``warnings`` itself skips those of the
    import machinery. The warning then shows the user's ``import cunumpy`` line rather
    than a line of cunumpy's. Where no user code imported cunumpy (``python -m cunumpy``,
    whose outer frames are ``runpy``'s), it shows the outermost line of cunumpy's that
    did, rather than a line of ``<frozen runpy>``.
    """
    frame, level = sys._getframe(1), 1
    while frame.f_back is not None:
        name = frame.f_code.co_filename
        if name.startswith(PACKAGE_DIR):
            level += 1
        elif not _machinery(name):
            return level
        frame = frame.f_back
    return level - 1 if _machinery(frame.f_code.co_filename) else level


def _machinery(filename: str) -> bool:
    """Whether a frame of ``filename`` is Python's import or run machinery, not code."""
    return filename.startswith("<frozen") or "importlib" in filename
