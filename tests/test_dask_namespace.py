"""cunumpy.dask: the namespace of Dask arrays, its routing, its superset rule and its graphs.

Every test here that builds Dask graphs uses the ``dask_computes`` fixture
(cunumpy.testing.plugin), which fails a test that runs more graphs than it declares.
"""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import numpy as np
import pytest

import cunumpy
from cunumpy.testing import assert_close, assert_equal

dask = pytest.importorskip("dask", reason="Dask is not installed (the dask extra)")
da = pytest.importorskip("dask.array", reason="Dask is not installed (the dask extra)")
xp = pytest.importorskip("cunumpy.dask")


def nodes(x: Any) -> int:
    """The number of tasks in the graph of the Dask array (or tuple of arrays) ``x``."""
    arrays = x if isinstance(x, tuple) else (x,)
    keys: set[Any] = set()
    for one in arrays:
        keys |= set(dict(one.__dask_graph__()))
    return len(keys)


def test_array_namespace_of_dask_arrays_is_cunumpy_dask(dask_computes: Any) -> None:
    x = da.ones((4, 4), chunks=2)
    assert cunumpy.array_namespace(x) is xp
    assert cunumpy.array_namespace(x, 1.0, x[0]) is xp
    assert cunumpy.array_namespace(x, api_version="2025.12") is xp
    assert cunumpy.array_namespace(x, use_compat=True) is xp
    assert cunumpy.array_namespace(x, use_compat=False) is da
    assert cunumpy.dask is xp
    assert xp.__name__ == "cunumpy._backends.dask"


def test_a_dask_array_mixed_with_a_numpy_array_is_refused() -> None:
    with pytest.raises(TypeError, match=r"different backends \(dask\.Array and numpy\.ndarray\)"):
        cunumpy.array_namespace(da.ones(2), np.ones(2))


def test_the_chunk_type_is_read_from_the_meta_never_computed(dask_computes: Any) -> None:
    from cunumpy._backends.dask._chunks import chunk_namespace

    x = da.ones(3).map_blocks(lambda block: block + 1)
    assert chunk_namespace(x) is sys.modules["cunumpy._backends.numpy"]
    assert xp.device(x) == "cpu"
    assert dask_computes.count == 0


def test_names_outside_the_standard_are_dask_arrays_own() -> None:
    assert xp.map_blocks is da.map_blocks
    assert xp.rechunk is da.rechunk
    assert xp.linalg.tsqr is da.linalg.tsqr
    assert xp.fft.fft2 is da.fft.fft2
    assert "map_blocks" not in dir(xp) and "floor_divide" in dir(xp)
    with pytest.raises(
        AttributeError, match=r"neither a name of the Array API standard nor of dask\.array"
    ):
        _ = xp.no_such_name


def test_conforming_names_are_dask_arrays_own_objects() -> None:
    assert xp.add is da.add
    assert xp.where is da.where
    assert xp.acos is da.arccos
    assert xp.pow is da.power


def test_every_standard_name_is_there() -> None:
    numpy_namespace = sys.modules["cunumpy._backends.numpy"]
    missing = [name for name in dir(numpy_namespace) if name not in dir(xp)]
    assert missing == []
    assert xp.__array_api_version__ == "2025.12"


def test_inspection(dask_computes: Any) -> None:
    info = xp.__array_namespace_info__()
    assert info.default_device() == "cpu"
    assert "cpu" in info.devices()
    assert info.default_dtypes()["real floating"] == np.float64
    assert set(info.dtypes(kind="integral")) == {
        f"{s}int{n}" for s in ("", "u") for n in (8, 16, 32, 64)
    }
    assert info.capabilities()["data-dependent shapes"] is True


def test_creation_gives_numpy_chunks_on_cpu_and_refuses_other_devices(dask_computes: Any) -> None:
    x = xp.asarray([1, 2, 3], device="cpu")
    assert isinstance(x, da.Array) and isinstance(x._meta, np.ndarray)
    assert xp.device(x) == "cpu"
    assert xp.to_device(x, "cpu") is x
    with pytest.raises(ValueError, match=r"zeros: unknown device 'tpu'; expected 'cpu'"):
        xp.zeros(3, device="tpu")
    with pytest.raises(TypeError, match="to_device: `x` must be a Dask array, not list"):
        xp.to_device([1], "cpu")


def test_asarray_copy_false_wraps_arrays_and_refuses_copies(dask_computes: Any) -> None:
    x = xp.asarray(np.arange(4.0), copy=False)  # a NumPy array is wrapped as it is
    assert x.dtype == np.float64 and x.shape == (4,)
    with pytest.raises(ValueError, match="copy"):
        xp.asarray([1.0, 2.0], copy=False)  # a list needs a copy: cunumpy's NumPy error
    with pytest.raises(ValueError, match="copy=False"):
        xp.asarray(x, dtype=xp.float32, copy=False)


# (function, arguments): each builds a graph and computes nothing.
LAZY_CALLS = [
    ("floor_divide", lambda x: (x, 2.0)),
    ("expm1", lambda x: (x,)),
    ("tanh", lambda x: (x,)),
    ("clip", lambda x: (x, 1.0, None)),
    ("astype", lambda x: (x, np.float32)),
    ("sort", lambda x: (x,)),
    ("argsort", lambda x: (x,)),
    ("std", lambda x: (x,)),
    ("cumulative_sum", lambda x: (x[0],)),
    ("unique_values", lambda x: (x,)),
    ("unique_all", lambda x: (x,)),
    ("nonzero", lambda x: (x,)),
    ("take_along_axis", lambda x: (x, xp.argsort(x))),
    ("concat", lambda x: ([x, x],)),
    ("expand_dims", lambda x: (x, (0, 2))),
    ("matmul", lambda x: (x, x)),
    ("vecdot", lambda x: (x, x)),
    ("searchsorted", lambda x: (xp.sort(x[0]), x[1])),
    ("repeat", lambda x: (x, 2)),
    ("unstack", lambda x: (x,)),
    ("tril", lambda x: (xp.stack([x, x]),)),
    ("count_nonzero", lambda x: (x,)),
    ("argmax", lambda x: (x,)),
    ("result_type", lambda x: (x, 1.0)),
    ("cumulative_prod", lambda x: (x[0],)),
    ("isin", lambda x: (x, x[0])),
]


@pytest.mark.parametrize(("name", "arguments"), LAZY_CALLS, ids=[name for name, _ in LAZY_CALLS])
def test_functions_build_graphs_and_compute_nothing(
    name: str, arguments: Any, dask_computes: Any
) -> None:
    x = xp.asarray(np.arange(16.0).reshape(4, 4) % 5)
    x = x.rechunk(2)
    result = getattr(xp, name)(*arguments(x))
    assert dask_computes.count == 0
    if name != "result_type":
        for one in result if isinstance(result, tuple) else (result,):
            assert isinstance(one, da.Array)


@pytest.mark.parametrize(
    ("name", "call"),
    [
        ("linalg.solve", lambda x: xp.linalg.solve(x + 4 * xp.eye(4), x[0])),
        ("linalg.vector_norm", lambda x: xp.linalg.vector_norm(x, axis=1, ord=3)),
        ("linalg.cross", lambda x: xp.linalg.cross(x[:, :3], x[:, 1:])),
        ("fft.rfft", lambda x: xp.fft.rfft(x, n=8)),
        ("fft.fftn", lambda x: xp.fft.fftn(x)),
        ("arange", lambda x: xp.arange(1, 10, 0.5)),
        ("linspace", lambda x: xp.linspace(0, 1, 7)),
        ("full_like", lambda x: xp.full_like(x, 2)),
    ],
)
def test_linalg_fft_and_creation_compute_nothing(name: str, call: Any, dask_computes: Any) -> None:
    x = xp.asarray(np.arange(16.0).reshape(4, 4) % 5).rechunk(2)
    assert isinstance(call(x), da.Array)
    assert dask_computes.count == 0


LINALG = [
    "det",
    "inv",
    "eigh",
    "eigvalsh",
    "slogdet",
    "cholesky",
    "svdvals",
    "qr",
    "matrix_rank",
    "pinv",
]


@pytest.mark.dask_computes(1)  # the comparison's
@pytest.mark.parametrize("name", LINALG)
def test_linalg_runs_per_matrix_lazily_and_agrees_with_numpy(name: str, dask_computes: Any) -> None:
    rng = np.random.default_rng(0)
    a = rng.standard_normal((6, 3, 3))
    spd = a @ a.transpose(0, 2, 1) + 3 * np.eye(3)
    x = xp.asarray(spd).rechunk((2, 3, 3))
    result = getattr(xp.linalg, name)(x)
    assert dask_computes.count == 0
    result = dask.compute(*result) if isinstance(result, tuple) else result.compute()
    expected = getattr(np.linalg, name)(spd)
    got, want = (result[-1], expected[-1]) if isinstance(result, tuple) else (result, expected)
    if name in ("eigh", "qr"):  # signs of vectors are free: compare what is unique
        got, want = result[0], expected[0]
        got, want = abs(got), np.abs(want)
    assert_close(np.asarray(got), np.asarray(want), rtol=1e-10, atol=1e-12, check_namespace=False)


def test_unique_nonzero_and_boolean_masks_give_unknown_lengths(dask_computes: Any) -> None:
    x = xp.asarray(np.array([3, 1, 3, 0])).rechunk(2)
    assert np.isnan(xp.unique_values(x).shape[0])
    assert all(np.isnan(n) for n in xp.unique_counts(x).counts.shape)
    assert np.isnan(xp.nonzero(x)[0].shape[0])
    assert np.isnan(x[x > 1].shape[0])
    assert xp.unique_inverse(x).inverse_indices.shape == (4,)
    assert dask_computes.count == 0


@pytest.mark.filterwarnings("ignore:invalid value encountered in floor_divide:RuntimeWarning")
@pytest.mark.dask_computes(2)
def test_values_agree_with_cunumpys_numpy_namespace(dask_computes: Any) -> None:
    host = np.array([[np.inf, -3.0, 7.0], [-np.inf, 2.5, -0.0]])
    x = xp.asarray(host).rechunk(1)
    assert_equal(xp.floor_divide(x, 2.0).compute(), cunumpy.floor_divide(host, 2.0))
    assert_equal(xp.clip(x, -1.0, 1.0).compute(), np.clip(host, -1.0, 1.0))
    assert dask_computes.count == 2


@pytest.mark.dask_computes(2)  # the repeats', and the comparison's
def test_repeat_with_an_array_computes_the_repeats_once(dask_computes: Any) -> None:
    x = xp.asarray(np.array([[1, 2], [3, 4]])).rechunk(1)
    out = xp.repeat(x, xp.asarray(np.array([1, 3])), axis=0)
    assert dask_computes.count == 1  # the repeats, to know the output's length
    assert out.shape == (4, 2)
    assert_equal(np.asarray(out.compute()), np.repeat(np.array([[1, 2], [3, 4]]), [1, 3], axis=0))


# Graph building: a namespace name builds the graph of the bare dask.array call.
SAME_GRAPHS = [
    ("add", lambda x: xp.add(x, x), lambda x: da.add(x, x)),
    ("floor_divide", lambda x: xp.floor_divide(x, 3.0), lambda x: da.floor_divide(x, 3.0)),
    ("expm1", lambda x: xp.expm1(x), lambda x: da.expm1(x)),
    ("clip", lambda x: xp.clip(x, 0.0, 1.0), lambda x: da.clip(x, 0.0, 1.0)),
    ("concat", lambda x: xp.concat([x, x], axis=1), lambda x: da.concatenate([x, x], axis=1)),
    ("std", lambda x: xp.std(x, axis=0, correction=1), lambda x: da.std(x, axis=0, ddof=1)),
    ("matmul", lambda x: xp.matmul(x, x), lambda x: da.matmul(x, x)),
    ("permute_dims", lambda x: xp.permute_dims(x, (1, 0)), lambda x: da.transpose(x, (1, 0))),
    ("reshape", lambda x: xp.reshape(x, (-1,)), lambda x: da.reshape(x, (-1,))),
    ("cumulative_sum", lambda x: xp.cumulative_sum(x, axis=0), lambda x: da.cumsum(x, axis=0)),
    ("unique_values", lambda x: xp.unique_values(x), lambda x: da.unique(da.ravel(x))),
    ("astype", lambda x: xp.astype(x, xp.float32), lambda x: x.astype(np.float32)),
]


@pytest.mark.parametrize(("name", "ours", "bare"), SAME_GRAPHS, ids=[n for n, _, _ in SAME_GRAPHS])
def test_a_namespace_call_builds_the_graph_of_the_bare_dask_call(
    name: str, ours: Any, bare: Any, dask_computes: Any
) -> None:
    x = da.random.default_rng(0).random((8, 8), chunks=(4, 4))
    assert nodes(ours(x)) == nodes(bare(x))


def test_import_cunumpy_dask_without_dask_names_the_extra() -> None:
    code = (
        "import sys; sys.modules['dask'] = None\n"
        "try:\n    import cunumpy.dask\nexcept ImportError as e:\n    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert (
        "cunumpy.dask needs Dask: pip install 'dask[array]' distributed (from a source"
        in out.stdout
    )


def test_cunumpys_device_and_to_device_take_dask_arrays(dask_computes: Any) -> None:
    x = da.ones(3, chunks=1)
    assert cunumpy.device(x) == "cpu"
    assert cunumpy.to_device(x, "cpu") is x
    with pytest.raises(ValueError, match="to_device: `stream` is not supported for Dask arrays"):
        cunumpy.to_device(x, "cpu", stream=1)


def test_is_dask_namespace_knows_cunumpy_dask() -> None:
    assert cunumpy.is_dask_namespace(xp)
    assert cunumpy.is_dask_namespace(da)
    assert not cunumpy.is_numpy_namespace(xp)
