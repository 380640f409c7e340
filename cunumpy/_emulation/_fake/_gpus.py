"""The fake CuPy's devices: how many there are, which one is current, and the CUDA contexts
this process has created on them.

``CUNUMPY_FAKE_CUPY_DEVICES=N`` gives the fake ``N`` devices (default 1). Each host thread
has a current device (device 0 until ``Device(n).use()``), as in CUDA. A context is created
where CUDA 12 creates one: the first allocation, kernel launch, stream, event or
synchronization on a device, ``cudaSetDevice`` (``Device.use()``, entering ``Device(n)``
when it is not current) and ``cudaMemGetInfo``. Counting the devices, reading the current
one or the driver's version, and building ``Device(n)`` create none.

``contexts()`` is the record of this process. Where ``CUNUMPY_FAKE_CUPY_CONTEXTS=<folder>``
is set, each new context also adds a line ``<device>`` to ``<folder>/contexts-<pid>.txt``,
so that a test can collect the record of every rank of an ``mpiexec`` run. With
``CUNUMPY_FAKE_CUPY_EXCLUSIVE=1`` (which needs the folder) every device is in the
EXCLUSIVE_PROCESS compute mode: a second process that creates a context on a device that
a live process holds gets CUDA's ``cudaErrorDevicesUnavailable``.
"""

from __future__ import annotations

import os
import threading
from typing import Any

from . import _pool

__all__ = [
    "CONTEXTS_VARIABLE",
    "DEVICES_VARIABLE",
    "EXCLUSIVE_VARIABLE",
    "CUDARuntimeError",
    "Device",
    "checked",
    "configure",
    "contexts",
    "current_device",
    "device_count",
    "enter_context",
    "set_current_device",
]

DEVICES_VARIABLE = "CUNUMPY_FAKE_CUPY_DEVICES"
CONTEXTS_VARIABLE = "CUNUMPY_FAKE_CUPY_CONTEXTS"
EXCLUSIVE_VARIABLE = "CUNUMPY_FAKE_CUPY_EXCLUSIVE"


class CUDARuntimeError(RuntimeError):
    """CuPy's ``cupy.cuda.runtime.CUDARuntimeError`` on the fake: a CUDA error code and text."""

    __module__ = "cupy_backends.cuda.api.runtime"

    def __init__(self, status: str, text: str) -> None:
        super().__init__(f"{status}: {text}")
        self.status = status


class _State:
    count = 1
    folder: str | None = None
    exclusive = False
    created: list[int] = []  # noqa: RUF012 - the devices with a context, in creation order


_thread = threading.local()


def configure() -> None:
    """Read the fake's device settings from the environment (at ``install``).

    Raises ``ValueError`` naming the variable for a bad count, or for exclusive mode
    without the folder that the processes share.
    """
    raw = os.environ.get(DEVICES_VARIABLE, "").strip() or "1"
    try:
        count = int(raw)
    except ValueError:
        count = 0
    if count < 1:
        msg = f"install_fake_cupy: {DEVICES_VARIABLE}={raw!r} must be a positive number of devices."
        raise ValueError(msg)
    folder = os.environ.get(CONTEXTS_VARIABLE, "").strip() or None
    exclusive = os.environ.get(EXCLUSIVE_VARIABLE, "").strip().lower() in ("1", "true", "yes")
    if exclusive and folder is None:
        msg = (
            f"install_fake_cupy: {EXCLUSIVE_VARIABLE}=1 needs {CONTEXTS_VARIABLE}=<folder>, "
            "a folder that every process of the job shares (the devices' locks live there)."
        )
        raise ValueError(msg)
    if folder is not None:
        os.makedirs(folder, exist_ok=True)
    _State.count, _State.folder, _State.exclusive = count, folder, exclusive
    _State.created = []


def device_count() -> int:
    """How many devices the fake has (``CUNUMPY_FAKE_CUPY_DEVICES``, default 1)."""
    return _State.count


def contexts() -> tuple[int, ...]:
    """The devices on which this process has created a CUDA context, in creation order."""
    return tuple(_State.created)


def checked(device: Any) -> int:
    """``device`` as a device index, or CUDA's invalid-ordinal error."""
    index = int(device)
    if not 0 <= index < _State.count:
        msg = (
            f"invalid device ordinal {index} (the fake CuPy has {_State.count} device(s); "
            f"set {DEVICES_VARIABLE} for more)"
        )
        raise CUDARuntimeError("cudaErrorInvalidDevice", msg)
    return index


def current_device() -> int:
    """This thread's current device (0 until one is made current), as ``cudaGetDevice``."""
    return int(getattr(_thread, "device", 0))


def set_current_device(device: Any) -> None:
    """``cudaSetDevice``: make ``device`` current; since CUDA 12 it creates its context."""
    index = checked(device)
    enter_context(index)  # a device it cannot enter (exclusive mode) does not become current
    _thread.device = index


def enter_context(device: int | None = None) -> None:
    """Note that work on ``device`` (default: the current one) needs its CUDA context."""
    index = current_device() if device is None else device
    if index in _State.created:
        return
    if _State.exclusive:
        _lock(index)
    _State.created.append(index)
    if _State.folder is not None:
        with open(os.path.join(_State.folder, f"contexts-{os.getpid()}.txt"), "a") as file:
            file.write(f"{index}\n")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _lock(device: int) -> None:
    """Hold ``device`` for this process, as the EXCLUSIVE_PROCESS compute mode does."""
    assert _State.folder is not None
    path = os.path.join(_State.folder, f"device-{device}.lock")
    for _ in range(2):  # a stale lock of a finished process is taken over once
        try:
            handle = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            with open(path) as file:
                owner = int(file.read().strip() or 0)
            if owner == os.getpid():
                return
            if owner and _alive(owner):
                msg = (
                    "CUDA-capable device(s) is/are busy or unavailable (fake CuPy: device "
                    f"{device} is in exclusive-process mode and process {owner} holds it)"
                )
                raise CUDARuntimeError("cudaErrorDevicesUnavailable", msg) from None
            os.remove(path)
            continue
        with os.fdopen(handle, "w") as file:
            file.write(str(os.getpid()))
        return


class Device:
    """``cupy.cuda.Device`` of the fake: an index below ``CUNUMPY_FAKE_CUPY_DEVICES``; a
    context manager that makes it current and restores the previous device."""

    __module__ = "cupy.cuda"

    def __init__(self, device: Any = None) -> None:
        self.id = current_device() if device is None else checked(device)
        self.compute_capability = "90"  # what the fake claims; nothing depends on it
        self.attributes = {"MaxThreadsPerBlock": 1024, "MultiProcessorCount": 1, "WarpSize": 32}
        self._previous: list[int] = []

    @property
    def mem_info(self) -> tuple[int, int]:
        """``(free, total)`` bytes; asking creates the device's context, as in CUDA."""
        enter_context(self.id)
        return (1 << 30, 1 << 30)

    def __enter__(self) -> Device:
        previous = current_device()
        self._previous.append(previous)
        if self.id != previous:  # as CuPy: cudaSetDevice only to change the device
            set_current_device(self.id)
        return self

    def __exit__(self, *exc: object) -> None:
        set_current_device(self._previous.pop())  # as CuPy: always cudaSetDevice back

    def use(self) -> None:
        """Make this device current (``cudaSetDevice``, which creates its context)."""
        set_current_device(self.id)

    def synchronize(self) -> None:
        """Wait for the device (it needs the context): the work of its streams is finished
        (see ``_pool``); other devices' streams may still run."""
        enter_context(self.id)
        _pool.finish_all(self.id)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Device) and other.id == self.id

    def __hash__(self) -> int:
        return hash(("fake-cupy-device", self.id))

    def __repr__(self) -> str:
        return f"<CUDA Device {self.id}>"
