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


LABELS = """simultaneously for each p in players:
  choose "first" one: step += 1 | pass
  choose "second" c in [1, 2] label text("step", step, c):
    pass
"""


def test_labels_are_read_as_the_players_view_shows_the_table(tmp_path):
    game = Game.new(toy_with(tmp_path, LABELS), players=2, seed=1)
    game.apply(1, 0)                                   # P2 adds to the table's step...
    game.apply(0, 1)                                   # ...P1 passes, then is asked again
    assert game.decision_for(0).options == ("step 0 1", "step 0 2")   # as the round began
    assert game.evaluate("step") == 1                   # while the table has moved on
    assert game.view(0)["vars"]["step"] == 0


def test_an_override_during_the_round_reaches_every_view(tmp_path):
    game = Game.new(toy_with(tmp_path, LABELS), players=2, seed=1)
    game.execute("step = 5")
    assert game.view(0)["vars"]["step"] == game.view(1)["vars"]["step"] == 5
    game.apply(0, 1)
    assert game.decision_for(0).options == ("step 5 1", "step 5 2")
