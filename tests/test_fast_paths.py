"""Speed rewrites that must mean exactly what the slower code they replaced meant."""
from __future__ import annotations

import random
from pathlib import Path

import networkx as nx

from interpreter.content.ruleset import load_ruleset
from interpreter.engine.evaluate import Ctx
from interpreter.engine.game import Game
from interpreter.mechanics import grids
from interpreter.model.values import Room

RULESETS = Path(__file__).resolve().parent / "rulesets"


def _networkx_reachable(rows, cols, walls, start):
    """What ``reachable`` gave when it built a networkx graph per call."""
    g = nx.grid_2d_graph(rows, cols)
    g = nx.relabel_nodes(g, {(r, c): (r + 1, c + 1) for r, c in g.nodes})
    for key in walls:
        r, c, side = key.split(",")
        dr, dc = grids._STEP[side]
        a, b = (int(r), int(c)), (int(r) + dr, int(c) + dc)
        if g.has_edge(a, b):
            g.remove_edge(a, b)
    return sorted(nx.node_connected_component(g, start))


def test_reachable_walks_the_grid_as_the_graph_did():
    game = Game.new(load_ruleset("lairs"), players=2, seed=0)
    data = game.state["players"][0]["grids"]["lair"]
    spec = game.rules.grids["lair"]
    rnd = random.Random(3)
    edges = [grids.edge_key(r, c, s) for r in range(0, spec["rows"] + 1) for c in range(0, spec["cols"] + 1)
             for s in "es"]
    ctx = Ctx(game, {"self": None})
    for trial in range(40):
        data["walls"] = rnd.sample(edges, rnd.randrange(0, len(edges) // 2))
        start = (rnd.randrange(1, spec["rows"] + 1), rnd.randrange(1, spec["cols"] + 1))
        found = grids.reachable(ctx, [Room("lair", 0, *start)])
        assert [(room.r, room.c) for room in found] == _networkx_reachable(
            spec["rows"], spec["cols"], data["walls"], start)
        assert all(room == Room("lair", 0, room.r, room.c) for room in found)


# ---------------------------------------------------------------- apply's checkpoint of one sheet

def _toy_failing_in_threads(tmp_path):
    """The toy, with a line in each player's thread and, after the threads join, a change to
    every sheet followed by a line: ``log`` is made to fail on one of those texts."""
    import shutil
    from support import edit
    folder = tmp_path / "toy"
    shutil.copytree(RULESETS / "toy", folder)
    edit(folder / "flow.yaml", "      self.secret = c\n",
         '      self.secret = c\n      log "inside"\n  for each p in players:\n    p.points = 5\n'
         '  log "after"\n')
    return load_ruleset(str(folder))


def _failing_log(monkeypatch, text):
    from interpreter.mechanics import VERBS, Verb
    original = VERBS["log"]

    def log(ctx, arg, keywords):
        if arg == text:
            raise KeyError("oops")
        return original.run(ctx, arg, keywords)
    monkeypatch.setitem(VERBS, "log", Verb(log, original.signature.text))


def test_a_failure_in_a_players_thread_changes_nothing(tmp_path, monkeypatch):
    from interpreter.model.values import InternalError
    game = Game.new(_toy_failing_in_threads(tmp_path), players=3, seed=2)
    _failing_log(monkeypatch, "inside")
    before = game.to_json()
    import pytest
    with pytest.raises(InternalError):
        game.apply(game.pending()[0].player, 0)
    assert game.to_json() == before


def test_a_failure_after_the_threads_join_changes_no_sheet(tmp_path, monkeypatch):
    from interpreter.model.values import InternalError
    game = Game.new(_toy_failing_in_threads(tmp_path), players=3, seed=2)
    _failing_log(monkeypatch, "after")
    for d in game.pending()[:-1]:
        game.apply(d.player, 0)
    before = game.to_json()
    import pytest
    with pytest.raises(InternalError):                  # the last answer joins, then the main thread fails
        game.apply(game.pending()[0].player, 0)
    assert game.to_json() == before
    assert all(p["vars"].get("points") != 5 and p["counters"].get("points") != 5
               for p in game.state["players"])
