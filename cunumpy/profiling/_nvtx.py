"""NVTX ranges, so that regions show by name in Nsight Systems; optional.

``nvtx_range`` marks a block or a function; timed regions use the same hooks.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from types import TracebackType
from typing import TYPE_CHECKING, ParamSpec, TypeVar

from .._backend_choice._config import current
from .._trace import _recorder

if TYPE_CHECKING:
    from .._trace._buffer import Recorder

__all__ = ["nvtx_hooks", "nvtx_range"]

_P = ParamSpec("_P")
_R = TypeVar("_R")

_NVTX_DOMAIN = "cunumpy"

# ARGB colours of ``nvtx_range(color=i)``: green, blue, yellow, magenta, cyan, red, white.
# CuPy's ``RangePush(message, id_color=i)`` indexes a table with these colours in this order.
COLORS = (0xFF00FF00, 0xFF0000FF, 0xFFFFFF00, 0xFFFF00FF, 0xFF00FFFF, 0xFFFF0000, 0xFFFFFFFF)

# NVTX is resolved once per path (False: NumPy, True: CuPy), lazily, at the first region.
_Push = Callable[..., object]  # push(message, color=None), color an index into COLORS
_NvtxHooks = tuple[_Push, Callable[[], object]]
_nvtx_hooks: dict[bool, _NvtxHooks | None] = {}


def _resolve_nvtx(gpu: bool) -> _NvtxHooks | None:
    """Return NVTX (push, pop) functions, or ``None`` when no NVTX is available."""
    try:
        import nvtx  # the `nvtx` package supports domains
    except Exception:  # missing or broken: timing must work without it
        nvtx = None
    if nvtx is not None:

        def push(message: str, color: int | None = None) -> None:
            if color is None:
                nvtx.push_range(message=message, domain=_NVTX_DOMAIN)
            else:
                nvtx.push_range(
                    message=message, color=COLORS[color % len(COLORS)], domain=_NVTX_DOMAIN
                )

        def pop() -> None:
            nvtx.pop_range(domain=_NVTX_DOMAIN)

        return push, pop
    if gpu:  # CuPy's own NVTX has no domains: prefix the message instead
        try:
            from cupy.cuda import nvtx as cupy_nvtx
        except Exception:
            return None
        if getattr(cupy_nvtx, "available", False):

            def cupy_push(message: str, color: int | None = None) -> None:
                index = -1 if color is None else color % len(COLORS)
                cupy_nvtx.RangePush(f"cunumpy: {message}", id_color=index)

            return cupy_push, cupy_nvtx.RangePop
    return None


def nvtx_hooks(gpu: bool) -> _NvtxHooks | None:
    """Return the (push, pop) NVTX functions of one path, resolved once; ``None`` without NVTX."""
    try:
        return _nvtx_hooks[gpu]
    except KeyError:
        hooks = _nvtx_hooks[gpu] = _resolve_nvtx(gpu)
        return hooks


def _current_hooks() -> _NvtxHooks | None:
    gpu = current().name == "cupy"
    hooks = _nvtx_hooks.get(gpu, False)
    return nvtx_hooks(gpu) if hooks is False else hooks  # type: ignore[return-value]


class nvtx_range:
    """Mark a block, or each call of a function, as a named NVTX range.

    In Nsight Systems (``nsys``) the range shows on the timeline above the work it
    issued. It uses the ``nvtx`` package when installed (a range in the ``cunumpy``
    domain, on either backend), else CuPy's NVTX on the CuPy backend; without either it
    does nothing, so portable code can keep it. It never waits for the GPU (use
    :func:`timed_region` to time a region, which also opens an NVTX range). The range
    is closed also when the block raises. One object may be entered again while open,
    e.g. around a recursive function.

    Parameters
    ----------
    name : str
        The name shown in the profiler.
    color : int, optional
        An index into NVTX's colour table (green, blue, yellow, magenta, cyan, red,
        white; taken modulo 7); ``None`` for the profiler's default.

    Raises
    ------
    TypeError
        If ``name`` is not a str or ``color`` not an int or None, or a decorated object is
        not callable.
    ValueError
        If ``name`` is empty or ``color`` negative.

    Examples
    --------
    >>> import cunumpy as xp
    >>> from cunumpy import profiling
    >>> with profiling.nvtx_range("assemble"):
    ...     x = 2.0 * xp.ones(3)
    >>> @profiling.nvtx_range("step", color=2)
    ... def step(x):
    ...     return x + 1.0
    >>> step(x).tolist()
    [3.0, 3.0, 3.0]
    """

    __slots__ = ("_pops", "_traces", "color", "name")

    def __init__(self, name: str, color: int | None = None) -> None:
        if not isinstance(name, str):
            hint = " (decorate with @nvtx_range('name'))" if callable(name) else ""
            msg = f"nvtx_range: `name` must be a str, not {name!r}{hint}."
            raise TypeError(msg)
        if not name:
            msg = "nvtx_range: `name` must be a non-empty str, not ''."
            raise ValueError(msg)
        if color is not None and (isinstance(color, bool) or not isinstance(color, int)):
            msg = f"nvtx_range: `color` must be an int (an index into the colour table) or None, not {color!r}."
            raise TypeError(msg)
        if color is not None and color < 0:
            msg = f"nvtx_range: `color` must be an int >= 0 or None, not {color!r}."
            raise ValueError(msg)
        self.name = name
        self.color = color
        self._pops: list[Callable[[], object] | None] = []  # one per open entry
        self._traces: list[tuple[Recorder, int, int, int]] = []  # while recording

    def __enter__(self) -> nvtx_range:
        if _recorder.RECORDER is not None:
            recorder = _recorder.RECORDER
            opened = (recorder, recorder.enter(), _recorder.clock(), len(self._pops))
            self._traces.append(opened)
        hooks = _current_hooks()
        if hooks is None:
            self._pops.append(None)
            return self
        hooks[0](self.name, self.color)
        self._pops.append(hooks[1])
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        pop = self._pops.pop()
        if pop is not None:
            pop()
        if self._traces and self._traces[-1][3] == len(self._pops):
            recorder, depth, start, _ = self._traces.pop()
            recorder.leave("nvtx", self.name, start, _recorder.clock() or start, depth, None)

    def __call__(self, fn: Callable[_P, _R]) -> Callable[_P, _R]:
        """Decorate ``fn``: each call runs inside the range (state kept per call, thread-safe)."""
        if not callable(fn):
            msg = f"nvtx_range: can only decorate a callable, not {fn!r}."
            raise TypeError(msg)
        name, color = self.name, self.color

        @functools.wraps(fn)
        def ranged(*args: _P.args, **kwargs: _P.kwargs) -> _R:
            if _recorder.RECORDER is not None:
                with nvtx_range(name, color):
                    return fn(*args, **kwargs)
            hooks = _current_hooks()
            if hooks is None:
                return fn(*args, **kwargs)
            hooks[0](name, color)
            try:
                return fn(*args, **kwargs)
            finally:
                hooks[1]()

        return ranged

    def __repr__(self) -> str:
        return f"nvtx_range({self.name!r}, color={self.color!r})"
