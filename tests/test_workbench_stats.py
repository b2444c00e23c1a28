"""The interval maths of the balance report, against values computed by hand and published."""
from __future__ import annotations

import math

import pytest

from interpreter.workbench.stats import games_to_separate, mean_sd, overlap, wilson


@pytest.mark.parametrize("k, n, low, high", [
    # Newcombe (1998), Statistics in Medicine 17:857, table I (Wilson score, method 3):
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0, 0.1611),
    (1, 29, 0.0061, 0.1718),
])
def test_wilson_matches_published_intervals(k, n, low, high):
    lo, hi = wilson(k, n)
    assert (round(lo, 4), round(hi, 4)) == (low, high)


def test_wilson_by_hand_and_at_the_edges():
    # 5 of 10: centre 0.5, half z*sqrt(.025 + z²/400)/(1 + z²/10)
    z = 1.959963984540054
    half = z * math.sqrt(0.025 + z * z / 400) / (1 + z * z / 10)
    assert wilson(5, 10) == pytest.approx((0.5 - half, 0.5 + half))
    assert wilson(10, 10)[1] == 1.0 and wilson(0, 10)[0] == 0.0
    assert wilson(0, 0) == (0.0, 1.0)
    lo, hi = wilson(2.5, 10)                       # shared wins count fractionally
    assert lo < 0.25 < hi


def test_mean_and_sample_spread():
    assert mean_sd([2, 4, 4, 4, 5, 5, 7, 9]) == pytest.approx((5.0, math.sqrt(32 / 7)))
    assert mean_sd([3]) == (3.0, None) and mean_sd([]) == (None, None)


def test_games_to_separate_two_rates():
    n = games_to_separate(0.6, 0.4)
    assert n >= math.ceil((1.959963984540054 * (2 * math.sqrt(0.24)) / 0.2) ** 2)   # 93
    assert games_to_separate(0.5, 0.5) is None
    # With that many games each, the two intervals no longer overlap.
    assert not overlap(wilson(0.6 * n, n), wilson(0.4 * n, n))
    assert overlap(wilson(0.6 * (n - 3), n - 3), wilson(0.4 * (n - 3), n - 3))
