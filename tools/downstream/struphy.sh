#!/usr/bin/env bash
# Downstream check: Struphy 3.5.0's and feectools 0.9.0's own tests on this checkout,
# compared per test with a run on the registry's cunumpy 0.7.0. Not part of CI (it takes
# ~30 minutes on 2 cores, most of it compiling Struphy's kernels once).
#
#   tools/downstream/struphy.sh [STAGE...]
#
# Stages (default: all of them, in order; a stage already done is skipped, delete its
# file under the work folder to redo it):
#   setup     gfortran (apt-get when missing), a venv with struphy==3.5.0 and cunumpy==0.7.0,
#             then `struphy compile -j $JOBS` (about 7 minutes on 2 quiet cores)
#   baseline  Struphy's unit tests and feectools' serial tests on cunumpy 0.7.0
#   ours      the same tests with this checkout swapped in (`pip uninstall -y cunumpy`,
#             `pip install --no-deps CHECKOUT`; the compiled kernels stay)
#   compare   per-test comparison; prints every regression with its message
#   gpupath   the GPU-path selection (see below) on 0.7.0 and on ours, and both tables;
#             its parts are the stages gpupath-baseline, gpupath-ours, gpupath-compare
#
# The GPU-path selection: every test file of Struphy and feectools that names CuPy (the
# fake CuPy included), `CudaKernel` or `emulated_launches` (`grep -rlE "$GPU_FILES"`; 20
# Struphy and 4 feectools files, 816 + 161 tests for struphy 3.5.0 and feectools 0.9.0),
# run as a developer without a GPU runs them: CUNUMPY_FAKE_CUPY=1, one pytest-xdist
# worker (a test that kills its process fails alone, and the run goes on). Ours is
# installed beside 0.7.0 (`pip install --target $work/ours-site`, first on PYTHONPATH), so
# the venv keeps 0.7.0 and the compiled kernels throughout.
#
# Environment: CUNUMPY_DOWNSTREAM_DIR (work folder, default ~/.cache/cunumpy-downstream),
# CUNUMPY_CHECKOUT (the checkout to test, default this one), JOBS (default 2),
# PYTHON (the interpreter for the venv, default python3), MAX_SECONDS (the Struphy
# selection: tests that take at most this long on 0.7.0, default 3), RESUME=1 (continue
# the reports of an interrupted run instead of starting them again), STRUPHY_TESTS (the
# folders of Struphy's unit tests to run, e.g. "pic geometry"; default all of
# `struphy test unit`'s), GPU_TIMEOUT (seconds per test of the GPU-path selection,
# default 600).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
checkout="${CUNUMPY_CHECKOUT:-$(cd "$here/../.." && pwd)}"
work="${CUNUMPY_DOWNSTREAM_DIR:-$HOME/.cache/cunumpy-downstream}"
jobs="${JOBS:-2}"
max_seconds="${MAX_SECONDS:-3}"
venv="$work/venv"
py="$venv/bin/python"
export PATH="$venv/bin:$PATH"  # struphy compile runs psydac-accelerate and pyccel from the venv
mkdir -p "$work/results" "$work/run"

log() { printf '[struphy.sh %s] %s\n' "$(date -u +%H:%M:%S)" "$*"; }

setup() {
    if ! command -v gfortran >/dev/null; then
        log "installing gfortran (pyccel compiles Struphy's kernels with it)"
        sudo_cmd=""
        [ "$(id -u)" = 0 ] || sudo_cmd="sudo"
        $sudo_cmd apt-get update -qq
        $sudo_cmd apt-get install -y -qq --no-install-recommends gfortran
    fi
    if [ ! -e "$work/installed" ]; then
        log "creating $venv with struphy==3.5.0 and cunumpy==0.7.0"
        "${PYTHON:-python3}" -m venv "$venv"
        "$py" -m pip install -q --upgrade pip
        "$py" -m pip install -q "struphy==3.5.0" "cunumpy==0.7.0" "feectools==0.9.0" pytest-timeout
        touch "$work/installed"
    fi
    if ! "$py" -c "import xdist" 2>/dev/null; then  # the GPU-path selection's one worker
        "$py" -m pip install -q pytest-xdist
    fi
    if [ ! -e "$work/compiled" ]; then
        log "compiling Struphy's kernels (struphy compile -j $jobs)"
        (cd "$work/run" && "$venv/bin/struphy" compile -j "$jobs" --yes)
        touch "$work/compiled"
    fi
}

use_cunumpy() {  # use_cunumpy 0.7.0 | use_cunumpy ours
    "$py" -m pip uninstall -y -q cunumpy cunumpy-xp
    if [ "$1" = ours ]; then
        "$py" -m pip install -q --no-deps --force-reinstall "$checkout"
    else
        "$py" -m pip install -q --no-deps "cunumpy==0.7.0"
    fi
    log "cunumpy in use: $(cd "$work/run" && "$py" -m pip list 2>/dev/null | grep -i '^cunumpy') ($(cd "$work/run" && "$py" -c 'import cunumpy; print(cunumpy.__file__)'))"
}

count_lines() { if [ -e "$1" ]; then wc -l < "$1"; else echo 0; fi; }

run_tests() {  # run_tests NAME KEEPFILE PYTEST-ARGS...
    local name="$1" keep="$2" report="$work/results/$1.jsonl" rc=0 before after
    shift 2
    log "running $name"
    # RESUME=1 keeps the tests already in the report (after an interrupted run)
    [ "${RESUME:-0}" = 1 ] || rm -f "$report" "$work/results/$name.log"
    # a test that ends the process (or pytest's own error) is recorded; the rerun resumes after it
    for _ in $(seq 20); do
        before=$(count_lines "$report")
        rc=0
        (
            cd "$work/run"
            export PYTHONPATH="$here${ours_site:+:$ours_site}" CUNUMPY_DOWNSTREAM_REPORT="$report"
            export MPLBACKEND=Agg OMP_NUM_THREADS=1
            if [ -n "$keep" ]; then export CUNUMPY_DOWNSTREAM_KEEP="$keep"; fi
            "$venv/bin/pytest" -p report_plugin -p no:cacheprovider -q --tb=native -o addopts="" "$@" \
                >> "$work/results/$name.log" 2>&1
        ) || rc=$?
        after=$(count_lines "$report")
        case "$rc" in 0 | 1 | 5) break ;; esac
        [ "$after" -gt "$before" ] || break
        log "$name: pytest ended with exit code $rc; resuming after the last test it ran"
    done
    tail -n 1 "$work/results/$name.log"
}

site() { "$py" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])'; }

struphy_paths() {
    local lib
    lib="$(site)/struphy"
    local folders="api bsplines console dispersion_relations feec fields_background geometry initial io
        kinetic_background linear_algebra ode pic polar post_processing propagators simulation"
    for d in ${STRUPHY_TESTS:-$folders}; do
        echo "$lib/$d/tests/"
    done
    if [ -z "${STRUPHY_TESTS:-}" ]; then
        echo "$lib/models/tests/test_gpu_LinearVlasovAmpereOneSpecies.py"
        echo "$lib/models/tests/test_gpu_VlasovAmpereOneSpecies.py"
    fi
}

feectools_args() {
    echo "$(site)/feectools"
    echo "-m"
    echo "not mpi and not parallel and not petsc"
}

run_both() {  # run_both SUFFIX KEEP-FOR-STRUPHY
    local paths feec
    mapfile -t paths < <(struphy_paths)
    mapfile -t feec < <(feectools_args)
    # the baseline runs every test, stopping a test body at MAX_SECONDS + 2: those are outside
    # the selection anyway (fixtures run to the end: they are shared by tests)
    local stop=$((max_seconds + 2))
    [ -z "$2" ] || stop=60  # the selection's tests run to the end (within a minute)
    run_tests "struphy-$1" "$2" --timeout "$stop" -o timeout_func_only=true "${paths[@]}"
    run_tests "feectools-$1" "" --timeout 60 "${feec[@]}"
}

baseline() {
    if [ -e "$work/results/baseline.done" ]; then
        log "baseline done already ($work/results/*-0.7.0.jsonl; delete baseline.done to redo it)"
        return
    fi
    use_cunumpy 0.7.0
    run_both 0.7.0 ""
    touch "$work/results/baseline.done"
}

ours() {
    "$py" "$here/compare.py" "$work/results/struphy-0.7.0.jsonl" --max-seconds "$max_seconds" \
        --keep "$work/results/struphy-selection.txt"
    use_cunumpy ours
    run_both ours "$work/results/struphy-selection.txt"
    use_cunumpy 0.7.0
}

compare() {
    log "Struphy 3.5.0, unit tests that take <= $max_seconds s on 0.7.0"
    "$py" "$here/compare.py" "$work/results/struphy-0.7.0.jsonl" "$work/results/struphy-ours.jsonl" \
        --max-seconds "$max_seconds" | tee "$work/results/struphy-compare.txt"
    log "feectools 0.9.0, serial tests"
    "$py" "$here/compare.py" "$work/results/feectools-0.7.0.jsonl" "$work/results/feectools-ours.jsonl" \
        | tee "$work/results/feectools-compare.txt"
}

# The GPU-path selection's files: they name CuPy (the fake CuPy too), CudaKernel or
# emulated launches.
GPU_FILES='cupy|CUPY|CudaKernel|emulated_launches'

gpu_files() {  # gpu_files PACKAGE: its test files of the GPU-path selection, one a line
    local lib
    lib="$(site)"
    (cd "$lib" && grep -rlE "$GPU_FILES" --include='test_*.py' "$1" | sort | sed "s|^|$lib/|")
}

run_gpupath() {  # run_gpupath SUFFIX: the GPU-path selection of both packages
    local package files
    for package in struphy feectools; do
        mapfile -t files < <(gpu_files "$package")
        log "$package: ${#files[@]} test files name CuPy, CudaKernel or emulated launches"
        # --import-mode=append: pytest would put site-packages (0.7.0) before ours-site
        CUNUMPY_FAKE_CUPY=1 run_tests "$package-gpupath-$1" "" -n 1 --max-worker-restart 1000 \
            --import-mode=append --timeout "${GPU_TIMEOUT:-600}" "${files[@]}"
    done
}

gpupath-baseline() {
    if [ -e "$work/results/gpupath-baseline.done" ]; then
        log "GPU-path baseline done already (delete $work/results/gpupath-baseline.done to redo it)"
        return
    fi
    run_gpupath 0.7.0  # the venv's cunumpy: 0.7.0
    touch "$work/results/gpupath-baseline.done"
}

gpupath-ours() {
    log "installing $checkout into $work/ours-site (beside the venv's 0.7.0)"
    rm -rf "$work/ours-site"
    "$py" -m pip install -q --no-deps --target "$work/ours-site" "$checkout"
    ours_site="$work/ours-site" run_gpupath ours
}

gpupath-compare() {
    local package
    for package in struphy feectools; do
        log "$package: the GPU-path selection under the fake CuPy, 0.7.0 against ours"
        "$py" "$here/compare.py" "$work/results/$package-gpupath-0.7.0.jsonl" \
            "$work/results/$package-gpupath-ours.jsonl" --name "$package" --new-failures \
            | tee "$work/results/$package-gpupath-compare.txt"
    done
}

gpupath() {
    gpupath-baseline
    gpupath-ours
    gpupath-compare
}

stages=("$@")
[ ${#stages[@]} -gt 0 ] || stages=(setup baseline ours compare)
for stage in "${stages[@]}"; do
    case "$stage" in
        setup | baseline | ours | compare | gpupath | gpupath-baseline | gpupath-ours | gpupath-compare)
            "$stage" ;;
        *)
            echo "struphy.sh: unknown stage '$stage' (setup, baseline, ours, compare, gpupath," \
                "gpupath-baseline, gpupath-ours, gpupath-compare)" >&2
            exit 2
            ;;
    esac
done
