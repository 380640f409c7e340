#!/usr/bin/env bash
# The oldest CuPy cunumpy claims (pyproject.toml: cupy-cuda12x>=13.4), checked in a scratch
# venv on a machine without a GPU: cunumpy imports, reports why CuPy is not usable, imports
# the CuPy namespace module (cunumpy._backends.cupy, with its CuPy 13 shims), and the tests
# that need CuPy but no GPU pass. CI runs it; by hand: tools/check_oldest_cupy.sh [folder]
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
VENV=${1:-/tmp/cunumpy-oldest-cupy}
OLDEST=$("$PY" -c "import re,sys; t=open('pyproject.toml').read(); print(re.search(r'\"cupy-cuda12x>=([0-9.]+)\"', t)[1])")
rm -rf "$VENV"
"$PY" -m venv "$VENV"
"$VENV/bin/pip" install --quiet "cupy-cuda12x==$OLDEST.*" "numpy>=2.1,<2.3" pytest hypothesis \
    "array-api-strict>=2.6" 2>&1 | grep -v "^WARNING: Location" || true
"$VENV/bin/pip" install --quiet --no-deps -e . 2>&1 | grep -v "^WARNING: Location" || true
"$VENV/bin/pip" install --quiet "array-api-compat>=1.11" 2>&1 | grep -v "^WARNING: Location" || true
"$VENV/bin/python" - "$OLDEST" <<'PY'
import sys

import cupy

import cunumpy

wanted = sys.argv[1]
assert cupy.__version__.startswith(wanted + "."), (cupy.__version__, wanted)
print("CuPy", cupy.__version__, "- usable:", cunumpy.cupy_available())
print("reason:", cunumpy.cupy_unavailable_reason())
import cunumpy._backends.cupy as namespace  # the CuPy 13 branch of the namespace

assert namespace.__array_api_version__ == "2025.12"
assert namespace.concat is not None and namespace.unique_values is not None
print("cunumpy._backends.cupy imports with CuPy", cupy.__version__)
PY
"$VENV/bin/python" -m pytest -q -p no:cacheprovider -o addopts="" \
    tests/test_cupy_backend.py tests/test_cuda.py tests/test_transfer.py tests/test_cupy_versions.py \
    tests/test_stream_ordering.py
