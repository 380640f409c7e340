"""The host kernel ``energy``: not ported yet."""


def energy(u: "Final[float[:]]", total: "float[:]", n: int) -> None:  # noqa: F821
    total[0] = 0.0
    for i in range(n):
        total[0] += 0.5 * u[i] * u[i]
