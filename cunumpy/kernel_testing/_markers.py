"""The pytest objects of ``cunumpy.kernel_testing``, built on first access (pytest is
imported only then): skip markers, ``BACKENDS`` and the ``backend`` fixture."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

from .._backend_choice._environment import cuda_required
from ._session import device_backend_available, fake_cupy_active

__all__ = [
    "LAZY_NAMES",
    "bounds_check_views_available",
    "build",
    "fail_gate",
    "high_dim_cuda_views_available",
    "warp_shuffle_available",
]

LAZY_NAMES = (
    "BACKENDS",
    "backend",
    "requires_bounds_check_views",
    "requires_cupy",
    "requires_device_backend",
    "requires_high_dim_cuda_views",
    "requires_warp_shuffle",
)


def _cuda_runs() -> bool:
    from .._settings._cupy_probe import cupy_available

    return cupy_available()


def _hip() -> bool:
    return bool(getattr(sys.modules["cupy"].cuda.runtime, "is_hip", False))


def warp_shuffle_available() -> bool:
    """Return whether kernels with warp shuffles can run here: a real CUDA GPU (not HIP).

    The emulation refuses warp intrinsics, so this is ``False`` on the fake CuPy.

    Returns
    -------
    bool
        ``True`` on a usable CUDA GPU.

    Examples
    --------
    >>> from cunumpy.kernel_testing import warp_shuffle_available
    >>> warp_shuffle_available() in (True, False)
    True
    """
    return _cuda_runs() and not fake_cupy_active() and not _hip()


def _views_run() -> bool:
    """A CUDA GPU that is no HIP build, or the fake CuPy with a C++ compiler (emulated)."""
    if fake_cupy_active():
        from .._emulation._emulator import emulation_compiler

        return emulation_compiler() is not None
    return _cuda_runs() and not _hip()


def high_dim_cuda_views_available() -> bool:
    """Return whether kernels with ``Array5D``/``CArray5D`` views or higher can run here.

    The answer depends on where launches run: on a CUDA GPU they do; on CuPy's HIP/ROCm
    build they do not (such launches corrupt the device there); on the fake CuPy they
    run on the CPU emulator, which needs a C++ compiler (:func:`emulation_compiler`).
    Without a usable CuPy and without the fake, no CUDA kernel runs: ``False``. CuNumpy
    0.7.1 answers ``False`` on its fake CuPy; ours emulates these views.

    Returns
    -------
    bool
        ``True`` on a CUDA GPU, or on the fake CuPy with a C++ compiler.

    Examples
    --------
    >>> from cunumpy.kernel_testing import high_dim_cuda_views_available
    >>> high_dim_cuda_views_available() in (True, False)
    True
    """
    return _views_run()


def bounds_check_views_available() -> bool:
    """Return whether kernels with bounds-checked array views (``CUNUMPY_BOUNDS_CHECK``) work here.

    The answer depends on where launches run: on a CUDA GPU a failed check traps the
    launch and the next synchronization reports it; on CuPy's HIP/ROCm build compiling
    such a kernel corrupts the device; on the fake CuPy the check traps the emulated
    launch, which raises ``RuntimeError`` (this needs a C++ compiler,
    :func:`emulation_compiler`). Without a usable CuPy and without the fake: ``False``.
    CuNumpy 0.7.1 answers ``False`` on its fake CuPy.

    Returns
    -------
    bool
        ``True`` on a CUDA GPU, or on the fake CuPy with a C++ compiler.

    Examples
    --------
    >>> from cunumpy.kernel_testing import bounds_check_views_available
    >>> bounds_check_views_available() in (True, False)
    True
    """
    return _views_run()


_FAILURE: list[str] = []


def fail_gate() -> bool:
    """Fail the test being set up (``requires_cupy`` under ``CUNUMPY_REQUIRE_CUDA``)."""
    import pytest

    pytest.fail(_FAILURE[0] if _FAILURE else "CUNUMPY_REQUIRE_CUDA is set", pytrace=False)
    return False


def _reason(available: bool) -> str:
    from .._settings._cupy_probe import cupy_unavailable_reason

    return f"CuPy/GPU not available: {cupy_unavailable_reason()}" if not available else ""


def build() -> dict[str, Any]:
    """The lazy objects, by name."""
    import pytest

    from .._backend_choice._config import use_backend

    can_launch = _cuda_runs()
    emulated = fake_cupy_active()
    must = cuda_required()
    if must and (emulated or not can_launch):
        why = "the fake CuPy is active (emulated, not a GPU)" if emulated else _reason(False)
        _FAILURE[:] = [f"CUNUMPY_REQUIRE_CUDA is set, but {why}"]
        # a string condition is evaluated at set-up: it fails the test instead of skipping
        requires_cupy = pytest.mark.skipif(
            "__import__('cunumpy.kernel_testing._markers', fromlist=['_']).fail_gate()", reason=why
        )
    else:
        requires_cupy = pytest.mark.skipif(
            not can_launch, reason=_reason(can_launch) or "CuPy is usable"
        )
    device = device_backend_available()
    requires_device_backend = pytest.mark.skipif(
        not device, reason="neither a GPU nor the fake CuPy (CUNUMPY_FAKE_CUPY=1) is available"
    )
    views = (
        "these views need a CUDA GPU (not HIP/ROCm) or the fake CuPy with a C++ compiler"
        if can_launch
        else _reason(False)
    )
    objects: dict[str, Any] = {
        "requires_cupy": requires_cupy,
        "requires_device_backend": requires_device_backend,
        "requires_warp_shuffle": pytest.mark.skipif(
            not warp_shuffle_available(),
            reason="warp shuffles need a real CUDA GPU (the emulation and HIP cannot run them)",
        ),
        "requires_high_dim_cuda_views": pytest.mark.skipif(
            not high_dim_cuda_views_available(), reason=views
        ),
        "requires_bounds_check_views": pytest.mark.skipif(
            not bounds_check_views_available(), reason=views
        ),
    }
    backends = ["numpy", pytest.param("cupy", marks=requires_cupy)]

    @pytest.fixture(params=backends)
    def backend(request: Any) -> Iterator[str]:
        """Run the test once per backend, with that backend active."""
        with use_backend(request.param):
            yield request.param

    objects["BACKENDS"] = backends
    objects["backend"] = backend
    return objects
