"""Every public name of CuNumpy 0.7.1's modules is at the same path here, or is listed.

The names are the ``__all__`` of each module of the ``cunumpy`` 0.7.1 wheel on the
registry (CuNumpy, the project whose API this one provides; its wheel is not installed
here, so the names are written out). ``docs/migrating.md`` gives each name's row; the
names that are not provided are the ones below, each with its reason there.
"""

from __future__ import annotations

import importlib

import pytest

NAMES_071 = {
    "cunumpy": """
        MIN_CUPY_VERSION __version__ algorithms arguments as_device_array
        assert_same_backend backend_info cuda cupy_available cupy_backend
        cupy_version_supported default_float_dtype evaluate_on_host get_array_backend
        get_array_module get_backend host_call integrate is_cpu is_gpu kernels memory mpi
        numpy_backend optimize petsc profiling require_version rng same_backend scipy
        set_backend setup_on_host synchronize to_cunumpy to_cupy to_host_async to_numpy
        use_backend xp
    """,
    "cunumpy.rng": """
        BIT_GENERATORS RandomStreams get_rng philox4x32_10 philox_normal philox_normal2
        philox_uniform philox_uniform2 random_streams
    """,
    "cunumpy.profiling": """
        Timing TransferBudget TransferCounter TransferEvent assert_no_transfers
        count_transfers nvtx_range timed_region
    """,
    "cunumpy.cuda": """
        DEBUG_OPTIONS DEFAULT_SHARED_MEMORY_PER_BLOCK CudaParameter HostEvent HostStream
        bind_local_device create_event create_stream ctype_of cuda_debug cuda_include_dir
        cuda_kernel_names device_count free_memory get_cuda_debug include_hash is_hip
        max_shared_memory_per_block memory_info parse_cuda_signature pin_memory record_event
        resolve_includes set_cuda_debug set_device set_device_for_rank stream wait_event
    """,
    "cunumpy.kernels": """
        DEVICE_IMPLEMENTATIONS HOST_IMPLEMENTATIONS CompiledHostKernel CudaKernel
        CudaKernelVariants HostImplementations Kernel KernelCatalog MetalKernel PyccelCache
        PyccelKernel as_kernel_array fuse get_device_kernel_implementation
        get_host_kernel_implementation kernel_output kernel_outputs metal_available
        outputs_from_annotations set_device_kernel_implementation
        set_host_kernel_implementation use_device_kernel_implementation
        use_host_kernel_implementation
    """,
    "cunumpy.arguments": """
        CudaArguments CudaStruct CudaStructArguments CudaStructValue write_cuda_header
    """,
    "cunumpy.kernel_testing": """
        BACKENDS assert_kernels_agree backend bounds_check_views_available check_parity
        compile_for_emulation cuda_required device_backend_available device_function_kernel
        emulate_cuda_kernel emulated_launches emulation_cache_dir emulation_compiler
        fake_cupy_active fake_cupy_session high_dim_cuda_views_available host_buffer
        install_fake_cupy parity_cases requires_bounds_check_views requires_cupy
        requires_device_backend requires_high_dim_cuda_views requires_warp_shuffle
        run_in_fake_cupy_subprocess warp_shuffle_available
    """,
    "cunumpy.mpi": """
        OVERRIDE_VARIABLE MPIStaging SerialComm SerialMPI SerialRequest SerialStatus
        exchange get_mpi get_mpi_cuda_aware is_serial launched_under_mpi local_rank
        mpi_buffer mpi_is_cuda_aware require_cuda_aware_mpi set_mpi_cuda_aware
        synchronize_for_mpi
    """,
    "cunumpy.memory": """
        DeviceMirror HostCopy HostStaging StagedCopy
    """,
    "cunumpy.algorithms": """
        MAX_MORTON_LEVELS SegmentPlan cell_offsets compact_by_mask morton_decode
        morton_encode morton_keys morton_scales segment_boundaries segment_sum sort_by_key
    """,
    "cunumpy.integrate": """
        odeint quad
    """,
    "cunumpy.optimize": """
        NewtonResult fsolve minimize newton root
    """,
}

#: Not provided, with the reason given in docs/migrating.md.
NOT_PROVIDED = {
    "cunumpy.petsc": "petsc4py on the registry is a source package that builds PETSc itself",
    "cunumpy.kernels.MetalKernel": "Apple's Metal needs macOS on Apple silicon",
    "cunumpy.kernels.metal_available": "Apple's Metal needs macOS on Apple silicon",
}

MIGRATING = importlib.import_module("pathlib").Path(__file__).parents[1] / "docs" / "migrating.md"


@pytest.mark.parametrize("module", sorted(NAMES_071))
def test_every_public_name_of_the_071_module_is_at_the_same_path(module: str) -> None:
    namespace = importlib.import_module(module)
    missing = [
        name
        for name in NAMES_071[module].split()
        if f"{module}.{name}" not in NOT_PROVIDED and not hasattr(namespace, name)
    ]
    assert missing == []


def test_the_names_not_provided_are_in_the_migration_tables_with_their_reason() -> None:
    rows = [line for line in MIGRATING.read_text().splitlines() if line.startswith("| `")]
    for path in NOT_PROVIDED:
        name = path.rsplit(".", 1)[-1]
        row = [line for line in rows if line.startswith(f"| `{name}")]
        assert row, f"{path} has no row in docs/migrating.md"
        assert any("not provided" in r or "Out of scope" in r for r in row), row


def test_the_list_covers_the_071_modules() -> None:
    assert len(NAMES_071) == 12
    assert sum(len(names.split()) for names in NAMES_071.values()) == 178
