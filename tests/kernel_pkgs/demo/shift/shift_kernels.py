"""The host kernel ``shift``, not yet ported: ``x += 1``."""


def shift(x):
    x += 1
