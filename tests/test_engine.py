"""The engine on a tiny toy game (tests/rulesets/toy): plain-data state,
atomic statements, scoping, the memo, caps and logs."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from interpreter.agents.driver import drive
from interpreter.content.ruleset import load_ruleset
from interpreter.engine.game import Game
from interpreter.model.values import RuleError, decode

TOY = str(Path(__file__).parent / "rulesets" / "toy")


@pytest.fixture(scope="module")
def toy():
    return load_ruleset(TOY)


def answer_all(game, index=0):
    drive(game, lambda g, pending: g.apply(pending[0].player, index))


def test_toy_plays_and_scores(toy):
    game = Game.new(toy, players=3, seed=4)
    answer_all(game)
    hands = [p["zones"]["hand"] for p in game.state["players"]]
    assert all(len(h) == 1 for h in hands)
    assert len(game.state["zones"]["discard"]) == 3
    values = {f"c{i}": i for i in range(1, 7)}
    assert game.result["scores"] == [values[h[0]] for h in hands]


def test_a_zone_passed_to_a_procedure_is_not_copied_by_save_and_load(toy):
    live = Game.new(toy, players=2, seed=1)
    drive(live, lambda g, pending: g.apply(pending[0].player, 0),
          until=lambda g: any(d.prompt == "choose c" and "discard" in d.options[0] for d in g.pending()))
    saved = Game.from_json(toy, live.to_json())
    answer_all(live)
    answer_all(saved)
    assert saved.to_json() == live.to_json()
    cards = live.state["zones"]["discard"] + [c for p in live.state["players"]
                                              for c in p["zones"]["hand"]]
    assert len(cards) == len(set(cards)) == 4           # each dealt card in exactly one place


def test_content_tables_cannot_be_changed_by_verbs(toy):
    game = Game.new(toy, players=2, seed=1)
    with pytest.raises(RuleError, match="needs a zone, but cards is a list of cards"):
        game.execute("shuffle cards")                   # the checker knows, before running
    with pytest.raises(RuleError, match="must be a zone"):
        game.execute("self.secret = cards\nshuffle self.secret", player=0)  # ...or the verb does
    assert toy.tables["cards"] == ["c1", "c2", "c3", "c4", "c5", "c6"]


def test_memo_tells_true_from_one(toy):
    game = Game.new(toy, players=2, seed=1)
    assert game.evaluate("double(1)") == 2
    with pytest.raises(RuleError, match="needs numbers"):
        game.evaluate("double(true)")


def test_break_inside_as_gives_self_back(toy):
    game = Game.new(toy, players=2, seed=1)
    game.execute("while true:\n  as players[2]:\n    break\nself.picked = [1]", player=0)
    assert game.state["players"][0]["vars"]["picked"] == [1]
    assert game.state["players"][1]["vars"]["picked"] == []


def test_a_refused_statement_changes_nothing(toy):
    game = Game.new(toy, players=2, seed=1)
    before = game.to_json()
    with pytest.raises(RuleError, match="cannot spend"):
        game.execute("spend 2 coin, 5 mov", player=0)
    with pytest.raises(RuleError, match="no zone"):
        game.execute('arrange discard to [c1, "nothing"]')
    assert game.to_json() == before


def test_earning_cap_counts_only_what_was_gained(toy):
    game = Game.new(toy, players=2, seed=1)
    game.execute("gain 9 coin", player=0)               # 3 -> 10: the ceiling keeps 7
    p = game.state["players"][0]
    assert p["counters"]["coin"] == 10 and p["earned"]["coin"] == 7
    game.execute("spend 5 coin", player=0)
    game.execute("gain 5 coin", player=0)               # cap 8: only 1 more may be earned
    assert p["counters"]["coin"] == 6 and p["earned"]["coin"] == 8


def test_record_key_order_survives_a_json_round_trip(toy):
    game = Game.new(toy, players=2, seed=1)
    game.execute('self.picked = [{"b": 1, "a": 2}]', player=0)
    again = Game.from_json(toy, game.to_json())
    assert again.evaluate("keys(first(players[1].picked))") == ["b", "a"]
    assert game.evaluate("keys(first(players[1].picked))") == ["b", "a"]


def test_simultaneous_choices_are_logged_privately(toy):
    game = Game.new(toy, players=2, seed=1)
    first = game.pending()[0]
    game.apply(first.player, 0)
    other = 1 - first.player
    mine = [line for line in game.view(first.player)["log"] if "chose" in line]
    theirs = [line for line in game.view(other)["log"] if "chose" in line]
    assert mine and not theirs


def test_builtin_misuse_is_a_rule_error_not_a_crash(toy):
    game = Game.new(toy, players=2, seed=1)
    for text in ('sum(["a", 1])', "abs(none)", "range(1)", 'headroom(1, "coin")', "max(1, none)"):
        with pytest.raises(RuleError):
            game.evaluate(text)


def test_state_is_json(toy):
    game = Game.new(toy, players=2, seed=1)
    assert json.loads(game.to_json(), object_hook=decode) == game.state
    plain = game.to_data()                      # engine values as tagged records: pure JSON
    assert json.loads(json.dumps(plain)) == plain
    assert {"$": "player", "seat": 1} in plain["flow"]["main"]["envs"][0].values()


def test_effects_inside_lists_and_maps_are_checked(tmp_path):
    import shutil
    from interpreter.diagnostics import ContentError
    folder = tmp_path / "toy"
    shutil.copytree(TOY, folder)
    comp = folder / "components.yaml"
    comp.write_text(comp.read_text().replace(
        "      value: {type: int}",
        "      value: {type: int}\n      rules: {list: {type: condition}, optional: true}\n"
        "      moves: {map: {type: effect}, optional: true}"))
    cards = folder / "data" / "cards.yaml"
    cards.write_text(cards.read_text().replace(
        "  - {id: c1, value: 1}",
        "  - {id: c1, value: 1, rules: ['self.coin > 2', 'self.coni > 1'],"
        " moves: {up: 'gain 1 coin', down: 'spend 1 coni'}}"))
    with pytest.raises(ContentError) as caught:
        load_ruleset(str(folder))
    found = [(d.code, d.line, d.col) for d in caught.value.diagnostics]
    assert found == [("dsl-unknown-attribute", 2, 55), ("dsl-unknown-counter", 2, 109)]


def test_set_reaches_any_players_field(toy):
    game = Game.new(toy, players=3, seed=1)
    game.execute("set players[3].mov to 4\nset step to 2")
    assert game.state["players"][2]["counters"]["mov"] == 4
    assert game.state["vars"]["step"] == 2
    with pytest.raises(RuleError, match="needs a player's field"):
        game.execute("set players to 1")
