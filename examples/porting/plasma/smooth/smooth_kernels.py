"""The host kernel: a three-point smoothing, as a Pyccel kernel is written (loops, annotations)."""


def smooth(u: "Final[float[:]]", out: "float[:]", n: int) -> None:  # noqa: F821
    out[0] = u[0]
    out[n - 1] = u[n - 1]
    for i in range(1, n - 1):
        out[i] = 0.25 * u[i - 1] + 0.5 * u[i] + 0.25 * u[i + 1]
