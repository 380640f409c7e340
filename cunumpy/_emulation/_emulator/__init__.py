"""The CPU emulator of CUDA C: compiles a kernel source as C++ and runs launches on the CPU.

Each source (with its options and kernel name expressions) becomes one shared library,
cached by hash in this process and on disk (:func:`emulation_cache_dir`). A launch packs
each argument as the GPU would receive it, checked against the C parameter types the
compiler reports (a Python ``float`` for a ``float`` parameter raises, as it would read
garbage on a GPU), and runs the grid thread by thread. Emulated, never a GPU check.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import re
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

__all__ = [
    "SETTINGS",
    "EmulatedLibrary",
    "build",
    "emulation_cache_dir",
    "emulation_compiler",
    "pack_arguments",
]

_RUNTIME = Path(__file__).with_name("runtime.h")
_UNSUPPORTED = {
    r"__shfl\w*": "warp shuffles",
    r"__syncwarp|__ballot_sync|__any_sync|__all_sync|__activemask": "warp intrinsics",
    r"cupy/complex\.cuh": "CuPy's complex header",
}
_EXTERN_SHARED = re.compile(
    r"extern\s+__shared__\s+(?:__align__\(\s*\d+\s*\)\s+)?([\w:<>\s]+?)\s+(\w+)\s*\[\s*\]\s*;"
)
#: Inline PTX: ``asm volatile (`` and ``__asm__`` spelled as ``asm(``, and each instruction.
_ASM = re.compile(r"\b(?:asm|__asm__)\s*(?:volatile\s*|__volatile__\s*)?\(")
_PTX = re.compile(r"\basm\(\s*\"\s*([\w.]+)")
#: The PTX instructions the emulation runs (``trap``; ``membar``/``fence`` order nothing).
PTX_EMULATED = ("trap", "membar", "fence")
_KINDS = ("pointer", "signed integer", "unsigned integer", "floating", "bool", "struct")


SETTINGS: dict[str, Any] = {"compiler": None, "options": (), "launches": False}
"""The compiler and extra options of :func:`cunumpy.kernel_testing.emulated_launches`, and
whether such a block is open (``CudaKernel`` calls on host arrays then run emulated)."""


def emulation_compiler() -> str | None:
    """The C++ compiler of the emulation: ``CXX`` when set, else ``g++``/``c++``; ``None`` if none."""
    for candidate in (SETTINGS["compiler"], os.environ.get("CXX"), "g++", "c++", "clang++"):
        if candidate and shutil.which(candidate):
            return shutil.which(candidate)
    return None


def emulation_cache_dir() -> Path | None:
    """Where built libraries are kept: ``CUNUMPY_EMULATION_CACHE`` (``off``: nowhere), else ``~/.cache``."""
    value = os.environ.get("CUNUMPY_EMULATION_CACHE")
    if value is not None:
        return (
            None
            if value.strip().lower() in ("", "0", "off", "no", "false")
            else Path(value).expanduser()
        )
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "cunumpy" / "emulation"


def _include_dirs(options: Sequence[str]) -> list[str]:
    here = Path(__file__).resolve().parents[2] / "cuda" / "include"
    flags = [o for o in options if o.startswith(("-I", "-D"))]
    return [*flags, *([f"-I{here}"] if here.is_dir() else [])]


class EmulatedLibrary:
    """A built library: one entry point per kernel name expression; launches serialized."""

    def __init__(self, path: Path, expressions: Sequence[str]) -> None:
        self._dll = ctypes.CDLL(str(path))
        self.expressions = tuple(expressions)
        self.lock = threading.Lock()
        self.params: dict[str, list[tuple[int, str]]] = {}
        for k, expression in enumerate(self.expressions):
            arity = ctypes.c_int.in_dll(self._dll, f"cunumpy_arity_{k}").value
            sizes = (ctypes.c_longlong * max(arity, 1))()
            kinds = (ctypes.c_int * max(arity, 1))()
            getattr(self._dll, f"cunumpy_info_{k}")(sizes, kinds)
            self.params[expression] = [(int(sizes[i]), _KINDS[kinds[i]]) for i in range(arity)]

    def launch(
        self,
        expression: str,
        argv: Any,
        grid: tuple[int, int, int],
        block: tuple[int, int, int],
        shared_mem: int,
    ) -> int:
        """Run one launch; returns 1 when the kernel called ``__trap()``.

        An integer division by zero in the kernel (SIGFPE) raises ``ZeroDivisionError``
        naming the kernel and the thread, instead of ending the process.
        """
        entry = getattr(self._dll, f"cunumpy_launch_{self.expressions.index(expression)}")
        entry.restype = ctypes.c_int
        unsupported = self._dll.cunumpy_unsupported_ptx
        unsupported.restype = ctypes.c_char_p
        where = (ctypes.c_uint * 6)()
        with self.lock:
            trapped = int(
                entry(
                    argv,
                    (ctypes.c_uint * 3)(*grid),
                    (ctypes.c_uint * 3)(*block),
                    ctypes.c_ulonglong(shared_mem),
                )
            )
            ptx = unsupported().decode(errors="replace")
            fpe = int(self._dll.cunumpy_fpe(where))
        if trapped and ptx:
            raise NotImplementedError(_ptx_message(f"kernel {expression!r}", ptx))
        if trapped and fpe:
            raise _fpe_error(expression, tuple(where))
        return trapped


def _ptx_message(what: str, ptx: str) -> str:
    found = _PTX.search(f"asm({ptx})")
    instruction = found.group(1) if found else ptx
    return (
        f"{what}: the inline PTX instruction {instruction!r} cannot run on the CPU emulation "
        f"(it runs {', '.join(PTX_EMULATED)}); test this kernel on a GPU."
    )


def _fpe_error(expression: str, where: tuple[int, ...]) -> ZeroDivisionError:
    # x86 reports both as FPE_INTDIV; other processors do not trap on integer division
    return ZeroDivisionError(
        f"kernel {expression!r}: an integer division by zero (or of the most negative integer "
        f"by -1) in block {where[:3]}, thread {where[3:]}, emulated on the CPU, which traps "
        "where a GPU gives an undefined value; the launch stopped there (the arrays may be "
        "partly written)."
    )


def _inline_ptx(code: str, what: str) -> str:
    """``code`` with every inline PTX statement spelled ``asm(``; raise for an instruction not emulated.

    Headers the kernel includes are checked when a launch reaches their ``asm``.
    """
    code = _ASM.sub("asm(", code)
    for instruction in _PTX.findall(code):
        if not instruction.startswith(PTX_EMULATED):
            raise NotImplementedError(_ptx_message(what, f'"{instruction}"'))
    return code


_LIBRARIES: dict[str, EmulatedLibrary] = {}
_BUILD_LOCK = threading.Lock()


def _source(code: str, expressions: Sequence[str]) -> tuple[str, bool]:
    kernel = _EXTERN_SHARED.sub(r"\1* \2 = (\1*)cunumpy_dynamic_shared;", code)
    fibers = "__syncthreads" in code
    parts = [f'#include "{_RUNTIME}"', "#line 1", kernel, ""]
    for k, expression in enumerate(expressions):
        pointer = f"(&{expression})"
        traits = f"cunumpy_signature<decltype{pointer}>"
        parts += [
            f"static void cunumpy_body_{k}() {{ {traits}::call({pointer}, cunumpy_argv, std::make_index_sequence<{traits}::arity>{{}}); }}",
            f'extern "C" int cunumpy_arity_{k} = {traits}::arity;',
            f'extern "C" void cunumpy_info_{k}(long long* s, int* t) {{ {traits}::info(s, t); }}',
            f'extern "C" int cunumpy_launch_{k}(void** a, const unsigned int* g, const unsigned int* b, unsigned long long m) {{',
            f"    cunumpy_argv = a; return cunumpy_run(cunumpy_body_{k}, g, b, m, {int(fibers)}); }}",
        ]
    return "\n".join(parts), fibers


def build(
    code: str, expressions: Sequence[str], options: Sequence[str] = (), *, what: str = "RawModule"
) -> EmulatedLibrary:
    """The emulation library of ``code`` for the kernels ``expressions`` (built once, cached)."""
    for pattern, feature in _UNSUPPORTED.items():
        if re.search(pattern, code):
            msg = f"{what}: the kernel uses {feature}, which the CPU emulation cannot run; test it on a GPU."
            raise NotImplementedError(msg)
    compiler = emulation_compiler()
    if compiler is None:
        msg = f"{what}: the CUDA C emulation needs a C++ compiler (set CXX, or install g++)."
        raise RuntimeError(msg)
    source, _ = _source(_inline_ptx(code, what), expressions)
    extra = [*options, *SETTINGS["options"]]
    command = [compiler, "-std=c++17", "-O1", "-w", "-shared", "-fPIC", *_include_dirs(extra)]
    command += [o for o in SETTINGS["options"] if not o.startswith(("-I", "-D"))]
    digest = hashlib.sha256(
        "\0".join([source, _RUNTIME.read_text(), *command]).encode()
    ).hexdigest()[:32]
    with _BUILD_LOCK:
        library = _LIBRARIES.get(digest)
        if library is None:
            library = EmulatedLibrary(_built(command, source, digest, what), expressions)
            _LIBRARIES[digest] = library
    return library


def _built(command: list[str], source: str, digest: str, what: str) -> Path:
    cache = emulation_cache_dir()
    if cache is not None:
        try:
            cache.mkdir(parents=True, exist_ok=True)
        except OSError:
            cache = None
    target_dir = cache if cache is not None else Path(tempfile.mkdtemp(prefix="cunumpy-emulation-"))
    target = target_dir / f"{digest}.so"
    if target.exists():
        return target
    with tempfile.TemporaryDirectory(prefix="cunumpy-emulation-") as tmp:
        cpp = Path(tmp) / "kernel.cpp"
        cpp.write_text(source)
        partial = Path(tmp) / "kernel.so"
        done = subprocess.run(
            [*command, str(cpp), "-o", str(partial)], capture_output=True, text=True, check=False
        )
        if done.returncode:
            msg = (
                f"{what}: the kernel does not compile for the CPU emulation:\n{done.stderr[:4000]}"
            )
            raise RuntimeError(msg)
        shutil.copyfile(partial, target.with_suffix(f".{os.getpid()}.tmp"))
        os.replace(target.with_suffix(f".{os.getpid()}.tmp"), target)
    return target


_PYTHON_SCALARS = {bool: np.dtype(np.bool_), int: np.dtype(np.int64), float: np.dtype(np.float64)}


def pack_arguments(
    name: str, params: list[tuple[int, str]], args: Sequence[Any], buffer_of: Any
) -> tuple[Any, list[Any]]:
    """The ``void*`` argument vector of a launch, and the objects it points into.

    ``buffer_of(value)`` gives the host buffer of a device array, or ``None`` for other
    values. Scalars are passed as CuPy passes them (Python ``int`` as ``int64``, ``float``
    as ``float64``), and refused when the parameter would read them wrongly on a GPU.
    """
    if len(args) != len(params):
        msg = f"kernel {name!r} takes {len(params)} arguments; the launch passed {len(args)}."
        raise TypeError(msg)
    argv = (ctypes.c_void_p * max(len(args), 1))()
    keep: list[Any] = []
    for i, ((size, kind), value) in enumerate(zip(params, args)):
        buffer = buffer_of(value)
        if kind == "pointer":
            if buffer is None:
                msg = f"kernel {name!r}: argument {i} is a pointer parameter but got {type(value).__name__} ({value!r}); pass a cupy.ndarray."
                raise TypeError(msg)
            cell = ctypes.c_void_p(buffer.ctypes.data)
        else:
            if buffer is not None or isinstance(value, np.ndarray):
                msg = (
                    f"kernel {name!r}: argument {i} is a {kind} scalar parameter but got an array."
                )
                raise TypeError(msg)
            cell = _scalar(name, i, size, kind, value)
        keep.append(cell)
        argv[i] = ctypes.addressof(cell) if not isinstance(cell, np.ndarray) else cell.ctypes.data
    return argv, keep


def _scalar(name: str, i: int, size: int, kind: str, value: Any) -> Any:
    if isinstance(value, np.generic):
        passed = value
    elif type(value) in _PYTHON_SCALARS:
        passed = _PYTHON_SCALARS[type(value)].type(value)
    else:
        msg = f"kernel {name!r}: argument {i} ({type(value).__name__} {value!r}) is not a scalar CuPy can pass."
        raise TypeError(msg)
    dtype = passed.dtype
    if kind == "struct":
        if dtype.itemsize != size:
            msg = f"kernel {name!r}: argument {i} is a {size}-byte struct; got {dtype.itemsize} bytes ({dtype})."
            raise TypeError(msg)
        return np.array(passed)
    expected = {"floating": "f", "bool": "b", "signed integer": "iu", "unsigned integer": "iu"}[
        kind
    ]
    exact = kind == "floating" and dtype.itemsize != size  # a float's low bytes are no float
    if dtype.kind not in expected or dtype.itemsize < size or exact:
        msg = (
            f"kernel {name!r}: argument {i} is a {size}-byte {kind} parameter, but {value!r} is "
            f"passed as {dtype} ({dtype.itemsize} bytes), which a GPU would read wrongly; pass a NumPy "
            "scalar of the parameter's type (e.g. numpy.float32 for float, numpy.int32 for int)."
        )
        raise TypeError(msg)
    if dtype.itemsize > size:  # the GPU reads the low bytes: right when the value fits
        target = (
            np.dtype(f"{'i' if kind == 'signed integer' else 'u'}{size}")
            if dtype.kind in "iu"
            else dtype
        )
        if dtype.kind in "iu" and not (np.iinfo(target).min <= int(passed) <= np.iinfo(target).max):
            msg = (
                f"kernel {name!r}: argument {i} ({value!r}) does not fit the {size}-byte parameter."
            )
            raise OverflowError(msg)
        passed = target.type(passed)
    return np.array(passed)
