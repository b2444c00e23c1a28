"""A game's returns: one utility per seat once it is over, as the manifest's ``returns`` says.

``win_loss`` (the default): 1 for a sole winner, 1/k to each of k tied
winners, 0 to everyone else (the returns add up to 1). ``rank_points``:
each seat scores 1 for every seat it places above and 1/2 for every seat it ties,
divided by the number of other seats (1 for a sole first, 0 for a sole
last). ``score_minus_mean``: the score less the mean of all scores (scores
must be numbers; when the lowest wins, the mean less the score). Any other name is a flow function of no values giving a
number for ``self``. The state holds whole numbers only: returns are
worked out from the result when asked, as floats rounded to 6 places.
"""
from __future__ import annotations

from ..model.values import RuleError, describe

BUILT_IN = ("win_loss", "rank_points", "score_minus_mean")
PLACES = 6


def returns_of(game, result: dict) -> list[float]:
    """Each seat's return, from the finished game's ``result``."""
    how = game.rules.manifest.get("returns", "win_loss")
    scores, winners = result["scores"], result["winners"]
    n = len(scores)
    if how == "win_loss":
        values = [1 / len(winners) if i in winners else 0 for i in range(n)]
    elif how == "rank_points":                  # by place: lowest-wins scores and tie-breaks follow
        ranks = result["ranks"]
        values = [(sum(r < o for o in ranks) + (sum(r == o for o in ranks) - 1) / 2) / max(1, n - 1)
                  for r in ranks]
    elif how == "score_minus_mean":
        if not all(type(s) is int for s in scores):
            raise RuleError("returns 'score_minus_mean' needs scores that are numbers, not tie-break keys")
        sign = -1 if game.rules.score_keys[0][1] else 1     # lowest wins: below the mean is good
        values = [sign * (s - sum(scores) / n) for s in scores]
    else:
        values = [_by_function(game, how, i) for i in range(n)]
    return [round(float(v), PLACES) + 0.0 for v in values]       # + 0.0: no -0.0


def _by_function(game, name: str, seat: int):
    value = game.evaluate(game.rules.functions[name][1], seat)
    if type(value) is not int:
        raise RuleError(f"the returns function '{name}' must give a number, got {describe(value)}")
    return value
