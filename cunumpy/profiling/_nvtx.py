"""NVTX ranges for timed regions, so they show by name in Nsight Systems; optional."""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["nvtx_hooks"]

_NVTX_DOMAIN = "cunumpy"

# NVTX is resolved once per path (False: NumPy, True: CuPy), lazily, at the first region.
_NvtxHooks = tuple[Callable[[str], object], Callable[[], object]]
_nvtx_hooks: dict[bool, _NvtxHooks | None] = {}


def _resolve_nvtx(gpu: bool) -> _NvtxHooks | None:
    """Return NVTX (push, pop) functions, or ``None`` when no NVTX is available."""
    try:
        import nvtx  # the `nvtx` package supports domains
    except Exception:  # missing or broken: timing must work without it
        nvtx = None
    if nvtx is not None:

        def push(message: str) -> None:
            nvtx.push_range(message=message, domain=_NVTX_DOMAIN)

        def pop() -> None:
            nvtx.pop_range(domain=_NVTX_DOMAIN)

        return push, pop
    if gpu:  # CuPy's own NVTX has no domains: prefix the message instead
        try:
            from cupy.cuda import nvtx as cupy_nvtx
        except Exception:
            return None
        if getattr(cupy_nvtx, "available", False):
            return (lambda message: cupy_nvtx.RangePush(f"cunumpy: {message}")), cupy_nvtx.RangePop
    return None


def nvtx_hooks(gpu: bool) -> _NvtxHooks | None:
    """Return the (push, pop) NVTX functions of one path, resolved once; ``None`` without NVTX."""
    try:
        return _nvtx_hooks[gpu]
    except KeyError:
        hooks = _nvtx_hooks[gpu] = _resolve_nvtx(gpu)
        return hooks
