"""Testing kernel ports without a GPU: parity of kernel pairs, the strict fake CuPy and the
CPU emulator of CUDA C.

- Compare the host and the CUDA kernel of a :class:`~cunumpy.kernels.Kernel`:
  :func:`assert_kernels_agree`, and for a catalog :func:`parity_cases`/:func:`check_parity`.
- The fake CuPy (``CUNUMPY_FAKE_CUPY=1`` or :func:`install_fake_cupy`): a ``cupy`` module
  whose arrays live in host memory but are no NumPy arrays, so host/device mix-ups fail
  in CPU-only CI as on a GPU; ``RawModule``/``RawKernel``, ``ElementwiseKernel`` and
  ``ReductionKernel`` run on the emulator, ``cupy.random`` draws device arrays.
- The emulator compiles CUDA C as C++ and runs a launch thread by thread
  (:func:`emulate_cuda_kernel`), with ``__syncthreads`` and shared memory.
- pytest objects, made on first access: ``BACKENDS``, the ``backend`` fixture and the
  ``requires_*`` markers.

Results on the fake CuPy are *emulated*: they check host/device logic and the port's
arithmetic, never a GPU. See ``docs/kernel_testing.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .._backend_choice._environment import cuda_required
from .._settings._homes import set_public_homes as _set_public_homes
from ._device_function import device_function_kernel
from ._emulate import (
    compile_for_emulation,
    emulate_cuda_kernel,
    emulation_cache_dir,
    emulation_compiler,
)
from ._markers import (
    LAZY_NAMES,
    bounds_check_views_available,
    build,
    high_dim_cuda_views_available,
    warp_shuffle_available,
)
from ._parity import assert_kernels_agree, check_parity, parity_cases
from ._session import (
    device_backend_available,
    emulated_launches,
    fake_cupy_active,
    fake_cupy_session,
    host_buffer,
    install_fake_cupy,
    run_in_fake_cupy_subprocess,
)

__all__ = [
    "BACKENDS",
    "assert_kernels_agree",
    "backend",
    "bounds_check_views_available",
    "check_parity",
    "compile_for_emulation",
    "cuda_required",
    "device_backend_available",
    "device_function_kernel",
    "emulate_cuda_kernel",
    "emulated_launches",
    "emulation_cache_dir",
    "emulation_compiler",
    "fake_cupy_active",
    "fake_cupy_session",
    "high_dim_cuda_views_available",
    "host_buffer",
    "install_fake_cupy",
    "parity_cases",
    "requires_bounds_check_views",
    "requires_cupy",
    "requires_device_backend",
    "requires_high_dim_cuda_views",
    "requires_warp_shuffle",
    "run_in_fake_cupy_subprocess",
    "warp_shuffle_available",
]

_lazy: dict[str, Any] = {}


_set_public_homes(__name__, __all__, globals())  # tracebacks name the public module


if TYPE_CHECKING:
    # The lazy objects of ``build()``, declared for type checkers, which do not see the
    # ``__getattr__`` below (so that a misspelt name of this module is an error).
    import pytest
    from _pytest.fixtures import FixtureFunctionDefinition  # what @pytest.fixture gives

    #: ``["numpy", pytest.param("cupy", marks=requires_cupy)]``, for ``parametrize``.
    BACKENDS: list[str | pytest.ParameterSet]
    #: The fixture that runs a test once per backend, that backend active (its value: the name).
    backend: FixtureFunctionDefinition
    requires_cupy: pytest.MarkDecorator
    requires_device_backend: pytest.MarkDecorator
    requires_warp_shuffle: pytest.MarkDecorator
    requires_high_dim_cuda_views: pytest.MarkDecorator
    requires_bounds_check_views: pytest.MarkDecorator


def _lazy_attribute(name: str) -> Any:
    """An object of ``LAZY_NAMES``, all built on the first access to one of them."""
    if name in LAZY_NAMES:
        if not _lazy:
            _lazy.update(build())
        return _lazy[name]
    msg = f"module {__name__!r} has no attribute {name!r}"
    raise AttributeError(msg)


if not TYPE_CHECKING:  # type checkers see the declarations above instead
    __getattr__ = _lazy_attribute


def __dir__() -> list[str]:
    """The public names only (``__all__``)."""
    return list(__all__)
