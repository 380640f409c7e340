"""Running CuPy-backend code on the CPU: the fake CuPy, its sessions and subprocesses."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from .._emulation import _fake
from .._emulation._emulator import SETTINGS

__all__ = [
    "device_backend_available",
    "emulated_launches",
    "fake_cupy_active",
    "fake_cupy_session",
    "host_buffer",
    "install_fake_cupy",
    "run_in_fake_cupy_subprocess",
]


def fake_cupy_active() -> bool:
    """Return whether the fake CuPy stands in for CuPy in this process.

    Returns
    -------
    bool
        ``True`` after :func:`install_fake_cupy` or with ``CUNUMPY_FAKE_CUPY=1``.

    Examples
    --------
    >>> from cunumpy.kernel_testing import fake_cupy_active
    >>> fake_cupy_active() in (True, False)
    True
    """
    return _fake.is_active()


def install_fake_cupy() -> Any:
    """Install the fake CuPy, a strict host stand-in for CuPy, as this process's ``cupy``.

    Its arrays live in host memory but are no NumPy arrays (``numpy.asarray`` raises
    ``TypeError`` as on a GPU; they print as ``fakecupy.array([...])``);
    ``RawModule``/``RawKernel``, ``ElementwiseKernel`` and ``ReductionKernel`` run on the
    CPU emulator. Call it before the first backend use (top of ``conftest.py``), or set
    ``CUNUMPY_FAKE_CUPY=1``. Calling it again does nothing.

    Returns
    -------
    module
        The fake ``cupy`` module.

    Raises
    ------
    RuntimeError
        If the real CuPy is imported, or cunumpy has already probed for CuPy.

    Examples
    --------
    >>> from cunumpy.kernel_testing import install_fake_cupy
    >>> install_fake_cupy()  # doctest: +SKIP
    """
    return _fake.install()


def host_buffer(array: Any) -> Any:
    """Return the NumPy array behind a fake ``cupy.ndarray`` (not a copy: writes show).

    Parameters
    ----------
    array : cupy.ndarray
        An array of the fake CuPy.

    Returns
    -------
    numpy.ndarray
        Its host buffer.

    Raises
    ------
    TypeError
        If `array` is not an array of the fake CuPy.

    Examples
    --------
    >>> from cunumpy.kernel_testing import host_buffer
    >>> host_buffer([1, 2])
    Traceback (most recent call last):
    TypeError: host_buffer: expected an array of the fake CuPy, not list ([1, 2]).
    """
    return _fake.host_buffer(array)


def device_backend_available() -> bool:
    """Return whether CuPy-backend code can run here: a usable GPU, or the fake CuPy.

    Returns
    -------
    bool
        ``True`` with the fake CuPy active or a usable CuPy.

    Examples
    --------
    >>> from cunumpy.kernel_testing import device_backend_available
    >>> device_backend_available() in (True, False)
    True
    """
    from .._settings._cupy_probe import cupy_available

    return fake_cupy_active() or cupy_available()


def _need_fake(func: str) -> None:
    if not fake_cupy_active():
        msg = (
            f"{func}: needs the fake CuPy (set CUNUMPY_FAKE_CUPY=1 or call install_fake_cupy() "
            "before cunumpy is used, or use run_in_fake_cupy_subprocess())."
        )
        raise RuntimeError(msg)


@contextlib.contextmanager
def emulated_launches(
    *, compiler: str | None = None, options: Sequence[str] = ()
) -> Iterator[None]:
    """Run the CUDA C kernel launches of the block on the CPU emulator, on host arrays too.

    Inside the block a :class:`~cunumpy.kernels.CudaKernel` called on NumPy arrays (or
    with only scalars on the NumPy backend) runs emulated on the CPU and writes into the
    NumPy arrays, as CuNumpy 0.7.1 does, with or without the fake CuPy; the call is still
    checked against the kernel's signature. On the fake CuPy every launch on its arrays
    is emulated anyway (``RawKernel``/``RawModule``, ``ElementwiseKernel``,
    ``ReductionKernel``); the block chooses how the emulation compiles, e.g.
    ``options=("-ffp-contract=off",)``, for the kernels first built inside it. On a real
    GPU, launches on CuPy arrays still run on the GPU. Launches run one thread after
    another: keep problems small.

    Parameters
    ----------
    compiler : str, optional
        The C++ compiler; default :func:`emulation_compiler`.
    options : sequence of str, optional
        Extra compiler options.

    Yields
    ------
    None

    Examples
    --------
    >>> import numpy as np
    >>> import cunumpy as xp
    >>> from cunumpy.kernel_testing import emulated_launches
    >>> axpy = xp.kernels.CudaKernel(
    ...     'extern "C" __global__ void axpy(double a, const double* x, double* y,'
    ...     " int n) { int i = blockIdx.x * blockDim.x + threadIdx.x;"
    ...     " if (i < n) y[i] += a * x[i]; }",
    ...     "axpy",
    ... )
    >>> y = np.zeros(3)
    >>> with emulated_launches():
    ...     axpy(2.0, np.arange(3.0), y, 3, n_threads=3)
    >>> y
    array([0., 2., 4.])
    """
    previous = dict(SETTINGS)
    SETTINGS.update(compiler=compiler, options=tuple(options), launches=True)
    try:
        yield
    finally:
        SETTINGS.update(previous)


@contextlib.contextmanager
def fake_cupy_session(
    *, compiler: str | None = None, options: Sequence[str] = ()
) -> Iterator[None]:
    """Run a CuPy-backend program on the CPU: the CuPy backend (the fake) and emulated launches.

    Parameters
    ----------
    compiler : str, optional
        The C++ compiler of the emulation.
    options : sequence of str, optional
        Extra compiler options.

    Yields
    ------
    None

    Raises
    ------
    RuntimeError
        If the fake CuPy is not active.

    Examples
    --------
    >>> from cunumpy.kernel_testing import fake_cupy_session
    >>> with fake_cupy_session():  # doctest: +SKIP
    ...     simulation.run()
    """
    _need_fake("fake_cupy_session")
    from .._backend_choice._config import use_backend

    with use_backend("cupy"), emulated_launches(compiler=compiler, options=options):
        yield


_LAUNCHER_PREFIXES = (
    "OMPI_",
    "PMIX_",
    "PMI_",
    "HYDRA_",
    "MPIR_",
    "I_MPI_",
    "SLURM_",
    "MV2_",
    "PALS_",
)


def _tail(text: str, lines: int = 50) -> str:
    return "\n".join(text.splitlines()[-lines:])


def run_in_fake_cupy_subprocess(
    code: str, *, env: Mapping[str, str] | None = None, timeout: float | None = None
) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a child Python on the fake CuPy; fail the test when it fails.

    The child runs ``python -X faulthandler -c code`` with ``CUNUMPY_FAKE_CUPY=1`` and
    ``OMP_NUM_THREADS=1``, without the variables of an MPI launcher.

    Parameters
    ----------
    code : str
        Python source.
    env : mapping of str to str, optional
        More environment variables for the child.
    timeout : float, optional
        Seconds after which the child is killed and the test fails.

    Returns
    -------
    subprocess.CompletedProcess
        The finished child (exit code 0), with its output.

    Examples
    --------
    >>> from cunumpy.kernel_testing import run_in_fake_cupy_subprocess
    >>> run_in_fake_cupy_subprocess("import cunumpy").returncode
    0
    """
    import pytest

    child = {k: v for k, v in os.environ.items() if not k.startswith(_LAUNCHER_PREFIXES)}
    child.update(CUNUMPY_FAKE_CUPY="1", OMP_NUM_THREADS="1")
    child.update(env or {})
    command = [sys.executable, "-X", "faulthandler", "-c", code]
    try:
        done = subprocess.run(
            command, env=child, capture_output=True, text=True, timeout=timeout, check=False
        )
    except subprocess.TimeoutExpired as exc:
        out = (
            exc.stdout.decode(errors="replace")
            if isinstance(exc.stdout, bytes)
            else exc.stdout or ""
        )
        err = (
            exc.stderr.decode(errors="replace")
            if isinstance(exc.stderr, bytes)
            else exc.stderr or ""
        )
        pytest.fail(
            f"fake CuPy child timed out after {timeout} s\n--- stdout ---\n{_tail(out)}\n--- stderr ---\n{_tail(err)}",
            pytrace=False,
        )
    if done.returncode != 0:
        rc = done.returncode
        how = f"exit code {rc}"
        if rc < 0:
            with contextlib.suppress(ValueError):
                how = f"signal {signal.Signals(-rc).name}"
        pytest.fail(
            f"fake CuPy child failed with {how}\n--- stdout ---\n{_tail(done.stdout)}\n--- stderr ---\n{_tail(done.stderr)}",
            pytrace=False,
        )
    return done
