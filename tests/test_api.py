"""The Python API refuses cleanly and changes nothing, even when the content or the engine fails."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from interpreter.cli.main import cli
from interpreter.content.ruleset import load_ruleset
from interpreter.engine.game import Game, IllegalAction
from interpreter.mechanics import VERBS, Verb
from interpreter.model.values import InternalError, RuleError
from test_language import toy_with

HOOKS = Path(__file__).parent / "rulesets" / "hooks"

# Every seat chooses; the second option changes counters, variables, zones and
# the log, then spends more than anyone has: the flow never checked.
HALFWAY = """\
shuffle deck
for each p in players:
  move 2 from deck to p.hand
simultaneously for each p in players:
  choose one: gain 1 coin | do overreach()
for each p in players:
  as p:
    choose one: gain 2 coin | do overreach()
"""
OVERREACH = """\
gain 1 mov
step = 7
self.picked = [1, 2]
move 1 from deck to discard
spend 20 coin
"""


@pytest.fixture
def halfway(tmp_path):
    return toy_with(tmp_path, HALFWAY, procedures={"overreach": {"params": [], "do": OVERREACH}})


def _to_main_thread(game) -> None:
    """Answer the simultaneous choices harmlessly, so the main thread decides next."""
    for d in game.pending():
        game.apply(d.player, 0)


# ---------------------------------------------------------------- what apply accepts

@pytest.mark.parametrize("player", [True, False, 0.0, "0", None, [0], -1, 2, 99])
def test_a_seat_that_is_not_a_seat_number_is_refused(halfway, player):
    game = Game.new(halfway, players=2, seed=1)
    before = game.to_json()
    with pytest.raises(IllegalAction) as caught:
        game.apply(player, 0)
    assert repr(player) in str(caught.value) or f"seat {player}" in str(caught.value)
    assert game.to_json() == before


@pytest.mark.parametrize("choice", [True, 1.0, None, [0], {"i": 0}, 7, "no such option"])
def test_an_option_that_is_not_an_option_is_refused(halfway, choice):
    game = Game.new(halfway, players=2, seed=1)
    before = game.to_json()
    with pytest.raises(IllegalAction):
        game.apply(0, choice)
    assert game.to_json() == before


def test_a_scripted_seat_is_refused_by_name():
    game = Game.new(load_ruleset(str(HOOKS)), players=2, seed=1)
    bank = game.people                         # the first scripted seat
    before = game.to_json()
    with pytest.raises(IllegalAction, match="The Bank .* is a scripted seat"):
        game.apply(bank, 0)
    assert game.to_json() == before


# ---------------------------------------------------------------- all or nothing

def test_a_rule_error_halfway_through_an_effect_changes_nothing(halfway):
    game = Game.new(halfway, players=2, seed=1)
    _to_main_thread(game)
    before = game.to_json()
    with pytest.raises(RuleError) as caught:
        game.apply(0, 1)
    assert game.to_json() == before
    assert re.search(r"flow\.yaml:\d+:\d+: .*cannot spend 20 coin", str(caught.value))
    game.apply(0, "gain 2 coin")               # the game goes on from where it was
    assert json.loads(game.to_json())["history"][-1] == [0, 0]


def test_a_rule_error_inside_simultaneous_play_changes_nothing(halfway):
    game = Game.new(halfway, players=2, seed=1)
    game.apply(0, 0)               # one thread done, the other still waiting
    before = game.to_json()
    with pytest.raises(RuleError, match="cannot spend"):
        game.apply(1, 1)
    assert game.to_json() == before
    game.apply(1, 0)
    assert [d.player for d in game.pending()] == [0]


def test_the_state_really_changed_before_the_error(halfway, monkeypatch):
    """The error comes after the changes (else the test above proves nothing)."""
    game = Game.new(halfway, players=2, seed=1)
    _to_main_thread(game)
    seen = {}
    restore = Game._restore

    def spy(self, saved):
        seen.update(json.loads(self.to_json()))
        restore(self, saved)
    monkeypatch.setattr(Game, "_restore", spy)
    before = json.loads(game.to_json())
    with pytest.raises(RuleError):
        game.apply(0, 1)
    assert seen["vars"]["step"] == 7 and before["vars"]["step"] == 0
    assert seen["players"][0]["counters"]["mov"] == 1
    assert len(seen["zones"]["discard"]) == 1 and len(seen["history"]) == len(before["history"]) + 1
    assert len(seen["log"]) > len(before["log"])


def test_execute_is_all_or_nothing(halfway):
    game = Game.new(halfway, players=2, seed=1)
    before = game.to_json()
    with pytest.raises(RuleError) as caught:
        game.execute("step = 3\nas players[1]:\n  gain 1 mov\n  spend 20 coin", player=None)
    assert caught.value.position == (4, 3)
    assert game.to_json() == before
    game.execute("step = 3")
    assert json.loads(game.to_json())["vars"]["step"] == 3


# ---------------------------------------------------------------- whose fault

def test_a_bug_in_a_verb_is_an_internal_error_and_changes_nothing(halfway, monkeypatch):
    game = Game.new(halfway, players=2, seed=1)
    _to_main_thread(game)

    def broken(ctx, arg, keywords):
        raise KeyError("oops")
    monkeypatch.setitem(VERBS, "move", Verb(broken, "move number or id from zone to zone"))
    before = game.to_json()
    with pytest.raises(InternalError) as caught:
        game.apply(0, 1)
    message = str(caught.value)
    assert not isinstance(caught.value, RuleError)
    assert "a bug in Rulebook" in message and "KeyError" in message
    assert re.search(r"flow\.yaml:\d+:\d+", message)
    assert game.to_json() == before


def test_a_bug_in_a_function_given_the_right_kinds_is_an_internal_error(tmp_path):
    rules = toy_with(tmp_path, "step = count(players)")
    game_new = Game.new

    def broken(ctx, args):
        raise TypeError("unhashable type")
    from interpreter import mechanics
    original = mechanics.FUNCTIONS["count"].fn
    mechanics.FUNCTIONS["count"].fn = broken
    try:
        with pytest.raises(InternalError, match=r"count\(\[P1, P2\]\) failed with TypeError"):
            game_new(rules, players=2, seed=1)
    finally:
        mechanics.FUNCTIONS["count"].fn = original


def test_a_function_given_the_wrong_kind_at_run_time_is_the_contents_fault(tmp_path):
    rules = toy_with(tmp_path, 'step = abs(get({a: "x"}, "a", 0))')
    with pytest.raises(RuleError, match="value 1 should be a number, got x"):
        Game.new(rules, players=2, seed=1)


def test_the_cli_reports_an_internal_error_as_such(tmp_path, monkeypatch):
    from click.testing import CliRunner
    rules = toy_with(tmp_path, "shuffle deck")

    def broken(ctx, arg, keywords):
        raise AttributeError("no such thing")
    monkeypatch.setitem(VERBS, "shuffle", Verb(broken, "shuffle zone"))
    result = CliRunner().invoke(cli, ["play", str(tmp_path / "toy"), "--seats", "random", "-q"])
    assert result.exit_code == 3, result.output
    assert "internal error (a bug in Rulebook" in result.output
    assert "AttributeError" in result.output and rules.id == "toy"
