"""The host kernel ``count``: a histogram of bin indices."""


def count(bins, hist, n):
    for i in range(n):
        hist[bins[i]] += 1
