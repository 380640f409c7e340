"""Parity of kernel pairs: the host and the CUDA kernel on arguments built for each backend."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from types import GetSetDescriptorType, MemberDescriptorType
from typing import Any

import numpy as np

from .._backend_choice._environment import cuda_required
from .._namespaces._array_predicates import is_cupy_array
from ..arguments import CudaStruct, CudaStructValue
from ..kernels import Kernel
from ._session import fake_cupy_active

__all__ = [
    "TEST_ARGS_SETTINGS",
    "assert_kernels_agree",
    "check_parity",
    "parity_cases",
    "where_cuda_runs",
]

TEST_ARGS_SETTINGS = {
    "N_THREADS": "n_threads", "GRID": "grid", "BLOCK": "block", "RTOL": "rtol",
    "ATOL": "atol", "N_CALLS": "n_calls", "OUTPUTS": "outputs", "SEED": "seed",
}  # fmt: skip
"""The names a ``<name>_test_args.py`` module may define, and the keyword each sets."""


def where_cuda_runs() -> str:
    """``"emulated on the fake CuPy"``, ``"on the GPU"``, or ``""`` when CUDA cannot run here."""
    from .._settings._cupy_probe import cupy_available

    if fake_cupy_active():
        return "emulated on the fake CuPy"
    return "on the GPU" if cupy_available() else ""


def _skip_or_fail(reason: str) -> None:
    import pytest

    if cuda_required():
        pytest.fail(f"CUNUMPY_REQUIRE_CUDA is set, but {reason}", pytrace=False)
    pytest.skip(reason)


def _arrays_in(value: Any, name: str, found: dict[str, Any], depth: int) -> None:
    if isinstance(value, np.ndarray) or is_cupy_array(value):
        found[name] = value
    elif depth == 0:
        return
    elif isinstance(value, (tuple, list)):
        for i, item in enumerate(value):
            _arrays_in(item, f"{name}[{i}]", found, depth - 1)
    elif isinstance(value, dict):
        for key, item in value.items():
            _arrays_in(item, f"{name}[{key!r}]", found, depth - 1)
    elif not isinstance(value, (type, np.generic)) and type(value).__module__ != "builtins":
        for attr, item in _fields(value).items():
            _arrays_in(item, f"{name}.{attr}", found, depth - 1)


def _fields(value: Any) -> dict[str, Any]:
    """The public fields of an argument object, the same for its host and its CUDA class.

    A :class:`~cunumpy.arguments.CudaStructArguments` or a struct value has its struct's
    fields (a field may be a property); any other object its public instance attributes
    and the fields its class declares as descriptors: those of a compiled class (Pyccel's
    argument classes have no ``__dict__``) and ``__slots__``.
    """
    if isinstance(value, CudaStructValue):
        return {field.name: value[field.name] for field in value.struct.fields}
    struct = getattr(type(value), "struct", None)
    if isinstance(struct, CudaStruct):
        names = [field.name for field in struct.fields]
    else:
        names = list(getattr(value, "__dict__", ()))
        for cls in type(value).__mro__[:-1]:  # not object's
            names += [
                attr
                for attr, member in vars(cls).items()
                if isinstance(member, (GetSetDescriptorType, MemberDescriptorType))
                and attr not in names
            ]
    fields = {}
    for attr in names:
        if not attr.startswith("_"):
            try:
                fields[attr] = getattr(value, attr)
            except AttributeError:  # a slot never set
                continue
    return fields


def _index(
    entry: int | str, n_args: int, parameters: Sequence[str] | None
) -> tuple[int, str | None]:
    if isinstance(entry, bool) or not isinstance(entry, (int, str)):
        msg = f"assert_kernels_agree: `outputs` entries must be argument indices or names, not {entry!r}."
        raise TypeError(msg)
    field = None
    if isinstance(entry, str):
        head, _, rest = entry.partition(".")
        field = rest or None
        if head.lstrip("-").isdigit():
            entry = int(head)
        elif parameters is not None and head in parameters:
            entry = list(parameters).index(head)
        else:
            msg = f"assert_kernels_agree: output {head!r} is not a parameter of the kernel (parameters: {parameters}); give an index."
            raise KeyError(msg)
    index = entry + n_args if entry < 0 else entry
    if not 0 <= index < n_args:
        msg = f"assert_kernels_agree: output {entry} does not exist: the kernel got {n_args} arguments."
        raise IndexError(msg)
    return index, field


def _collect(
    args: Sequence[Any], outputs: Sequence[int | str] | None, parameters: Sequence[str] | None
) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for entry in range(len(args)) if outputs is None else outputs:
        index, field = _index(entry, len(args), parameters)
        local: dict[str, Any] = {}
        _arrays_in(args[index], f"argument {index}", local, 2)
        if field is not None:
            prefix = f"argument {index}.{field}"
            local = {
                k: v
                for k, v in local.items()
                if k == prefix or k.startswith((prefix + ".", prefix + "["))
            }
            if not local:
                msg = f"assert_kernels_agree: output {entry!r}: argument {index} has no array field {field!r}."
                raise KeyError(msg)
        found.update(local)
    return found


def _check_sides(name: str, *, host: dict[str, Any], device: dict[str, Any]) -> None:
    """Each run got the arrays of its backend: else the comparison would prove nothing."""
    wrong = sorted(k for k, a in host.items() if is_cupy_array(a))
    wrong += sorted(k for k, a in device.items() if isinstance(a, np.ndarray))
    if wrong or not device:
        msg = (
            f"assert_kernels_agree: kernel {name!r}: make_args must build NumPy arrays for "
            "'numpy' and CuPy arrays for 'cupy' (e.g. xp.asarray(data, device='cpu' if "
            f"backend == 'numpy' else 'cuda')); these were on the other side: {wrong}."
        )
        raise ValueError(msg)


def assert_kernels_agree(
    kernel: Kernel,
    make_args: Callable[[str, int], Sequence[Any]],
    *,
    n_threads: int | Sequence[int] | Callable[[tuple[Any, ...]], Any] | None = None,
    grid: int | Sequence[int] | None = None,
    block: int | Sequence[int] | None = None,
    rtol: float = 1e-12,
    atol: float = 0.0,
    n_calls: int = 1,
    outputs: Sequence[int | str] | None = None,
    seed: int = 0,
) -> dict[str, np.ndarray]:
    """Check that the host and the CUDA kernel of a pair compute the same.

    For ``"numpy"`` then ``"cupy"``: with that backend active, the arguments are built by
    ``make_args(backend, seed)``, the kernel is called `n_calls` times, and the arrays
    among the arguments are collected; the CUDA results are compared with the host's
    (``numpy.testing.assert_allclose``). On the fake CuPy the CUDA kernel runs emulated
    on the CPU (and the failure message says so); that is no GPU verification.

    Parameters
    ----------
    kernel : Kernel
        A pair with a CUDA kernel.
    make_args : callable
        ``make_args(backend, seed)`` returns the kernel's positional arguments.
    n_threads, grid, block : int or tuple of int, optional
        The CUDA launch; `n_threads` may be a function of the argument tuple.
    rtol, atol : float, optional
        Tolerances.
    n_calls : int, optional
        Calls per backend.
    outputs : sequence of int or str, optional
        The arguments to compare (indices, parameter names, ``"name.field"``); default
        the host kernel's ``outputs``, else every argument.
    seed : int, optional
        Passed to `make_args`.

    Returns
    -------
    dict of str to numpy.ndarray
        The host results by argument name (``"argument 0"``, ``"argument 1.x"``).

    Raises
    ------
    TypeError
        If `kernel` is not a :class:`~cunumpy.kernels.Kernel`.
    ValueError
        If it has no CUDA kernel, `n_calls` is below 1, or `make_args` built arrays of
        the other backend (the comparison would prove nothing).
    AssertionError
        If an array differs; the message names the argument and where CUDA ran.

    Notes
    -----
    Skips (``pytest.skip``) when neither a GPU nor the fake CuPy is here; with
    ``CUNUMPY_REQUIRE_CUDA=1`` it fails instead, also on the fake CuPy.

    Examples
    --------
    >>> from cunumpy.kernel_testing import assert_kernels_agree
    >>> def make_args(backend, seed):
    ...     device = "cpu" if backend == "numpy" else "cuda"
    ...     x = xp.asarray(np.random.default_rng(seed).random(1000), device=device)
    ...     return (x, np.float64(2.0), xp.zeros_like(x), np.int32(x.size))
    >>> assert_kernels_agree(catalog["scale"], make_args, n_threads=1000)  # doctest: +SKIP
    """
    if not isinstance(kernel, Kernel):
        msg = f"assert_kernels_agree: `kernel` must be a cunumpy.kernels.Kernel, not {type(kernel).__name__}."
        raise TypeError(msg)
    if not kernel.has_cuda:
        msg = f"assert_kernels_agree: kernel {kernel.name!r} has no CUDA version to compare."
        raise ValueError(msg)
    if n_calls < 1:
        msg = f"assert_kernels_agree: `n_calls` must be at least 1, not {n_calls!r}."
        raise ValueError(msg)
    where = where_cuda_runs()
    if not where:
        from .._settings._cupy_probe import cupy_unavailable_reason

        _skip_or_fail(
            f"CUDA kernels cannot run here (no GPU: {cupy_unavailable_reason()}; nor the fake CuPy)"
        )
    if fake_cupy_active() and cuda_required():
        _skip_or_fail("the fake CuPy is active: the CUDA kernel would run emulated, not on a GPU")
    if outputs is None:
        outputs = kernel.host_kernel.outputs
    from .._backend_choice._config import use_backend
    from .._moving._to_device import to_numpy

    parameters = kernel.host_parameters()
    results = {}
    for backend in ("numpy", "cupy"):
        with use_backend(backend):
            args = tuple(make_args(backend, seed))
            launch = n_threads(args) if callable(n_threads) else n_threads
            for _ in range(n_calls):
                kernel(*args, n_threads=launch, grid=grid, block=block)
            results[backend] = _collect(args, outputs, parameters)
    host = {name: to_numpy(a) for name, a in results["numpy"].items()}
    device = results["cupy"]
    _check_sides(kernel.name, host=results["numpy"], device=device)
    if host.keys() != device.keys():
        msg = f"{kernel.name}: the host and CUDA calls have different array arguments: host {sorted(host)}, CUDA {sorted(device)}."
        raise AssertionError(msg)
    for name, expected in host.items():
        np.testing.assert_allclose(
            to_numpy(device[name]),
            expected,
            rtol=rtol,
            atol=atol,
            err_msg=f"{kernel.name}: {name} differs between the host kernel and the CUDA kernel (run {where})",
        )
    return host


def parity_cases(catalog: Any) -> list[Any]:
    """Return the kernels of a catalog with a CUDA port, as ``pytest.param`` cases.

    A kernel without a ``<name>_test_args.py`` module is marked ``skip`` with a reason
    that names the missing file.

    Parameters
    ----------
    catalog : KernelCatalog
        Anything with ``parity_cases()``.

    Returns
    -------
    list of pytest.param
        ``pytest.param(kernel, id=name)`` per kernel.

    Examples
    --------
    >>> from cunumpy.kernel_testing import check_parity, parity_cases
    >>> @pytest.mark.parametrize("kernel", parity_cases(catalog))  # doctest: +SKIP
    ... def test_parity(kernel):
    ...     check_parity(kernel)
    """
    import pytest

    cases = []
    for name, kernel in catalog.parity_cases():
        marks: Any = ()
        if kernel.test_args_module is None:
            reason = f"no test arguments for {name!r}: add {name}_test_args.py with make_args(backend, seed) and N_THREADS to its folder"
            marks = (pytest.mark.skip(reason=reason),)
        cases.append(pytest.param(kernel, id=name, marks=marks))
    return cases


def check_parity(kernel: Kernel, **overrides: Any) -> dict[str, np.ndarray]:
    """Run :func:`assert_kernels_agree` with the kernel's ``<name>_test_args.py`` module.

    The module defines ``make_args(backend, seed)`` and optionally the names of
    ``TEST_ARGS_SETTINGS`` (``N_THREADS``, ``GRID``, ``BLOCK``, ``RTOL``, ``ATOL``,
    ``N_CALLS``, ``OUTPUTS``, ``SEED``).

    Parameters
    ----------
    kernel : Kernel
        A pair with a CUDA kernel.
    **overrides
        Keywords of :func:`assert_kernels_agree` that replace the module's settings.

    Returns
    -------
    dict of str to numpy.ndarray
        As :func:`assert_kernels_agree`.

    Raises
    ------
    ValueError
        If the kernel has no test-arguments module.
    TypeError
        If the module has no callable ``make_args``.

    Examples
    --------
    >>> from cunumpy.kernel_testing import check_parity
    >>> check_parity(catalog["push"], rtol=1e-10)  # doctest: +SKIP
    """
    module = kernel.test_args
    if module is None:
        msg = f"check_parity: kernel {kernel.name!r} has no test-arguments module; add {kernel.name}_test_args.py with make_args(backend, seed) to its folder."
        raise ValueError(msg)
    make_args = getattr(module, "make_args", None)
    if not callable(make_args):
        msg = f"check_parity: {module.__name__} must define make_args(backend, seed)."
        raise TypeError(msg)
    settings = {
        kw: getattr(module, name)
        for name, kw in TEST_ARGS_SETTINGS.items()
        if hasattr(module, name)
    }
    settings.update(overrides)
    return assert_kernels_agree(kernel, make_args, **settings)
