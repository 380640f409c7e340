#!/usr/bin/env bash
# Prepare, on a machine with network access, what gpu_check.sh needs on the GPU machine
# (which has no network): pure-Python and cp312 wheels in gpu_wheels/ and, when a checkout
# of data-apis/array-api-tests is given, a copy of it (without .git) in gpu_suite/.
# Both folders are git-ignored; carry them with the working tree.
#
#   tools/prepare_gpu_check.sh [/path/to/array-api-tests]
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
rm -rf gpu_wheels
"$PY" -m pip download --quiet --no-deps --only-binary=:all: --python-version 3.12 \
    --implementation cp --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 \
    --platform manylinux2014_x86_64 -d gpu_wheels \
    array-api-compat array-api-strict "hypothesis>=6.151" sortedcontainers ndindex \
    pytest-json-report pytest-metadata ruff
ls gpu_wheels
if [ $# -ge 1 ]; then
    suite=$1
    [ -d "$suite/array_api_tests" ] && [ -d "$suite/array-api/src" ] || {
        echo "$suite is not a checkout of array-api-tests with its array-api submodule" >&2
        exit 2
    }
    rm -rf gpu_suite
    mkdir gpu_suite
    tar -C "$suite" --exclude=.git -cf - . | tar -C gpu_suite -xf -
    echo "copied $suite ($(git -C "$suite" rev-parse --short HEAD 2>/dev/null || echo '?')) to gpu_suite/"
fi
du -sh gpu_wheels gpu_suite 2>/dev/null || true
