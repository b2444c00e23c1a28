"""Random playouts of Lairs: what only Lairs promises.

The generic promises (floors, ceilings and caps, someone can always decide,
the game ends, round trips, save/load, replay, determinism, no leaks) are
checked for every ruleset by tests/conformance; these are Lairs' own.
"""
from __future__ import annotations

import pytest

from conformance.harness import check_counters
from interpreter.agents import RandomBot
from interpreter.agents.driver import drive, random_mover
from interpreter.engine.game import Game, IllegalAction

BOARDS = ["polar_base", "superyacht", "volcano_lair", "moon_base"]


def play(game, seed):
    """Random choices for whoever is waiting; returns the number of decisions."""
    return drive(game, random_mover(seed, any_seat=True), max_steps=20_000)


@pytest.mark.parametrize("players,options", [
    (2, {}),
    (5, {"board": "volcano_lair", "beginner": [1, 5]}),
    (4, {"board": "superyacht", "expert_gadgets": ["laser_drill", "adrenaline", "smoke_bomb"]}),
])
def test_lairs_scores_add_up(lairs, players, options):
    """Wealth is what is left, what was stolen, coin and mission points, plus the end awards (LR-SCORE-01)."""
    game = Game.new(lairs, players=players, seed=1000 + players, options=options)
    play(game, 1000 + players)
    for i, p in enumerate(game.state["players"]):
        v = p["vars"]
        assert p["counters"]["coin"] <= 40 + 10 + 5              # earning cap + start + beginner
        base = v["remaining_value"] + v["stolen_value"] + p["counters"]["coin"] + v["mission_points"]
        assert game.result["scores"][i] - base in _award_sums(), (i, game.result["scores"][i], base)


def _award_sums():
    """Every total the four end awards can add (+10, -20, +5, +20, each 0 or once)."""
    sums = {0}
    for amount in (10, -20, 5, 20):
        sums |= {s + amount for s in sums}
    return sums


def test_another_seed_deals_another_game(lairs):
    assert Game.new(lairs, players=3, seed=43).to_json() != Game.new(lairs, players=3, seed=42).to_json()


def test_illegal_action_leaves_state_untouched(lairs):
    game = Game.new(lairs, players=3, seed=9)
    before = game.to_json()
    waiting = {d.player for d in game.pending()}
    idle = next(p for p in range(3) if p not in waiting) if len(waiting) < 3 else None
    d = game.pending()[0]
    with pytest.raises(IllegalAction, match="does not exist"):
        game.apply(d.player, len(d.options))
    with pytest.raises(IllegalAction, match="no option is labelled"):
        game.apply(d.player, "no such option")
    with pytest.raises(IllegalAction):
        game.apply(d.player, True)
    if idle is not None:
        with pytest.raises(IllegalAction, match="no decision"):
            game.apply(idle, 0)
    assert game.to_json() == before


def test_options_are_checked(lairs):
    with pytest.raises(ValueError, match="no option 'bord'.*board"):
        Game.new(lairs, players=3, options={"bord": "superyacht"})
    with pytest.raises(ValueError, match="must be one of"):
        Game.new(lairs, players=3, options={"board": "submarine"})
    with pytest.raises(ValueError, match="2 to 12 players"):
        Game.new(lairs, players=13)


def test_random_play_reaches_every_mechanic(lairs):
    """A mechanic no random game ever reaches is probably unreachable (a content bug)."""
    seen = {"gadget owned": 0, "gadget used": 0, "ability used": 0, "mission done": 0,
            "wall built": 0, "secret stolen": 0, "guard neutralised": 0, "trap triggered": 0,
            "bonus action": 0}
    for seed in range(6):
        game = Game.new(lairs, players=4, seed=seed, options={"board": BOARDS[seed % 4]})
        play(game, seed)
        for p in game.state["players"]:
            v = p["vars"]
            seen["gadget owned"] += bool(v["kit"])
            seen["gadget used"] += any(u in v["kit"] for u in v["used"])
            seen["ability used"] += "ability" in v["used"]
            seen["mission done"] += bool(v["missions_done"])
            seen["wall built"] += bool(p["grids"]["lair"]["walls"])
            seen["secret stolen"] += v["stolen_value"] > 0
            seen["guard neutralised"] += v["guards_down"] > 0
            seen["trap triggered"] += v["traps_hit"] > 0
            seen["bonus action"] += v["bonus_used"] > 0
    assert all(seen.values()), seen


def test_greedy_bot_plays_whole_games_through_views(lairs):
    """The look-ahead bot finishes games at the extremes of the player count and wins more."""
    from interpreter.agents import GreedyBot, play_out
    wins = 0
    for seed, n in ((1, 2), (2, 3), (3, 12)):
        game = Game.new(lairs, players=n, seed=seed)
        bots = {0: GreedyBot(seed)} | {i: RandomBot(seed * 10 + i) for i in range(1, n)}
        play_out(game, bots)
        check_counters(game)
        wins += 0 in game.result["winners"]
    assert wins >= 2
