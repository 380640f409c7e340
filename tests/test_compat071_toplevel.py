"""CuNumpy 0.7.1 programs, top level: written from its README and docstrings, run on cunumpy.

Each test is a small program a 0.7.1 user wrote against the documented API, with the
results 0.7.1 documents asserted. CPU programs run everywhere; GPU programs are marked
``gpu`` (skipped, with the reason, without a usable GPU).
"""

from __future__ import annotations

import json
import math
import site
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import cunumpy as xp
from cunumpy._placement._transfer_log import listening

needs_unusable_cupy = pytest.mark.skipif(
    xp.cupy_available(), reason="checks the fallback where CuPy is not usable"
)


def _recorded() -> tuple[list[tuple[str, int | None]], Any]:
    events: list[tuple[str, int | None]] = []

    def listener(kind: str, description: str, nbytes: int | None, *_: bool) -> None:
        events.append((kind, nbytes))

    return events, listening(listener)


# --- replace `import numpy as np` with `import cunumpy as xp` --------------------------------


def test_readme_first_example_numpy_names_and_backend() -> None:
    values = xp.arange(5, dtype=xp.float64)
    np.testing.assert_array_equal(values * 2, [0.0, 2.0, 4.0, 6.0, 8.0])
    assert xp.get_backend() == "numpy"


def test_numpy_names_outside_the_standard_are_there() -> None:
    arr = xp.array([1, 2])
    assert isinstance(arr, np.ndarray) and arr.tolist() == [1, 2]
    np.testing.assert_array_equal(xp.pad(xp.array([1.0, 2.0]), 1), [0.0, 1.0, 2.0, 0.0])
    assert float(xp.nanmax(xp.array([1.0, xp.nan, 3.0]))) == 3.0
    assert float(xp.dot(xp.array([1.0, 2.0]), xp.array([3.0, 4.0]))) == 11.0
    assert float(xp.linalg.norm(xp.array([3.0, 4.0]))) == 5.0
    np.testing.assert_array_equal(xp.fft.fftshift(xp.arange(4)), [2, 3, 0, 1])
    sample = xp.random.default_rng(0).random(3)
    np.testing.assert_array_equal(sample, np.random.default_rng(0).random(3))
    assert xp.float16 is np.float16 and xp.ndarray is np.ndarray
    # float16 is NumPy's, and the top level's asarray takes it as 0.7.1's did (NumPy's call);
    # so does the namespace of an array, as compat's does.
    assert xp.asarray([1.0], dtype=xp.float16).dtype == np.float16
    assert xp.array_namespace(arr).asarray([1.0], dtype=xp.float16).dtype == np.float16
    np.testing.assert_array_equal(xp.concatenate([xp.ones(1), xp.zeros(1)]), [1.0, 0.0])
    assert xp.einsum("i,i->", xp.ones(3), xp.ones(3)) == 3.0


def test_names_cunumpy_shares_with_numpy_accept_numpys_calls() -> None:
    a = xp.ones((2, 3))
    assert xp.size(a) == 6 and xp.size(a, 1) == 3 and xp.size(a, -2) == 2  # numpy.size's axis
    assert xp.size(a, axis=(0, 1)) == 6 and xp.size(a, axis=()) == 1  # a tuple of axes
    if np.lib.NumpyVersion(np.__version__) >= "2.4.0":  # NumPy's own since 2.4
        assert np.size(a, axis=(0, 1)) == 6 and np.size(a, axis=()) == 1
    xp.testing.assert_allclose(xp.asarray([1.0]), [1.0 + 1e-12])  # numpy.testing's
    assert xp.testing.assert_array_equal is np.testing.assert_array_equal
    with pytest.raises(AssertionError):
        xp.testing.assert_array_equal(xp.asarray([1.0]), [2.0])
    assert xp.testing.assert_close.__module__ == "cunumpy.testing._assertions"  # ours


# --- choose a backend --------------------------------------------------------------------------


@needs_unusable_cupy
def test_set_backend_cupy_without_gpu_falls_back_to_numpy_with_a_warning() -> None:
    with pytest.warns(xp.CupyUnavailableWarning, match="not usable"):
        xp.set_backend("cupy")
    assert xp.get_backend() == "numpy"  # 'cupy' if CuPy and CUDA are functional
    values = xp.arange(5)
    assert isinstance(values, np.ndarray)
    assert xp.numpy_backend is True and xp.cupy_backend is False


@needs_unusable_cupy
def test_strict_set_backend_raises_and_keeps_the_previous_backend() -> None:
    xp.set_backend("numpy")
    with pytest.raises(RuntimeError, match="not usable"):
        xp.set_backend("cupy", strict=True)
    assert xp.get_backend() == "numpy"


def test_unknown_backend_name_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="unknown backend 'torch'"):
        xp.set_backend("torch")


def test_use_backend_restores_the_previous_selection_also_on_error() -> None:
    with xp.use_backend("numpy"):
        cpu_values = xp.linspace(0, 1, 100)
        assert xp.get_backend() == "numpy"
    assert cpu_values.shape == (100,)
    with pytest.raises(KeyError), xp.use_backend("numpy"):
        raise KeyError("inside")
    assert xp.get_backend() == "numpy"


def test_numpy_backend_and_cupy_backend_follow_the_backend() -> None:
    assert (xp.numpy_backend, xp.cupy_backend) == (True, False)
    with xp.use_backend("auto"):
        on_gpu = xp.cupy_available()
        assert (xp.numpy_backend, xp.cupy_backend) == (not on_gpu, on_gpu)
        assert xp.xp.xp is xp.array_namespace(xp.zeros(1))  # cunumpy.xp.xp
    assert xp.xp.numpy_backend is True


def test_cunumpy_xp_module_is_at_its_0_7_1_path() -> None:
    from cunumpy.xp import get_array_backend, set_backend, to_numpy

    assert to_numpy is xp.to_numpy and set_backend is xp.set_backend
    assert get_array_backend(np.zeros(1)) == "numpy"
    assert xp.xp.xp is xp.array_namespace(np.zeros(1))


# --- the two backend questions; moving data ----------------------------------------------------


def test_array_backend_questions_on_the_cpu() -> None:
    cpu_values = xp.arange(3)
    assert xp.get_array_backend(cpu_values) == "numpy"
    assert xp.is_cpu(cpu_values) and not xp.is_gpu(cpu_values)
    assert xp.get_array_backend([1, 2]) == "numpy"  # anything that is not CuPy
    assert xp.same_backend(cpu_values, np.ones(2)) and xp.same_backend()
    xp.assert_same_backend(cpu_values, np.ones(2))


def test_get_array_module_writes_backend_generic_code() -> None:
    def vector_norm(values: Any) -> Any:
        array_xp = xp.get_array_module(values)
        return array_xp.sqrt(array_xp.sum(values * values))

    assert float(vector_norm(np.asarray([3.0, 4.0]))) == 5.0
    assert xp.get_array_module(np.zeros(1)) is xp.array_namespace(np.zeros(1))


def test_conversions_on_the_cpu() -> None:
    host = np.asarray([1.0, 2.0])
    assert xp.to_numpy(host) is host
    assert xp.to_numpy([1, 2]).tolist() == [1, 2]
    active = xp.to_cunumpy(host)  # convert to the currently selected backend
    assert active is host
    np.testing.assert_array_equal(xp.to_cunumpy([1.0, 2.0]), [1.0, 2.0])


@needs_unusable_cupy
def test_to_cupy_without_gpu_raises_import_error_as_documented() -> None:
    with pytest.raises(ImportError, match="not usable"):
        xp.to_cupy(np.ones(2))


def test_default_float_dtype() -> None:
    x = xp.asarray([1.0, 2.0], dtype=xp.default_float_dtype())
    assert x.dtype == np.float64 and xp.default_float_dtype() == np.float64


@needs_unusable_cupy
def test_as_device_array_never_copies_host_data_to_the_device_implicitly() -> None:
    with pytest.raises(RuntimeError, match="degree"):
        xp.as_device_array((3, 3, 3), "int32", 1, name="degree")


# --- versions and diagnostics ------------------------------------------------------------------


def test_backend_info_is_json_compatible_and_complete() -> None:
    info = xp.backend_info()
    assert json.loads(json.dumps(info)) == info
    assert info["backend"] == "numpy"
    assert info["cupy_available"] is xp.cupy_available()
    assert info["versions"]["cunumpy"] == xp.__version__
    assert info["versions"]["numpy"] == np.__version__
    assert info["min_cupy_version"] == xp.MIN_CUPY_VERSION
    assert {"cuda_unavailable_reason", "device", "cuda_visible_devices"} <= set(info)
    if not xp.cupy_available():
        assert info["device"] is None
        assert info["cuda_unavailable_reason"] == xp.cupy_unavailable_reason()


def test_versions() -> None:
    assert [int(part) for part in xp.__version__.split(".")[:2]] >= [0, 1]
    xp.require_version(xp.__version__)
    xp.require_version("0.4.0")  # a 0.7.1 program asking for a 0.x feature keeps running
    xp.require_version("0.7.1")
    with pytest.raises(ImportError, match=r"cunumpy 0\.7\.2 or newer is required"):
        xp.require_version("0.7.2")
    with pytest.raises(ImportError, match=r"cunumpy 999\.0 or newer is required"):
        xp.require_version("999.0")
    assert isinstance(xp.MIN_CUPY_VERSION, str)
    assert xp.cupy_version_supported("99.0.0") and not xp.cupy_version_supported("1.0.0")
    assert not xp.cupy_version_supported(f"{xp.MIN_CUPY_VERSION}rc1")
    assert xp.cupy_version_supported(xp.MIN_CUPY_VERSION)


# --- host-only code ----------------------------------------------------------------------------


def test_host_call_and_its_decorators_on_the_cpu() -> None:
    events, listener = _recorded()
    with listener:
        np.testing.assert_array_equal(xp.host_call(np.cumsum, xp.asarray([1, 2, 3])), [1, 3, 6])
        pair = xp.host_call(lambda a, b=None: (a + 1, b * 2), np.ones(2), b=np.ones(2))
    assert [p.tolist() for p in pair] == [[2.0, 2.0], [2.0, 2.0]]
    assert events == []  # nothing lives on a GPU: nothing is copied

    class Profile:
        @xp.setup_on_host
        def __init__(self, n: int) -> None:
            self.x = xp.linspace(0.0, 1.0, n)

        @xp.evaluate_on_host
        def cumulative(self, x: Any) -> Any:
            return np.cumsum(x) + self.x

    profile = Profile(3)
    assert xp.get_array_backend(profile.x) == "numpy"
    np.testing.assert_allclose(profile.cumulative(xp.asarray([1.0, 2.0, 3.0])), [1.0, 3.5, 7.0])
    assert Profile.cumulative.__name__ == "cumulative"


def test_host_call_runs_on_the_numpy_backend() -> None:
    seen = []
    with xp.use_backend("auto"):
        xp.host_call(lambda: seen.append(xp.get_backend()))
    assert seen == ["numpy"]


def test_scipy_of_the_backend() -> None:
    pytest.importorskip(
        "scipy", reason="xp.scipy is SciPy on the NumPy backend: needs SciPy (the test extra)"
    )
    import scipy.sparse

    assert xp.scipy.special.erf is __import__("scipy.special").special.erf
    v = xp.asarray([0.0, 0.5, 1.0])
    np.testing.assert_allclose(xp.scipy.special.erf(v), [math.erf(t) for t in (0.0, 0.5, 1.0)])
    n = 4
    rows = cols = np.arange(n)
    A = xp.scipy.sparse.csr_matrix((np.full(n, 2.0), (rows, cols)), shape=(n, n))
    assert isinstance(A, scipy.sparse.csr_matrix)
    x, info = xp.scipy.sparse.linalg.cg(A, np.ones(n))
    assert info == 0
    np.testing.assert_allclose(x, np.full(n, 0.5))
    assert xp.scipy.special.available("erf") and not xp.scipy.special.available("bogus")
    with pytest.raises(AttributeError, match=r"scipy\.special has no attribute 'bogus'"):
        xp.scipy.special.bogus


def test_import_stays_light() -> None:
    code = (
        "import sys, cunumpy as xp\n"
        "xp.scipy; xp.numpy_backend; xp.pad; xp.host_call; xp.backend_info\n"
        "print(sorted(m for m in ('cupy', 'scipy', 'mpi4py', 'numba') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_import_leaves_the_device_layer_and_heavy_stdlib_modules_for_first_use() -> None:
    # What `import cunumpy` does not need loads on first use (benchmarks/bench_import.py):
    # the extensions (and NumPy's fft), the CUDA layer, `threading` and `dataclasses`.
    later = (
        "cunumpy.fft",
        "cunumpy.linalg",
        "numpy.fft",
        "cunumpy.cuda",
        "threading",
        "dataclasses",
    )
    code = (
        "import sys, numpy, cunumpy as xp\n"
        f"print(sorted(m for m in {later!r} if m in sys.modules))\n"
        "xp.synchronize()\n"  # cunumpy's name from the CUDA layer, loaded now
        "print(xp.synchronize is xp.cuda.synchronize, 'cunumpy.cuda' in sys.modules)\n"
        "print(xp.to_device(numpy.ones(2), 'cpu').tolist(), xp.finfo(xp.float32).bits)\n"
        "print(xp.fft.fft2 is numpy.fft.fft2, xp.linalg.norm is numpy.linalg.norm)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split("\n")[:4] == ["[]", "True True", "[1.0, 1.0] 32", "True True"]


def test_import_cunumpy_leaves_pathlib_unloaded() -> None:
    # Issue 53: pathlib brings urllib.parse and ipaddress, 4 ms of `import cunumpy` after
    # `import numpy`, for a check that needs os.path only. `-S` leaves out site, whose .pth
    # files (numba-cuda's) may import pathlib before any program runs; its paths are given.
    paths = [str(Path(__file__).resolve().parent.parent), *site.getsitepackages()]
    heavy = ("pathlib", "urllib.parse", "ipaddress")
    code = (
        f"import sys; sys.path[:0] = {paths!r}; import numpy; before = set(sys.modules)\n"
        "import cunumpy\n"
        f"print(sorted(m for m in {heavy!r} if m in set(sys.modules) - before))"
    )
    out = subprocess.run(
        [sys.executable, "-S", "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


# --- GPU programs ------------------------------------------------------------------------------


@pytest.mark.gpu
def test_gpu_set_backend_cupy_and_numpy_names_are_cupys() -> None:
    import cupy

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a usable GPU: no fallback warning
        xp.set_backend("cupy")
    assert xp.get_backend() == "cupy" and xp.cupy_backend and not xp.numpy_backend
    values = xp.arange(5)
    assert isinstance(values, cupy.ndarray)
    assert isinstance(xp.array([1, 2]), cupy.ndarray) and xp.random is cupy.random
    assert xp.default_float_dtype() == cupy.float64
    assert isinstance(xp.to_cunumpy(np.ones(2)), cupy.ndarray)
    np.testing.assert_allclose(xp.to_numpy(xp.linalg.norm(xp.asarray([3.0, 4.0]))), 5.0)
    assert xp.backend_info()["device"]["visible_devices"] >= 1


@pytest.mark.gpu
def test_gpu_two_backend_questions_and_explicit_transfers() -> None:
    xp.set_backend("numpy")
    cpu_values = xp.arange(3)
    gpu_values = xp.to_cupy(cpu_values)
    assert xp.get_backend() == "numpy" and xp.get_array_backend(gpu_values) == "cupy"
    assert xp.is_gpu(gpu_values) and not xp.same_backend(cpu_values, gpu_values)
    with pytest.raises(TypeError, match=r"\['numpy', 'cupy'\]"):
        xp.assert_same_backend(cpu_values, gpu_values)
    assert xp.get_array_module(gpu_values) is xp.array_namespace(gpu_values)
    host = xp.to_numpy(gpu_values)
    np.testing.assert_array_equal(host, [0, 1, 2])
    with xp.use_backend("cupy"):
        signal = xp.asarray(np.sin(np.linspace(0.0, 6.0, 64)))
        filtered = xp.fft.rfft(signal)
        result = xp.to_numpy(filtered)
    np.testing.assert_allclose(result, np.fft.rfft(np.sin(np.linspace(0.0, 6.0, 64))))


@pytest.mark.gpu
def test_gpu_as_device_array_references_or_copies_once() -> None:
    import cupy

    events, listener = _recorded()
    with xp.use_backend("cupy"), listener:
        y = cupy.zeros(4)
        assert xp.as_device_array(y, "float64", 1, name="y") is y
        assert events == []
        degree = xp.as_device_array((3, 3, 3), "int32", 1, name="degree")
        assert degree.dtype == cupy.int32 and degree.shape == (3,)
        strided = xp.as_device_array(cupy.arange(8.0)[::2])
        assert strided.flags.c_contiguous and strided.tolist() == [0.0, 2.0, 4.0, 6.0]
        with pytest.raises(ValueError, match=r"'degree'.*2 dimension"):
            xp.as_device_array((3, 3, 3), "int32", 2, name="degree")
    assert [kind for kind, _ in events[:2]] == ["to_device", "device_copy"]
    assert events[0][1] == 12


@pytest.mark.gpu
def test_gpu_host_call_copies_each_way_once_and_counts_them() -> None:
    import cupy

    events, listener = _recorded()
    x = cupy.asarray([1.0, 2.0, 3.0])
    with listener:
        out = xp.host_call(np.cumsum, x)
    assert isinstance(out, cupy.ndarray) and out.tolist() == [1.0, 3.0, 6.0]
    assert events == [("to_host", 24), ("to_device", 24)]

    class Grid:
        @xp.setup_on_host
        def __init__(self, n: int) -> None:
            self.x = xp.linspace(0.0, 1.0, n)

    with xp.use_backend("cupy"):
        assert xp.get_array_backend(Grid(3).x) == "numpy"


@pytest.mark.gpu
def test_gpu_scipy_is_cupyx_scipy_on_the_cupy_backend() -> None:
    import cupyx.scipy.special

    with xp.use_backend("cupy"):
        assert xp.scipy.special.erf is cupyx.scipy.special.erf
        v = xp.asarray([0.0, 0.5])
        np.testing.assert_allclose(xp.to_numpy(xp.scipy.special.erf(v)), [0.0, math.erf(0.5)])


# --- 0.7.1's README examples, against what 0.7.1 printed ---------------------------------------

#: What CuNumpy 0.7.1 printed for the README snippets of ``tools/compare_071.py`` that are
#: about the top level (run there with 0.7.1 installed, on a machine without a GPU).
PRINTED_BY_071 = {
    "first example": "[0. 2. 4. 6. 8.]\nnumpy\n",
    "choose a backend": "numpy\nnumpy [0 1 2 3 4]\n",
    "strict selection": "RuntimeError\nnumpy\n",
    "use_backend block": "[0.         0.01010101 0.02020202] numpy\n",
    "two backend questions": "numpy numpy\nTrue False\nImportError\n",
    "backend-generic function": "5.0\n",
    "move data": "array([1, 2]) array([1, 2]) ndarray\n",
    "default float dtype": "float64\n",
    "numpy names": (
        "[1 2] [0. 1. 2. 0.] 3.0\n11.0 5.0\n[2 3 0 1] [8 6 5]\n"
        "<class 'numpy.float16'> <class 'numpy.ndarray'> 3.0\n"
    ),
    "host call": "[1 3 6]\n[1 3 6] numpy\n",
    "backend checks": "True True\nTrue False numpy\nRuntimeError\n",
    "scipy": "[0.         0.52049988 0.84270079]\n[0.5 0.5 0.5 0.5] 0\n",
}


@needs_unusable_cupy
@pytest.mark.parametrize("name", sorted(PRINTED_BY_071))
def test_readme_snippet_prints_what_0_7_1_printed(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    import textwrap

    if name == "scipy":
        pytest.importorskip(
            "scipy", reason="the snippet uses xp.scipy: needs SciPy (the test extra)"
        )
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
    try:
        from compare_071 import SNIPPETS
    finally:
        sys.path.pop(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", xp.CupyUnavailableWarning)  # 0.7.1 fell back silently
        exec(textwrap.dedent(SNIPPETS[name]), {"xp": xp})
    assert capsys.readouterr().out == PRINTED_BY_071[name]
