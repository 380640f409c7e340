"""What elementwise and generalized portable kernels share: options, caches, the GPU launch."""

from __future__ import annotations

import functools
import inspect
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from .._call_device import on_gpu
from .._compile_log import CompileLog
from ._loop_types import LoopSignature, parse_signatures, promotes_to
from ._numba_cpu import CPU_TARGETS, CpuLoops
from ._numba_cuda import CudaLoops, CupyMemory, SimulatorMemory
from ._numba_import import (
    cuda_target_problem,
    numba_installed,
    require_numba,
    require_numba_cuda,
    simulator_enabled,
)
from ._shapes import Layout

__all__ = ["PortableKernel"]


class PortableKernel:
    """Base of ``ElementwiseFunction`` and ``GeneralizedFunction``: one Python function,
    compiled by Numba for the CPU or the GPU on first use, per loop signature."""

    def __init__(
        self,
        pyfunc: Callable[..., Any],
        signatures: str | Sequence[str] | None,
        layout: Layout | None,
        cpu_target: str,
        fastmath: bool,
        decorator: str,
    ) -> None:
        if not callable(pyfunc):
            msg = f"{decorator}: can only decorate a function, not {pyfunc!r}."
            raise TypeError(msg)
        name = getattr(pyfunc, "__name__", repr(pyfunc))
        if not numba_installed():
            require_numba(f"{decorator} ({name})")  # raises ImportError naming the extra
        if cpu_target not in CPU_TARGETS:
            msg = f"{decorator}: `cpu_target` must be 'cpu' or 'parallel', not {cpu_target!r}."
            raise ValueError(msg)
        if not isinstance(fastmath, bool):
            msg = f"{decorator}: `fastmath` must be a bool, not {fastmath!r}."
            raise TypeError(msg)
        nparams = _positional_parameters(pyfunc, decorator)
        if layout is None:
            nin, nout = nparams, 1
        else:
            nin, nout = len(layout.inputs), len(layout.outputs)
            if nin + nout != nparams:
                msg = (
                    f"{decorator}: {name} takes {nparams} parameter(s), but layout "
                    f"{layout.text!r} has {nin} input(s) and {nout} output(s): the function "
                    "takes the inputs, then the output arrays it writes."
                )
                raise TypeError(msg)
        limit = 12 - (nout if layout is not None else 0)
        if not 1 <= nin <= limit:
            msg = f"{decorator}: {name} must take between 1 and {limit} inputs, not {nin}."
            raise TypeError(msg)
        functools.update_wrapper(self, pyfunc)  # type: ignore[arg-type]
        self.__name__: str = name
        self.py_func = pyfunc
        self.nin = nin
        self.nout = nout
        self.cpu_target = cpu_target
        self.fastmath = fastmath
        self._layout = layout
        self._loops = parse_signatures(signatures, nin, nout, f"{decorator} ({name})")
        self._log = CompileLog(name)
        self._cpu = CpuLoops(pyfunc, name, cpu_target, fastmath, layout, self._log)
        self._cuda: CudaLoops | None = None

    @property
    def signatures(self) -> tuple[str, ...]:
        """The declared signatures, as written by ``str``; empty when none were declared."""
        return tuple(str(loop) for loop in self._loops)

    @property
    def compile_times(self) -> dict[str, float]:
        """Seconds spent compiling each version so far (by signature and target)."""
        return self._log.snapshot()

    def _cuda_loops(self) -> CudaLoops:
        if self._cuda is None:
            self._cuda = CudaLoops(self.py_func, self.__name__, self.fastmath, self._log)
        return self._cuda

    def _reject_keywords(self, unexpected: dict[str, Any]) -> None:
        name = next(iter(unexpected))
        msg = (
            f"{self.__name__}: unexpected keyword argument {name!r}; a portable kernel takes "
            "its inputs by position, and only `out` and `stream` by keyword (NumPy ufunc "
            "keywords such as `where` and `casting` are not supported)."
        )
        raise TypeError(msg)

    def _check_out_dtypes(self, loop: LoopSignature, outs: Sequence[Any]) -> None:
        for i, (o, dtype) in enumerate(zip(outs, loop.outputs)):
            if not promotes_to(dtype, o.dtype):
                msg = (
                    f"{self.__name__}: `out` {i} has dtype {o.dtype}, but the result of loop "
                    f"{loop} is {dtype}, which does not promote to it; pass an array of dtype "
                    f"{dtype} (or one it promotes to)."
                )
                raise TypeError(msg)

    @contextmanager
    def _on_gpu(self, device: int, stream: Any, reads: Sequence[Any]) -> Iterator[CupyMemory]:
        """GPU ``device`` current for CuPy and Numba, and ``stream`` (or the current one).

        ``reads``: the arrays the kernel reads or writes, kept alive until it has run.
        """
        require_numba_cuda(self.__name__)
        if simulator_enabled():
            msg = (
                f"{self.__name__}: Numba's CUDA simulator is on (NUMBA_ENABLE_CUDASIM=1); it "
                "runs kernels on NumPy arrays only, not on CuPy arrays. Unset it to use the GPU."
            )
            raise RuntimeError(msg)
        problem = cuda_target_problem()
        if problem is not None:
            msg = f"{self.__name__}: the GPU target of portable kernels is not usable here: {problem}."
            raise RuntimeError(msg)
        with on_gpu(device, stream, self.__name__, reads) as queue:
            yield CupyMemory(sys.modules["cupy"], device, int(queue.ptr))

    def _simulator_memory(self) -> SimulatorMemory:
        require_numba_cuda(self.__name__)
        if not simulator_enabled():
            msg = (
                f"{self.__name__}: the CUDA target runs on NumPy arrays only under Numba's CUDA "
                "simulator; set NUMBA_ENABLE_CUDASIM=1 before Numba is imported."
            )
            raise RuntimeError(msg)
        return SimulatorMemory()

    def __repr__(self) -> str:
        declared = ", ".join(self.signatures) or "inferred from the arguments"
        return (
            f"<{type(self).__name__} {self.__name__}: {declared}; CPU target {self.cpu_target!r}>"
        )


def _positional_parameters(pyfunc: Callable[..., Any], decorator: str) -> int:
    """The number of parameters of ``pyfunc``, which must all be plain positional ones."""
    try:
        parameters = inspect.signature(pyfunc).parameters.values()
    except (TypeError, ValueError):
        msg = f"{decorator}: cannot read the parameters of {pyfunc!r}; decorate a Python function."
        raise TypeError(msg) from None
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    odd = [p.name for p in parameters if p.kind not in kinds or p.default is not p.empty]
    if odd:
        msg = (
            f"{decorator}: the parameters of a kernel are plain positional ones without "
            f"defaults; {getattr(pyfunc, '__name__', pyfunc)} has {odd[0]!r}."
        )
        raise TypeError(msg)
    return len(parameters)


def shape_of(value: Any) -> tuple[int, ...]:
    """The shape of an argument; ``()`` for scalars."""
    return tuple(getattr(value, "shape", ()))
