"""The programs of CuNumpy 0.7.1's README and docstrings, found and run for compare_071.py.

Run by an interpreter with a ``cunumpy`` importable:

``extract``
    (with 0.7.1) prints, as JSON, the ``python`` blocks of 0.7.1's README (its package
    description) and the examples of the docstrings of every public name of its twelve
    modules (classes with their methods), one program per docstring.
``run FILE``
    runs each program of FILE in a forked child of one process that imported cunumpy
    (as ``xp``, NumPy as ``np``, as 0.7.1's doctests have them), example after example
    as doctest does (expressions print their repr; an exception is printed as
    ``!ExceptionName`` and the program goes on), and prints JSON: per program, what it
    printed and whether it failed (an exception the program did not expect, a crash or
    a timeout). ``# doctest: +SKIP`` is ignored: the GPU programs run too.
"""

from __future__ import annotations

import contextlib
import doctest
import io
import json
import os
import re
import select
import sys
import traceback
from typing import Any

MODULES = (
    "algorithms", "arguments", "cuda", "integrate", "kernel_testing", "kernels", "memory",
    "mpi", "optimize", "petsc", "profiling", "rng",
)  # fmt: skip
TIMEOUT = 120


def _readme() -> list[dict[str, Any]]:
    from importlib.metadata import metadata

    text = metadata("cunumpy").get_payload()  # type: ignore[attr-defined]
    blocks = re.findall(r"```python\n(.*?)```", text, re.DOTALL)
    # the README's blocks build on each other, as a reader runs them in one session
    return [{"name": f"README block {i + 1}", "examples": [[b, ""]], "session": "README"}
            for i, b in enumerate(blocks)]  # fmt: skip


def _docstrings() -> list[dict[str, Any]]:
    import importlib

    finder = doctest.DocTestFinder(recurse=True, exclude_empty=True)
    programs, seen = [], set()
    for module_name in ("cunumpy", *(f"cunumpy.{m}" for m in MODULES)):
        try:
            module = importlib.import_module(module_name)
        except Exception:
            continue
        for name in getattr(module, "__all__", ()):
            try:
                obj = getattr(module, name, None)
            except Exception:  # a lazy name that needs pytest
                continue
            if obj is None or isinstance(obj, (int, float, str, tuple, dict)):
                continue
            try:
                tests = finder.find(obj, f"{module_name}.{name}")
            except Exception:
                continue
            for test in tests:
                key = tuple(e.source for e in test.examples)
                if not test.examples or key in seen:
                    continue
                seen.add(key)
                examples = [[e.source, e.want] for e in test.examples]
                programs.append({"name": test.name, "examples": examples, "session": None})
    return programs


def _run_one(program: dict[str, Any], prefix: list[str]) -> dict[str, Any]:
    import numpy as np

    import cunumpy as xp

    namespace: dict[str, Any] = {"xp": xp, "np": np, "__name__": "__main__"}
    with contextlib.redirect_stdout(io.StringIO()):
        for source in prefix:  # the README blocks before this one, quietly
            with contextlib.suppress(BaseException):
                exec(compile(source, "<README>", "exec"), namespace)
    out, failed = io.StringIO(), False
    for source, want in program["examples"]:
        with contextlib.redirect_stdout(out):
            try:
                mode = "single" if program["session"] is None else "exec"
                exec(compile(source, "<example>", mode), namespace)
            except BaseException as exc:  # as doctest: note it, go on
                print(f"!{type(exc).__name__}")
                failed = failed or not want.startswith("Traceback")
                if os.environ.get("COMPARE071_TRACEBACKS"):
                    traceback.print_exc(file=sys.stderr)
    return {"output": out.getvalue(), "failed": failed}


def _run(path: str) -> dict[str, Any]:
    import cunumpy  # noqa: F401  (imported once, before the children fork)

    with open(path) as file:
        programs = json.load(file)
    results: dict[str, Any] = {}
    readme: list[str] = []
    for program in programs:
        prefix = list(readme) if program["session"] == "README" else []
        read, write = os.pipe()
        child = os.fork()
        if child == 0:
            os.close(read)
            os.dup2(os.open(os.devnull, os.O_WRONLY), 1)  # C-level prints (kernels) too
            try:
                result = _run_one(program, prefix)
            except BaseException as exc:
                result = {"output": f"!{type(exc).__name__}", "failed": True}
            os.write(write, json.dumps(result).encode())
            os._exit(0)
        os.close(write)
        data = b""
        while select.select([read], [], [], TIMEOUT)[0]:
            chunk = os.read(read, 1 << 16)
            if not chunk:
                break
            data += chunk
        else:
            os.kill(child, 9)
        os.close(read)
        _, status = os.waitpid(child, 0)
        results[program["name"]] = (
            json.loads(data) if data else {"output": f"!crash {status}", "failed": True}
        )
        if program["session"] == "README":
            readme.append(program["examples"][0][0])
    return results


if __name__ == "__main__":
    if sys.argv[1:2] == ["extract"]:
        print(json.dumps(_readme() + _docstrings()))
    elif sys.argv[1:2] == ["run"] and len(sys.argv) == 3:
        print(json.dumps(_run(sys.argv[2])))
    else:
        sys.exit(__doc__)
