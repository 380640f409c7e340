"""The CuPy namespace (``cunumpy._backends.cupy``): its names and signatures, and, on a GPU,
its behaviour: devices, the fixes of CuPy's departures from the standard, transfers.

The tests without the ``gpu`` marker run wherever CuPy imports (no GPU needed: importing
the namespace must not touch a GPU); the others are skipped without a usable GPU.
"""

from __future__ import annotations

import inspect
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import cunumpy
from cunumpy._backends import numpy as numpy_namespace
from cunumpy._settings._cupy_probe import visible_gpu_count
from cunumpy.testing import assert_close

cupy = pytest.importorskip("cupy")
cupy_namespace: ModuleType = pytest.importorskip("cunumpy._backends.cupy")

_EXTRA_PUBLIC = ("__array_api_version__", "__array_namespace_info__")
_DTYPES = (
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float32", "float64", "complex64", "complex128",
)  # fmt: skip
_CREATION = (
    "arange", "asarray", "empty", "empty_like", "eye", "from_dlpack", "full", "full_like",
    "linspace", "ones", "ones_like", "zeros", "zeros_like",
)  # fmt: skip


def _public(module: ModuleType) -> set[str]:
    names = {name for name in dir(module) if not name.startswith("_")}
    return names | {name for name in _EXTRA_PUBLIC if hasattr(module, name)}


def _own_functions() -> list[tuple[str, str, Any]]:
    """(submodule, name, function) for every function the CuPy namespace defines itself."""
    found = []
    for sub, module in (
        ("", cupy_namespace),
        ("linalg", cupy_namespace.linalg),
        ("fft", cupy_namespace.fft),
    ):
        names = module.__all__ if sub else sorted(_public(module))
        for name in names:
            value = getattr(module, name)
            if inspect.isfunction(value) and value.__module__.startswith("cunumpy."):
                found.append((sub, name, value))
    return found


def _shape(params: inspect.Signature) -> list[tuple[str, Any]]:
    """Names and kinds, without the top level's ``*args``/``**kwargs`` of NumPy's calls."""
    numpy_calls = {
        ("args", inspect.Parameter.VAR_POSITIONAL),
        ("kwargs", inspect.Parameter.VAR_KEYWORD),
    }
    shape = [(p.name, p.kind) for p in params.parameters.values()]
    return [entry for entry in shape if entry not in numpy_calls]


# --- without a GPU -----------------------------------------------------------------------


def test_public_names_equal_numpy_namespace() -> None:
    assert _public(cupy_namespace) == _public(numpy_namespace)
    assert cupy_namespace.__array_api_version__ == "2025.12"


@pytest.mark.parametrize("sub", ["linalg", "fft"])
def test_extension_names_equal_numpy_namespace(sub: str) -> None:
    ours, theirs = getattr(cupy_namespace, sub), getattr(numpy_namespace, sub)
    assert sorted(ours.__all__) == sorted(theirs.__all__)
    assert all(hasattr(ours, name) for name in ours.__all__)


@pytest.mark.parametrize("name", _DTYPES)
def test_dtypes_are_the_numpy_namespace_objects(name: str) -> None:
    assert getattr(cupy_namespace, name) is getattr(numpy_namespace, name)


def _is_cupys_own(ours: Any, theirs: Any) -> bool:
    """Whether the namespace's ``ours`` is CuPy's ``theirs``: the object itself with at most
    one visible GPU, and ``theirs`` inside the device guard with two or more (see ``_guard``)."""
    if visible_gpu_count() > 1:
        return ours is not theirs and getattr(ours, "__wrapped__", None) is theirs
    return ours is theirs


def test_conformant_functions_are_cupy_objects() -> None:
    assert _is_cupys_own(cupy_namespace.add, cupy.add)
    assert _is_cupys_own(cupy_namespace.matmul, cupy.matmul)
    assert _is_cupys_own(cupy_namespace.linalg.inv, cupy.linalg.inv)
    assert _is_cupys_own(cupy_namespace.fft.fft, cupy.fft.fft)
    assert cupy_namespace.finfo is numpy_namespace.finfo  # data type functions: never wrapped
    assert cupy_namespace.result_type is cupy.result_type


def test_guard_wraps_exactly_on_machines_with_several_gpus() -> None:
    """The guard is there with two or more GPUs, and only then (the case that broke this file
    on multi-GPU machines: the identity checks above assumed one GPU)."""
    wrapped = getattr(cupy_namespace.add, "__wrapped__", None)
    assert (wrapped is cupy.add) == (visible_gpu_count() > 1)


@pytest.mark.parametrize(
    ("sub", "name", "function"),
    [pytest.param(*case, id=f"{case[0]}.{case[1]}".lstrip(".")) for case in _own_functions()],
)  # ids without object addresses: xdist workers must collect the same ids
def test_fixed_functions_have_the_standard_signature(sub: str, name: str, function: Any) -> None:
    """Each fix has the standard's signature (the conformance harness's table; the top level
    has the union of NumPy's and the standard's), plus CuPy's keyword-only ``out=`` for the
    elementwise fixes (the namespace is a superset)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
    try:
        from api_signatures import SIGNATURES
    finally:
        sys.path.pop(0)
    entry = next(
        table[name] for topic, table in SIGNATURES.items()
        if name in table and (topic == sub or (not sub and topic not in ("linalg", "fft")))
    )  # fmt: skip
    namespace: dict[str, Any] = {}
    exec(f"from __future__ import annotations\ndef f({entry['params']}): pass", namespace)
    standard = inspect.signature(namespace["f"])
    shape = _shape(inspect.signature(function))
    if shape[-1:] == [("out", inspect.Parameter.KEYWORD_ONLY)]:
        shape = shape[:-1]
    assert shape == _shape(standard)


@pytest.mark.parametrize(
    "name", ["sort", "argsort", "expand_dims", "clip", "expm1", "tanh", "finfo"]
)
def test_fixed_functions_match_numpy_namespace_signature(name: str) -> None:
    ours, theirs = getattr(cupy_namespace, name), getattr(numpy_namespace, name)
    assert _shape(inspect.signature(ours)) == _shape(inspect.signature(theirs))


@pytest.mark.parametrize(
    ("shape", "s", "axes", "inverse_real", "expected"),
    [
        ((4, 6), None, None, False, (None, None)),
        ((4, 6), None, [1, 0], False, (None, (1, 0))),
        ((4, 6), (-1, 3), None, False, ((4, 3), (0, 1))),
        ((2, 4, 6), (-1,), None, False, ((6,), (2,))),
        ((4, 6), (-1, -1), (1, 0), False, ((6, 4), (1, 0))),
        ((4, 6), (-1, -1), None, True, ((4, 10), (0, 1))),
    ],
)
def test_fft_sizes_follow_the_standard(
    shape: tuple[int, ...], s: Any, axes: Any, inverse_real: bool, expected: Any
) -> None:
    """The n-dimensional transforms pass CuPy explicit sizes: -1 is the input's length."""
    from cunumpy._backends.numpy.fft import fft_sizes

    assert fft_sizes(np.empty(shape), s, axes, "fftn", inverse_real) == expected


def test_fft_sizes_and_axes_must_agree() -> None:
    from cunumpy._backends.numpy.fft import fft_sizes

    with pytest.raises(ValueError, match=r"fftn: `s` \(4, 3\) and `axes` \(0,\)"):
        fft_sizes(np.empty((4, 6)), (4, 3), (0,), "fftn")


@pytest.mark.parametrize("sub", ["linalg", "fft"])
def test_fixed_extension_functions_match_numpy_namespace(sub: str) -> None:
    ours, theirs = getattr(cupy_namespace, sub), getattr(numpy_namespace, sub)
    for name in theirs.__all__:
        reference = getattr(theirs, name)
        if inspect.isfunction(reference) and reference.__module__.startswith("cunumpy."):
            assert _shape(inspect.signature(getattr(ours, name))) == _shape(
                inspect.signature(reference)
            )


def test_import_cunumpy_does_not_load_the_cupy_namespace() -> None:
    code = (
        "import sys, cunumpy, cunumpy._backends.numpy; "
        "assert 'cunumpy._backends.cupy' not in sys.modules; assert 'cupy' not in sys.modules"
    )
    env_code = f"import os; os.environ['CUNUMPY_BACKEND'] = 'numpy'; {code}"
    subprocess.run([sys.executable, "-c", env_code], check=True)


def test_import_does_not_touch_the_gpu() -> None:
    """With no GPU visible, importing the namespace and its info object still works."""
    code = "import cunumpy._backends.cupy as ns; ns.__array_namespace_info__(); ns.linalg; ns.fft"
    env = {**os.environ, "CUDA_VISIBLE_DEVICES": "", "CUNUMPY_BACKEND": "numpy"}
    subprocess.run([sys.executable, "-c", code], check=True, env=env)


@pytest.mark.parametrize("name", ["zeros", "ones", "empty", "arange", "eye"])
def test_cpu_device_is_a_value_error(name: str) -> None:
    function = getattr(cupy_namespace, name)
    with pytest.raises(ValueError, match=name):
        function(2, device="cpu")


def test_fftfreq_rejects_non_float_dtype_before_touching_a_gpu() -> None:
    with pytest.raises(TypeError, match="fftfreq"):
        cupy_namespace.fft.fftfreq(4, dtype=np.int32)


def test_eig_without_cupy_eig_is_not_implemented() -> None:
    if hasattr(cupy.linalg, "eig"):
        pytest.skip("this CuPy has linalg.eig")
    with pytest.raises(NotImplementedError, match="CuPy 14"):
        cupy_namespace.linalg.eig(None)


# --- on a GPU ----------------------------------------------------------------------------


def _gpu_count() -> int:
    return int(cupy.cuda.runtime.getDeviceCount())


def _create(name: str, device: Any) -> Any:
    ns = cupy_namespace
    source = cupy.zeros((2, 3))
    calls = {
        "arange": lambda: ns.arange(4, device=device),
        "asarray": lambda: ns.asarray([1.0, 2.0], device=device),
        "empty": lambda: ns.empty((2, 3), device=device),
        "empty_like": lambda: ns.empty_like(source, device=device),
        "eye": lambda: ns.eye(3, device=device),
        "from_dlpack": lambda: ns.from_dlpack(source, device=device),
        "full": lambda: ns.full((2,), 7, device=device),
        "full_like": lambda: ns.full_like(source, 7, device=device),
        "linspace": lambda: ns.linspace(0, 1, 5, device=device),
        "ones": lambda: ns.ones((2,), device=device),
        "ones_like": lambda: ns.ones_like(source, device=device),
        "zeros": lambda: ns.zeros((2,), device=device),
        "zeros_like": lambda: ns.zeros_like(source, device=device),
    }
    return calls[name]()


@pytest.mark.gpu
def test_names_complete_on_gpu() -> None:
    assert _public(cupy_namespace) == _public(numpy_namespace)
    x = cupy.asarray([1.0, 2.0])
    assert cunumpy.array_namespace(x) is cupy_namespace


@pytest.mark.gpu
@pytest.mark.parametrize("name", _CREATION)
@pytest.mark.parametrize("form", ["int", "str", "Device", "array"])
def test_creation_honours_device(name: str, form: str) -> None:
    index = _gpu_count() - 1  # the last GPU: not the current one when there are several
    device = {
        "int": index,
        "str": f"cuda:{index}",
        "Device": cupy.cuda.Device(index),
        "array": cupy.cuda.Device(index),
    }[form]
    if form == "array":
        with cupy.cuda.Device(index):
            device = cupy.zeros(1).device
    result = _create(name, device)
    assert isinstance(result, cupy.ndarray)
    assert result.device.id == index


@pytest.mark.gpu
@pytest.mark.parametrize("name", _CREATION)
def test_creation_without_device_uses_current_gpu(name: str) -> None:
    assert _create(name, None).device.id == cupy.cuda.runtime.getDevice()


@pytest.mark.gpu
def test_like_functions_follow_their_input() -> None:
    if _gpu_count() < 2:
        pytest.skip("needs two GPUs")
    with cupy.cuda.Device(1):
        x = cupy.zeros(3)
    with cupy.cuda.Device(0):
        for name in ("empty_like", "full_like", "ones_like", "zeros_like"):
            args = (x, 1) if name == "full_like" else (x,)
            assert getattr(cupy_namespace, name)(*args).device.id == 1


@pytest.mark.gpu
def test_fftfreq_dtype_and_device() -> None:
    index = _gpu_count() - 1
    result = cupy_namespace.fft.fftfreq(8, d=0.5, dtype=cupy_namespace.float32, device=index)
    assert result.dtype == np.float32
    assert result.device.id == index
    np.testing.assert_allclose(result.get(), np.fft.fftfreq(8, 0.5))
    assert cupy_namespace.fft.rfftfreq(8).dtype == np.float64


@pytest.mark.gpu
def test_fftn_keeps_lengths_given_as_minus_one() -> None:
    fft = cupy_namespace.fft
    x = cupy.arange(24.0).reshape(4, 6)
    host = x.get()
    np.testing.assert_allclose(
        fft.fftn(x, s=(-1, 3)).get(), np.fft.fftn(host, s=(4, 3), axes=(0, 1))
    )
    np.testing.assert_allclose(fft.ifftn(x, s=(-1, -1)).get(), np.fft.ifftn(host))
    half = fft.rfftn(x, s=(-1, -1))
    assert half.shape == (4, 4)
    assert fft.irfftn(half, s=(-1, -1)).shape == (4, 6)
    np.testing.assert_allclose(fft.irfftn(half, s=(4, 6)).get(), host, atol=1e-12)


def _bits(x: Any) -> list[str]:
    """Each element as repr of a Python float: tells -0.0 from 0.0 and keeps nan/inf."""
    return [repr(v) for v in np.asarray(x).ravel().tolist()]


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_remainder_has_the_standard_special_cases(dtype: str) -> None:
    inf = float("inf")
    x1 = [5.0, -5.0, 5.0, -5.0, 0.0, -0.0, 0.0, -0.0, 4.0, -4.0, 5.5, inf, 1.0, 7.0]
    x2 = [inf, inf, -inf, -inf, 2.0, 2.0, -2.0, -2.0, -2.0, 2.0, 2.0, 2.0, 0.0, 3.0]
    want = [
        5.0,
        inf,
        -inf,
        -5.0,
        0.0,
        0.0,
        -0.0,
        -0.0,
        -0.0,
        0.0,
        1.5,
        float("nan"),
        float("nan"),
        1.0,
    ]
    a, b = cupy.asarray(x1, dtype=dtype), cupy.asarray(x2, dtype=dtype)
    got = cupy_namespace.remainder(a, b)
    assert got.dtype == np.dtype(dtype)
    assert _bits(got.get()) == _bits(np.asarray(want, dtype=dtype))
    with_scalar = cupy_namespace.remainder(a, -2.0)
    assert with_scalar.dtype == np.dtype(dtype)
    with np.errstate(invalid="ignore"):  # inf % -2.0 is NaN, as it should be
        reference = np.remainder(np.asarray(x1, dtype=dtype), -2.0)
    assert _bits(with_scalar.get()) == _bits(reference)
    ints = cupy_namespace.remainder(cupy.asarray([7, -7]), 3)
    np.testing.assert_array_equal(ints.get(), [1, 2])


@pytest.mark.gpu
def test_floor_divide_with_infinities_is_cupys_own_and_standard() -> None:
    inf = float("inf")
    x1 = cupy.asarray([inf, inf, -inf, -inf, 5.0, -5.0])
    x2 = cupy.asarray([2.0, -2.0, 2.0, -2.0, -inf, inf])
    assert _is_cupys_own(cupy_namespace.floor_divide, cupy.floor_divide)
    got = cupy_namespace.floor_divide(x1, x2).get()
    assert _bits(got) == _bits([inf, -inf, -inf, inf, -0.0, -0.0])


@pytest.mark.gpu
def test_sort_descending_is_stable() -> None:
    x = cupy.asarray([3, 1, 3, 2, 1])
    np.testing.assert_array_equal(cupy_namespace.sort(x, descending=True).get(), [3, 3, 2, 1, 1])
    indices = cupy_namespace.argsort(x, descending=True).get()
    np.testing.assert_array_equal(indices, [0, 2, 3, 1, 4])


@pytest.mark.gpu
def test_clip_keeps_dtype() -> None:
    x = cupy.asarray([1, 5, 300], dtype=cupy.int16)
    result = cupy_namespace.clip(x, min=2, max=100_000)
    assert result.dtype == np.int16
    np.testing.assert_array_equal(result.get(), [2, 5, 300])
    assert cupy_namespace.clip(x, max=4).dtype == np.int16


@pytest.mark.gpu
def test_numpy_scalars_are_scalars_beside_cupy_arrays() -> None:
    # Struphy's clip(cupy_array, numpy.float64(...)): as CuPy's own clip takes it
    x = cupy.asarray([0.5, 1.5, 2.5])
    clipped = cunumpy.clip(x, np.float64(1.0), np.float64(2.0))
    np.testing.assert_array_equal(clipped.get(), [1.0, 1.5, 2.0])
    np.testing.assert_array_equal(cunumpy.where(x > 1, x, np.int64(0)).get(), [0.0, 1.5, 2.5])
    np.testing.assert_array_equal(cunumpy.maximum(np.float32(1.0), x).get(), [1.0, 1.5, 2.5])
    assert cunumpy.array_namespace(x, np.float64(1.0)) is cupy_namespace


@pytest.mark.gpu
def test_eig_is_complex() -> None:
    if not hasattr(cupy.linalg, "eig"):
        pytest.skip("CuPy 13 has no linalg.eig")
    x = cupy.asarray([[2.0, 0.0], [0.0, 3.0]], dtype=cupy.float32)
    values, vectors = cupy_namespace.linalg.eig(x)
    assert values.dtype == np.complex64
    assert vectors.dtype == np.complex64
    assert cupy_namespace.linalg.eigvals(x.astype(cupy.float64)).dtype == np.complex128


@pytest.mark.gpu
def test_linalg_fixes() -> None:
    la = cupy_namespace.linalg
    a = cupy.asarray([[4.0, 1.0], [1.0, 3.0]])
    assert la.eigh(a).eigenvalues.shape == (2,)
    np.testing.assert_allclose(
        la.cholesky(a, upper=True).get(), np.linalg.cholesky(a.get(), upper=True)
    )
    np.testing.assert_allclose(la.vector_norm(cupy.asarray([3.0, 4.0])).get(), 5.0)
    z = cupy.asarray([[3.0 + 4.0j, 0.0], [0.0, 12.0j]], dtype=cupy.complex64)
    norm = la.vector_norm(z, keepdims=True)
    assert (norm.shape, norm.dtype) == ((1, 1), np.float32)
    np.testing.assert_allclose(norm.get(), [[13.0]], rtol=1e-6)
    np.testing.assert_allclose(la.vector_norm(a, axis=0, ord=1).get(), [5.0, 4.0])
    np.testing.assert_allclose(la.matrix_norm(a).get(), np.linalg.matrix_norm(a.get()))
    np.testing.assert_allclose(la.svdvals(a).get(), np.linalg.svdvals(a.get()))
    np.testing.assert_allclose(la.trace(a).get(), 7.0)
    b = cupy.asarray([1.0, 2.0])
    np.testing.assert_allclose(la.solve(a, b).get(), np.linalg.solve(a.get(), b.get()))
    assert int(la.matrix_rank(a)) == 2


@pytest.mark.gpu
def test_statistics_and_manipulation_fixes() -> None:
    ns = cupy_namespace
    x = cupy.asarray([[1.0, 2.0], [3.0, 4.0]])
    np.testing.assert_allclose(ns.std(x, correction=1).get(), np.std(x.get(), ddof=1))
    assert ns.count_nonzero(x, axis=1, keepdims=True).shape == (2, 1)
    assert ns.reshape(x, shape=(4,)).shape == (4,)
    assert len(ns.unstack(x)) == 2
    np.testing.assert_allclose(ns.vecdot(x, x).get(), [5.0, 25.0])
    assert isinstance(ns.meshgrid(x[0], x[1]), tuple)
    assert ns.cumulative_sum(x[0], include_initial=True).shape == (3,)
    assert ns.expand_dims(x[0]).shape == (1, 2)
    assert ns.astype(x, ns.float32).dtype == np.float32


@pytest.mark.gpu
def test_asarray_copy_false_from_host_raises() -> None:
    with pytest.raises(ValueError, match="copy=False"):
        cupy_namespace.asarray(np.zeros(3), copy=False)
    x = cupy.zeros(3)
    assert cupy_namespace.asarray(x, copy=False) is x


@pytest.mark.gpu
def test_info() -> None:
    info = cupy_namespace.__array_namespace_info__()
    devices = info.devices()
    assert isinstance(devices, tuple)
    assert len(devices) == _gpu_count()
    assert info.default_device() == cupy.cuda.Device()
    assert info.default_dtypes(device=0)["real floating"] == np.float64
    with pytest.raises(ValueError, match="dtypes"):
        info.dtypes(device="cpu")


@pytest.mark.gpu
def test_to_device_round_trip() -> None:
    host = np.arange(6.0)
    for index in range(_gpu_count()):
        on_gpu = cunumpy.to_device(host, index)
        assert on_gpu.device.id == index
        np.testing.assert_array_equal(cunumpy.to_device(on_gpu, "cpu"), host)
    astyped = cupy_namespace.astype(
        cupy.asarray(host), cupy_namespace.float32, device=_gpu_count() - 1
    )
    assert astyped.device.id == _gpu_count() - 1


@pytest.mark.gpu
def test_moving_between_gpus_with_copy_false_names_both() -> None:
    if _gpu_count() < 2:
        pytest.skip("needs two GPUs")
    with cupy.cuda.Device(1):
        x = cupy.zeros(3)
    with pytest.raises(ValueError, match=r"GPU 1.*GPU 0"):
        cupy_namespace.asarray(x, device=0, copy=False)
    assert cupy_namespace.asarray(x, device=0).device.id == 0


def _on_two_gpus() -> tuple[Any, Any]:
    if _gpu_count() < 2:
        pytest.skip("needs two GPUs")
    with cupy.cuda.Device(0):
        x0 = cupy.arange(3.0)
    with cupy.cuda.Device(1):
        x1 = cupy.arange(3.0)
    return x0, x1


@pytest.mark.gpu
@pytest.mark.xp("cupy", "cunumpy:cupy")  # the CuPy namespace, and the top-level on CuPy
def test_inputs_on_two_gpus_raise_value_error_naming_both(xp: ModuleType) -> None:
    x0, x1 = _on_two_gpus()
    with pytest.raises(ValueError, match=r"add: .*cuda:0 and cuda:1"):
        xp.add(x0, x1)
    with pytest.raises(ValueError, match=r"concat: .*cuda:1 and cuda:0"):
        xp.concat([x1, x0])
    with pytest.raises(ValueError, match=r"where: .*cuda:0 and cuda:1"):
        xp.where(x0 > 1, x0, x1)


@pytest.mark.gpu
@pytest.mark.xp("cupy", "cunumpy:cupy")  # the CuPy namespace, and the top-level on CuPy
def test_functions_run_on_the_gpu_of_their_inputs(xp: ModuleType) -> None:
    _, x1 = _on_two_gpus()
    with cupy.cuda.Device(0):
        results = [
            xp.add(x1, x1), xp.sum(x1), xp.sort(x1, descending=True), xp.linalg.vector_norm(x1),
            xp.fft.fft(x1), xp.stack([x1, x1]), xp.clip(x1, min=1.0),
        ]  # fmt: skip
        assert cupy.cuda.runtime.getDevice() == 0
    assert [r.device.id for r in results] == [1] * len(results)
    assert_close(results[0], cunumpy.to_device(np.asarray([0.0, 2.0, 4.0]), x1.device))
    assert_close(results[1], cunumpy.to_device(np.asarray(3.0), x1.device))


@pytest.mark.gpu
def test_guard_is_the_identity_on_the_current_gpu() -> None:
    """The wrapper multi-GPU machines use, exercised on one GPU: same results, same device."""
    from cunumpy._backends.cupy._guard import common_gpu, on_input_device

    x = cupy.arange(4.0)
    index = x.device.id
    assert common_gpu((x, [x, 2.0]), {"out": None}, "f") == index
    assert common_gpu((1.0, [2.0]), {}, "f") is None
    guarded = on_input_device(cupy.add, "add")
    assert guarded.__name__ == "add"
    result = guarded(x, x)
    assert result.device.id == index
    np.testing.assert_array_equal(result.get(), [0.0, 2.0, 4.0, 6.0])


@pytest.mark.gpu
@pytest.mark.parametrize(
    "value",
    [-0.0, complex(-0.0, 0.0), complex(0.0, -0.0), np.float32(-0.0), np.asarray(-0.0), 0.0],
    ids=repr,
)
def test_zero_dimensional_zeros_keep_their_sign(value: Any) -> None:
    """CuPy writes 0-D zeros with a memset (cupy.asarray(-0.0) is +0.0); cunumpy must not."""
    host = np.asarray(value)
    made = {
        "namespace asarray": cupy_namespace.asarray(value),
        "top-level asarray": cunumpy.asarray(value, device=0),
        "to_device": cunumpy.to_device(host, 0),
        "to_cupy": cunumpy.to_cupy(value),
    }
    for how, x in made.items():
        assert (x.shape, x.dtype) == ((), host.dtype), how
        assert x.get().tobytes() == host.tobytes(), how


@pytest.mark.gpu
def test_from_dlpack_copy_and_device() -> None:
    ns = cupy_namespace
    x = cupy.arange(6.0)
    shared = ns.from_dlpack(x)
    assert shared.data.ptr == x.data.ptr
    assert ns.from_dlpack(x, copy=False).data.ptr == x.data.ptr
    copied = ns.from_dlpack(x, copy=True)  # CuPy's own from_dlpack raises BufferError here
    assert copied.data.ptr != x.data.ptr
    np.testing.assert_array_equal(copied.get(), x.get())
    host = np.arange(4, dtype=np.int32)
    on_gpu = ns.from_dlpack(host, device=0)
    assert (on_gpu.device.id, on_gpu.dtype) == (0, np.int32)
    np.testing.assert_array_equal(on_gpu.get(), host)
    with pytest.raises(ValueError, match="host memory"):
        ns.from_dlpack(host)
    with pytest.raises(ValueError, match="copy=False"):
        ns.from_dlpack(host, device=0, copy=False)
    back = cunumpy.from_dlpack(x, device="cpu")
    assert isinstance(back, np.ndarray)
    np.testing.assert_array_equal(back, x.get())


@pytest.mark.gpu
def test_linspace_complex_and_vecdot_integer_dtype() -> None:
    ns = cupy_namespace
    z = ns.linspace(0, 2 + 4j, 3)
    assert z.dtype == np.complex128
    np.testing.assert_allclose(z.get(), np.linspace(0, 2 + 4j, 3))
    z64 = ns.linspace(1.0, 2.0, 5, dtype=ns.complex64, endpoint=False)
    assert z64.dtype == np.complex64
    np.testing.assert_allclose(z64.get(), np.linspace(1.0, 2.0, 5, endpoint=False))
    a = cupy.asarray([[1, 2], [3, 4]], dtype=cupy.int32)
    dot = ns.vecdot(a, a)
    assert dot.dtype == np.int32
    np.testing.assert_array_equal(dot.get(), [5, 25])
    assert ns.linalg.vecdot(a, a).dtype == np.int32


@pytest.mark.gpu
def test_solve_broadcasts_a_vector_over_a_stack() -> None:
    a = cupy.asarray([[[2.0, 0.0], [0.0, 4.0]], [[1.0, 1.0], [0.0, 1.0]]])
    b = cupy.asarray([2.0, 4.0])
    got = cupy_namespace.linalg.solve(a, b)
    assert got.shape == (2, 2)
    np.testing.assert_allclose(got.get(), np.linalg.solve(a.get(), b.get()))


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_clip_kernel_propagates_nan_and_matches_numpy(dtype: str) -> None:
    # clip of floats runs one kernel of ours (two CuPy kernels took 1.8 times CuPy's clip)
    nan = float("nan")
    x = np.array([-2.0, -0.5, 0.25, 3.0, nan, -0.0], dtype=dtype)
    low = np.array([-1.0, nan, 0.0, 0.0, 0.0, 0.0], dtype=dtype)
    for lo, hi in ((-1.0, 1.0), (low, 2.0), (0.5, np.full(6, nan, dtype=dtype)), (2.0, 1.0)):
        dev = [cupy.asarray(v) if isinstance(v, np.ndarray) else v for v in (lo, hi)]
        out = cunumpy.clip(cupy.asarray(x), *dev)
        assert out.dtype == np.dtype(dtype)
        np.testing.assert_array_equal(cupy.asnumpy(out), np.minimum(np.maximum(x, lo), hi))
