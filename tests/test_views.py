"""Views of Lairs: its agents, lairs and simultaneous rounds stay hidden as the rules say.

That nothing hidden by a declaration leaks into a view is checked for every
ruleset by tests/conformance (a differential test); these are Lairs' own cases.
"""
from __future__ import annotations

import copy
import json

import pytest

from interpreter.agents import RandomBot, play_out
from interpreter.agents.driver import drive, random_mover
from interpreter.cli.table import Screen
from interpreter.engine.game import Game


def advance(game, steps, seed=0):
    """Random answers to the first waiting decision, ``steps`` times (or to the end)."""
    stop = len(game.state["history"]) + steps
    drive(game, random_mover(seed), until=lambda g: len(g.state["history"]) >= stop)


def variant(game, change):
    """A copy of the game whose state differs by ``change(state)``."""
    other = Game.load(game.rules, copy.deepcopy(game.state))
    change(other.state)
    return other


def views(game):
    return [json.dumps(game.view(i), sort_keys=True) for i in range(len(game.state["players"]))]


def test_agents_stay_secret_until_revealed(lairs):
    game = Game.new(lairs, players=3, seed=5)
    advance(game, 3)                                       # everyone has kept an agent
    assert game.state["vars"]["revealed"] is False
    mine = game.view(0)["players"][0]["vars"]
    assert mine["agent"] == game.state["players"][0]["vars"]["agent"]
    theirs = game.view(1)["players"][0]["vars"]
    assert "agent" not in theirs

    def swap(state):
        state["players"][0]["vars"]["agent"] = "thief"
        state["players"][0]["zones"]["hand"] = ["thief", "shadow"]
    changed = variant(game, swap)
    assert views(changed)[1:] == views(game)[1:]
    assert views(changed)[0] != views(game)[0]


def test_simultaneous_answers_are_hidden_until_all_are_in(lairs):
    game = Game.new(lairs, players=3, seed=11)
    drive(game, lambda g, pending: g.apply(pending[0].player, 0),
          until=lambda g: g.state["vars"]["phase"] == "planning" and len(g.pending()) == 3)
    before = game.view(1)
    for _ in range(4):                                     # P1 works through their round
        d = game.decision_for(0)
        if d is None:
            break
        game.apply(0, len(d.options) - 1 if "pass" in d.options[-1] else 0)
    after = game.view(1)
    assert after["players"][0] == before["players"][0]
    assert after["log"] == before["log"]
    assert game.view(0)["players"][0] != before["players"][0] or game.view(0)["log"] != before["log"]


def test_lairs_of_non_neighbours_are_hidden(lairs):
    game = Game.new(lairs, players=6, seed=2)
    advance(game, 40)
    assert game.state["vars"]["phase"] == "planning"
    seen = game.view(0)["players"]
    assert "lair" in seen[0]["grids"]                     # own
    assert "lair" in seen[1]["grids"] and "lair" in seen[5]["grids"]   # neighbours (LR-PLAN-07)
    assert all("lair" not in seen[i]["grids"] for i in (2, 3, 4))

    def redecorate(state):
        state["players"][3]["grids"]["lair"] = {"items": {"1,1": "microfilm"}, "walls": []}
    assert views(variant(game, redecorate))[0] == views(game)[0]


def test_bots_only_get_views(lairs, monkeypatch):
    """A bot is handed its own view: nothing in it names another player's hidden agent."""
    seen = []

    class Spy(RandomBot):
        def choose(self, view, preview):
            seen.append(json.dumps(view))
            return super().choose(view, preview)

    game = Game.new(lairs, players=3, seed=8)
    play_out(game, {0: Spy(1), 1: RandomBot(2), 2: RandomBot(3)})
    others = {p["vars"]["agent"] for p in game.state["players"][1:]}
    early = [v for v in seen if '"revealed": false' in v]
    assert early
    for text in early:
        view = json.loads(text)
        for p in view["players"][1:]:
            assert "agent" not in p["vars"]
    assert others                                          # the test looked at real agents


def test_look_ahead_cannot_see_face_down_order(lairs):
    """The greedy bot's preview runs on a copy whose face-down cards are dealt afresh."""
    from interpreter.engine.determinise import determinise
    game = Game.new(lairs, players=3, seed=7)
    trial = determinise(game, 0, seed=1)
    backs = lairs.entities
    for real, dealt in zip(game.state["zones"]["pile"], trial.state["zones"]["pile"]):
        assert backs[real[0]]["back"] == backs[dealt[0]]["back"]      # the top's back is seen
        assert len(real) == len(dealt) and real != dealt


# Lairs: the whole sheet follows LR-PLAN-07 (rulesets/lairs/components.yaml).
SHEET_COUNTERS = {"coin", "mov", "stl", "cmb", "wealth"}
SHEET_VARS = {"bonus_used", "kit", "closing", "mission_points", "here", "visited", "met",
              "traps_triggered", "traps_hit", "guards_down", "stolen_value", "remaining_value",
              "used", "wall_passes", "free_next"}
PUBLIC_VARS = {"missions_done", "full", "target", "rank"}   # the agent: until revealed


def planning(lairs, players):
    game = Game.new(lairs, players=players, seed=2)
    advance(game, 40)
    assert game.state["vars"]["phase"] == "planning"
    return game


@pytest.mark.parametrize("players", [4, 6, 9])
def test_a_non_neighbour_sees_only_the_public_part_of_a_sheet(lairs, players):
    game = planning(lairs, players)
    far = players // 2                                    # not a neighbour of seat 0
    sheet = game.view(0)["players"][far]
    assert sheet["counters"] == {}
    assert set(sheet["vars"]) == PUBLIC_VARS
    assert sheet["grids"] == {}
    for neighbour in (far - 1, far + 1):                  # LR-PLAN-07
        sheet = game.view(neighbour)["players"][far]
        assert set(sheet["counters"]) == SHEET_COUNTERS
        assert set(sheet["vars"]) == SHEET_VARS | PUBLIC_VARS
        assert "lair" in sheet["grids"]
    assert set(game.view(far)["players"][far]["vars"]) == SHEET_VARS | PUBLIC_VARS | {"agent"}


def test_a_changed_sheet_shows_to_neighbours_only(lairs):
    game = planning(lairs, 6)
    snapshot = game.state["flow"].get("snapshot")
    assert snapshot is not None                           # others are shown as the round began

    def rewrite(state):
        copies = [state["players"][3]] + [state["flow"]["snapshot"]["players"][3]]
        for data in copies:
            data["counters"]["coin"] += 7
            data["counters"]["stl"] += 2
            data["vars"]["kit"] = ["laser_drill"]
            data["vars"]["bonus_used"] += 1
            data["vars"]["mission_points"] += 30
    before, after = views(game), views(variant(game, rewrite))
    assert [a == b for a, b in zip(after, before)] == [True, True, False, False, False, True]


def test_public_sheet_entries_show_to_everyone(lairs):
    game = planning(lairs, 6)

    def complete(state):
        for data in (state["players"][3], state["flow"]["snapshot"]["players"][3]):
            data["vars"]["missions_done"] = [state["zones"]["mission_row"][0]]
    assert all(a != b for a, b in zip(views(variant(game, complete)), views(game)))


def test_every_sheet_is_seen_when_the_game_is_over(lairs):
    game = Game.new(lairs, players=6, seed=4)
    play_out(game, {i: RandomBot(i) for i in range(6)})
    sheet = game.view(0)["players"][3]
    assert set(sheet["counters"]) == SHEET_COUNTERS and "lair" in sheet["grids"]


def test_the_human_seat_draws_a_hidden_sheet(lairs):
    game = planning(lairs, 6)
    seat = game.pending()[0].player
    far = (seat + 3) % 6
    lines = [text.plain for text in Screen(game, seat, [], 80).rivals()]
    line = next(text for text in lines if f"P{far + 1} " in text or f"P{far + 1}, " in text)
    assert "Coins" not in line and "Bonus" not in line and "Agent cards" not in line
    near = next(text for text in lines if text.startswith(f"P{(seat + 1) % 6 + 1} "))
    assert "Coins " in near


def test_a_repeated_rule_is_one_tree(lairs):
    # The sheet rule is written once (a YAML alias) and evaluated once per viewer and owner.
    shared = lairs.visibility["counters:coin"]
    assert all(lairs.visibility[f"counters:{c}"] is shared for c in SHEET_COUNTERS)
    assert lairs.visibility["grids:lair"] is shared
    assert lairs.visibility["player_vars:agent"] is not shared
