"""Array code runs unchanged on NumPy, array-api-strict and Dask, and on a 2-worker cluster.

``normalized_energy`` below is a library function written once against
``array_namespace(x)``; the Black-Scholes example's array expressions are another. Both run
on Dask arrays through ``cunumpy.dask`` without computing anything until asked.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import cunumpy
from cunumpy.testing import assert_close

ROOT = Path(__file__).resolve().parent.parent


def normalized_energy(x: Any) -> Any:
    """A library function: the energy of each row, over the largest, in the input's namespace."""
    xp = cunumpy.array_namespace(x)
    energy = xp.sum(x * x, axis=-1)
    centred = energy - xp.mean(energy)
    return xp.where(centred > 0, energy / xp.max(energy), xp.zeros_like(energy))


@pytest.mark.dask_computes(1)  # the comparison's, at the end
@pytest.mark.xp("numpy", "array_api_strict", "dask")
def test_a_library_function_runs_unchanged_everywhere_without_hidden_computes(
    xp: ModuleType, dask_computes: Any
) -> None:
    host = np.arange(12.0).reshape(4, 3)
    x = xp.asarray(host)
    result = normalized_energy(x)
    assert dask_computes.count == 0  # on Dask: a graph only
    assert cunumpy.array_namespace(result) is cunumpy.array_namespace(x)
    got = np.asarray(result.compute() if hasattr(result, "compute") else result)
    energy = (host * host).sum(axis=-1)
    expected = np.where(energy - energy.mean() > 0, energy / energy.max(), 0.0)
    assert_close(got, expected, rtol=1e-12)


def _black_scholes() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "black_scholes", ROOT / "examples" / "black_scholes.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.filterwarnings("ignore::ResourceWarning")
@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_the_black_scholes_arrays_run_on_a_two_worker_local_cluster() -> None:
    distributed = pytest.importorskip(
        "distributed", reason="distributed is not installed (the dask extra)"
    )
    da = pytest.importorskip("dask.array")
    # The example compiles its kernel when imported (its Array API prices run without it).
    pytest.importorskip("numba", reason="numba is not installed: needs Numba (the kernels extra)")
    example = _black_scholes()
    s, k, t = example.market(4_000)
    expected = example.black_scholes_arrays(s, k, t, 0.02, 0.3)  # NumPy
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
            memory_limit=0, silence_logs=50,
        ) as cluster,
        distributed.Client(cluster) as client,
    ):  # fmt: skip
        assert len(client.scheduler_info()["workers"]) == 2
        lazy = [da.from_array(a, chunks=1_000) for a in (s, k, t)]
        call, put = example.black_scholes_arrays(*lazy, 0.02, 0.3)
        assert cunumpy.array_namespace(call) is cunumpy.array_namespace(lazy[0])
        got_call, got_put = client.compute([call, put], sync=True)
        ran_on = client.run(lambda: True)
    assert len(ran_on) == 2
    assert_close(np.asarray(got_call), expected[0], rtol=1e-12)
    assert_close(np.asarray(got_put), expected[1], rtol=1e-12)
