"""The fake CuPy's ``cupy.cuda``: ``CUNUMPY_FAKE_CUPY_DEVICES`` devices (``_gpus``), streams
and events as ordering-free stand-ins (events time the host), and ``RawModule``/``RawKernel``
that run on the CPU emulator of CUDA C. What needs a CUDA context creates one on the current
device, as CUDA does, and ``_gpus.contexts()`` records it."""

from __future__ import annotations

import itertools
import re
import time
import types
from collections.abc import Sequence
from typing import Any

from .._emulator import EmulatedLibrary, build, pack_arguments
from . import _gpus, _pool
from ._gpus import Device, current_device, enter_context
from ._ndarray import ndarray

__all__ = ["RawKernel", "RawModule", "make_cuda"]

_pointers = itertools.count(0x1000)


class Stream:
    """A stream stand-in: a distinct ``ptr``; ``with`` makes it current; work is done at once."""

    __module__ = "cupy.cuda"
    null: Stream
    _stack: list[Stream] = []  # noqa: RUF012 - the one current-stream stack of the fake

    def __init__(
        self,
        null: bool = False,
        non_blocking: bool = False,
        ptds: bool = False,
        priority: int | None = None,
    ) -> None:
        self.ptr = 0 if null else next(_pointers)
        self._null = null  # the null stream stands for each device's own
        self.device_id = 0 if null else current_device()
        if not null:
            enter_context(self.device_id)  # cudaStreamCreate needs the context

    def __enter__(self) -> Stream:
        Stream._stack.append(self)
        return self

    def __exit__(self, *exc: object) -> None:
        Stream._stack.pop()

    def use(self) -> Stream:
        Stream._stack[:] = [self]
        return self

    def synchronize(self) -> None:
        """The host waits for this stream: its work is finished (see ``_pool``); waiting
        needs the device's context."""
        enter_context(None if self._null else self.device_id)
        _pool.finish(self)

    def wait_event(self, event: Any) -> None:
        """Ordering is immediate on the fake."""

    def record(self, event: Any = None) -> Event:
        event = event or Event()
        event.record(self)
        return event

    @property
    def done(self) -> bool:
        return _pool.finished(self)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Stream) and other.ptr == self.ptr

    def __hash__(self) -> int:
        return hash(("fake-cupy-stream", self.ptr))

    def __repr__(self) -> str:
        return f"<Stream {self.ptr} (device {self.device_id})>"


class ExternalStream(Stream):
    """A stream from a pointer (the fake keeps the number)."""

    __module__ = "cupy.cuda"

    def __init__(self, ptr: int, device_id: int = -1) -> None:
        self.ptr = int(ptr)  # wrapping a stream that exists creates nothing
        self._null = False
        self.device_id = current_device() if device_id < 0 else int(device_id)


Stream.null = Stream(null=True)
_pool.STACK = Stream._stack  # the pool sees which stream work is queued on


def get_current_stream(device_id: int | None = None) -> Stream:
    """The innermost ``with`` stream, else the null stream."""
    return Stream._stack[-1] if Stream._stack else Stream.null


class Event:
    """An event stand-in: always done; it records the host's clock (the work is done at once)."""

    __module__ = "cupy.cuda"

    def __init__(
        self, block: bool = False, disable_timing: bool = False, interprocess: bool = False
    ) -> None:
        self.ptr = next(_pointers)
        self.time = time.perf_counter()
        enter_context()  # cudaEventCreate needs the context
        self._stream: Any = None

    def record(self, stream: Any = None) -> None:
        """Note the host's clock (the work queued before has been done already) and the
        stream, whose work counts as running until the host waits for it (``_pool``)."""
        self.time = time.perf_counter()
        self._stream = get_current_stream() if stream is None else stream

    def synchronize(self) -> None:
        """The host waits for the event's stream (its work is finished)."""
        if self._stream is not None:
            _pool.finish(self._stream)

    def query(self) -> bool:
        return self._stream is None or _pool.finished(self._stream)

    done = property(query)


def get_elapsed_time(start: Event, end: Event) -> float:
    """Milliseconds of host time between the two records (as CuPy gives GPU time)."""
    return (end.time - start.time) * 1000.0


def _properties(device: int) -> dict[str, Any]:
    """``cudaGetDeviceProperties`` of the fake (it needs no context)."""
    _gpus.checked(device)
    return {
        "name": b"fake CuPy device (host memory, emulated)", "totalGlobalMem": 1 << 30,
        "multiProcessorCount": 1, "maxThreadsPerBlock": 1024, "major": 0, "minor": 0,
    }  # fmt: skip


def _pointer_attributes(ptr: int) -> types.SimpleNamespace:
    """``cudaPointerGetAttributes`` of the fake: the current device's (as before, type 0)."""
    return types.SimpleNamespace(type=0, device=current_device())


def _device_synchronize() -> None:
    """``cudaDeviceSynchronize``: needs the context; the current device's streams' work is
    finished."""
    enter_context()
    _pool.finish_all(current_device())


def _runtime() -> types.ModuleType:
    runtime = types.ModuleType("cupy.cuda.runtime")
    runtime.CUDARuntimeError = _gpus.CUDARuntimeError  # type: ignore[attr-defined]
    runtime.getDeviceCount = _gpus.device_count  # type: ignore[attr-defined]
    runtime.getDevice = current_device  # type: ignore[attr-defined]
    runtime.setDevice = _gpus.set_current_device  # type: ignore[attr-defined]
    runtime.deviceSynchronize = _device_synchronize  # type: ignore[attr-defined]
    runtime.runtimeGetVersion = lambda: 12000  # type: ignore[attr-defined]
    runtime.driverGetVersion = lambda: 12000  # type: ignore[attr-defined]
    runtime.is_hip = False  # type: ignore[attr-defined]
    runtime.getDeviceProperties = _properties  # type: ignore[attr-defined]
    runtime.memGetInfo = lambda: Device().mem_info  # type: ignore[attr-defined]
    runtime.pointerGetAttributes = _pointer_attributes  # type: ignore[attr-defined]
    return runtime


def _primary_context_state(device: int) -> tuple[int, int]:
    """``cuDevicePrimaryCtxGetState`` of the fake (which CuPy does not wrap): ``(flags,
    active)``, active where this process has a context on ``device``; asking creates none."""
    return (0, int(_gpus.checked(device) in _gpus.contexts()))


def make_cuda() -> types.ModuleType:
    """The ``cupy.cuda`` module of the fake."""
    cuda = types.ModuleType("cupy.cuda")
    cuda.Device = Device  # type: ignore[attr-defined]
    cuda.Stream = Stream  # type: ignore[attr-defined]
    cuda.ExternalStream = ExternalStream  # type: ignore[attr-defined]
    cuda.Event = Event  # type: ignore[attr-defined]
    cuda.get_current_stream = get_current_stream  # type: ignore[attr-defined]
    cuda.get_elapsed_time = get_elapsed_time  # type: ignore[attr-defined]
    cuda.runtime = _runtime()  # type: ignore[attr-defined]
    driver = types.ModuleType("cupy.cuda.driver")
    driver.devicePrimaryCtxGetState = _primary_context_state  # type: ignore[attr-defined]
    cuda.driver = driver  # type: ignore[attr-defined]
    cuda.is_available = lambda: True  # type: ignore[attr-defined]
    cuda.get_device_id = current_device  # type: ignore[attr-defined]
    pinned = types.ModuleType("cupy.cuda.pinned_memory")
    pinned.is_memory_pinned = lambda ptr: False  # type: ignore[attr-defined]
    cuda.pinned_memory = pinned  # type: ignore[attr-defined]
    nvtx = types.ModuleType("cupy.cuda.nvtx")
    nvtx.RangePush = lambda message, id_color=-1: None  # type: ignore[attr-defined]
    nvtx.RangePop = lambda: None  # type: ignore[attr-defined]
    nvtx.Mark = lambda message, id_color=-1: None  # type: ignore[attr-defined]
    cuda.nvtx = nvtx  # type: ignore[attr-defined]
    return cuda


_GLOBAL = re.compile(r"__global__\s+void\s+(?:__launch_bounds__\s*\([^)]*\)\s*)?(\w+)\s*\(")


def _dims(value: Any, what: str) -> tuple[int, int, int]:
    dims = (int(value),) if not isinstance(value, (tuple, list)) else tuple(int(v) for v in value)
    if not 1 <= len(dims) <= 3 or any(d < 1 for d in dims):
        msg = f"RawKernel: `{what}` must be 1 to 3 positive ints, not {value!r}."
        raise ValueError(msg)
    return (*dims, 1, 1)[:3]  # type: ignore[return-value]


class RawModule:
    """``cupy.RawModule`` on the fake: compiled as C++ and run on the CPU (emulated)."""

    __module__ = "cupy"

    def __init__(
        self,
        code: str | None = None,
        path: str | None = None,
        options: Sequence[str] = (),
        backend: str = "nvrtc",
        translate_cucomplex: bool = False,
        *,
        enable_cooperative_groups: bool = False,
        name_expressions: Sequence[str] | None = None,
        jitify: bool = False,
    ) -> None:
        if (code is None) == (path is None):
            msg = "RawModule: give exactly one of `code` and `path`."
            raise TypeError(msg)
        if code is None:
            with open(str(path)) as file:
                code = file.read()
        self.code = code
        self.options = tuple(options)
        self.name_expressions = None if name_expressions is None else tuple(name_expressions)
        self._library: EmulatedLibrary | None = None

    def _expressions(self) -> tuple[str, ...]:
        """The name expressions, then the ``__global__`` functions that are no templates."""
        found = []
        for match in _GLOBAL.finditer(self.code):
            before = self.code[: match.start()]
            declaration = before[max(before.rfind(";"), before.rfind("}")) + 1 :]
            if "template" not in declaration:  # a template needs a name expression
                found.append(match.group(1))
        return tuple(dict.fromkeys((*(self.name_expressions or ()), *found)))

    def compile(self, log_stream: Any = None) -> None:
        """Build the emulation library now (compile errors surface here)."""
        self.library()

    def library(self) -> EmulatedLibrary:
        if self._library is None:
            self._library = build(self.code, self._expressions(), self.options)
        return self._library

    def get_function(self, name: str) -> RawKernel:
        """The kernel ``name`` (a ``__global__`` function or a name expression)."""
        if name not in self._expressions():
            msg = f"RawModule.get_function: no kernel {name!r} in the module (cudaErrorSymbolNotFound); it has {list(self._expressions())}."
            raise RuntimeError(msg)
        kernel = RawKernel.__new__(RawKernel)
        kernel._setup(self, name)
        return kernel


class RawKernel:
    """``cupy.RawKernel`` on the fake: launches run on the CPU emulator, on host buffers."""

    __module__ = "cupy"

    def __init__(
        self,
        code: str,
        name: str,
        options: Sequence[str] = (),
        backend: str = "nvrtc",
        translate_cucomplex: bool = False,
        *,
        enable_cooperative_groups: bool = False,
        jitify: bool = False,
    ) -> None:
        self._setup(RawModule(code=code, options=options), name)

    def _setup(self, module: RawModule, name: str) -> None:
        self.module = module
        self.name = name
        self.code = module.code
        self.options = module.options
        self.max_threads_per_block = 1024
        self.attributes = {"max_threads_per_block": 1024, "shared_size_bytes": 0, "num_regs": 0}

    def compile(self, log_stream: Any = None) -> None:
        """Build the emulation library now."""
        self.module.compile()

    def __call__(
        self,
        grid: Any,
        block: Any,
        args: Sequence[Any],
        *,
        shared_mem: int = 0,
        stream: Any = None,
        enable_cooperative_groups: bool = False,
    ) -> None:
        """Run the launch on the CPU, thread by thread, into the arrays' host buffers."""
        if not isinstance(args, (tuple, list)):
            msg = f"RawKernel {self.name}: `args` must be a tuple, not {type(args).__name__}."
            raise TypeError(msg)
        library = self.module.library()
        params = library.params[self.name]
        args = tuple(_struct_by_value(a) for a in args)
        argv, keep = pack_arguments(
            self.name,
            params,
            args,
            lambda v: _kernel_buffer(v) if type(v) is ndarray else _refuse(v, self.name),
        )
        enter_context()  # a launch needs the current device's context
        trapped = library.launch(
            self.name, argv, _dims(grid, "grid"), _dims(block, "block"), int(shared_mem)
        )
        del keep
        if trapped:
            msg = f"RawKernel {self.name}: the kernel called __trap() (e.g. a failed bounds check), emulated on the CPU."
            raise RuntimeError(msg)


def _kernel_buffer(array: ndarray) -> Any:
    """The host buffer of a kernel argument, noted as written by the current stream."""
    if _pool.STACK:
        _pool.used(array._a, write=True)
    return array._a


def _struct_by_value(value: Any) -> Any:
    """A one-element structured NumPy array is a struct passed by value, as CuPy takes it
    (CuPy's ``examples/custom_struct``; ``CudaKernel`` passes views and structs so): its element."""
    import numpy as np

    if isinstance(value, np.ndarray) and value.dtype.names is not None and value.size == 1:
        return value.reshape(())[()]
    return value


def _refuse(value: Any, name: str) -> None:
    import numpy as np

    if isinstance(value, np.ndarray):
        msg = f"RawKernel {name}: Unsupported type <class 'numpy.ndarray'> (fake CuPy: a NumPy array cannot be passed to a CUDA kernel; copy it with cupy.asarray)."
        raise TypeError(msg)
    return None
