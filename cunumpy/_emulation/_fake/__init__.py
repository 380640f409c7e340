"""The strict fake CuPy: a ``cupy`` module whose arrays live in host memory but are no
NumPy arrays, so host/device mix-ups fail on the CPU as they do on a GPU.

``cupy.<function>`` runs NumPy's function on the host buffers and refuses NumPy arrays
(except the explicit copies ``asarray``/``array``/``asnumpy``); ``cupy.cuda`` has
``CUNUMPY_FAKE_CUPY_DEVICES`` devices (default 1) and records the CUDA contexts this process
creates on them (``contexts``; ``_gpus`` says what creates one); ``RawModule``/``RawKernel``, ``ElementwiseKernel`` and ``ReductionKernel`` run on
the CPU emulator; ``cupy.random`` draws land on the fake device. Fake CuPy, never a GPU.
"""

from __future__ import annotations

import sys
import types
from typing import Any

import numpy as np

from . import _pool
from ._cuda import RawKernel, RawModule, make_cuda
from ._cupyx_scipy import make_scipy
from ._elementwise_kernels import ElementwiseKernel, ReductionKernel
from ._gpus import configure, contexts
from ._index_tricks import c_, mgrid, ogrid, r_
from ._ndarray import ndarray, unwrap, wrap
from ._random import make_random
from ._ufunc import FakeUfunc

__all__ = ["FakeCupy", "contexts", "host_buffer", "install", "is_active", "uninstall"]

_EXPLICIT = {"array", "asarray", "asanyarray", "ascontiguousarray", "asfortranarray"}


def _forwarder(function: Any, name: str) -> Any:
    def forwarded(*args: Any, **kwargs: Any) -> Any:
        return wrap(
            function(*unwrap(list(args), name), **{k: unwrap(v, name) for k, v in kwargs.items()})
        )

    forwarded.__name__ = name.rpartition(".")[2]
    forwarded.__qualname__ = forwarded.__name__
    forwarded.__module__ = name.rpartition(".")[0]
    return forwarded


def _host_data(obj: Any) -> Any:
    """``obj`` with its fake arrays as their host buffers, also inside (nested) sequences:
    CuPy's ``array``/``asarray`` take a sequence of device arrays (copied on the device)."""
    if type(obj) is ndarray:
        if _pool.STACK:
            _pool.used(obj._a)
        return obj._a
    if isinstance(obj, (list, tuple)):
        return [_host_data(item) for item in obj]
    return obj


def _own_dtype(
    dtype: np.dtype[Any], args: tuple[Any, ...], kwargs: dict[str, Any]
) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """``args`` and ``kwargs`` with a requested dtype equal to ``dtype`` replaced by it.

    CuPy keeps a device array whose dtype equals the one asked for; NumPy copies where the
    equal dtype is another object (an unpickled array's ``float64`` is not ``np.dtype(float)``).
    """
    requested = args[0] if args else kwargs.get("dtype")
    if requested is None or requested is dtype or np.dtype(requested) != dtype:
        return args, kwargs
    if args:
        return (dtype, *args[1:]), kwargs
    return args, {**kwargs, "dtype": dtype}


def _explicit(function: Any, name: str) -> Any:
    """The creation functions that copy host data in (NumPy arrays accepted)."""

    def creation(obj: Any, *args: Any, **kwargs: Any) -> Any:
        kwargs.pop("blocking", None)
        if type(obj) is ndarray:
            args, kwargs = _own_dtype(obj._a.dtype, args, kwargs)
        result = function(_host_data(obj), *args, **kwargs)
        if type(obj) is ndarray and result is obj._a:
            return obj  # as CuPy: a device array that needs no conversion comes back itself
        return ndarray._of(np.array(result, copy=True))

    creation.__name__ = name
    return creation


def _diff(a: Any, n: int = 1, axis: int = -1, prepend: Any = None, append: Any = None) -> Any:
    """``cupy.diff``: CuPy's signature, where ``prepend=None``/``append=None`` mean absent."""
    extra = {
        k: unwrap(v, "cupy.diff")
        for k, v in (("prepend", prepend), ("append", append))
        if v is not None
    }
    return wrap(np.diff(unwrap(a, "cupy.diff"), n=n, axis=axis, **extra))


class FakeCupy(types.ModuleType):
    """The fake ``cupy`` module: NumPy's functions under CuPy's rules."""

    __cunumpy_fake__ = True

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        if not hasattr(np, name):
            msg = f"module 'cupy' has no attribute {name!r} (fake CuPy)"
            raise AttributeError(msg)
        target = getattr(np, name)
        if isinstance(target, (type, np.dtype)) or not callable(target):
            value: Any = target
        elif name in _EXPLICIT:
            value = _explicit(target, name)
        elif isinstance(target, np.ufunc):
            value = FakeUfunc(target)
        else:
            value = _forwarder(target, f"cupy.{name}")
        setattr(self, name, value)
        return value


def _submodule(name: str, source: Any) -> types.ModuleType:
    module = FakeCupy(name)
    for attr in dir(source):
        if (
            not attr.startswith("_")
            and callable(getattr(source, attr))
            and not isinstance(getattr(source, attr), type)
        ):
            setattr(module, attr, _forwarder(getattr(source, attr), f"{name}.{attr}"))
    return module


class _Pool:
    def used_bytes(self) -> int:
        return 0

    def total_bytes(self) -> int:
        return 0

    def free_all_blocks(self) -> None:
        """Nothing is cached by the fake."""

    def n_free_blocks(self) -> int:
        return 0


def _build() -> FakeCupy:
    module = FakeCupy("cupy", "The fake CuPy of cunumpy.kernel_testing (host memory; not a GPU).")
    module.__version__ = "13.6.0"  # type: ignore[attr-defined]
    module.__file__ = __file__
    module.ndarray = ndarray  # type: ignore[attr-defined]
    module.cuda = make_cuda()  # type: ignore[attr-defined]
    module.RawKernel = RawKernel  # type: ignore[attr-defined]
    module.RawModule = RawModule  # type: ignore[attr-defined]
    module.asnumpy = lambda a, stream=None, order="C", out=None, blocking=True: (  # type: ignore[attr-defined]
        a.get(out=out) if type(a) is ndarray else np.asarray(a)
    )
    module.get_array_module = lambda *args: module if any(type(a) is ndarray for a in args) else np  # type: ignore[attr-defined]
    pool, pinned = _Pool(), _Pool()
    module.get_default_memory_pool = lambda: pool  # type: ignore[attr-defined]
    module.get_default_pinned_memory_pool = lambda: pinned  # type: ignore[attr-defined]
    module.is_available = lambda: True  # type: ignore[attr-defined]
    # the fake has no kernel fusion: a fused function runs operation by operation
    module.fuse = lambda *a, kernel_name=None: (lambda f: f) if not a else a[0]  # type: ignore[attr-defined]
    module.diff = _diff  # type: ignore[attr-defined]
    # CuPy's own index tricks make device arrays (NumPy's would make host arrays)
    module.mgrid, module.ogrid, module.r_, module.c_ = mgrid, ogrid, r_, c_  # type: ignore[attr-defined]
    # names NumPy 2 removed that CuPy 14 keeps (cupy/__init__.py)
    for name in ("Inf", "Infinity", "infty", "PINF"):
        setattr(module, name, np.inf)
    module.NINF, module.NAN, module.NaN = -np.inf, np.nan, np.nan  # type: ignore[attr-defined]
    module.PZERO, module.NZERO = 0.0, -0.0  # type: ignore[attr-defined]
    module.alltrue, module.sometrue = module.all, module.any  # type: ignore[attr-defined]
    module.trapz = module.trapezoid  # type: ignore[attr-defined]
    module.linalg = _submodule("cupy.linalg", np.linalg)  # type: ignore[attr-defined]
    module.fft = _submodule("cupy.fft", np.fft)  # type: ignore[attr-defined]
    module.random = make_random(_forwarder, FakeCupy)  # type: ignore[attr-defined]
    module.ElementwiseKernel = ElementwiseKernel  # type: ignore[attr-defined]
    module.ReductionKernel = ReductionKernel  # type: ignore[attr-defined]
    return module


def is_active() -> bool:
    """Whether the fake is this process's ``cupy``."""
    return bool(getattr(sys.modules.get("cupy"), "__cunumpy_fake__", False))


def install() -> types.ModuleType:
    """Put the fake into ``sys.modules`` as ``cupy`` (idempotent); see ``install_fake_cupy``."""
    existing = sys.modules.get("cupy")
    if existing is not None or "cupyx" in sys.modules:
        if existing is not None and is_active():
            return existing
        msg = "install_fake_cupy: the real CuPy is imported already; install the fake first (CUNUMPY_FAKE_CUPY=1, or at the top of conftest.py)."
        raise RuntimeError(msg)
    from ..._settings import _cupy_probe as _cupy

    if _cupy._probe_result is not _cupy._UNPROBED:
        msg = (
            "install_fake_cupy: cunumpy has already probed CuPy "
            f"(cupy_available() answered {_cupy._probe_result is None}); install the fake "
            "before the first backend use, or set CUNUMPY_FAKE_CUPY=1."
        )
        raise RuntimeError(msg)
    configure()  # the devices, and where the contexts are recorded (environment)
    module = _build()
    sys.modules["cupy"] = module
    for name in ("cuda", "linalg", "fft", "random"):
        sys.modules[f"cupy.{name}"] = getattr(module, name)
    for name in ("runtime", "pinned_memory", "nvtx"):
        sys.modules[f"cupy.cuda.{name}"] = getattr(module.cuda, name)
    cupyx = types.ModuleType(
        "cupyx",
        "The fake CuPy's cupyx: pinned buffers are plain NumPy arrays; cupyx.scipy is SciPy on the host.",
    )
    cupyx.empty_pinned = lambda shape, dtype=float, order="C": np.empty(shape, dtype, order)  # type: ignore[attr-defined]
    cupyx.zeros_pinned = lambda shape, dtype=float, order="C": np.zeros(shape, dtype, order)  # type: ignore[attr-defined]
    cupyx.__cunumpy_fake__ = True  # type: ignore[attr-defined]
    cupyx.__path__ = []
    sys.modules["cupyx"] = cupyx
    scipy_modules = make_scipy()
    sys.modules.update(scipy_modules)
    cupyx.scipy = scipy_modules["cupyx.scipy"]  # type: ignore[attr-defined]
    return module


def uninstall() -> None:
    """Remove the fake from ``sys.modules`` (no-op when it is not installed)."""
    if not is_active():
        return
    for name in [n for n in sys.modules if n.split(".")[0] in ("cupy", "cupyx")]:
        del sys.modules[name]


def host_buffer(array: Any) -> np.ndarray:
    """The NumPy array behind a fake ``cupy.ndarray`` (not a copy)."""
    if type(array) is ndarray:
        return array._a
    msg = (
        f"host_buffer: expected an array of the fake CuPy, not {type(array).__name__} ({array!r})."
    )
    raise TypeError(msg)
