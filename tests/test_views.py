"""Views leak nothing: what a player sees does not change when only things
hidden from them change, and simultaneous answers stay hidden until all are in."""
from __future__ import annotations

import copy
import json
import random

from interpreter.agents import RandomBot
from interpreter.engine.game import Game


def advance(game, steps, seed=0):
    rnd = random.Random(seed)
    for _ in range(steps):
        if game.over:
            break
        d = game.pending()[0]
        game.apply(d.player, rnd.randrange(len(d.options)))


def variant(game, change):
    """A copy of the game whose state differs by ``change(state)``."""
    other = Game.load(game.rules, copy.deepcopy(game.state))
    change(other.state)
    return other


def views(game):
    return [json.dumps(game.view(i), sort_keys=True) for i in range(len(game.state["players"]))]


def test_face_down_cards_are_not_seen(lairs):
    game = Game.new(lairs, players=4, seed=3)
    advance(game, 30)

    def reorder(state):
        for pile in state["zones"]["pile"]:
            pile[1:] = list(reversed(pile[1:]))            # below the top card, backs unseen
        state["zones"]["agent_deck"].reverse()
        state["zones"]["mission_deck"].reverse()
    assert views(variant(game, reorder)) == views(game)


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
    while game.state["vars"]["phase"] != "planning" or len(game.pending()) < 3:
        d = game.pending()[0]
        game.apply(d.player, 0)
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

    from interpreter.agents import play_out
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
