#!/usr/bin/env bash
# Every GPU check of cunumpy, for a machine with an NVIDIA GPU and no network, in 8 minutes.
#
# Prepare on a machine with network access (both folders are git-ignored; carry them):
#   tools/prepare_gpu_check.sh /path/to/array-api-tests   # -> gpu_wheels/ and gpu_suite/
# The GPU machine must already have CuPy, NumPy and pytest (mpi4py and pytest-xdist are
# used when present). Wheels in gpu_wheels/ are installed into a scratch folder first.
#
# Runs: the environment report, the whole test suite (GPU tests included; every
# backend-parametrized test runs on CuPy too), our conformance harness on the CuPy backend,
# the GPU benchmarks (dispatch against CuPy and array-api-compat, pinned bandwidth and
# copy/compute overlap, profiling overhead), and,
# when gpu_suite/ is there, the public Array API suite on the CuPy backend with
# array_api_tests/public_suite/xfails-cupy.txt, in the time that is left. Prints a summary
# and exits non-zero if any step failed.
#
# GPU_CHECK_BUDGET (seconds, default 480) bounds the whole run; PUBLIC_SUITE_EXAMPLES
# (default 200) sets the public suite's hypothesis examples.
set -u
cd "$(dirname "$0")"
PY=${PYTHON:-python3}
BUDGET=${GPU_CHECK_BUDGET:-480}
declare -a SUMMARY=()
status=0

step() {  # step NAME TIMEOUT COMMAND...
    local name=$1 limit=$2
    shift 2
    echo "=== $name (limit ${limit}s)"
    local start=$SECONDS
    timeout "$limit" "$@"
    local rc=$?
    SUMMARY+=("$(printf '%-38s rc=%-3s %4ss' "$name" "$rc" "$((SECONDS - start))")")
    [ "$rc" -eq 0 ] || status=1
}

if [ -d gpu_wheels ]; then
    "$PY" -m pip install --quiet --no-index --no-deps --no-compile --no-cache-dir --upgrade \
        --target /tmp/cunumpy-gpu-site gpu_wheels/*.whl || status=1
    export PYTHONPATH="/tmp/cunumpy-gpu-site${PYTHONPATH:+:$PYTHONPATH}"
fi
export PYTHONPATH="$PWD:$PYTHONPATH" PYTHONUNBUFFERED=1
XDIST=()
"$PY" -c "import xdist" 2>/dev/null && XDIST=(-n 8)

step "report (python -m cunumpy)" 60 "$PY" -m cunumpy
step "GPU usable, with cuBLAS, cuSOLVER, cuFFT" 60 "$PY" -c "
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
# Serial: the memory tests read device-wide free memory, which other processes would change.
step "test suite (both backends)" 180 "$PY" -m pytest -q -p no:cacheprovider tests cunumpy docs
step "conformance harness on CuPy" 150 env CUNUMPY_BACKEND=cupy "$PY" -m array_api_tests --module cunumpy -q "${XDIST[@]}"
step "benchmark: CuPy dispatch" 90 "$PY" benchmarks/bench_cupy_dispatch.py --quick
step "benchmark: transfers and streams" 60 "$PY" benchmarks/bench_transfer.py
step "benchmark: profiling overhead" 30 "$PY" benchmarks/bench_profiling.py
if [ -d gpu_suite ]; then
    left=$((BUDGET - SECONDS))
    if [ "$left" -lt 60 ]; then
        SUMMARY+=("$(printf '%-38s skipped: %ss left of the budget' "public suite on CuPy" "$left")")
        status=1
    else
        step "public suite on CuPy" "$left" "$PY" -m array_api_tests.public_suite.run gpu_suite \
            --backend cupy --max-examples "${PUBLIC_SUITE_EXAMPLES:-200}" -q "${XDIST[@]}"
    fi
else
    SUMMARY+=("public suite on CuPy                   not run: no gpu_suite/ (tools/prepare_gpu_check.sh)")
fi

echo
echo "=== summary (${SECONDS}s of a ${BUDGET}s budget)"
printf '%s\n' "${SUMMARY[@]}"
[ "$status" -eq 0 ] && echo "GPU CHECK: PASSED" || echo "GPU CHECK: FAILED"
exit "$status"
