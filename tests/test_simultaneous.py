"""Hidden information is enforced by the engine inside ``simultaneously`` (issue 5, item 9).

While players choose at once each one's own sheet is live and everyone
else is shown as the block began. A thread that changed another player's
data would show it to that player before all answers are in, so the engine
refuses it (a rule error at the statement); changes to one's own data and
to the table (shown to others only after the block) are fine.
"""
from __future__ import annotations

import operator
import random

import pytest

from interpreter.engine.game import Game, sealed_state
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


# ---------------------------------------------------------------- the snapshot's shared parts

def _block(game):
    return next(node for node in game.rules.nodes if type(node).__name__ == "Simultaneously")


@pytest.mark.parametrize("statement, writes", [
    ("gain 1 coin; self.picked = [1]", set()),           # the players' own sheets only
    ("step += 1", {"vars"}),
    ("set step to 2", {"vars"}),
    ("move 1 from deck to self.hand", {"zones"}),
    ("do bump()", {"vars"}),                              # through the procedure it calls
    ("do keep_one(self.hand)", {"zones"}),
    ("announce; log \"hi\"", set()),
])
def test_what_a_blocks_threads_may_write_on_the_table(tmp_path, statement, writes):
    rules = toy_with(tmp_path, START.format(mine=statement), procedures={"bump": {"do": "step += 1"}})
    from interpreter.engine import machine
    game = Game.new(rules, players=2, seed=1)
    found = machine.table_writes(rules, _block(game))
    assert (found if found is None else set(found)) == writes


def test_each_verb_names_the_table_sections_it_writes_from_the_table():
    from interpreter.mechanics import COMPONENTS, FUNCTIONS, VERBS
    for name, verb in VERBS.items():
        assert verb.writes is None or set(verb.writes) <= set(COMPONENTS), name
    assert VERBS["move"].writes == ("zones",) and VERBS["signal"].writes is None
    assert not FUNCTIONS["roll"].writes_table and not FUNCTIONS["count"].writes_table


def test_a_block_whose_writes_cannot_be_told_copies_the_whole_table(tmp_path):
    nested = "simultaneously for each p in players:\n  simultaneously for each q in players:\n    pass\n"
    rules = toy_with(tmp_path, nested)
    from interpreter.engine import machine
    block = next(node for node in rules.nodes if type(node).__name__ == "Simultaneously")
    assert machine.table_writes(rules, block) is None


SHARED = """as players[1]:
  choose "to begin" one: pass | pass
simultaneously for each p in players:
  choose "a card" c in [1, 2] label text("step", step, "deck", count(deck), c):
    gain c coin
"""


def test_a_part_no_thread_writes_is_shared_until_someone_outside_may_write_it(tmp_path):
    game = Game.new(toy_with(tmp_path, SHARED), players=2, seed=1)
    game.apply(0, 0)                                      # the block begins in a sealed game
    state = sealed_state(game)                            # read without exposing the game
    snapshot = state["flow"]["snapshot"]
    assert snapshot["vars"] is state["vars"] and snapshot["zones"] is state["zones"]
    assert snapshot["players"] is not state["players"]   # a list of its own (sheets: below)
    game.apply(0, 1)
    assert game.pending()[0].options == ("step 0 deck 6 1", "step 0 deck 6 2")
    assert game.view(1)["players"][0]["counters"]["coin"] == 3      # P1's gain not seen yet
    exposed = game.state                                  # now the caller may write the table
    assert snapshot["vars"] is not exposed["vars"] and snapshot["vars"] == exposed["vars"]
    exposed["vars"]["step"] = 7                           # a change made from outside...
    assert game.view(1)["vars"]["step"] == 0              # ...is not the round's start
    assert game.pending()[0].options == ("step 0 deck 6 1", "step 0 deck 6 2")     # nor a label's


def test_a_sheet_is_shared_until_its_players_thread_writes_it(tmp_path):
    game = Game.new(toy_with(tmp_path, SHARED), players=2, seed=1)
    game.apply(0, 0)                                      # the block begins in a sealed game
    state = sealed_state(game)
    sheets = state["flow"]["snapshot"]["players"]
    assert sheets is not state["players"] and all(map(operator.is_, sheets, state["players"]))
    game.apply(0, 1)                                      # P1 gains 2 coin: only that is kept
    kept, live = sheets[0], state["players"][0]
    assert kept is not live and kept["counters"] is not live["counters"]
    assert kept["counters"]["coin"] == live["counters"]["coin"] - 2 and kept["vars"] is live["vars"]
    assert sheets[1] is state["players"][1]               # P2 has written nothing
    assert game.view(1)["players"][0]["counters"]["coin"] == 3      # P1's gain not seen yet
    exposed = game.state                                  # now the caller may write the sheets
    assert not any(kept is live or any(part is live[key] for key, part in kept.items())
                   for kept, live in zip(sheets, exposed["players"]))
    exposed["players"][1]["counters"]["coin"] = 9         # a change made from outside...
    assert game.view(0)["players"][1]["counters"]["coin"] == 3      # ...is not the round's start


def test_shared_sheets_play_as_copied_ones(lairs_rules):
    """A sealed game (sheets shared until written) and an exposed one (everything copied) keep
    the same state, snapshot included, and show every seat the same view at every decision."""
    sealed, exposed = Game.new(lairs_rules, players=3, seed=4), Game.new(lairs_rules, players=3, seed=4)
    exposed.state                                         # reading it: every call copies first
    rnd, blocks = random.Random(4), 0
    for _ in range(90):
        assert sealed.to_data() == exposed.to_data()
        seen = sealed.clone()                             # (a view reads the state: it would expose)
        assert [seen.view(i) for i in range(3)] == [exposed.view(i) for i in range(3)]
        blocks += sealed_state(sealed)["flow"]["snapshot"] is not None
        d = sealed.pending()[0]
        k = rnd.randrange(d.count)
        sealed.apply(d.player, k)
        exposed.apply(d.player, k)
    assert blocks > 40 and sealed._sealed


@pytest.fixture(scope="module")
def lairs_rules():
    from interpreter.content.ruleset import load_ruleset
    return load_ruleset("lairs")


def test_an_override_reaches_the_shared_parts_too(tmp_path):
    game = Game.new(toy_with(tmp_path, SHARED), players=2, seed=1)
    game.apply(0, 0)
    game.execute("step = 5")
    assert game.view(0)["vars"]["step"] == game.view(1)["vars"]["step"] == 5
    assert game.pending()[0].options == ("step 5 deck 6 1", "step 5 deck 6 2")
