"""The program protocol on the fixture tests/rulesets/hooks: hook points, counter
hooks, modifiers, a scripted seat and a key-list score (issue 5, items 1, 3, 4).

Set-up of the fixture: P1 holds Horn and Drum, P2 Bell and Crown (Crown is
active only at 10 gold). Every seat gains 4 pool (which converts at 3 into a
level, the moment it is gained) and reads its level; then each person scores
2 and raises "scored"; at the end every seat gains its "bonus" modifier.
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from interpreter.content.ruleset import load_ruleset
from interpreter.diagnostics import ContentError
from interpreter.engine.game import Game
from interpreter.model.values import Player, RuleError

HOOKS = Path(__file__).parent / "rulesets" / "hooks"


@pytest.fixture(scope="module")
def rules():
    return load_ruleset(str(HOOKS))


def play(rules, answers, players=2):
    """A game answered with option labels, in order."""
    game = Game.new(rules, players=players, seed=1)
    for label in answers:
        game.apply(game.pending()[0].player, label)
    return game


def test_an_owner_with_several_listeners_chooses_their_order(rules):
    game = Game.new(rules, players=2, seed=1)
    [decision] = game.pending()
    assert decision.player == 0 and decision.prompt == "which first, on scored"
    assert decision.options == ("Drum", "Horn")
    game.apply(0, "Horn")
    # then the next seat's listener; P2's "scored" then runs Bell and waits on P1's order again
    assert game.evaluate("heard") == ["horn", "drum", "bell", "bell"]


def test_seats_take_their_turn_from_the_one_who_raised_the_point(rules):
    game = play(rules, ["Drum", "Horn"])
    # P1 scored: P1's two (Drum chosen first), then Bell; P2 scored: Bell first, then P1's two
    assert game.evaluate("heard") == ["drum", "horn", "bell", "bell", "horn", "drum"]
    assert game.over


def test_a_point_heard_by_self_reaches_only_the_raisers_sources(tmp_path):
    folder = tmp_path / "hooks"
    shutil.copytree(HOOKS, folder)
    flow = folder / "flow.yaml"
    flow.write_text(flow.read_text().replace("names: [who, amount]", "names: [who, amount]\n    heard_by: self"))
    game = play(load_ruleset(str(folder)), ["Drum"])
    # P1 scored: only P1's two; P2 scored: only Bell, so P1 is not asked a second order
    assert game.evaluate("heard") == ["drum", "horn", "bell"]


def test_listeners_are_fixed_when_the_point_is_raised(rules):
    game = Game.new(rules, players=2, seed=1)
    game.execute("move crown from players[2].kept to players[1].kept; set players[1].gold to 10")
    # Crown became P1's and active after "scored" was raised: it does not hear this one
    game.apply(0, "Horn")
    assert "crown" not in game.evaluate("heard")


def test_a_counter_hook_fires_in_the_middle_of_an_effect(rules):
    game = Game.new(rules, players=2, seed=1)
    # "gain 4 pool; self.seen = self.level": the conversion ran between the two
    assert game.evaluate("[players[1].seen, players[1].level, players[1].pool]") == [1, 1, 1]
    assert game.evaluate("players[2].seen") == 1


def test_modifiers_sum_the_active_sources(rules):
    game = Game.new(rules, players=2, seed=1)
    assert game.evaluate('modifier(players[1], "bonus")') == 2          # Horn; Drum adds none
    assert game.evaluate('modifier(players[2], "bonus")') == 0          # Bell: 0 while no gold
    game.execute("set players[2].gold to 1")
    assert game.evaluate('modifier(players[2], "bonus")') == 1          # re-read each time
    game.execute("set players[2].gold to 10")
    assert game.evaluate('modifier(players[2], "bonus")') == 101        # Crown is active now
    with pytest.raises(RuleError, match="not a declared modifier"):
        game.evaluate('modifier(players[1], "bonsu")')


def test_a_save_in_the_middle_of_a_chain_of_hooks_resumes_it(rules):
    straight = play(rules, ["Horn", "Drum"])
    game = Game.new(rules, players=2, seed=1)
    assert any("chain" in f for f in game.state["flow"]["main"]["frames"])   # half-run, as data
    resumed = Game.from_json(rules, game.to_json())
    for label in ["Horn", "Drum"]:
        resumed.apply(resumed.pending()[0].player, label)
    assert resumed.to_json() == straight.to_json()


def test_a_scripted_seat_scores_and_ranks_but_never_decides(rules):
    game = play(rules, ["Horn", "Drum"])
    assert game.people == 2 and len(game.result["scores"]) == 3
    assert game.seat_name(2) == "The Bank"
    assert game.evaluate("bank") == Player(2)
    assert game.evaluate("count(players)") == 2 and game.evaluate("count(seats)") == 3
    assert game.evaluate("bank.scripted") is True
    assert game.result["ranks"][2] == 3
    assert all(d.player < 2 for d in game.pending())
    with pytest.raises(RuleError, match="scripted seat"):
        game.execute("as bank:\n  choose one: gain 1 points | gain 2 points\n")


def test_a_scripted_seat_sits_only_where_declared(rules):
    game = Game.new(rules, players=3, seed=1)
    assert game.evaluate("bank") is None and len(game.state["players"]) == 3


def test_a_key_list_score_compares_element_by_element_and_ties_share(rules):
    game = play(rules, ["Horn", "Drum"])
    game.execute("set players[1].points to 5; set players[1].gold to 1; set players[2].points to 4; "
                 "set players[2].gold to 9")
    game.finish()
    assert game.result["scores"][:2] == [[5, 1], [4, 9]] and game.result["ranks"][:2] == [1, 2]
    game.execute("set players[2].points to 5; set players[2].gold to 1")
    game.finish()
    assert game.result["ranks"] == [1, 1, 3] and game.result["winners"] == [0, 1]


# ---------------------------------------------------------------- checked at load

def broken(tmp_path, file, old, new):
    folder = tmp_path / "hooks"
    shutil.copytree(HOOKS, folder)
    path = folder / file
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    with pytest.raises(ContentError) as err:
        load_ruleset(str(folder))
    return err.value.diagnostics, path.read_text().splitlines()


@pytest.mark.parametrize("file, old, new, code, word", [
    ("flow.yaml", 'signal "scored"', 'signal "scroed"', "dsl-unknown-hook", '"scroed"'),
    ("flow.yaml", "{who: self, amount: 2}", "{who: self}", "dsl-hook", "{who: self}"),
    ("data/relics.yaml", "on: {scored:", "on: {score:", "unknown-hook", "score"),
    ("data/relics.yaml", "mods: {bonus: 2}", "mods: {bnous: 2}", "unknown-modifier", "bnous"),
    ("components.yaml", "on_gain: convert", "on_gain: convret", "unknown-name", "convret"),
    ("flow.yaml", "sources: in_play", "sources: in_ply", "unknown-name", "in_ply"),
])
def test_hook_mistakes_are_found_at_load(tmp_path, file, old, new, code, word):
    diagnostics, lines = broken(tmp_path, file, old, new)
    [diag] = diagnostics
    assert diag.code == code
    assert lines[diag.line - 1][diag.col - 1:].startswith(word)


# ---------------------------------------------------------------- tracks

def test_advance_runs_every_space_entered_or_passed_depth_first(rules):
    game = Game.new(rules, players=2, seed=1)
    game.execute("gain 0 points", player=0)
    before = game.evaluate("[self.gold, self.points]", 0)
    game.execute("advance self.fame by 3", player=0)
    # f1 (+1 gold), f2 (nothing), f3 (advance by 1: f4, +10 points), in that order
    assert game.evaluate("self.fame.position", 0) == 4
    assert game.evaluate("[self.gold, self.points]", 0) == [before[0] + 1, before[1] + 10]
    assert game.evaluate("self.fame.space", 0) == "f4"
    assert game.evaluate('reading(self.fame, "income")', 0) == 2      # f4 has none: f3's


def test_steps_past_the_end_follow_the_declared_policy(rules):
    game = Game.new(rules, players=2, seed=1)
    points = game.evaluate("self.points", 1)
    game.execute("advance players[2].fame by 8", player=1)          # 5 spaces, 3 steps too many
    # the marker moves first, then the spaces run: f3's "advance by 1" finds it at the end
    # already, so that step overflows too: f4's 10, then 3 + 1 steps past the end
    assert game.evaluate("[self.fame.position, self.points]", 1) == [5, points + 10 + 3 + 1]
    game.execute("advance self.fame by -2", player=1)                # back: nothing runs
    assert game.evaluate("[self.fame.position, self.points]", 1) == [3, points + 14]
    assert game.view(0)["players"][1]["tracks"] == {"fame": 3}


def test_a_track_declaration_is_checked(tmp_path):
    diagnostics, lines = broken(tmp_path, "components.yaml", "spaces: fame_spaces", "spaces: fame_spcaes")
    [diag] = diagnostics
    assert diag.code == "unknown-name" and "did you mean 'fame_spaces'" in diag.hint
    assert lines[diag.line - 1][diag.col - 1:].startswith("fame_spcaes")


# ---------------------------------------------------------------- graphs

def test_graph_functions(rules):
    game = Game.new(rules, players=2, seed=1)
    assert game.evaluate("linked(borders, middle)") == ["north", "south"]
    assert game.evaluate("degree(borders, island)") == 0
    assert game.evaluate("components(borders, lands)") == [["north", "middle", "south"], ["island"]]
    assert game.evaluate("components(borders, [south, north, island])") == [["north"], ["south"],
                                                                            ["island"]]
    assert game.evaluate("reach(borders, north, [north, middle, island])") == ["north", "middle"]
    with pytest.raises(RuleError, match="not a node"):
        game.evaluate('linked(borders, "atlantis")')


def test_a_one_sided_edge_is_refused_at_its_place(tmp_path):
    diagnostics, lines = broken(tmp_path, "data/board.yaml", "{id: south, borders: [middle]}",
                                "{id: south, borders: [middle, island]}")
    [diag] = diagnostics
    assert diag.code == "graph-edge" and "does not list 'south'" in diag.message
    assert lines[diag.line - 1][diag.col - 1:].startswith("island")


def test_a_self_loop_is_refused(tmp_path):
    diagnostics, lines = broken(tmp_path, "data/board.yaml", "{id: island, borders: []}",
                                "{id: island, borders: [island]}")
    [diag] = diagnostics
    assert diag.code == "graph-edge" and "to itself" in diag.message


def test_a_hidden_counter_changes_in_the_owners_log_only(rules):
    game = play(rules, ["Horn", "Drum"])              # gold is behind a screen (visible_to owner)
    mine = game.view(0)["log"]
    theirs = game.view(1)["log"]
    assert "P1 gains 2 gold" in mine and "P1 gains 2 gold" not in theirs
    assert "P1 gains 2 points" in mine and "P1 gains 2 points" in theirs   # points are public
