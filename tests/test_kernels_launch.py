"""The fast launch of portable kernels on the GPU, checked on the CPU (no GPU, no launch).

What decides which compiled version a launch may reuse is compared with numba-cuda's own
code (the layout of a device array, the argument list of scalars and tuples); the cache
of ``CudaLoops`` is driven through a stub memory whose launches only record what they
were given. The launches themselves are checked on a GPU by tests/test_kernels_gpu.py.
"""

from __future__ import annotations

import ctypes
import itertools
from typing import Any, ClassVar

import numpy as np
import pytest

from cunumpy import kernels

pytest.importorskip("numba")
cuda = pytest.importorskip("numba.cuda")
dummyarray = pytest.importorskip("numba.cuda.cudadrv.dummyarray")
numba_dispatcher = pytest.importorskip("numba.cuda.dispatcher")
nbtypes = pytest.importorskip("numba.cuda.types")

from cunumpy.kernels._portable import _numba_cuda  # noqa: E402
from cunumpy.kernels._portable import _numba_cuda_kernels as k  # noqa: E402


def _numba_layout(shape: tuple[int, ...], strides: tuple[int, ...], itemsize: int) -> str:
    """The layout ``DeviceNDArray._numba_type_`` gives, from numba-cuda's contiguity flags."""
    flags = dummyarray.Array.from_desc(0, shape, strides, itemsize).flags
    broadcast = 0 in strides and int(np.prod(shape)) != 0
    if flags["C_CONTIGUOUS"] and not broadcast:
        return "C"
    if flags["F_CONTIGUOUS"] and not broadcast:
        return "F"
    return "A"


def test_array_layout_is_the_one_numba_cuda_gives_a_device_array() -> None:
    cases = 0
    for shape in [(7,), (1,), (3, 4), (4, 1), (1, 5), (2, 3, 4), (2, 1, 3)]:
        for itemsize in (4, 8):
            n = len(shape)
            choices = [0, itemsize, -itemsize, 2 * itemsize, itemsize * 4, itemsize * 12]
            for strides in itertools.product(choices, repeat=n):
                expected = _numba_layout(shape, strides, itemsize)
                assert k.array_layout(shape, strides, itemsize) == expected, (shape, strides)
                cases += 1
    assert cases > 1000


def test_the_argument_list_of_an_array_follows_numba_cudas_array_model() -> None:
    from numba.cuda.descriptor import cuda_target

    dmm = cuda_target.target_context.data_model_manager
    fields = dmm[nbtypes.Array(nbtypes.float64, 2, "A")]._fields
    assert list(fields) == ["meminfo", "parent", "nitems", "itemsize", "data", "shape", "strides"]
    raw = k.RawArray(4096, (3, 4), (64, 8), np.dtype("float64"))
    step = k._argument_step(nbtypes.Array(nbtypes.float64, 2, "A"), None)
    out: list[Any] = []
    step(raw, out)
    assert out == [0, 0, 12, 8, 4096, 3, 4, 64, 8]


class _Overload:
    """What ``_Kernel._prepare_args`` needs of its kernel for scalars and tuples."""

    extensions: ClassVar[tuple[Any, ...]] = ()

    def _prepare_args(self, *args: Any) -> None:
        numba_dispatcher._Kernel._prepare_args(self, *args)


def _plain(values: list[Any]) -> list[Any]:
    return [(type(v), v.value) if hasattr(v, "value") else v for v in values]


def test_scalar_and_tuple_arguments_are_those_numba_cuda_builds() -> None:
    overload = _Overload()
    cases = [
        (nbtypes.float64, 1.25),
        (nbtypes.float32, np.float32(0.5)),
        (nbtypes.int64, np.int64(-3)),
        (nbtypes.uint8, np.uint8(7)),
        (nbtypes.boolean, True),
        (nbtypes.complex128, 2 - 1j),
        (nbtypes.Tuple((nbtypes.float64, nbtypes.int32, nbtypes.boolean)), (1.5, 3, False)),
        (nbtypes.UniTuple(nbtypes.int64, 3), (4, 5, 6)),
    ]
    for numba_type, value in cases:
        ours: list[Any] = []
        k._argument_step(numba_type, overload)(value, ours)
        theirs: list[Any] = []
        overload._prepare_args(numba_type, value, 0, [], theirs)
        assert _plain(ours) == _plain(theirs), numba_type
        assert k._same_arguments(ours, theirs)
    assert not k._same_arguments([ctypes.c_double(1.0)], [ctypes.c_double(2.0)])
    assert not k._same_arguments([1, 2], [1, 2, 3])


@kernels.elementwise(["float64(float64, float64)"])
def _axpy(x: float, y: float) -> float:
    return 2.0 * x + y


class _StubMemory(_numba_cuda.CupyMemory):
    """NumPy arrays as device memory; launches are recorded, never run."""

    def __init__(self, device: int = 0, stream_ptr: int = 7, make: bool = True) -> None:
        super().__init__(np, device, stream_ptr)
        self.numba_launches: list[tuple[Any, ...]] = []
        self.fast_launches: list[tuple[Any, ...]] = []
        self._make = make

    def pointer(self, x: Any) -> int:
        return int(x.__array_interface__["data"][0])

    def view(self, x: Any, shape: Any, strides: Any) -> Any:
        return k.RawArray(self.pointer(x), shape, strides, x.dtype)

    def launch(self, kernel: Any, grid: Any, block: Any, args: Any) -> Any:
        self.numba_launches.append(args)
        if not self._make:
            return None
        memory = self

        def launcher(grid: Any, block: Any, stream: Any, args: Any) -> None:
            memory.fast_launches.append((stream, args))

        return launcher

    def stream(self) -> Any:
        return ("stream", self.device, self.stream_ptr)

    def ready(self) -> None:
        pass


def _stub_kernel(self: Any, kind: str, loop: Any, operands: Any, rank: int) -> Any:
    """A stand-in for the compiled kernel of this version (nothing is compiled)."""
    return ("kernel", kind, loop, tuple((op.kind, op.cast_to) for op in operands), rank)


def _run(memory: _StubMemory, *args: Any) -> None:
    loops = _axpy._cuda_loops()
    loop = _axpy._loop(args)
    shape = np.broadcast_shapes(*(np.shape(a) for a in args))
    loops.run_elementwise(loop, args, None, shape, memory)


def test_a_compiled_version_is_launched_fast_from_its_second_call(monkeypatch: Any) -> None:
    monkeypatch.setattr(_numba_cuda.CudaLoops, "_kernel", _stub_kernel)
    _axpy._cuda = None
    memory = _StubMemory()
    x, y = np.arange(6.0), np.ones(6)
    _run(memory, x, y)
    _run(memory, x, y)
    _run(memory, x + 1, y)  # other arrays, same version
    assert len(memory.numba_launches) == 1 and len(memory.fast_launches) == 2
    stream, (out, ops) = memory.fast_launches[1]
    assert stream == ("stream", 0, 7)
    assert ops[1].ptr == y.__array_interface__["data"][0] and out.shape == (6,)


def test_other_dtypes_layouts_and_gpus_get_their_own_version(monkeypatch: Any) -> None:
    monkeypatch.setattr(_numba_cuda.CudaLoops, "_kernel", _stub_kernel)
    _axpy._cuda = None
    memory = _StubMemory()
    square = np.arange(12.0).reshape(3, 4)
    _run(memory, square, 1.0)
    _run(memory, np.arange(12, dtype=np.float32).reshape(3, 4), 1.0)  # a cast operand
    _run(memory, square.T.copy().T, 1.0)  # F-ordered input, C-ordered result
    _run(memory, square[:, ::2], 1.0)  # strided
    assert len(memory.numba_launches) == 4 and not memory.fast_launches
    _run(memory, square[:, ::2], 1.0)
    assert len(memory.fast_launches) == 1
    other_gpu = _StubMemory(device=1)
    _run(other_gpu, square, 1.0)
    assert len(other_gpu.numba_launches) == 1


def test_a_new_stream_is_honoured_by_the_fast_launch(monkeypatch: Any) -> None:
    monkeypatch.setattr(_numba_cuda.CudaLoops, "_kernel", _stub_kernel)
    _axpy._cuda = None
    x = np.arange(4.0)
    first = _StubMemory(stream_ptr=7)
    _run(first, x, x)
    second = _StubMemory(stream_ptr=9)
    _run(second, x, x)
    assert not second.numba_launches  # the launcher made by the first call, on stream 9:
    assert [stream for stream, _ in first.fast_launches] == [("stream", 0, 9)]


def test_a_version_numba_must_launch_is_launched_by_numba_at_every_call(monkeypatch: Any) -> None:
    monkeypatch.setattr(_numba_cuda.CudaLoops, "_kernel", _stub_kernel)
    _axpy._cuda = None
    memory = _StubMemory(make=False)
    x = np.arange(4.0)
    for _ in range(3):
        _run(memory, x, x)
    assert len(memory.numba_launches) == 3 and not memory.fast_launches


def test_a_new_result_skips_the_overlap_checks_and_full_shapes_are_not_broadcast(
    monkeypatch: Any,
) -> None:
    monkeypatch.setattr(_numba_cuda.CudaLoops, "_kernel", _stub_kernel)
    _axpy._cuda = None
    checked: list[Any] = []
    overlaps = _numba_cuda._overlaps
    monkeypatch.setattr(
        _numba_cuda, "_overlaps", lambda a, b, m: checked.append(a) or overlaps(a, b, m)
    )
    broadcast: list[Any] = []
    broadcast_to = np.broadcast_to
    monkeypatch.setattr(np, "broadcast_to", lambda x, s: broadcast.append(s) or broadcast_to(x, s))
    memory = _StubMemory()
    x, y = np.arange(6.0), np.ones(6)
    _run(memory, x, y)  # a new result: no input can overlap it; both inputs full-shaped
    assert checked == [] and broadcast == []
    _run(memory, x, np.ones(1))  # one input broadcast
    assert broadcast == [(6,)]
    out = np.empty(6)
    _axpy._cuda_loops().run_elementwise(_axpy._loop((x, y)), (x, y), out, (6,), memory)
    assert len(checked) == 2  # a given result: each input is checked against it


# numba-cuda drift (issue 50): the private launch path, and the public launch it falls back to


def test_numba_cudas_private_launch_path_is_there() -> None:
    """Fails on the first numba-cuda release that moves what the fast launch uses."""
    from importlib.metadata import version

    from numba.cuda import codegen
    from numba.cuda.cudadrv import driver

    installed = version("numba-cuda")
    if tuple(int(part) for part in installed.split(".")[:2]) < (0, 30):
        pytest.skip(
            f"numba-cuda {installed} predates the private launch path of the fast launch "
            "(written against 0.30): its kernels take numba-cuda's public launch, the fallback"
        )
    for name in ("launch", "LaunchConfig", "normalize_kernel_dimensions", "CUDA_CORE_GE_1_0"):
        assert hasattr(numba_dispatcher, name), f"numba.cuda.dispatcher.{name}"
    assert callable(getattr(numba_dispatcher._Kernel, "_prepare_args", None))
    assert callable(getattr(codegen.CUDACodeLibrary, "get_cufunc", None))
    assert callable(getattr(driver, "_to_core_stream", None))
    assert callable(getattr(numba_dispatcher.CUDADispatcher, "typeof_pyval", None))


@pytest.fixture
def fresh_fast_launch(monkeypatch: Any) -> list[str]:
    """The process-wide "fast launch given up" state, fresh for one test."""
    from cunumpy.kernels._portable import _cuda_memory

    problem: list[str] = []
    monkeypatch.setattr(_cuda_memory, "_FAST_LAUNCH_PROBLEM", problem)
    return problem


def test_a_fast_launch_that_fails_to_build_falls_back_once_with_a_warning(
    monkeypatch: Any, fresh_fast_launch: list[str]
) -> None:
    """Stub: ``Launcher.make`` fails as on a numba-cuda without ``_codelibrary``."""
    from cunumpy.kernels._portable import _cuda_memory

    def broken(*args: Any) -> Any:
        msg = "'_Kernel' object has no attribute '_codelibrary'"
        raise AttributeError(msg)

    monkeypatch.setattr(k.Launcher, "make", broken)
    with pytest.warns(RuntimeWarning, match=r"public `kernel\[grid, block, stream\]\(\*args\)`"):
        assert _cuda_memory.fast_launcher(object(), (), ()) is None
    assert "_codelibrary" in fresh_fast_launch[0]
    calls: list[Any] = []
    monkeypatch.setattr(k.Launcher, "make", lambda *a: calls.append(a))
    assert _cuda_memory.fast_launcher(object(), (), ()) is None  # no second warning
    assert not calls  # nor a second try


def test_a_fast_stream_that_fails_launches_through_numba_from_then_on(
    monkeypatch: Any, fresh_fast_launch: list[str]
) -> None:
    """Stub memory: numba-cuda's private stream conversion breaks after a launcher exists."""
    monkeypatch.setattr(_numba_cuda.CudaLoops, "_kernel", _stub_kernel)
    _axpy._cuda = None

    class NoCoreStream(_StubMemory):
        def stream(self) -> Any:
            msg = "module 'numba.cuda.cudadrv.driver' has no attribute '_to_core_stream'"
            raise AttributeError(msg)

        def launch(self, kernel: Any, grid: Any, block: Any, args: Any) -> Any:
            made = super().launch(kernel, grid, block, args)
            return None if fresh_fast_launch else made

    memory = NoCoreStream()
    x = np.arange(4.0)
    _run(memory, x, x)
    with pytest.warns(RuntimeWarning, match="_to_core_stream"):
        _run(memory, x, x)
    _run(memory, x, x)
    assert len(memory.numba_launches) == 3 and not memory.fast_launches


def test_the_fast_launch_falls_back_under_numbas_cuda_simulator(tmp_path: Any) -> None:
    """Numba's CUDA simulator: its kernels have none of the private internals."""
    import os
    import subprocess
    import sys

    script = (
        "import warnings, numpy as np\n"
        "from numba import cuda\n"
        "from cunumpy.kernels._portable import _cuda_memory\n"
        "@cuda.jit\n"
        "def fill(a):\n"
        "    a[cuda.grid(1)] = 1.0\n"
        "a = np.zeros(4)\n"
        "fill[1, 4](a)\n"
        "with warnings.catch_warnings(record=True) as seen:\n"
        "    warnings.simplefilter('always')\n"
        "    first = _cuda_memory.fast_launcher(fill, (a,), (a,))\n"
        "    second = _cuda_memory.fast_launcher(fill, (a,), (a,))\n"
        "print(first, second, len(seen), a.sum())\n"
        "print(seen[0].message)\n"
    )
    env = {**os.environ, "NUMBA_ENABLE_CUDASIM": "1"}
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    first_line, message = done.stdout.splitlines()[:2]
    assert first_line == "None None 1 4.0"
    assert "numba-cuda's public" in message
