"""Whether CuPy is usable, and why not: one cached probe for the whole process, and one
kernel check per device.

CuPy imports fine on a machine without a GPU and fails at the first allocation. Choosing
the backend (``set_backend``, ``CUNUMPY_BACKEND=cupy|auto`` at import) asks only what
creates no CUDA context: CuPy imports, is recent enough, and the driver shows at least one
device (``cupy_available``, CuPy's own ``is_available`` test). The kernel check (allocate,
run a kernel, read the result back) runs on the device the process works on, once per
device: in ``bind_local_device`` after the device is made current (``require_device``), and
in the report (``device_unusable_reason``). So no rank of an MPI job touches a GPU it does
not use.
"""

from __future__ import annotations

import os
import sys
import warnings
from types import ModuleType

from ._distributions import install_hint

__all__ = [
    "CupyUnavailableError",
    "CupyUnavailableWarning",
    "cupy_available",
    "cupy_installed",
    "cupy_unavailable_reason",
    "device_unusable_reason",
    "imported_cupy",
    "loaded_cupy",
    "require_cupy",
    "require_device",
    "require_cupy_installed",
    "unsupported_cupy_version",
    "visible_gpu_count",
]


class CupyUnavailableError(RuntimeError, ImportError):
    """CuPy is not usable here (not installed, no GPU, a driver too old, ...).

    Raised wherever cunumpy needs CuPy and cannot use it; the message names the function
    and gives the reason. It is a ``RuntimeError`` (cunumpy's rule for a missing
    capability) and an ``ImportError`` (what CuNumpy 0.7.1 raised from ``to_cupy``), so
    code written for either catches it.

    Examples
    --------
    >>> import cunumpy as xp
    >>> issubclass(xp.CupyUnavailableError, RuntimeError)
    True
    >>> issubclass(xp.CupyUnavailableError, ImportError)
    True
    """


class CupyUnavailableWarning(RuntimeWarning):
    """``set_backend("cupy")`` found CuPy unusable and kept NumPy; the message says why.

    Pass ``strict=True`` to raise :class:`CupyUnavailableError` instead, or ask for
    ``"auto"`` to take CuPy only where it is usable, without a warning.

    Examples
    --------
    >>> import cunumpy as xp
    >>> issubclass(xp.CupyUnavailableWarning, RuntimeWarning)
    True
    """


_UNPROBED = object()
_probe_result: object = _UNPROBED  # None when usable, else the reason (a str)
_gpu_count: int | None = None
_device_results: dict[int, str | None] = {}  # the kernel check's answer, per device index


def cupy_installed() -> bool:
    """Return whether CuPy can be imported, without importing it."""
    if "cupy" in sys.modules:
        return sys.modules["cupy"] is not None  # None: importing CuPy was blocked
    import importlib.util  # here, not at import: a program on NumPy never asks

    try:
        return importlib.util.find_spec("cupy") is not None
    except (ImportError, ValueError):
        return False


MIN_CUPY = (13, 5)  # from_dlpack(copy=), __dlpack__(dl_device=) (13.4); NumPy 2.3 (13.5)


def unsupported_cupy_version(version: str) -> str | None:
    """Why CuPy ``version`` is too old for cunumpy, or ``None`` when it is supported."""
    parts = version.split(".")
    try:
        found = (int(parts[0]), int("".join(c for c in parts[1] if c.isdigit()) or 0))
    except (IndexError, ValueError):
        return f"CuPy reports an unreadable version {version!r}"
    if found < MIN_CUPY:
        return (
            f"CuPy {version} is older than {MIN_CUPY[0]}.{MIN_CUPY[1]}, the oldest version "
            f"cunumpy supports (to upgrade: {install_hint('cuda12', 'cuda13')})"
        )
    return None


def _driver_library_present() -> bool:
    """Whether the NVIDIA driver's CUDA library (libcuda) can be loaded on this machine."""
    import ctypes

    names = ("nvcuda.dll",) if sys.platform == "win32" else ("libcuda.so.1", "libcuda.so")
    for name in names:
        try:
            ctypes.CDLL(name)
        except OSError:
            continue
        return True
    return False


# What CuPy's known errors mean for the user, by a word of CuPy's message. Short and
# true wherever the reason is shown: in a skip line, in the report, and in the
# RuntimeError that stops a program asking for CuPy.
_MEANINGS = (
    ("cudaErrorNoDevice", lambda: (
        "no GPU is visible to this process (CUDA_VISIBLE_DEVICES="
        f"{os.environ.get('CUDA_VISIBLE_DEVICES', '<unset>')!r})"
    )),
    ("cudaErrorInsufficientDriver", lambda: (
        "the NVIDIA driver is older than the CUDA version of this CuPy wheel: update the "
        "driver, or install the wheel of an older CUDA (cupy-cuda12x, not cupy-cuda13x)"
    )),
    ("cudaErrorInitializationError", lambda: (
        "the NVIDIA driver failed to initialize (check `nvidia-smi`)"
    )),
    ("Unavailable", lambda: (
        "the GPU is busy or reserved by another process (exclusive compute mode)"
    )),
    ("nvrtc", lambda: (
        "CuPy cannot compile kernels: the CUDA runtime compiler (NVRTC) is missing; "
        f"{install_hint('cuda12-ctk', 'cuda13-ctk')}"
    )),
    ("NoKernelImage", lambda: (
        "this CuPy wheel has no code for this GPU, or the driver is too old for it; update "
        "the driver or CuPy"
    )),
    ("UnsupportedPtxVersion", lambda: (
        "the NVIDIA driver is older than the CUDA version this CuPy wheel needs; update the "
        "driver or install the CuPy wheel of an older CUDA"
    )),
    ("OutOfMemory", lambda: "the GPU has no free memory left for a first allocation"),
)  # fmt: skip

#: The whole reason where the NVIDIA driver's library is missing. CuPy then says "CUDA
#: driver version is insufficient", which is not true (there is no driver), so its
#: message is left out.
_NO_DRIVER = "no NVIDIA driver found (libcuda cannot be loaded)"


def _explained(stage: str, exc: BaseException) -> str:
    """What went wrong in words a user can act on, then CuPy's own message."""
    original = f"{type(exc).__name__}: {exc}"
    text = f"{type(exc).__name__} {exc}"
    if "insufficientdriver" in text.lower() and not _driver_library_present():
        return _NO_DRIVER
    for word, meaning in _MEANINGS:
        if word.lower() in text.lower():
            return f"{meaning()} (CuPy {stage}: {original})"
    return f"CuPy is installed but {stage}: {original}"


def _probe() -> str | None:
    """Ask what creates no CUDA context; return ``None`` when CuPy looks usable, else why."""
    global _gpu_count
    if not cupy_installed():
        return f"CuPy is not installed ({install_hint('cuda12', 'cuda13')})"
    try:
        import cupy
    except Exception as exc:
        if "libcuda" in str(exc) or "libcudart" in str(exc):
            return (
                "the installed CuPy does not match this machine's CUDA libraries; install "
                f"the cupy-cudaXXx wheel of your CUDA version (CuPy failed to import: "
                f"{type(exc).__name__}: {exc})"
            )
        return f"CuPy is installed but failed to import: {type(exc).__name__}: {exc}"
    too_old = unsupported_cupy_version(str(cupy.__version__))
    if too_old is not None:
        return too_old
    try:  # cudaGetDeviceCount loads the driver and counts; it creates no context
        count = int(cupy.cuda.runtime.getDeviceCount())
    except Exception as exc:
        return _explained("found no usable GPU", exc)
    if count == 0:
        return "no GPU is visible to this process (the CUDA runtime reports 0 devices)"
    _gpu_count = count
    return None


def _kernel_check(cupy: ModuleType) -> str | None:
    """Run a test kernel on the current device; ``None`` when it works, else the reason.

    This creates the device's CUDA context (and a block of CuPy's pool) where none exists.
    """
    try:
        values = cupy.arange(8, dtype=cupy.float32)
        total = float((values * 2).sum().get())
    except Exception as exc:
        return _explained("failed to run a test kernel", exc)
    if total != 56.0:
        return f"CuPy is installed but a test kernel gave a wrong result ({total!r} != 56.0)"
    return None


def cupy_available() -> bool:
    """Return whether CuPy is installed, supported, and the driver shows this process a GPU.

    The first call imports CuPy and asks the CUDA runtime for the number of devices (as
    ``cupy.is_available()`` does); it creates no CUDA context on any GPU, so every rank of
    an MPI job can ask before it binds its own GPU. The answer and, when it is ``False``,
    the reason are cached for the rest of the process. A GPU that the driver shows but
    that cannot run a kernel (exclusive compute mode held by another process, no kernel
    image for it, no NVRTC) is found by the kernel check, which runs on the device the
    process uses: in ``bind_local_device``, and in ``python -m cunumpy``.
    ``cupy_unavailable_reason()`` (``cunumpy.cupy_unavailable_reason`` or
    ``cunumpy.cuda.cupy_unavailable_reason``, the same function) gives the reason.

    Returns
    -------
    bool
        ``True`` when the CuPy backend can be used.

    Examples
    --------
    >>> import cunumpy as xp
    >>> xp.cupy_available() in (True, False)
    True
    """
    global _probe_result
    if _probe_result is _UNPROBED:
        with warnings.catch_warnings():  # a warning while CuPy initializes is not a failure
            warnings.simplefilter("ignore")
            _probe_result = _probe()
    return _probe_result is None


def imported_cupy() -> ModuleType | None:
    """Return CuPy when it is already imported *and* usable, else ``None``; never imports it."""
    if "cupy" not in sys.modules or not cupy_available():
        return None
    return sys.modules["cupy"]


def loaded_cupy() -> ModuleType | None:
    """Return CuPy where it holds work on the current GPU, else ``None``; never imports it
    and creates no CUDA context.

    CuPy holds work when it is imported, usable, and the current GPU has this process's
    CUDA context (something ran there: an array, a kernel, ``set_device``), which the
    driver tells without creating one. Or'ed with
    ``get_backend() == "cupy"``, this is the rule the helpers of ``cunumpy.cuda`` and
    ``cunumpy.profiling`` follow on the NumPy backend (docs/devices.md). Importing CuPy
    alone (``cupy_available()`` does) is not work: choosing the backend creates no context
    (issue 50), so acting then would create one on GPU 0 in every rank of an MPI job.
    """
    cupy = imported_cupy()
    if cupy is None:
        return None
    device = int(cupy.cuda.runtime.getDevice())
    return cupy if device in _contexts or _has_context(cupy, device) else None


_contexts: set[int] = set()  # the GPUs known to hold this process's CUDA context


def _has_context(cupy: ModuleType, device: int) -> bool:
    """Whether GPU ``device`` has this process's (primary) CUDA context; asking creates
    none. ``True`` where that cannot be told, as CuPy may then hold work there."""
    state = getattr(cupy.cuda.driver, "devicePrimaryCtxGetState", None)  # the fake's
    try:
        active = bool((state or _primary_context_state)(device)[1])
    except Exception:
        return True
    if active:
        _contexts.add(device)  # it stays for the process (short of a device reset)
    return active


_libcuda: list[object] = []


def _primary_context_state(device: int) -> tuple[int, int]:
    """The driver's ``cuDevicePrimaryCtxGetState`` for the runtime's device ``device``."""
    import ctypes

    if not _libcuda:
        name = "nvcuda.dll" if sys.platform == "win32" else "libcuda.so.1"
        _libcuda.append(ctypes.CDLL(name))
    lib: ctypes.CDLL = _libcuda[0]  # type: ignore[assignment]
    handle, flags, active = ctypes.c_int(), ctypes.c_uint(), ctypes.c_int()
    if lib.cuDeviceGet(ctypes.byref(handle), ctypes.c_int(device)) != 0:
        msg = f"cuDeviceGet({device}) failed"
        raise RuntimeError(msg)
    if lib.cuDevicePrimaryCtxGetState(handle, ctypes.byref(flags), ctypes.byref(active)) != 0:
        msg = f"cuDevicePrimaryCtxGetState({device}) failed"
        raise RuntimeError(msg)
    return flags.value, active.value


def cupy_unavailable_reason() -> str | None:
    """Return why CuPy is not usable, or ``None`` when it is.

    Examples
    --------
    >>> import cunumpy as xp
    >>> reason = xp.cuda.cupy_unavailable_reason()
    >>> (reason is None) == xp.cuda.cupy_available()
    True
    """
    cupy_available()
    return _probe_result if isinstance(_probe_result, str) else None


def require_cupy(func: str) -> ModuleType:
    """Return the CuPy module, or raise ``CupyUnavailableError`` naming ``func`` and the reason."""
    if not cupy_available():
        msg = f"{func}: the CuPy backend is not usable: {cupy_unavailable_reason()}."
        raise CupyUnavailableError(msg)
    return sys.modules["cupy"]


def device_unusable_reason() -> str | None:
    """Why the current GPU cannot run a kernel, or ``None`` when it can (checked once per GPU).

    The first call for a device runs the test kernel there, which creates its CUDA context;
    ask only about the device the process works on. Where CuPy itself is not usable, the
    reason is ``cupy_unavailable_reason()``.
    """
    if not cupy_available():
        return cupy_unavailable_reason()
    cupy = sys.modules["cupy"]
    device = int(cupy.cuda.runtime.getDevice())
    if device not in _device_results:
        with warnings.catch_warnings():  # a warning while CuPy initializes is not a failure
            warnings.simplefilter("ignore")
            _device_results[device] = _kernel_check(cupy)
    return _device_results[device]


def require_device(func: str, device: int | None = None) -> ModuleType:
    """Return CuPy once the current GPU has run the test kernel, else raise naming ``func``.

    With ``device``, make that GPU current first (``cudaSetDevice``, which creates its
    context since CUDA 12, and fails on a GPU in exclusive compute mode that another
    process holds). The error is ``CupyUnavailableError`` with the GPU's index and the
    reason.
    """
    cupy = require_cupy(func)
    if device is not None:
        try:
            cupy.cuda.Device(device).use()
        except Exception as exc:
            why = _explained("failed to make it current", exc)
            msg = f"{func}: GPU {device} cannot be used: {why}."
            raise CupyUnavailableError(msg) from exc
    reason = device_unusable_reason()
    if reason is not None:
        device = int(cupy.cuda.runtime.getDevice())
        msg = f"{func}: GPU {device} cannot run CuPy's kernels: {reason}."
        raise CupyUnavailableError(msg)
    return cupy


def require_cupy_installed(func: str) -> ModuleType:
    """Like ``require_cupy``; when CuPy is not installed at all the message says to install it."""
    if not cupy_installed():
        msg = f"{func}: CuPy is not installed; to use it: {install_hint('cuda12', 'cuda13')}."
        raise CupyUnavailableError(msg)
    return require_cupy(func)


def visible_gpu_count() -> int:
    """Return how many GPUs CUDA shows this process; 0 when CuPy is not usable.

    The count cannot change while a process runs (CUDA reads ``CUDA_VISIBLE_DEVICES`` once,
    at initialization), so it is asked of the runtime once and cached.
    """
    global _gpu_count
    if _gpu_count is None:
        count = sys.modules["cupy"].cuda.runtime.getDeviceCount() if cupy_available() else 0
        _gpu_count = int(count)
    return _gpu_count
