#!/usr/bin/env bash
# Every GPU check of cunumpy, on a machine with an NVIDIA GPU and no network, in 9.6 minutes.
#
# Prepare on a machine with network access (one command; see its header):
#   tools/prepare_gpu_check.sh /path/to/array-api-tests
# It fills gpu_wheels/ (what the GPU machine lacks, for Python 3.12), gpu_numpy24/ (NumPy 2.4,
# for numba-cuda), gpu_suite/ (the public Array API suite) and gpu_071/ (CuNumpy 0.7.1's
# wheel, for the application benchmark), all git-ignored, and prints the device-tool call.
# The GPU machine must have Python 3.12 with NumPy, CuPy, SciPy and pytest; the carried wheels
# are installed into a scratch folder first and come before its own packages. SciPy is not
# carried (its wheel alone would take half of the 64 MiB a call carries): the machine's image
# has it, and the tests that need it skip, saying so, where it is missing.
#
# Dry run, without a GPU: GPU_CHECK_DRY_RUN=1 ./gpu_check.sh
#   checks that the budget adds up, installs the wheels into a scratch folder, resolves every
#   step's modules and files, collects the test suite (checking that the GPU tests named in
#   MUST_RUN are selected), the conformance harness and the public suite (on the NumPy
#   backend, since CuPy needs a GPU to be selected), starts each benchmark (its CPU figures)
#   and runs the suite's selection on this Python, where its GPU tests skip. Use PYTHON=...
#   to name a Python that reproduces the GPU machine's (3.12): tools/make_gpu_image_venv.sh
#   makes a venv like its image (docs/testing.md gives the commands in order).
#
# Runs: the environment report, a GPU smoke test, the test suite (GPU tests included; every
# backend-parametrized test runs on CuPy too: the tests that read device-wide memory or
# time kernels serially, the rest on 8 workers; the GPU tests named in MUST_RUN must have
# passed, not skipped; on a machine with two GPUs or more, so must the two-GPU tests named
# in TWO_GPU_SERIAL and TWO_GPU_SUITE), our conformance harness on the CuPy backend, the GPU
# benchmarks, portable kernels on the GPU with the NumPy 2.4 carried in gpu_numpy24/ (numba-cuda
# cannot compile with NumPy 2.5), and the public Array API suite on the CuPy backend with
# array_api_tests/public_suite/xfails-cupy.txt, without Hypothesis deadlines, at an example
# count sized to the time left. Prints a summary and exits non-zero if any step failed.
#
# The suite leaves out the tests marked fake_cupy, emulated and simulator (the fake CuPy, the
# CPU emulator of CUDA C, Numba's CUDA simulator): they run on the CPU, CI runs them, and
# they are no GPU verification, so the GPU check neither spends its time on them nor counts
# them; pytest's "deselected" count in the log is theirs.
#
# GPU_CHECK_BUDGET (seconds, default 575) bounds the whole run; PUBLIC_SUITE_EXAMPLES
# overrides the sized example count; GPU_CHECK_WORKERS (default 8) sets pytest's workers (a
# dry run on a small machine may want fewer).
set -u
cd "$(dirname "$0")"
PY=${PYTHON:-python3}
BUDGET=${GPU_CHECK_BUDGET:-575}
DRY=${GPU_CHECK_DRY_RUN:-0}
# The public suite's time: PUBLIC_FIXED seconds to collect and compile kernels, then
# PUBLIC_PER_EXAMPLE seconds per Hypothesis example of all its tests on 8 workers (about
# three times what NumPy takes here, to stay on the safe side); the example count uses
# three quarters of the time left after the fixed part. It runs only with MIN_PUBLIC
# seconds left, enough for its smallest count (10 examples).
MIN_PUBLIC=80
PUBLIC_FIXED=60
PUBLIC_PER_EXAMPLE=2
declare -a SUMMARY=() BOUNDS_MISSED=()
status=0

# name:limit of each benchmark (benchmarks/bench_NAME.py --quick) run with the machine's
# NumPy; those that compile portable kernels (NUMPY24_BENCHMARKS: kernels, with the launch
# path's stages, and heat, the application) run with NumPy 2.4, after them.
BENCHMARKS=(cupy_dispatch:25 transfer:20 streams:15 profiling:15 algorithms:20 host_kernels:10
    cuda_kernel:15)
NUMPY24_BENCHMARKS=(kernels:30 heat:35)
bench_total=0
for entry in "${BENCHMARKS[@]}" "${NUMPY24_BENCHMARKS[@]}"; do
    bench_total=$((bench_total + ${entry#*:}))
done
# name:limit of every step but the public suite, which gets the time left (>= MIN_PUBLIC).
LIMITS=(install:15 report:20 smoke:15 serial:40 suite:110 harness:65 numpy24:45
    "benchmarks:$bench_total")
fixed=0
for entry in "${LIMITS[@]}"; do fixed=$((fixed + ${entry#*:})); done
limit_of() { local entry; for entry in "${LIMITS[@]}"; do [ "${entry%%:*}" = "$1" ] && echo "${entry#*:}"; done; }
echo "=== budget: ${BUDGET}s = ${fixed}s of step limits + at least ${MIN_PUBLIC}s for the public suite"
if [ $((fixed + MIN_PUBLIC)) -gt "$BUDGET" ]; then
    echo "the step limits (${fixed}s) and the public suite's minimum (${MIN_PUBLIC}s) exceed the budget (${BUDGET}s)"
    exit 2
fi
if [ $((PUBLIC_FIXED + 10 * PUBLIC_PER_EXAMPLE)) -gt "$MIN_PUBLIC" ]; then
    echo "the public suite's smallest run ($((PUBLIC_FIXED + 10 * PUBLIC_PER_EXAMPLE))s) does not fit its minimum (${MIN_PUBLIC}s)"
    exit 2
fi
public_examples() {  # public_examples SECONDS_LEFT : the example count for that time, 10..200
    local n=$(( ($1 - PUBLIC_FIXED) * 3 / 4 / PUBLIC_PER_EXAMPLE ))
    [ "$n" -gt 200 ] && n=200
    [ "$n" -lt 10 ] && n=10
    echo "$n"
}

record() {  # record NAME RC START
    SUMMARY+=("$(printf '%-36s rc=%-3s %4ss' "$1" "$2" "$((SECONDS - $3))")")
    [ "$2" -eq 0 ] || status=1
}

step() {  # step NAME LIMIT COMMAND... : the command, killed at LIMIT seconds
    local name=$1 limit=$2 start=$SECONDS
    shift 2
    echo "=== $name (limit ${limit}s)"
    timeout --kill-after=10 "$limit" "$@"
    record "$name" $? "$start"
}

check() {  # check NAME COMMAND... : a dry-run check, recorded like a step; its last lines shown
    local name=$1 start=$SECONDS rc
    shift
    echo "=== dry run: $name"
    "$@" >/tmp/cunumpy-gpu-check-dry.log 2>&1
    rc=$?
    tail -n 3 /tmp/cunumpy-gpu-check-dry.log
    record "dry run: $name" "$rc" "$start"
}

BENCH_TABLE=()  # NAME=JSON of each benchmark run, for the one table at the end
benchmark() {  # benchmark NAME LIMIT : bench_NAME.py --quick --check; a missed bound is reported only
    local name=$1 limit=$2 start=$SECONDS rc json=/tmp/cunumpy-gpu-bench-$1.json
    rm -f "$json"
    BENCH_TABLE+=("$name=$json")
    echo "=== benchmark $name (limit ${limit}s)"
    timeout --kill-after=10 "$limit" "$PY" "benchmarks/bench_$name.py" --quick --check --json "$json"
    rc=$?
    if [ "$rc" -eq 1 ] && [ -s "$json" ]; then  # measured; a figure missed its bound
        SUMMARY+=("$(printf '%-36s rc=1   %4ss  a bound missed: see its table' \
            "benchmark $name" "$((SECONDS - start))")")
        BOUNDS_MISSED+=("$name")
    else
        record "benchmark $name" "$rc" "$start"
    fi
}

needs() {  # needs MODULE... : each importable (found) by the Python that runs the steps
    "$PY" - "$@" <<'PY'
import importlib.util, sys
missing = [name for name in sys.argv[1:] if importlib.util.find_spec(name) is None]
print("missing modules:" if missing else "all found:", " ".join(missing or sys.argv[1:]))
sys.exit(1 if missing else 0)
PY
}

ran() {  # ran JUNIT_XML WANTED NODE_ID... : each test is in the report, and WANTED (passed|listed)
    "$PY" - "$@" <<'PY'
import sys, xml.etree.ElementTree as ET
report, wanted, ids = sys.argv[1], sys.argv[2], sys.argv[3:]
outcomes = {}
try:
    cases = list(ET.parse(report).iter("testcase"))
except (OSError, ET.ParseError) as exc:
    sys.exit(f"no report of the suite ({exc}): it did not finish")
for case in cases:
    inner = [child.tag for child in case if child.tag in ("skipped", "failure", "error")]
    outcomes[(case.get("classname"), case.get("name"))] = inner[0] if inner else "passed"
bad = []
for node in ids:
    path, name = node.split("::")
    outcome = outcomes.get((path.removesuffix(".py").replace("/", "."), name), "not run")
    if outcome == "not run" or (wanted == "passed" and outcome != "passed"):
        bad.append(f"{node}: {outcome}")
print("\n".join(bad) if bad else f"all {len(ids)} tests named {wanted}")
sys.exit(1 if bad else 0)
PY
}

files() {  # files PATH... : each exists
    local path rc=0
    for path in "$@"; do [ -e "$path" ] || { echo "missing: $path"; rc=1; }; done
    [ "$rc" -eq 0 ] && echo "all present: $*"
    return "$rc"
}

# --- the carried wheels ---------------------------------------------------------------------
SITE=${GPU_CHECK_SITE:-/tmp/cunumpy-gpu-site}
NUMPY24_SITE=/tmp/cunumpy-gpu-numpy24
SITE071=/tmp/cunumpy-gpu-071  # CuNumpy 0.7.1 alone, for bench_heat (CUNUMPY_BENCH_071_PATH)
[ "$DRY" = 1 ] && SITE=$(mktemp -d /tmp/cunumpy-gpu-dry-XXXXXX)
if [ -d gpu_wheels ]; then
    step "install gpu_wheels/" "$(limit_of install)" "$PY" tools/install_wheels.py gpu_wheels "$SITE"
    export PYTHONPATH="$SITE${PYTHONPATH:+:$PYTHONPATH}"
else
    SUMMARY+=("install gpu_wheels/                  not run: no gpu_wheels/ (tools/prepare_gpu_check.sh)")
fi
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}" PYTHONUNBUFFERED=1
# The C fast path of the top level, built in place where the machine has a compiler and
# setuptools (a few seconds); without them cunumpy runs in pure Python, as the report says.
if [ "$DRY" != 1 ]; then
    "$PY" tools/build_fastcall.py || echo "=== the C fast path is not built: the checks run in pure Python"
fi
# The GPU machine has JAX with its CUDA plugin, which the xp fixture of cunumpy.testing
# picks up: keep it on the CPU (as tested without a GPU), so that it neither takes 75% of
# the GPU's memory at its first array nor competes with CuPy in the memory tests.
export JAX_PLATFORMS=cpu XLA_PYTHON_CLIENT_PREALLOCATE=false
# Only the pytest plugins the checks use: the GPU machine has many others (coverage,
# benchmark, jaxtyping, ...) whose import-time warnings would be errors here.
# They are named with -p on each command line below (not in PYTEST_ADDOPTS, which would
# reach the pytest sessions that tests start themselves, with another PYTHONPATH).
export PYTEST_DISABLE_PLUGIN_AUTOLOAD=1
PLUGINS=()
for plugin in _hypothesis_pytestplugin xdist.plugin pytest_metadata.plugin pytest_jsonreport.plugin; do
    "$PY" -c "import $plugin" 2>/dev/null && PLUGINS+=(-p "$plugin")
done
echo "=== pytest plugins: ${PLUGINS[*]}"
XDIST=()
"$PY" -c "import xdist" 2>/dev/null && XDIST=(-n "${GPU_CHECK_WORKERS:-8}")
# Serially: tests that read device-wide memory, or time kernels (other processes' kernels
# would share the GPU with them).
SERIAL_TESTS=(tests/test_cuda.py tests/test_stream_ordering.py tests/test_profiling.py)
SUITE_ARGS=(-q -p no:cacheprovider "${PLUGINS[@]}")
# The suite's selection, here and in the dry run: no fake CuPy, emulator or simulator tests.
NOT_ON_GPU=(-m "not fake_cupy and not emulated and not simulator")
# GPU tests the suite must select (the dry run checks) and, on the GPU, pass (not skip), by
# node id: the porting example's GPU run, a test of each new module that needs a GPU, and
# the GPU tests of what GPU run 2 found and CPUs fixed (rng's normal on CuPy 14, the Dask
# chunks' floor_divide/expm1/tanh, CuPy's refusal of lists, the pinned copy's count, fmax).
MUST_RUN=(tests/test_kernel_pairs.py::test_the_porting_example_passes_its_parity_tests_on_the_gpu
    tests/test_ufunc_methods.py::test_add_at_on_cupy_arrays_scatters_on_the_gpu
    tests/test_compat071_toplevel.py::test_gpu_scipy_is_cupyx_scipy_on_the_cupy_backend
    tests/test_solvers.py::test_host_solvers_give_callbacks_device_arrays_and_note_every_copy
    tests/test_algorithms.py::test_algorithms_on_cupy_equal_numpy_bit_for_bit
    tests/test_rng.py::test_philox_on_cupy_gives_the_known_answers_and_numpy_bits
    tests/test_cuda_kernel_gpu.py::test_readme_axpy_infers_n_threads_from_the_first_array
    tests/test_cuda_kernel_gpu.py::test_random_and_morton_headers_on_the_gpu_give_the_known_answers
    tests/test_device_programs_gpu.py::test_random_numbers_on_the_cupy_backend_are_made_on_the_gpu_reproducibly
    tests/test_device_programs_gpu.py::test_host_call_and_evaluate_on_host_return_gpu_arrays
    tests/test_device_programs_gpu.py::test_segment_sums_and_cupy_kernels_on_the_gpu_equal_numpy
    tests/test_device_programs_gpu.py::test_emulated_launches_run_on_numpy_arrays_on_a_gpu_machine
    tests/test_device_programs_gpu.py::test_view_features_reported_available_work_on_the_gpu
    tests/test_sets.py::test_the_top_level_names_the_types_the_unique_functions_return_on_cupy
    tests/test_compat071_toplevel.py::test_gpu_host_call_copies_each_way_once_and_counts_them
    tests/test_kernels_cuda_c.py::test_cuda_c_kernels_on_cupy_arrays_match_numpy
    tests/test_cupy_backend.py::test_clip_kernel_propagates_nan_and_matches_numpy[float64]
    tests/test_superset.py::test_top_level_names_are_cupys_on_the_cupy_backend
    tests/test_numpy_calls.py::test_asarray_of_a_host_array_lands_on_the_gpu_on_the_cupy_backend
    tests/test_device_programs_gpu.py::test_programs_fed_by_asarray_of_host_data_run_on_the_gpu
    tests/test_dask_gpu.py::test_cupy_chunks_run_cunumpys_cupy_namespace_per_chunk_gpu
    tests/test_dask_gpu.py::test_to_device_moves_chunks_between_host_and_gpu_gpu
    tests/test_dask_gpu.py::test_expm1_tanh_and_floor_divide_of_cupy_chunks_give_cupy_chunks_gpu
    tests/test_rng.py::test_cupy_generators_and_streams_draw_normal_on_the_gpu
    tests/test_rng.py::test_cupy_generators_and_streams
    "tests/test_numpy_calls.py::test_numpy_idioms_give_cupys_answer_on_the_gpu[sum(list)]"
    "tests/test_numpy_calls.py::test_numpy_idioms_give_cupys_answer_on_the_gpu[maximum(list, 3)]"
    "tests/test_numpy_calls.py::test_numpy_idioms_give_cupys_answer_on_the_gpu[fft.fft(list)]"
    "tests/test_numpy_calls.py::test_numpy_idioms_give_cupys_answer_on_the_gpu[linalg.det(lists)]"
    tests/test_profiling_transfers.py::test_gpu_pinned_copy_and_dtype_conversion_are_counted
    tests/test_profiling_trace.py::test_gpu_device_intervals_lie_inside_their_host_regions
    tests/test_profiling_trace.py::test_gpu_a_copy_on_one_stream_overlaps_a_kernel_on_another
    tests/test_cuda.py::test_gpu_the_driver_tells_whether_cupy_holds_work_without_a_context)
# The portable kernels' GPU tests that must pass in their step (NumPy 2.4): the fast launch
# (a launcher per compiled version, its argument list equal to Numba's) and the streams it
# must honour (a new stream, a raw handle, after work queued on the current stream).
KERNEL_TESTS=(tests/test_kernels_gpu.py tests/test_kernels_programs.py)
MUST_RUN_KERNELS=(
    tests/test_kernels_gpu.py::test_later_calls_launch_without_numba_and_match_numba_argument_lists
    tests/test_kernels_gpu.py::test_elementwise_on_cupy_broadcasts_strides_and_casts
    tests/test_kernels_gpu.py::test_generalized_on_cupy_matches_numpy
    tests/test_kernels_gpu.py::test_kernel_waits_for_earlier_work_on_the_given_stream
    tests/test_kernels_gpu.py::test_kernel_on_another_stream_waits_for_the_current_stream
    tests/test_kernels_gpu.py::test_kernel_accepts_a_raw_stream_handle)
# The tests that need two GPUs (each skips with fewer), in the serial step and in the suite.
# On a machine with two GPUs or more they must pass, not skip; with one, the summary says
# they did not run. Until they have, docs/devices.md calls the multi-GPU paths "tested on
# the fake CuPy only" (tests/test_device_contexts.py runs them on fake GPUs).
TWO_GPU_SERIAL=(tests/test_cuda.py::test_gpu_device_guard_restores_a_different_gpu
    tests/test_profiling.py::test_gpu_region_closes_on_its_own_gpu_when_the_block_switches
    "tests/test_stream_ordering.py::test_released_source_of_a_copy_between_gpus_is_not_reused_early[False]"
    "tests/test_stream_ordering.py::test_released_source_of_a_copy_between_gpus_is_not_reused_early[True]")
TWO_GPU_SUITE=(tests/test_cupy_backend.py::test_like_functions_follow_their_input
    tests/test_cupy_backend.py::test_moving_between_gpus_with_copy_false_names_both
    "tests/test_cupy_backend.py::test_inputs_on_two_gpus_raise_value_error_naming_both[cupy]"
    "tests/test_cupy_backend.py::test_inputs_on_two_gpus_raise_value_error_naming_both[cunumpy:cupy]"
    "tests/test_cupy_backend.py::test_functions_run_on_the_gpu_of_their_inputs[cupy]"
    "tests/test_cupy_backend.py::test_functions_run_on_the_gpu_of_their_inputs[cunumpy:cupy]"
    tests/test_kernels_cuda_c.py::test_cuda_c_kernels_check_devices
    tests/test_kernels_gpu.py::test_arrays_on_two_gpus_are_a_value_error)
PUBLIC_ARGS=(--backend cupy --disable-deadline -q -rfEX "${PLUGINS[@]}" "${XDIST[@]}")
MODULES=(numpy cupy scipy pytest hypothesis _hypothesis_pytestplugin xdist array_api_compat
    maybempi array_api_strict ndindex pytest_jsonreport pytest_metadata)
bench_files=()
for entry in "${BENCHMARKS[@]}" "${NUMPY24_BENCHMARKS[@]}"; do
    bench_files+=("benchmarks/bench_${entry%%:*}.py")
done
# CuNumpy 0.7.1 for bench_heat, in a folder of its own (both are `cunumpy`): its wheel is
# carried in gpu_071/; its dependencies (array-api-compat, maybempi) are in gpu_wheels/.
install071() {
    rm -rf "$SITE071" && "$PY" tools/install_wheels.py gpu_071 "$SITE071" >/dev/null &&
        export CUNUMPY_BENCH_071_PATH="$SITE071" && echo "CuNumpy 0.7.1 installed in $SITE071"
}

if [ "$DRY" = 1 ]; then
    check "Python (the carried wheels are for 3.12)" "$PY" -c "
import sys; print(sys.executable, sys.version.split()[0]); sys.exit(sys.version_info[:2] != (3, 12))"
    check "modules the steps import" needs "${MODULES[@]}"
    check "files the steps run" files "${bench_files[@]}" "${SERIAL_TESTS[@]}" \
        "${KERNEL_TESTS[@]}" tests/test_kernel_pairs.py examples/porting/test_parity.py \
        examples/heat2d.py gpu_071 \
        array_api_tests/public_suite/xfails-cupy.txt gpu_suite/array_api_tests gpu_suite/array-api/src
    check "the test suite collects, with the GPU tests and without the CPU stand-ins" bash -c "
        '$PY' -m pytest ${SUITE_ARGS[*]} -m '${NOT_ON_GPU[1]}' --collect-only tests cunumpy docs \
            >/tmp/cunumpy-gpu-dry-collect.txt || { tail -n 20 /tmp/cunumpy-gpu-dry-collect.txt; exit 1; }
        for id in \"\$@\"; do
            grep -qxF \"\$id\" /tmp/cunumpy-gpu-dry-collect.txt || { echo \"not selected: \$id\"; exit 1; }
        done
        if grep -E '^tests/(fake_cupy/|simulator/|test_fake_cupy.py|test_kernel_emulation.py)' \
            /tmp/cunumpy-gpu-dry-collect.txt; then
            echo 'selected, but a CPU stand-in: the lines above'; exit 1
        fi
        tail -n 1 /tmp/cunumpy-gpu-dry-collect.txt" _ "${MUST_RUN[@]}" "${MUST_RUN_KERNELS[@]}" \
        "${TWO_GPU_SERIAL[@]}" "${TWO_GPU_SUITE[@]}"
    check "the harness collects" env CUNUMPY_BACKEND=numpy "$PY" -m array_api_tests --module cunumpy \
        -q "${PLUGINS[@]}" --collect-only
    check "the public suite collects" "$PY" -m array_api_tests.public_suite.run gpu_suite \
        --backend numpy --disable-deadline -q "${PLUGINS[@]}" --collect-only
    if [ -d gpu_071 ]; then
        check "CuNumpy 0.7.1 installs from gpu_071/ (for bench_heat)" install071
    fi
    # A benchmark that NEEDS "gpu" stops here with status 2; the others run their CPU
    # figures (and skip their GPU ones); either way each writes its results, which the one
    # table then shows, as at the end of a real run.
    dry_table=()
    for script in "${bench_files[@]}"; do
        name=${script#benchmarks/bench_}
        dry_table+=("${name%.py}=/tmp/cunumpy-gpu-dry-bench-${name%.py}.json")
    done
    check "the benchmarks start (those that need a GPU stop: status 2)" bash -c "
        for script in ${bench_files[*]}; do
            name=\${script#benchmarks/bench_}; json=/tmp/cunumpy-gpu-dry-bench-\${name%.py}.json
            rm -f \$json
            '$PY' \$script --quick --check --json \$json; rc=\$?
            if grep -q '^NEEDS.*\"gpu\"' \$script; then expected=2; else expected=1; fi
            [ \$rc -le \$expected ] && [ -s \$json ] ||
                { echo \"\$script: status \$rc\"; exit 1; }
            if [ \$expected -eq 2 ] && [ \$rc -ne 2 ]; then echo \"\$script: ran without a GPU\"; exit 1; fi
        done; echo \"all started: ${bench_files[*]}\""
    echo "=== dry run: one table of every benchmark's figures (GPU figures skipped here)"
    "$PY" -m benchmarks --table "${dry_table[@]}"
    record "dry run: one table of the benchmarks' figures" $? "$SECONDS"
    if [ -d gpu_numpy24 ]; then
        check "numba-cuda compiles with the carried NumPy 2.4" bash -c "
            rm -rf '$NUMPY24_SITE' && '$PY' tools/install_wheels.py gpu_numpy24 '$NUMPY24_SITE' &&
            PYTHONPATH='$NUMPY24_SITE':\$PYTHONPATH '$PY' -c '
import numpy
from cunumpy.kernels._portable._numba_import import cuda_target_problem
assert numpy.__version__.startswith(\"2.4.\"), numpy.__version__
assert cuda_target_problem() is None, cuda_target_problem()
print(\"numba-cuda compiles with NumPy\", numpy.__version__)'"
        rm -f /tmp/cunumpy-gpu-kernels.xml
        check "the portable kernels' step runs with NumPy 2.4 (its GPU tests skip)" env \
            PYTHONPATH="$NUMPY24_SITE:$PYTHONPATH" "$PY" -m pytest "${SUITE_ARGS[@]}" \
            --junitxml=/tmp/cunumpy-gpu-kernels.xml "${KERNEL_TESTS[@]}"
        check "its report lists the kernel tests that must pass on the GPU" \
            ran /tmp/cunumpy-gpu-kernels.xml listed "${MUST_RUN_KERNELS[@]}"
    fi
    rm -f /tmp/cunumpy-gpu-suite.xml
    check "the test suite passes on this Python (its GPU tests skip)" \
        "$PY" -m pytest "${SUITE_ARGS[@]}" "${NOT_ON_GPU[@]}" "${XDIST[@]}" \
        --junitxml=/tmp/cunumpy-gpu-suite.xml tests cunumpy docs
    check "its report lists the GPU tests that must pass on the GPU" \
        ran /tmp/cunumpy-gpu-suite.xml listed "${MUST_RUN[@]}"
    check "its report lists the two-GPU tests (they run where two GPUs are)" \
        ran /tmp/cunumpy-gpu-suite.xml listed "${TWO_GPU_SERIAL[@]}" "${TWO_GPU_SUITE[@]}"
    worst=$((BUDGET - fixed))
    echo "public suite: with every step at its limit it has ${worst}s: $(public_examples "$worst") examples" \
        "(needs about $((PUBLIC_FIXED + $(public_examples "$worst") * PUBLIC_PER_EXAMPLE))s);" \
        "with the steps at half their limits, $(public_examples $((BUDGET - fixed / 2))) examples"
else
    step "report (python -m cunumpy)" "$(limit_of report)" "$PY" -m cunumpy
    step "GPU usable, with cuBLAS, cuSOLVER, cuFFT" "$(limit_of smoke)" "$PY" -c "
import sys, cunumpy
if not cunumpy.cupy_available():
    sys.exit('no usable GPU: ' + str(cunumpy.cupy_unavailable_reason()))
import cupy
a = cupy.eye(4) * 2.0
assert float((a @ a).sum()) == 16.0
assert abs(float(cupy.linalg.eigh(a)[0].sum()) - 8.0) < 1e-9
assert abs(complex(cupy.fft.fft(cupy.ones(4))[0]) - 4) < 1e-12
print('CuPy', cupy.__version__, 'on', cupy.cuda.runtime.getDeviceProperties(0)['name'].decode())
"
    rm -f /tmp/cunumpy-gpu-serial.xml
    step "tests of memory, streams, timing (serial)" "$(limit_of serial)" \
        "$PY" -m pytest "${SUITE_ARGS[@]}" "${NOT_ON_GPU[@]}" \
        --junitxml=/tmp/cunumpy-gpu-serial.xml "${SERIAL_TESTS[@]}"
    ignores=()
    for path in "${SERIAL_TESTS[@]}"; do ignores+=(--ignore="$path"); done
    rm -f /tmp/cunumpy-gpu-suite.xml
    step "test suite (both backends; no stand-ins)" "$(limit_of suite)" \
        "$PY" -m pytest "${SUITE_ARGS[@]}" "${NOT_ON_GPU[@]}" "${XDIST[@]}" "${ignores[@]}" \
        --junitxml=/tmp/cunumpy-gpu-suite.xml tests cunumpy docs
    start=$SECONDS  # a shell function, not a command for timeout: it reads one file
    echo "=== the GPU tests named in MUST_RUN passed"
    ran /tmp/cunumpy-gpu-suite.xml passed "${MUST_RUN[@]}"
    record "the GPU tests named in MUST_RUN passed" $? "$start"
    gpus=$("$PY" -c "import cupy; print(cupy.cuda.runtime.getDeviceCount())" 2>/dev/null || echo 0)
    if [ "${gpus:-0}" -ge 2 ]; then
        start=$SECONDS
        echo "=== the two-GPU tests passed ($gpus GPUs)"
        ran /tmp/cunumpy-gpu-serial.xml passed "${TWO_GPU_SERIAL[@]}" &&
            ran /tmp/cunumpy-gpu-suite.xml passed "${TWO_GPU_SUITE[@]}"
        record "the two-GPU tests passed ($gpus GPUs)" $? "$start"
    else
        SUMMARY+=("$(printf '%-36s not run: %s GPU(s) visible; they need two' "two-GPU tests" "${gpus:-0}")")
    fi
    step "conformance harness on CuPy" "$(limit_of harness)" \
        env CUNUMPY_BACKEND=cupy "$PY" -m array_api_tests --module cunumpy -q "${PLUGINS[@]}" \
        "${XDIST[@]}"
    for entry in "${BENCHMARKS[@]}"; do
        benchmark "${entry%%:*}" "${entry#*:}"
    done
    # Portable kernels on the GPU: numba-cuda 0.30 cannot compile with NumPy 2.5 (it
    # registers np.row_stack, NVIDIA/numba-cuda#907), so their GPU tests and the benchmarks
    # that compile them run with the NumPy 2.4 carried in gpu_numpy24/ (everything else ran
    # on the machine's own); bench_heat compares with CuNumpy 0.7.1 from gpu_071/.
    if [ -d gpu_071 ]; then
        install071 || SUMMARY+=("CuNumpy 0.7.1                        not installed from gpu_071/: bench_heat skips it")
    else
        SUMMARY+=("CuNumpy 0.7.1                        not run: no gpu_071/ (tools/prepare_gpu_check.sh)")
    fi
    if [ -d gpu_numpy24 ]; then
        rm -f /tmp/cunumpy-gpu-kernels.xml
        step "portable kernels on the GPU (NumPy 2.4)" "$(limit_of numpy24)" bash -c "
            '$PY' tools/install_wheels.py gpu_numpy24 '$NUMPY24_SITE' >/dev/null &&
            PYTHONPATH='$NUMPY24_SITE':\$PYTHONPATH '$PY' -m pytest ${SUITE_ARGS[*]} \
                --junitxml=/tmp/cunumpy-gpu-kernels.xml ${KERNEL_TESTS[*]}"
        start=$SECONDS
        echo "=== the portable kernels' GPU tests named in MUST_RUN_KERNELS passed"
        ran /tmp/cunumpy-gpu-kernels.xml passed "${MUST_RUN_KERNELS[@]}"
        record "the GPU tests named in MUST_RUN_KERNELS passed" $? "$start"
        for entry in "${NUMPY24_BENCHMARKS[@]}"; do
            PYTHONPATH="$NUMPY24_SITE:$PYTHONPATH" benchmark "${entry%%:*}" "${entry#*:}"
        done
    else
        SUMMARY+=("portable kernels on the GPU           not run: no gpu_numpy24/ (tools/prepare_gpu_check.sh)")
        for entry in "${NUMPY24_BENCHMARKS[@]}"; do  # their GPU figures say why they are skipped
            benchmark "${entry%%:*}" "${entry#*:}"
        done
    fi
    echo "=== every benchmark against its bound (missed bounds are reported, not failures)"
    "$PY" -m benchmarks --table "${BENCH_TABLE[@]}" --check
    if [ -d gpu_suite ]; then
        left=$((BUDGET - SECONDS))
        if [ "$left" -lt "$MIN_PUBLIC" ]; then
            SUMMARY+=("$(printf '%-36s skipped: %ss left of the budget' "public suite on CuPy" "$left")")
            status=1
        else
            examples=${PUBLIC_SUITE_EXAMPLES:-$(public_examples "$left")}
            step "public suite on CuPy (${examples} examples)" "$left" "$PY" \
                -m array_api_tests.public_suite.run gpu_suite --max-examples "$examples" "${PUBLIC_ARGS[@]}"
        fi
    else
        SUMMARY+=("public suite on CuPy                 not run: no gpu_suite/ (tools/prepare_gpu_check.sh)")
        status=1
    fi
fi
[ "$DRY" = 1 ] && rm -rf "$SITE"

echo
echo "=== summary (${SECONDS}s of a ${BUDGET}s budget)"
printf '%s\n' "${SUMMARY[@]}"
[ "${#BOUNDS_MISSED[@]}" -gt 0 ] && echo "benchmark bounds missed (reported, not failures): ${BOUNDS_MISSED[*]}"
label="GPU CHECK"
[ "$DRY" = 1 ] && label="GPU CHECK DRY RUN"
[ "$status" -eq 0 ] && echo "$label: PASSED" || echo "$label: FAILED"
exit "$status"
