"""Hidden information is enforced by the engine inside ``simultaneously`` (issue 5, item 9).

While players choose at once each one's own sheet is live and everyone
else is shown as the block began. A thread that changed another player's
data would show it to that player before all answers are in, so the engine
refuses it (a rule error at the statement); changes to one's own data and
to the table (shown to others only after the block) are fine.
"""
from __future__ import annotations

import pytest

from interpreter.engine.game import Game
from interpreter.model.values import RuleError

from test_language import toy_with

START = """simultaneously for each p in players:
  choose one: {mine} | pass
"""


def game_with(tmp_path, statement):
    return Game.new(toy_with(tmp_path, START.format(mine=statement)), players=2, seed=1)


@pytest.mark.parametrize("statement, what", [
    ("gain 1 coin for players[2]", "coin"),
    ("set players[2].picked to [1]", "picked"),
    ("move 1 from deck to players[2].hand", "hand"),
])
def test_a_turn_cannot_change_another_players_data(tmp_path, statement, what):
    game = game_with(tmp_path, statement)
    before = game.evaluate("[players[2].coin, players[2].picked, count(players[2].hand)]")
    with pytest.raises(RuleError, match=f"cannot change P2's {what}") as refused:
        game.apply(0, 0)
    assert "flow.yaml:2:" in str(refused.value)                  # the statement that tried
    assert game.evaluate("[players[2].coin, players[2].picked, count(players[2].hand)]") == before


def test_own_data_and_the_table_may_change(tmp_path):
    game = game_with(tmp_path, "gain 1 coin; move 1 from deck to self.hand; step += 1")
    game.apply(0, 0)
    game.apply(1, 1)
    assert game.evaluate("[players[1].coin, count(players[1].hand), step]") == [4, 1, 1]
