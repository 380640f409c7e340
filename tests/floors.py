"""The floors of the house: the one source of ``docs/architecture.md``'s floor table.

A module of ``cunumpy`` imports (at module level, and in functions too) only modules on
its own floor or below. A place is a folder (``"kernels/"``) or a module (``"xp.py"``);
a module is on the floor of the longest place that holds it (``_backends/dask/`` over
``_backends/``). ``tests/test_import_graph.py`` holds the code to this table, and the
documentation's table to ``table()``; ``python tests/floors.py`` prints it.

No import points up, and there is no list of exceptions: code that a lower floor needs
moves down (or its importer up), and a new package gets its floor here.
"""

from __future__ import annotations

from typing import NamedTuple


class Floor(NamedTuple):
    places: tuple[str, ...]
    holds: str


FLOORS: tuple[Floor, ...] = (
    Floor(
        ("_settings/", "_emulation/", "_trace/"),
        "Settings and the environment they come from: the backends' names (`_backend_names`), "
        "whether CuPy is usable and holds work (`_cupy_probe`), the distributions and the install hints of "
        "optional dependencies (`_distributions`), the backends' errors restated (`_errors`), "
        "the dtype rule (`_dtype_rules`), the user's frame (`_user_frames`), the public home of "
        "public classes (`_homes`). CUDA C on the CPU (`_emulation`): the emulator of CUDA C "
        "and the strict fake CuPy that `CUNUMPY_FAKE_CUPY` installs. The timeline recorder "
        "(`_trace`) whose hooks every layer calls while `profiling.trace` records.",
    ),
    Floor(
        ("_placement/",),
        "The placement layer: one form for every device spec (`_devices`), the order of work "
        "between streams (`_stream_order`), the arrays kept alive until the streams that use "
        "them have run (`_keep_alive`), the log every copy between host and device notes "
        "(`_transfer_log`).",
    ),
    Floor(
        ("_backends/", "_typing.py"),
        "One namespace per backend (`numpy/`, `cupy/`) and their shared helpers (`_superset`, "
        "`_complex_cases`, `_unique_results`), the standard's names they all export, defined "
        "once (`_standard_names`: data types and constants, `LINALG`, `FFT`); the type names of "
        "the signatures.",
    ),
    Floor(
        ("_backend_choice/",),
        "The backend choice: the process default backend and its context-local overrides, and "
        "the namespace module each backend's name stands for (`_config`), which backends running "
        "code may see (`_landscape`), the environment read at import (`_environment`: "
        "`CUNUMPY_BACKEND`, `CUNUMPY_FAKE_CUPY`, `CUNUMPY_REQUIRE_CUDA`), `backend_info` and "
        "the versions (`_versions`).",
    ),
    Floor(
        ("_namespaces/", "_backends/dask/", "profiling/"),
        "Finding namespaces: `array_namespace`, the `is_*_array`/`is_*_namespace` predicates, "
        "the library and GPU of some arguments, the inspection API; the Dask namespace, over "
        "the NumPy and CuPy namespaces and the predicates. Timed regions and transfer counting.",
    ),
    Floor(
        ("cuda/", "_mpi_job/", "rng/", "algorithms/"),
        "Devices, streams, events and memory, CUDA C signatures and argument checks, one GPU "
        "per rank (`bind_local_device`); the MPI job found without MPI (`_mpi_job`: the "
        "launcher, the node-local rank, mpi4py on first use, the serial stand-in); random "
        "streams; sorting and segments.",
    ),
    Floor(
        ("_moving/", "_on_host/"),
        "The user's helpers that move data (`to_device`, `to_numpy`, `to_host_async`, 0.7.1's "
        "conversions); host code with device data (`host_call`, SciPy).",
    ),
    Floor(
        ("_calls/", "kernels/", "memory/", "mpi/", "optimize/"),
        "The top-level call machinery (`_where_to_run`, `_numpy_calls`, `_ufunc_methods`, "
        "`_arguments`, the compiled fast path, the public modules' names); kernels and their "
        "emulated launches; mirrors and staging; MPI; solvers.",
    ),
    Floor(
        ("_api/", "linalg.py", "fft.py", "integrate.py", "arguments/", "kernel_testing/"),
        "The generated standard functions and extensions; SciPy's integrators; CUDA C argument "
        "types (`CudaStruct`, whose layout check compiles a `CudaKernel`); parity of kernel "
        "pairs and the public names of the fake CuPy and the emulator.",
    ),
    Floor(
        (
            "__init__.py",
            "xp.py",
            "__main__.py",
            "testing/",
            "_dispatch.py",
            "_host.py",
            "_fake_cupy.py",
            "dask.py",
            "_numba_names.py",
        ),
        "The public namespace, 0.7.1's `cunumpy.xp`, the environment report; the pytest plugin "
        "and assertions (users of the public namespace); 0.7.x's kept paths (`cunumpy._dispatch`, "
        "`cunumpy._host`, `cunumpy._fake_cupy`) and `cunumpy.dask`; Numba's typing of the public "
        "modules' names (`_numba_names`: in compiled code, `np.sqrt` is `numpy.sqrt`).",
    ),
)

#: Place -> floor.
PLACES: dict[str, int] = {place: n for n, floor in enumerate(FLOORS) for place in floor.places}


def table() -> str:
    """The floor table, as ``docs/architecture.md`` shows it."""
    rows = ["| Floor | Places | What they hold |", "| --- | --- | --- |"]
    for n, floor in enumerate(FLOORS):
        places = ", ".join(f"`{place}`" for place in floor.places)
        rows.append(f"| {n} | {places} | {floor.holds} |")
    return "\n".join(rows) + "\n"


if __name__ == "__main__":
    print(table(), end="")
