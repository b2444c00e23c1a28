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


# ---------------------------------------------------------------- saved states and logs

def _mid_game(rules, players=2, steps=3):
    game = Game.new(rules, players=players, seed=2)
    for _ in range(steps):
        d = game.pending()[0]
        game.apply(d.player, 0)
    return game


def _tampered(game, change) -> str:
    data = json.loads(game.to_json())
    change(data)
    return json.dumps(data)


def _frame(data):
    return data["flow"]["main"]["frames"][-1]


@pytest.mark.parametrize("change, words", [
    (lambda d: _frame(d).update(n=10**6), r"\$\.flow\.main\.frames\[\d+\]\.n: node 1000000 does not exist"),
    (lambda d: d["players"][0]["counters"].update(coin="lots"), r"\$\.players\[0\]\.counters\.coin: 'lots' is not of type 'integer'"),
    (lambda d: d["players"][1]["vars"].update(secret={"$": "dragon"}), r"\$\.players\[1\]\.vars\.secret"),
    (lambda d: d.pop("rng"), r"at \$: 'rng' is a required property"),
    (lambda d: d["history"].append([99, 0]), r"\$\.history\[\d+\]\[0\]: seat 99 is not a person's seat"),
    (lambda d: d["history"].append(["0", 0]), r"\$\.history\[\d+\]\[0\]: '0' is not of type 'integer'"),
    (lambda d: d["players"][0]["counters"].update(coin=3.0), r"\$\.players\[0\]\.counters\.coin: 3\.0 is not of type 'integer'"),
    (lambda d: d["history"].append([0, 1.0]), r"\$\.history\[\d+\]\[1\]: 1\.0 is not of type 'integer'"),
    (lambda d: d["players"][0]["counters"].pop("mov"), r"\$\.players\[0\]\.counters: missing mov"),
    (lambda d: d["players"][0]["counters"].update(gold=1), r"declares no gold"),
    (lambda d: d["players"].pop(), r"\$\.players: 1 seats, but the state has 2"),
    (lambda d: d["flow"]["main"]["envs"][0].update(self={"$": "player", "seat": 7}), r"seat 7 is not in this game"),
    (lambda d: d.update(game="chess"), r"a game of 'chess', not 'toy'"),
    (lambda d: d.update(format=1), r"format 1; this version reads 2"),
])
def test_a_tampered_save_is_refused_with_where_and_what(halfway, change, words):
    game = _mid_game(halfway)
    with pytest.raises(ValueError, match=words):
        Game.from_json(halfway, _tampered(game, change))


def test_a_foreign_text_is_refused(halfway):
    for text in ("[1, 2]", "not json", '{"format": 2}'):
        with pytest.raises(ValueError):
            Game.from_json(halfway, text)


@pytest.mark.parametrize("where, steps", [("toy", 1), ("hooks", 1), ("lairs", 4)])
def test_a_good_save_loads_and_goes_on_the_same(where, steps, halfway):
    rules = {"toy": halfway, "hooks": load_ruleset(str(HOOKS)), "lairs": load_ruleset("lairs")}[where]
    game = _mid_game(rules, players=2, steps=steps)
    assert not game.over
    loaded = Game.from_json(rules, game.to_json())
    assert loaded.to_json() == game.to_json()
    d = game.pending()[0]
    game.apply(d.player, 0)
    loaded.apply(d.player, 0)
    assert loaded.to_json() == game.to_json()


def test_replay_refuses_a_tampered_log_with_the_reason(tmp_path):
    from click.testing import CliRunner
    runner = CliRunner()
    path = tmp_path / "game.json"
    assert runner.invoke(cli, ["play", "lairs", "-p", "2", "--seed", "3", "--log", str(path), "-q"]).exit_code == 0
    log = json.loads(path.read_text(encoding="utf-8"))
    log["actions"][2] = [0, "first"]
    path.write_text(json.dumps(log), encoding="utf-8")
    result = runner.invoke(cli, ["replay", str(path)])
    assert result.exit_code == 1
    assert "$.actions[2][1]: 'first' is not of type 'integer'" in result.output
