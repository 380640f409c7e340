#!/usr/bin/env bash
# Every GPU check of cunumpy, for a machine with an NVIDIA GPU and no network (about 8 min).
#
# Prepare on a machine with network access, then carry `gpu_wheels/` with the tree:
#   pip download --no-deps -d gpu_wheels array-api-compat array-api-strict
# The GPU machine must already have CuPy, NumPy, pytest, hypothesis and mpi4py.
#
# Runs: the environment report, the whole test suite (GPU tests included; every
# backend-parametrized test runs on CuPy too), the conformance harness on the CuPy backend,
# the MPI tests with two ranks sharing the GPU, and the GPU benchmarks. Prints a summary and
# exits non-zero if any step failed.
set -u
cd "$(dirname "$0")"
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
PY=${PYTHON:-python3}
declare -a SUMMARY=()
status=0

step() {  # step NAME TIMEOUT COMMAND...
    local name=$1 limit=$2
    shift 2
    echo "=== $name"
    local start=$SECONDS
    timeout "$limit" "$@"
    local rc=$?
    SUMMARY+=("$(printf '%-34s rc=%-3s %4ss' "$name" "$rc" "$((SECONDS - start))")")
    [ "$rc" -eq 0 ] || status=1
}

if [ -d gpu_wheels ]; then
    "$PY" -m pip install --quiet --no-index --find-links gpu_wheels array-api-compat array-api-strict
fi

step "report (python -m cunumpy)" 120 "$PY" -m cunumpy
step "GPU availability" 60 "$PY" -c "import cunumpy, sys; sys.exit(0 if cunumpy.cupy_available() else 1)"
step "test suite (both backends)" 240 "$PY" -m pytest -q -p no:cacheprovider -x tests cunumpy docs
step "conformance harness on CuPy" 150 env CUNUMPY_BACKEND=cupy "$PY" -m array_api_tests --module cunumpy
step "MPI, 2 ranks sharing the GPU" 90 env CUNUMPY_BACKEND=cupy "$PY" -m pytest -q -p no:cacheprovider tests/test_mpi.py -m gpu
step "benchmark: profiling overhead" 60 "$PY" benchmarks/bench_profiling.py
step "benchmark: dispatch overhead" 120 "$PY" benchmarks/bench_dispatch.py --quick

echo
echo "=== summary"
printf '%s\n' "${SUMMARY[@]}"
[ "$status" -eq 0 ] && echo "GPU CHECK: PASSED" || echo "GPU CHECK: FAILED"
exit "$status"
