"""NumPy's own typing tests with ``import numpy as np`` switched to ``import cunumpy as np``.

NumPy's wheel ships its typing tests (``numpy/typing/tests/data``): ``pass/`` must
type-check, ``reveal/`` asserts inferred types (``assert_type``), and ``fail/`` must raise
the errors that its ``# type: ignore[...]`` comments expect (under NumPy's ``mypy.ini``,
strict, an expected error that is no longer raised is an unused ``type: ignore``). This
module copies each file of a directory twice into a scratch folder, once as it is and
once with the switch, type-checks both copies in one run of one tool (mypy with NumPy's ``mypy.ini``, or pyright
in its basic mode), and counts the lines that the tool flags in the switched copy and not
in NumPy's: the lines where ``import cunumpy as np`` changes what the checker sees.

Test tooling: ``tests/test_numpy_typing_switch.py`` bounds the counts, and

    python -m tests.numpy_typing_switch mypy reveal

prints them with the lines (``--all`` for the three directories).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import numpy

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(numpy.__file__).parent / "typing" / "tests" / "data"
DIRECTORIES = ("pass", "reveal", "fail")
SWITCH = re.compile(r"^import numpy as np$", re.MULTILINE)
MYPY_LINE = re.compile(r"^(?P<path>.+?):(?P<line>\d+): (?P<kind>error|note): (?P<message>.*)$")


@dataclass
class Run:
    """What one tool flags in one copy: ``{file name: {line: [messages]}}``."""

    flagged: dict[str, dict[int, list[str]]] = field(default_factory=dict)
    seconds: float = 0.0


@dataclass
class Difference:
    """The lines flagged in the switched copy and not in NumPy's, per file."""

    tool: str
    directory: str
    lines: dict[str, dict[int, list[str]]]
    seconds: float

    @property
    def count(self) -> int:
        return sum(len(lines) for lines in self.lines.values())

    def report(self) -> str:
        head = f"{self.directory}/, {self.tool}: {self.count} lines in {len(self.lines)} files"
        body = [
            f"  {name}:{line}: {message}"
            for name, lines in sorted(self.lines.items())
            for line, messages in sorted(lines.items())
            for message in messages
        ]
        return "\n".join([head, *body])


def stub_numpy_version() -> str:
    """The NumPy whose stubs ``cunumpy/__init__.pyi`` follows (its docstring says)."""
    text = (ROOT / "cunumpy" / "__init__.pyi").read_text()
    found = re.search(r"NumPy (\S+)'s stubs", text)
    if found is None:
        msg = "cunumpy/__init__.pyi does not say which NumPy it follows"
        raise AssertionError(msg)
    return found[1]


def same_numpy() -> tuple[bool, str]:
    """Whether this NumPy is the stubs' (major.minor), and the reason to skip if not."""
    stubs = stub_numpy_version()
    same = numpy.__version__.split(".")[:2] == stubs.split(".")[:2]
    return same, f"the stubs follow NumPy {stubs}'s stubs; this is NumPy {numpy.__version__}"


#: The prefixes of the two copies of a file, type-checked in one run (NumPy's stubs are
#: read once): NumPy's as it is, and switched.
SIDES = {"numpy": "n_", "cunumpy": "c_"}


def _copy(directory: str, target: Path) -> Path:
    """``directory`` of NumPy's typing tests under ``target``, each file twice."""
    destination = target / directory
    destination.mkdir(parents=True)
    for source in sorted((DATA / directory).glob("*.py*")):
        text = source.read_text()
        (destination / f"{SIDES['numpy']}{source.name}").write_text(text)
        switched = SWITCH.sub("import cunumpy as np", text)
        (destination / f"{SIDES['cunumpy']}{source.name}").write_text(switched)
    return destination


def _environment(scratch: Path) -> dict[str, str]:
    """This checkout's cunumpy first (not an installed one), no user configuration."""
    environment = dict(os.environ)
    environment["MYPYPATH"] = str(ROOT)
    environment["PYTHONPATH"] = os.pathsep.join(
        [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
    )
    environment["HOME"] = str(scratch)  # no user-level pyright or mypy settings
    return environment


def run_mypy(folder: Path, scratch: Path) -> Run:
    """mypy with NumPy's ``mypy.ini`` over ``folder``, in a fresh cache."""
    import time

    started = time.perf_counter()
    completed = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--config-file",
            str(DATA / "mypy.ini"),
            "--cache-dir",
            str(scratch / ".mypy_cache"),
            "--no-pretty",
            "--show-absolute-path",
            "--no-error-summary",
            "--hide-error-context",
            "--show-error-codes",
            str(folder),
        ],
        capture_output=True,
        text=True,
        cwd=scratch,
        env=_environment(scratch),
        check=False,
    )
    if completed.returncode not in (0, 1):
        msg = f"mypy failed ({completed.returncode}):\n{completed.stdout}\n{completed.stderr}"
        raise RuntimeError(msg)
    run = Run(seconds=time.perf_counter() - started)
    for text in completed.stdout.splitlines():
        match = MYPY_LINE.match(text)
        if match is None or match["kind"] != "error":
            continue
        path = Path(match["path"])
        if path.parent != folder:
            continue  # an error in an imported module, not in a test file
        lines = run.flagged.setdefault(path.name, {})
        lines.setdefault(int(match["line"]), []).append(match["message"])
    return run


def run_pyright(folder: Path, scratch: Path) -> Run:
    """pyright (basic mode, this Python's packages) over ``folder``."""
    import time

    config = scratch / "pyrightconfig.json"
    config.write_text(
        json.dumps(
            {
                "include": [str(folder)],
                "extraPaths": [str(ROOT)],
                "pythonVersion": f"{sys.version_info.major}.{sys.version_info.minor}",
                "typeCheckingMode": "basic",
            }
        )
    )
    started = time.perf_counter()
    completed = subprocess.run(
        [
            shutil.which("pyright") or "pyright",
            "--outputjson",
            "--pythonpath",
            sys.executable,
            "--project",
            str(config),
        ],
        capture_output=True,
        text=True,
        cwd=scratch,
        env=_environment(scratch),
        check=False,
    )
    try:
        answer = json.loads(completed.stdout)
    except json.JSONDecodeError:
        msg = f"pyright failed ({completed.returncode}):\n{completed.stdout}\n{completed.stderr}"
        raise RuntimeError(msg) from None
    run = Run(seconds=time.perf_counter() - started)
    for diagnostic in answer["generalDiagnostics"]:
        if diagnostic["severity"] != "error":
            continue
        path = Path(diagnostic["file"])
        if path.parent != folder:
            continue
        line = diagnostic["range"]["start"]["line"] + 1
        lines = run.flagged.setdefault(path.name, {})
        rule = diagnostic.get("rule", "")
        message = diagnostic["message"].splitlines()[0]
        lines.setdefault(line, []).append(f"{message} [{rule}]" if rule else message)
    return run


TOOLS = {"mypy": run_mypy, "pyright": run_pyright}


def difference(tool: str, directory: str, scratch: Path | None = None) -> Difference:
    """Type-check ``directory`` (``pass``, ``reveal``, ``fail``) of NumPy's typing tests
    with ``tool`` (``mypy``, ``pyright``), as it is and switched, and compare."""
    with tempfile.TemporaryDirectory(prefix="cunumpy-typing-") as own:
        base = Path(scratch) if scratch is not None else Path(own)
        base = base / f"{tool}-{directory}"
        run = TOOLS[tool](_copy(directory, base), base)
    lines: dict[str, dict[int, list[str]]] = defaultdict(dict)
    for name, flagged in run.flagged.items():
        if not name.startswith(SIDES["cunumpy"]):
            continue
        original = name.removeprefix(SIDES["cunumpy"])
        numpys = run.flagged.get(SIDES["numpy"] + original, {})
        for line, messages in flagged.items():
            if line not in numpys:
                lines[original][line] = messages
    return Difference(tool, directory, dict(lines), run.seconds)


def main(arguments: list[str]) -> int:
    show_all = "--all" in arguments
    names = [argument for argument in arguments if not argument.startswith("--")]
    tools = [name for name in names if name in TOOLS] or list(TOOLS)
    directories = [name for name in names if name in DIRECTORIES] or list(DIRECTORIES)
    for tool in tools:
        for directory in directories:
            if tool == "pyright" and directory == "fail":
                continue  # the fail tests' expectations are mypy's error codes
            found = difference(tool, directory)
            print(found.report() if show_all else found.report().splitlines()[0])
            print(f"  ({found.seconds:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
