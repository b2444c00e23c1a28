"""A/B on the same seeds: did an edit change the game more than chance would?

Both sides play the same plan (seeds, seats, rotation), so game k of A and
game k of B differ only by the edit; each figure is compared game by game
(a paired test): the mean of the differences with its 95% interval from
their spread. A figure *changed* when that interval leaves out 0.
"""
from __future__ import annotations

import math

from .stats import Z95, mean_sd


def paired(a: list[float], b: list[float]) -> dict:
    """Mean of ``b - a`` over paired games, its 95% interval and whether it excludes 0."""
    diffs = [y - x for x, y in zip(a, b)]
    mean, sd = mean_sd(diffs)
    if mean is None:
        return {"a": None, "b": None, "change": None, "interval": None, "changed": False}
    half = 0.0 if sd is None or len(diffs) < 2 else Z95 * sd / math.sqrt(len(diffs))
    low, high = mean - half, mean + half
    changed = (low > 0 or high < 0) if half else mean != 0 and len(diffs) > 1
    return {"a": _r(math.fsum(a) / len(a)), "b": _r(math.fsum(b) / len(b)), "change": _r(mean),
            "interval": [_r(low), _r(high)], "changed": changed}


def compare(rows_a: list[dict], rows_b: list[dict]) -> list[dict]:
    """Per seat: win share and score; per game: length. Rows must be of the same plan's games."""
    if [r["index"] for r in rows_a] != [r["index"] for r in rows_b]:
        raise ValueError("the two sides did not play the same games")
    figures = []
    labels = rows_a[0]["labels"] if rows_a else []
    for i, label in enumerate(labels):
        figures.append({"figure": f"{label} win share",
                        **paired([_win(r, i) for r in rows_a], [_win(r, i) for r in rows_b])})
        figures.append({"figure": f"{label} score",
                        **paired([r["scores"][i] for r in rows_a], [r["scores"][i] for r in rows_b])})
    figures.append({"figure": "decisions per game",
                    **paired([r["decisions"] for r in rows_a], [r["decisions"] for r in rows_b])})
    return figures


def _win(row, i) -> float:
    return 1 / len(row["winners"]) if i in row["winners"] else 0.0


def _r(value):
    return round(value, 4)
