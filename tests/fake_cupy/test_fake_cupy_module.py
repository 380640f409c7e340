"""The fake CuPy itself: host/device mix-ups fail as with CuPy on a GPU (fake CuPy)."""

from __future__ import annotations

import pickle
from copy import deepcopy

import cupy
import numpy as np
import pytest

import cunumpy as xp
from cunumpy import kernel_testing


def test_fake_cupy_is_active_and_usable_as_the_cupy_backend() -> None:
    assert kernel_testing.fake_cupy_active()
    assert xp.cupy_available()
    assert cupy.cuda.runtime.getDeviceCount() == 1
    assert kernel_testing.install_fake_cupy() is cupy  # a second install does nothing


def test_fake_cupy_arrays_are_no_numpy_arrays() -> None:
    a = cupy.arange(3.0)
    assert not isinstance(a, np.ndarray)
    assert xp.is_cupy_array(a) and not xp.is_numpy_array(a)
    with pytest.raises(TypeError, match="Implicit conversion to a NumPy array"):
        np.asarray(a)
    with pytest.raises(TypeError, match=r"numpy\.ndarray"):
        a + np.ones(3)
    with pytest.raises(TypeError, match=r"numpy\.ndarray"):
        cupy.sum(np.ones(3))
    with pytest.raises(TypeError, match=r"numpy\.ndarray"):
        a[...] = np.zeros(3)


def test_fake_cupy_copies_only_when_asked() -> None:
    host = np.arange(4.0)
    a = cupy.asarray(host)
    host[0] = 99.0
    assert float(a[0]) == 0.0  # a copy, as to a GPU
    back = a.get()
    assert isinstance(back, np.ndarray)
    np.testing.assert_array_equal(cupy.asnumpy(a), [0.0, 1.0, 2.0, 3.0])
    total = a.sum()
    assert isinstance(total, cupy.ndarray) and total.shape == ()  # 0-d, as CuPy returns
    buffer = kernel_testing.host_buffer(a)
    buffer[1] = -1.0
    assert float(a[1]) == -1.0  # the buffer is the array's memory, not a copy


@pytest.mark.parametrize("copy", ["pickle", "deepcopy", "none"])
def test_an_array_that_needs_no_conversion_comes_back_itself_fake_cupy(copy: str) -> None:
    # CuPy compares dtypes with ==; an unpickled array's float64 is another dtype object,
    # for which NumPy's asarray copies (Struphy's test_domain_deepcopy_and_pickle_on_cupy)
    a = cupy.asarray(np.linspace(0.0, 1.0, 4))
    if copy == "pickle":
        a = pickle.loads(pickle.dumps(a, protocol=pickle.HIGHEST_PROTOCOL))
    elif copy == "deepcopy":
        a = deepcopy(a)
    for dtype in (float, np.float64, "float64", np.dtype("<f8")):
        assert cupy.ascontiguousarray(a, dtype=dtype) is a
        assert cupy.asarray(a, dtype) is a
        assert cupy.asarray(a, dtype=dtype) is a
    assert cupy.asarray(a, dtype=np.float32) is not a
    assert cupy.array(a, dtype=float) is not a  # array copies unless told otherwise


def test_a_zero_dimensional_fake_array_formats_as_cupys_does_fake_cupy() -> None:
    # Struphy logs "{:4.3e}".format(xp.mean(...)) of device arrays
    assert f"{cupy.asarray(1234.5):4.3e}" == "1.234e+03"
    assert "{:d}".format(cupy.asarray(7)) == "7"  # noqa: UP032  # str.format, as Struphy calls it
    assert f"{cupy.asarray([1.0, 2.0])}" == "[1. 2.]"


def test_fake_cupy_streams_and_devices_are_stand_ins() -> None:
    stream = cupy.cuda.Stream(non_blocking=True)
    assert cupy.cuda.get_current_stream().ptr == 0
    with stream:
        assert cupy.cuda.get_current_stream() is stream
    with cupy.cuda.Device(0):
        assert cupy.cuda.runtime.getDevice() == 0
    with pytest.raises(RuntimeError, match="invalid device ordinal 1"):
        cupy.cuda.Device(1)
    event = cupy.cuda.Event()
    event.record(stream)
    assert event.done


def test_numpy_scalars_and_floats_reach_kernels_as_cupy_passes_them() -> None:
    kernel = cupy.RawKernel(
        'extern "C" __global__ void fill(float* x, float v, int n) {'
        " int i = threadIdx.x; if (i < n) x[i] = v; }",
        "fill",
    )
    x = cupy.zeros(4, dtype=cupy.float32)
    kernel((1,), (4,), (x, np.float32(2.5), 4))  # a Python int is passed as int64: fits
    np.testing.assert_array_equal(x.get(), [2.5] * 4)
    with pytest.raises(TypeError, match=r"numpy\.float32 for float"):
        kernel((1,), (4,), (x, 2.5, 4))  # a double where the GPU reads a float
    with pytest.raises(TypeError, match=r"Unsupported type <class 'numpy\.ndarray'>"):
        kernel((1,), (4,), (np.zeros(4, dtype=np.float32), np.float32(1), 4))


def test_a_raw_module_instantiates_templates_by_name_expression() -> None:
    module = cupy.RawModule(
        code=r"""
        template <typename T> __global__ void twice(const T* x, T* y, int n) {
            int i = blockIdx.x * blockDim.x + threadIdx.x;
            if (i < n) y[i] = 2 * x[i];
        }
        extern "C" __global__ void ones(float* y) { y[threadIdx.x] = 1.0f; }""",
        options=("-DUNUSED=1",),
        name_expressions=("twice<float>", "twice<double>"),
    )
    module.compile()
    x = cupy.arange(3.0)
    y = cupy.zeros(3)
    module.get_function("twice<double>")((1,), (4,), (x, y, np.int32(3)))
    np.testing.assert_array_equal(y.get(), [0.0, 2.0, 4.0])
    ones = cupy.zeros(2, dtype=cupy.float32)
    module.get_function("ones")((1,), (2,), (ones,))
    np.testing.assert_array_equal(ones.get(), [1.0, 1.0])
    with pytest.raises(RuntimeError, match="no kernel 'twice<int>'"):
        module.get_function("twice<int>")


def test_a_struct_argument_with_a_device_pointer_reaches_the_kernel() -> None:
    kernel = cupy.RawKernel(
        r"""struct Vec { double* data; int n; };
        extern "C" __global__ void halve(Vec v) {
            int i = threadIdx.x;
            if (i < v.n) v.data[i] *= 0.5;
        }""",
        "halve",
    )
    y = cupy.arange(4.0)
    layout = np.dtype([("data", np.uint64), ("n", np.int32), ("pad", np.int32)])
    packed = np.array((y.data.ptr, 3, 0), dtype=layout)[()]  # a NumPy structured scalar
    kernel((1,), (4,), (packed,))
    np.testing.assert_array_equal(y.get(), [0.0, 0.5, 1.0, 3.0])
    with pytest.raises(TypeError, match="16-byte struct"):
        kernel((1,), (4,), (np.array((y.data.ptr, 3), dtype=layout.descr[:2])[()],))


def _host(a: object) -> np.ndarray:
    assert type(a) is cupy.ndarray, type(a)  # a device array, as CuPy's
    return a.get()  # type: ignore[attr-defined,no-any-return]


def test_reflected_and_inplace_shifts_as_cupys_fake_cupy() -> None:
    x = cupy.asarray([1, 2, 3])
    np.testing.assert_array_equal(_host(2 << x), [4, 8, 16])
    np.testing.assert_array_equal(_host(16 >> x), [8, 4, 2])
    y = cupy.asarray([1, 2, 3])
    y <<= 1
    y >>= cupy.asarray([1, 1, 0])
    np.testing.assert_array_equal(_host(y), [1, 2, 6])


def test_format_of_a_0d_array_as_cupys_fake_cupy() -> None:
    # CuPy: format(self.get(), format_spec), so NumPy's rules: 0-d only
    assert format(cupy.asarray(1.5), ".2f") == "1.50"
    assert f"{cupy.sum(cupy.asarray([1.25, 1.0])):.3e}" == "2.250e+00"
    with pytest.raises(TypeError, match="unsupported format string"):
        format(cupy.asarray([1.5, 2.0]), ".2f")


def test_mgrid_and_ogrid_make_device_arrays_as_cupys_fake_cupy() -> None:
    np.testing.assert_array_equal(_host(cupy.mgrid[0:3]), np.mgrid[0:3])
    np.testing.assert_array_equal(_host(cupy.mgrid[0:1:5j]), np.mgrid[0:1:5j])
    np.testing.assert_array_equal(_host(cupy.mgrid[0:2, 0:3]), np.mgrid[0:2, 0:3])
    np.testing.assert_array_equal(_host(cupy.mgrid[0:1:3j, 0:2]), np.mgrid[0:1:3j, 0:2])
    grids = cupy.ogrid[0:2, 0:3]
    assert type(grids) is list  # CuPy's nd_grid returns a list (NumPy's a tuple)
    for ours, numpys in zip(grids, np.ogrid[0:2, 0:3]):
        np.testing.assert_array_equal(_host(ours), numpys)
    x = cupy.arange(6.0).reshape(2, 3)
    i, j = cupy.ogrid[0:2, 0:3]
    np.testing.assert_array_equal(_host(x[i, j]), np.arange(6.0).reshape(2, 3))


def test_r_and_c_make_device_arrays_and_refuse_what_cupys_refuse_fake_cupy() -> None:
    x = cupy.asarray([1, 2, 3])
    np.testing.assert_array_equal(_host(cupy.r_[x, 0, x]), [1, 2, 3, 0, 1, 2, 3])
    np.testing.assert_array_equal(_host(cupy.r_[[1, 2], 3.5]), [1.0, 2.0, 3.5])
    np.testing.assert_array_equal(_host(cupy.c_[x, x]), [[1, 1], [2, 2], [3, 3]])
    np.testing.assert_array_equal(_host(cupy.arange(5.0)[cupy.r_[0, 2]]), [0.0, 2.0])
    with pytest.raises(NotImplementedError):
        cupy.r_[1:3]  # CuPy 14.2: no slices
    with pytest.raises(NotImplementedError):
        cupy.r_["0,2", x]  # nor string directives
    with pytest.raises(ValueError, match="special directives must be the first entry"):
        cupy.r_[x, "0,2"]


def test_names_numpy_2_removed_that_cupy_keeps_fake_cupy() -> None:
    assert np.isnan(cupy.NaN) and cupy.Inf == np.inf and -np.inf == cupy.NINF
    assert bool(cupy.alltrue(cupy.asarray([True, True])))
    assert not bool(cupy.sometrue(cupy.asarray([False])))
    assert float(cupy.trapz(cupy.asarray([1.0, 1.0]))) == 1.0
