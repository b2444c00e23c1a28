"""The final result: each seat's score, then winners and places by the manifest's scoring settings.

``score: NAME`` (a counter, or a function giving a number or a list of
numbers compared element by element) ranks highest first. Written as a
mapping, the score also says which way wins and what breaks ties::

    score: {by: cards, wins: lowest, ties: [coin, {by: seat_order, wins: highest}]}

Every key is a counter or a function; a tie-break key compares the way
``wins`` says unless it says its own. Each seat's *standing* is its keys,
each turned so that higher is better (a lowest-wins number negated, a
list element by element); winners and places come from standings, so
returns and bots follow the same order. The manifest is read once, at load
(``Ruleset.score_keys``).
"""
from __future__ import annotations

from ..model.values import RuleError, describe


def value_of(game, name: str, i: int):
    """Seat ``i``'s value of one key: a counter, or a function's number or list of numbers."""
    rules = game.rules
    if name in rules.counters:
        return game.state["players"][i]["counters"][name]
    value = game.evaluate(rules.functions[name][1], i)
    if type(value) is int or type(value) is list and all(type(k) is int for k in value):
        return value
    raise RuleError(f"the score function '{name}' must give a number or a list of numbers, "
                    f"got {describe(value)}")


def standing(game, i: int) -> list:
    """Seat ``i``'s keys, each turned so that a higher standing is a better one."""
    return [_turned(value_of(game, name, i), lowest) for name, lowest in game.rules.score_keys]


def _turned(value, lowest: bool):
    if not lowest:
        return value
    return -value if type(value) is int else [-part for part in value]


def result(game) -> dict:
    """``{"scores", "winners", "ranks"}``: scores as the score key gives them; the rest by standing."""
    seats = range(len(game.state["players"]))
    scores = [value_of(game, game.rules.score_keys[0][0], i) for i in seats]
    standings = [standing(game, i) for i in seats]
    ranked = [i for i in seats if i not in unranked(game)]
    best = max(standings[i] for i in ranked)
    winners = [i for i in ranked if standings[i] == best]
    ranks = [1 + sum(1 for j in ranked if standings[j] > standings[i]) if i in ranked
             else len(ranked) + 1 for i in seats]      # a seat that is no one's rival comes after all
    return {"scores": scores, "winners": winners, "ranks": ranks}


def unranked(game) -> set:
    """The scripted seats declared ``ranked: false``: they score, but never win nor place."""
    specs = game.rules.scripted_seats
    return {game.people + k for k, sid in enumerate(game.rules.scripted_for(game.people))
            if specs[sid].get("ranked", True) is False}
