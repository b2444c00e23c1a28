"""What is public reaches every player: the tic-tac-toe fixture (tests/rulesets/ttt).

A table grid with no ``visible_to`` is in every view; a move on it is in
every player's log; options of every type can be set as text; the game's
declared returns; what is revealed when the game is over.
"""
from __future__ import annotations

import pytest

from interpreter.agents.driver import drive, random_mover
from interpreter.content.ruleset import load_ruleset
from interpreter.engine.game import Game
from support import RULESETS


@pytest.fixture(scope="module")
def ttt():
    return load_ruleset(str(RULESETS / "ttt"))


def play(game, squares):
    """Answer each decision with the square named (``"B2"``), whoever's turn it is."""
    for square in squares:
        decision = game.pending()[0]
        game.apply(decision.player, list(decision.options).index(square))


def test_the_table_grid_is_in_both_views_at_every_step(ttt):
    game = Game.new(ttt, seed=3)
    steps = 0

    def both_see_it(g, step):
        nonlocal steps
        steps += 1
        for seat in (0, 1):
            assert g.view(seat)["grids"]["board"] == g.state["grids"]["board"]
    both_see_it(game, None)
    drive(game, random_mover(3), on_step=both_see_it)
    assert game.over and steps > 5


def test_a_move_on_the_table_grid_is_in_the_opponents_log(ttt):
    game = Game.new(ttt, seed=1)
    mover = game.pending()[0].player
    play(game, ["B2"])
    for seat in (0, 1):
        assert game.view(seat)["log"][-1] == "x placed in B2", seat
    assert mover == 0


def test_a_change_to_a_hidden_grid_is_logged_to_those_who_may_see_it_only(lairs):
    game = Game.new(lairs, players=4, seed=2)
    game.execute('put "marker" at room(players[1].lair, 1, 1)', player=0)
    seers = [i for i in range(4) if "lair" in game.view(i)["players"][0]["grids"]]
    assert 0 in seers and len(seers) < 4                       # the seat across sees nothing
    for i in range(4):
        assert any("placed in A1" in text for text in game.view(i)["log"]) == (i in seers), i
