"""The host kernel ``scale``: ``out = a * x``."""


def scale(x: "Final[float[:]]", a: float, out: "float[:]", n: int) -> None:  # noqa: F821
    for i in range(n):
        out[i] = a * x[i]
