"""The small statistics of a balance report: Wilson intervals, means and spreads, paired gaps.

No dependency beyond ``math``: the figures must be the same on every machine.
"""
from __future__ import annotations

import math

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the normal distribution."""


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion ``successes / n`` (95% by default).

    ``successes`` may be fractional (a shared win counts 1/k for each of k
    winners). Unlike the normal approximation it stays inside [0, 1] and is
    sensible at 0 and n successes. ``n == 0`` gives the whole range.
    """
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    low = 0.0 if successes <= 0 else max(0.0, centre - half)      # exact at the edges,
    return low, 1.0 if successes >= n else min(1.0, centre + half)  # not 1 - 1e-16


def mean_sd(values) -> tuple[float | None, float | None]:
    """The mean and the sample standard deviation (None when there are too few values)."""
    values = list(values)
    if not values:
        return None, None
    mean = math.fsum(values) / len(values)
    if len(values) < 2:
        return mean, None
    return mean, math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (len(values) - 1))


def games_to_separate(p1: float, p2: float, z: float = Z95) -> int | None:
    """About how many games per group make the 95% Wilson intervals of ``p1`` and ``p2`` not overlap.

    Starts from the normal approximation (the two half-widths
    z·sqrt(p(1-p)/n) together smaller than the gap), then steps up until
    the Wilson intervals, which are a little wider near 0.5, are apart.
    None when there is no gap to separate.
    """
    gap = abs(p1 - p2)
    if gap == 0:
        return None
    spread = math.sqrt(p1 * (1 - p1)) + math.sqrt(p2 * (1 - p2))
    n = max(1, math.ceil((z * spread / gap) ** 2))
    while overlap(wilson(p1 * n, n, z), wilson(p2 * n, n, z)):
        n += max(1, n // 100)
    return n


def overlap(a: tuple[float, float], b: tuple[float, float]) -> bool:
    """Whether two intervals share a point."""
    return a[0] <= b[1] and b[0] <= a[1]
