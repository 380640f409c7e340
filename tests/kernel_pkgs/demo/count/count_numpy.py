"""The NumPy version of ``count``."""

import numpy as np


def count(bins, hist, n):
    np.add.at(hist, bins[:n], 1)
