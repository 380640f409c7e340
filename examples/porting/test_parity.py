"""The parity tests of the ported kernels: one test per kernel of the catalog.

CPU-only CI runs them on the fake CuPy, where the CUDA ports run on the CPU emulator
(``CUNUMPY_FAKE_CUPY=1 python -m pytest examples/porting``); a GPU machine runs the same
command without the variable, and with ``CUNUMPY_REQUIRE_CUDA=1`` they fail instead of
skipping where no GPU is usable.
"""

import pytest
from plasma import catalog

from cunumpy.kernel_testing import check_parity, parity_cases, requires_cupy


@pytest.mark.parametrize("kernel", parity_cases(catalog))
def test_parity(kernel):
    check_parity(kernel)


@requires_cupy  # a GPU or the fake CuPy; under CUNUMPY_REQUIRE_CUDA=1 a GPU, else it fails
def test_the_program_gives_the_same_energy_on_both_backends():
    from run import run

    import cunumpy as xp

    host = run()
    with xp.use_backend("cupy"):
        device = run()
    assert device == pytest.approx(host, rel=1e-12)
