"""linalg and fft: shapes, dtypes and values against NumPy as reference on small inputs."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np
import pytest

pytestmark = pytest.mark.usefixtures("quiet_fp")

RNG = np.random.default_rng(20251201)


def to_numpy(x: Any) -> np.ndarray:
    if hasattr(x, "get"):  # CuPy arrays
        return np.asarray(x.get())
    if isinstance(x, np.generic):  # NumPy scalar standing in for a 0-D result
        return np.asarray(x)
    return np.from_dlpack(x)


def from_numpy(xp: ModuleType, a: np.ndarray) -> Any:
    return xp.asarray(a.tolist(), dtype=getattr(xp, a.dtype.name))


def _close(got: Any, want: np.ndarray, rtol: float = 1e-8) -> None:
    g = to_numpy(got)
    assert g.shape == want.shape, f"shape {g.shape} != {want.shape}"
    np.testing.assert_allclose(g, want, rtol=rtol, atol=1e-10)


def _spd(n: int = 3, batch: tuple[int, ...] = (2,)) -> np.ndarray:
    a = RNG.standard_normal((*batch, n, n))
    return a @ np.swapaxes(a, -1, -2) + n * np.eye(n)


SIMPLE = {
    "det": lambda a: np.linalg.det(a),
    "inv": lambda a: np.linalg.inv(a),
    "cholesky": lambda a: np.linalg.cholesky(a),
    "matrix_rank": lambda a: np.linalg.matrix_rank(a),
    "pinv": lambda a: np.linalg.pinv(a),
    "svdvals": lambda a: np.linalg.svd(a, compute_uv=False),
    "eigvalsh": lambda a: np.linalg.eigvalsh(a),
    "matrix_transpose": lambda a: np.swapaxes(a, -1, -2),
    "diagonal": lambda a: np.diagonal(a, axis1=-2, axis2=-1),
    "trace": lambda a: np.trace(a, axis1=-2, axis2=-1),
    "matrix_norm": lambda a: np.linalg.norm(a, ord="fro", axis=(-2, -1)),
    "vector_norm": lambda a: np.sqrt(np.sum(a * a)),
}


@pytest.mark.parametrize("name", list(SIMPLE))
def test_linalg_against_numpy(xp: ModuleType, name: str) -> None:
    a = _spd()
    got = getattr(xp.linalg, name)(from_numpy(xp, a))
    _close(got, np.asarray(SIMPLE[name](a)))


def test_linalg_binary(xp: ModuleType) -> None:
    a, b = _spd(), RNG.standard_normal((2, 3, 2))
    v1, v2 = RNG.standard_normal((4, 3)), RNG.standard_normal((4, 3))
    _close(xp.linalg.solve(from_numpy(xp, a), from_numpy(xp, b)), np.linalg.solve(a, b))
    _close(xp.linalg.matmul(from_numpy(xp, a), from_numpy(xp, b)), a @ b)
    _close(xp.linalg.cross(from_numpy(xp, v1), from_numpy(xp, v2)), np.cross(v1, v2))
    _close(xp.linalg.outer(from_numpy(xp, v1[0]), from_numpy(xp, v2[0])), np.outer(v1[0], v2[0]))
    _close(xp.linalg.vecdot(from_numpy(xp, v1), from_numpy(xp, v2)), np.sum(v1 * v2, axis=-1))
    _close(xp.linalg.matrix_power(from_numpy(xp, a), 3), np.linalg.matrix_power(a, 3))
    _close(xp.linalg.tensordot(from_numpy(xp, v1), from_numpy(xp, v2), axes=((0,), (0,))),
           np.tensordot(v1, v2, axes=((0,), (0,))))  # fmt: skip


def test_linalg_decompositions(xp: ModuleType) -> None:
    a = _spd()
    x = from_numpy(xp, a)
    q, r = xp.linalg.qr(x)
    _close(xp.matmul(q, r), a)
    u, s, vh = xp.linalg.svd(x, full_matrices=False)
    assert (u.shape, s.shape, vh.shape) == ((2, 3, 3), (2, 3), (2, 3, 3))
    w, v = xp.linalg.eigh(x)
    assert v.shape == (2, 3, 3)
    _close(w, np.linalg.eigvalsh(a))
    sign, logdet = xp.linalg.slogdet(x)
    _close(sign * xp.exp(logdet), np.linalg.det(a))


def test_eig_returns_complex(xp: ModuleType) -> None:
    a = _spd(batch=())  # real input with real eigenvalues
    w, v = xp.linalg.eig(from_numpy(xp, a))
    assert w.dtype == xp.complex128, f"eig eigenvalues dtype {w.dtype}, spec: complex128"
    assert v.dtype == xp.complex128
    vals = xp.linalg.eigvals(from_numpy(xp, a))
    assert vals.dtype == xp.complex128, f"eigvals dtype {vals.dtype}, spec: complex128"
    got = np.sort_complex(to_numpy(vals))
    np.testing.assert_allclose(got, np.sort_complex(np.linalg.eigvals(a).astype(complex)))


FFT = ["fft", "ifft", "fftn", "ifftn", "rfft", "irfft", "rfftn", "irfftn", "hfft", "ihfft"]


@pytest.mark.parametrize("name", FFT)
def test_fft_against_numpy(xp: ModuleType, name: str) -> None:
    real = name in ("rfft", "rfftn", "ihfft")
    a = RNG.standard_normal((3, 8))
    if not real:
        a = a + 1j * RNG.standard_normal((3, 8))
    got = getattr(xp.fft, name)(from_numpy(xp, a))
    want = getattr(np.fft, name)(a)
    _close(got, want, rtol=1e-7)
    expected_dtype = xp.float64 if name in ("irfft", "irfftn", "hfft") else xp.complex128
    assert got.dtype == expected_dtype, f"fft.{name} dtype {got.dtype}"
    got_n = getattr(xp.fft, name)(from_numpy(xp, a), norm="ortho")
    _close(got_n, getattr(np.fft, name)(a, norm="ortho"), rtol=1e-7)


def test_fft_helpers(xp: ModuleType) -> None:
    _close(xp.fft.fftfreq(8, d=0.5), np.fft.fftfreq(8, d=0.5))
    _close(xp.fft.rfftfreq(8, d=0.5), np.fft.rfftfreq(8, d=0.5))
    assert xp.fft.fftfreq(8, dtype=xp.float32).dtype == xp.float32
    a = RNG.standard_normal((4, 5))
    _close(xp.fft.fftshift(from_numpy(xp, a)), np.fft.fftshift(a))
    _close(xp.fft.ifftshift(from_numpy(xp, a), axes=1), np.fft.ifftshift(a, axes=1))
