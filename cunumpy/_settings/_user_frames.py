"""Finding the user's code on the stack: the line a copy or a warning is reported at."""

from __future__ import annotations

import functools
import os
import sys
from types import FrameType

__all__ = ["PACKAGE_DIR", "call_site", "user_stacklevel"]

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
        if not _inside(filename, skipped):
            return f"{filename}:{frame.f_lineno}"
        frame = frame.f_back  # type: ignore[assignment]
    return "<unknown>"


@functools.lru_cache(maxsize=4096)
def _inside(filename: str, folders: tuple[str, ...]) -> bool:
    """Whether ``filename`` lies in one of ``folders`` (cached: a recording asks per copy)."""
    return os.path.abspath(filename).startswith(folders)


def user_stacklevel() -> int:
    """``stacklevel`` for a warning that points at the user's code: the line that imported
    cunumpy, for a warning given at import, or the call into cunumpy that led to it.

    Call it inside the ``warnings.warn(...)`` call. It counts frames as ``warnings`` does:
    frames of Python's import system (``<frozen importlib._bootstrap>``), which ``warnings``
    skips itself, are not counted; frames of cunumpy and of the functions that import or
    run modules for their caller (``importlib.import_module``, ``runpy``) are counted and
    passed over. Where no frame is the user's (``python -m cunumpy``, whose outer frames
    are ``runpy``'s), the warning shows the outermost line of cunumpy's.
    """
    frame: FrameType | None = sys._getframe(1)  # the frame that calls warnings.warn: level 1
    level, outermost_ours = 0, 1
    while frame is not None:
        name = frame.f_code.co_filename
        if not _skipped_by_warnings(name):
            level += 1
            if name.startswith(PACKAGE_DIR):
                outermost_ours = level
            elif not _imports_for_its_caller(name):
                return level
        frame = frame.f_back
    return outermost_ours


def _skipped_by_warnings(filename: str) -> bool:
    """Whether ``warnings`` passes over a frame of ``filename`` without counting it (the
    import system's own frames: CPython's rule, in ``Python/_warnings.c``)."""
    return "importlib" in filename and "_bootstrap" in filename


def _imports_for_its_caller(filename: str) -> bool:
    """Whether a frame of ``filename`` imports or runs a module for its caller:
    ``importlib.import_module`` (``importlib/__init__.py``) and ``runpy``."""
    return (
        filename.startswith("<frozen")
        or os.path.basename(filename) in ("runpy.py",)
        or os.path.normpath(filename).endswith(os.path.join("importlib", "__init__.py"))
    )
