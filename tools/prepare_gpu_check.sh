#!/usr/bin/env bash
# Prepare, on a machine with network access, everything gpu_check.sh needs on the GPU machine
# (Python 3.12, NumPy, CuPy, SciPy, numba, mpi4py; no network), then print the device-tool call:
#
#   tools/prepare_gpu_check.sh /path/to/array-api-tests
#
# - gpu_wheels/: the test toolchain for Python 3.12 (pytest, xdist, Hypothesis, the public
#   suite's plugins) and what cunumpy needs that the GPU machine lacks (array-api-compat,
#   maybempi, array-api-strict, ndindex, Dask with its pure dependencies), each without its
#   dependencies, one version each;
#   not SciPy, which the machine's image has (its wheel would take half of what a call
#   carries; the tests that need it skip, saying so, without it);
# - gpu_numpy24/: NumPy 2.4 for Python 3.12, for the step that runs portable kernels on the
#   GPU (numba-cuda 0.30 cannot compile with the machine's NumPy 2.5);
# - gpu_suite/: a copy of the data-apis/array-api-tests checkout (with its array-api
#   submodule, without .git);
# - gpu_071/: CuNumpy 0.7.1's pure-Python wheel (the registry's `cunumpy`; or the file
#   CUNUMPY_071_WHEEL names, offline), for bench_heat's comparison.
# The folders are git-ignored; the printed call carries them. Afterwards it runs
# `GPU_CHECK_DRY_RUN=1 ./gpu_check.sh` when PYTHON (or python3) is 3.12, else says how.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
[ $# -eq 1 ] || { sed -n '2,17p' "$0"; exit 2; }
suite=$1
[ -d "$suite/array_api_tests" ] && [ -d "$suite/array-api/src" ] || {
    echo "$suite is not a checkout of array-api-tests with its array-api submodule" >&2
    exit 2
}
WHEELS=(
    array-api-compat array-api-strict ndindex "hypothesis>=6.151" sortedcontainers maybempi
    "pytest>=8" pluggy iniconfig packaging pygments pytest-xdist execnet
    pytest-json-report pytest-metadata
    dask toolz cloudpickle partd locket fsspec pyyaml click  # tests/test_dask_gpu.py
)
rm -rf gpu_wheels gpu_numpy24 gpu_suite gpu_071
"$PY" -m pip download --quiet --no-deps --only-binary=:all: --python-version 3.12 \
    --implementation cp --abi cp312 --abi abi3 --abi none --platform manylinux_2_28_x86_64 \
    --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 --platform any \
    -d gpu_wheels "${WHEELS[@]}" 2>&1 | grep -v "^WARNING: Location" || true
"$PY" -m pip download --quiet --no-deps --only-binary=:all: --python-version 3.12 \
    --implementation cp --abi cp312 --platform manylinux_2_28_x86_64 \
    --platform manylinux_2_17_x86_64 -d gpu_numpy24 "numpy>=2.4,<2.5" 2>&1 \
    | grep -v "^WARNING: Location" || true
if [ -n "${CUNUMPY_071_WHEEL:-}" ]; then
    mkdir gpu_071 && cp "$CUNUMPY_071_WHEEL" gpu_071/
else
    "$PY" -m pip download --quiet --no-deps --only-binary=:all: -d gpu_071 cunumpy==0.7.1 2>&1 \
        | grep -v "^WARNING: Location" || true
fi
"$PY" tools/install_wheels.py --check cp312 gpu_071
"$PY" tools/install_wheels.py --check cp312 gpu_wheels
"$PY" tools/install_wheels.py --check cp312 gpu_numpy24
mkdir gpu_suite
tar -C "$suite" --exclude=.git -cf - . | tar -C gpu_suite -xf -
echo "gpu_suite/: $suite at $(git -C "$suite" rev-parse --short HEAD 2>/dev/null || echo '?')," \
    "array-api at $(git -C "$suite/array-api" rev-parse --short HEAD 2>/dev/null || echo '?')"
du -sh gpu_wheels gpu_numpy24 gpu_suite gpu_071
if "$PY" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 12))'; then
    GPU_CHECK_DRY_RUN=1 PYTHON="$PY" ./gpu_check.sh
else
    echo "dry run: PYTHON=/path/to/python3.12 GPU_CHECK_DRY_RUN=1 ./gpu_check.sh" \
        "(tools/make_gpu_image_venv.sh makes a venv like the GPU machine's image)"
fi
cat <<'CALL'

Then, from the repository root of the session that holds the GPU (one call; the script
needs at most 575 s, the machine's start one or two minutes more; no second full run fits
the 15 minutes of device time, so the dry run above must have passed):

  run(command="set -o pipefail; bash gpu_check.sh 2>&1 | tee $OUT/gpu_check.log",
      carry=["gpu_wheels", "gpu_numpy24", "gpu_suite", "gpu_071"], timeout_s=600)

and quote the summary it prints (the last lines, from "=== summary").
CALL
